// p2l._p2l: the Python extension over p2lrt's C API (include/p2l/p2l.h).
//
// A Rig owns one P2lRig handle (and shares the file's P2lModel with the rigs spawned from it);
// the handle owns everything the C API hands out, so the arrays returned here are NumPy views of
// the handle's memory whose base is the Python Rig: a view keeps its rig alive, and the rig's
// memory stays where it is for the rig's lifetime (the C API never moves a rig's vertex, value,
// UV or index arrays; an evaluation rewrites vertices and current values in place).
//
// A Cubism model3.json is imported through the C API too (include/p2l/p2l_cubism.h), so both
// kinds of rig are the same C handle with the same rules.
//
// Every call on a rig holds the GIL: a rig is then never used by two threads at once, as the C
// API requires. Loading and importing release it (no rig exists yet).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "p2l/p2l_cubism.h"
#include "p2l/p2l_speech.h"
#include "p2l/audio.hpp"
#include "p2l/format.hpp"
#include "p2l/p2l.h"
#include "p2l/render.hpp"
#ifdef P2L_PYTHON_GL
#include "p2l/p2l_gl.h"
#endif

namespace py = pybind11;
namespace fs = std::filesystem;

namespace {

// p2l.LoadError (a ValueError): a file or model that does not load; p2l.RigError (a
// RuntimeError): a rig that failed inside the runtime (p2l_rig_failure).
PyObject* load_error = nullptr;
PyObject* rig_error = nullptr;

[[noreturn]] void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

// The model a file was read into, shared by every rig made from it.
struct ModelHandle {
  P2lModel* model = nullptr;
  ModelHandle() = default;
  ModelHandle(const ModelHandle&) = delete;
  ModelHandle& operator=(const ModelHandle&) = delete;
  ~ModelHandle() { p2l_model_free(model); }
};

std::shared_ptr<ModelHandle> load_model(const std::uint8_t* bytes, std::size_t len, std::uint32_t flags) {
  auto handle = std::make_shared<ModelHandle>();
  char error[2048] = {};
  {
    py::gil_scoped_release unlocked;
    handle->model = p2l_model_load(bytes, len, flags, error, sizeof error);
  }
  if (handle->model == nullptr) raise(load_error, error[0] != '\0' ? error : "the file could not be read");
  return handle;
}

// The canvas-to-image transform of `p2lrt render` (p2l_framing): the whole canvas, or with
// [drawn] the bounds of what the rig draws with a 4% margin, scaled to fit and centred.
std::array<float, 6> framing(const P2lRig* rig, std::uint32_t width, std::uint32_t height, bool drawn) {
  std::array<float, 6> t{1, 0, 0, 1, 0, 0};
  p2l_framing(rig, width, height, drawn ? P2L_FRAME_DRAWN : 0u, 0.04f, t.data());
  return t;
}

// A read-only or writable NumPy view of [data] whose base is [owner].
template <class T>
py::array view(const T* data, std::vector<py::ssize_t> shape, py::handle owner, bool writable) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = sizeof(T);
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  py::ssize_t total = 1;
  for (py::ssize_t s : shape) total *= s;
  // A zero-length view still gets a base, and NumPy a pointer it will not read.
  static const T kNothing{};
  if (data == nullptr || total == 0) data = &kNothing;
  py::array_t<T> out(std::move(shape), std::move(strides), data, owner);
  if (!writable) py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

// The bytes of a C-contiguous buffer (bytes, bytearray, memoryview, a NumPy array); BufferError
// for one that is not contiguous.
class Bytes {
 public:
  explicit Bytes(const py::handle& object) {
    if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) throw py::error_already_set();
  }
  Bytes(const Bytes&) = delete;
  Bytes& operator=(const Bytes&) = delete;
  ~Bytes() { PyBuffer_Release(&view_); }
  const std::uint8_t* data() const { return static_cast<const std::uint8_t*>(view_.buf); }
  std::size_t size() const { return static_cast<std::size_t>(view_.len); }

 private:
  Py_buffer view_{};
};

std::string str_or_empty(const char* s) { return s != nullptr ? std::string(s) : std::string(); }

class Rig {
 public:
  Rig(std::shared_ptr<ModelHandle> model, std::vector<std::string> report, std::string source)
      : model_(std::move(model)), report_(std::move(report)), source_(std::move(source)) {
    char error[1024] = {};
    rig_ = p2l_rig_create(model_->model, error, sizeof error);
    if (rig_ == nullptr) raise(load_error, error[0] != '\0' ? error : "the rig could not be set up");
  }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;
  ~Rig() {
#ifdef P2L_PYTHON_GL
    // No GL context may be current now: the renderer forgets its objects without deleting them
    // (release_gl() deletes them, with the context current).
    if (gl_ != nullptr) {
      p2l_gl_context_lost(gl_);
      p2l_gl_destroy(gl_);
    }
#endif
    p2l_rig_free(rig_);
  }
#ifdef P2L_PYTHON_GL
  // The GPU renderer of draw_gl, made in the context current at its first call.
  P2lGl* gl_ = nullptr;
#endif

  // The handle of a working rig; RigError for a failed one.
  P2lRig* h() const {
    if (const char* failure = p2l_rig_failure(rig_)) raise(rig_error, std::string("the rig failed: ") + failure);
    return rig_;
  }
  // After a call that may fail inside the runtime.
  void check() const { (void)h(); }
  // Why the rig failed, or null while it works.
  const char* failure() const { return p2l_rig_failure(rig_); }

  const std::shared_ptr<ModelHandle>& model() const { return model_; }
  const std::vector<std::string>& report() const { return report_; }
  const std::string& source() const { return source_; }

  // --- lookups: an id (str) or an index (int) ---

  template <class Count, class Id>
  std::uint32_t find(const py::handle& key, const char* what, Count count, Id id) const {
    const std::uint32_t n = count(h());
    if (py::isinstance<py::str>(key)) {
      const std::string wanted = key.cast<std::string>();
      for (std::uint32_t i = 0; i < n; ++i)
        if (str_or_empty(id(rig_, i)) == wanted) return i;
      std::string message = std::string("no ") + what + " \"" + wanted + "\"";
      if (n == 0) {
        message += " (the rig has none)";
      } else {
        message += "; the rig has:";
        for (std::uint32_t i = 0; i < n && i < 64; ++i) message += (i ? ", " : " ") + str_or_empty(id(rig_, i));
        if (n > 64) message += ", ...";
      }
      raise(PyExc_KeyError, message);
    }
    // An int, or anything with __index__ (NumPy integers, as render_order() gives them).
    if (!py::isinstance<py::bool_>(key) && PyIndex_Check(key.ptr())) {
      const Py_ssize_t i = PyNumber_AsSsize_t(key.ptr(), PyExc_IndexError);
      if (i == -1 && PyErr_Occurred()) throw py::error_already_set();
      if (i < 0 || i >= n)
        raise(PyExc_IndexError, std::string(what) + " index " + std::to_string(i) + " out of range (the rig has " +
                                    std::to_string(n) + ")");
      return static_cast<std::uint32_t>(i);
    }
    raise(PyExc_TypeError, std::string(what) + ": expected an id (str) or an index (int)");
  }
  std::uint32_t parameter(const py::handle& key) const {
    return find(key, "parameter", p2l_parameter_count, p2l_parameter_id);
  }
  std::uint32_t clip(const py::handle& key) const { return find(key, "clip", p2l_clip_count, p2l_clip_id); }
  std::uint32_t expression(const py::handle& key) const {
    return find(key, "expression", p2l_expression_count, p2l_expression_id);
  }
  std::uint32_t mesh(const py::handle& key) const { return find(key, "mesh", p2l_mesh_count, p2l_mesh_id); }
  std::uint32_t part(const py::handle& key) const { return find(key, "part", p2l_part_count, p2l_part_id); }

  template <class Count, class Id>
  std::vector<std::string> ids(Count count, Id id) const {
    const std::uint32_t n = count(h());
    std::vector<std::string> out;
    out.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(str_or_empty(id(rig_, i)));
    return out;
  }

 private:
  std::shared_ptr<ModelHandle> model_;
  P2lRig* rig_ = nullptr;
  std::vector<std::string> report_;  // what an import could not carry over
  std::string source_;               // the file's folder, for textures stored next to it
};

py::object self_of(Rig& rig) { return py::cast(&rig, py::return_value_policy::reference); }

// Texture pages stored as files next to the rig (TextureKind::External): decoded and handed
// to the renderer, as `p2lrt render` does. A page that cannot be read draws transparent, with
// a warning.
void load_external_textures(Rig& rig) {
  P2lRig* r = rig.h();
  const std::uint32_t pages = p2l_texture_count(r);
  for (std::uint32_t page = 0; page < pages; ++page) {
    std::int32_t kind = -1;
    const char* uri = p2l_texture_info(r, page, &kind, nullptr, nullptr, nullptr, nullptr);
    if (kind != 2 || uri == nullptr) continue;
    std::string problem;
    if (rig.source().empty()) {
      problem = "stored as the file \"" + std::string(uri) + "\" next to the rig, and the rig was loaded from bytes "
                "(give base_dir, or Rig.set_texture)";
    } else {
      const fs::path file = fs::path(rig.source()) / uri;
      std::ifstream in(file, std::ios::binary);
      std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
      p2l::Image image;
      std::string error;
      if (!in && bytes.empty())
        problem = "the file " + file.string() + ", which cannot be opened";
      else if (!p2l::decode_png(bytes, image, error))
        problem = "the file " + file.string() + ": " + error;
      else if (!p2l_render_texture(r, page, image.rgba.data(), image.width, image.height))
        problem = "the file " + file.string() + ", which the renderer refused";
    }
    if (!problem.empty()) {
      const std::string message = "p2l: texture page " + std::to_string(page) + " is " + problem + ": its meshes draw transparent";
      if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 2) != 0) throw py::error_already_set();
    }
  }
}

std::unique_ptr<Rig> load_bytes(const py::object& data, bool verify_crc, const std::string& base_dir) {
  std::shared_ptr<ModelHandle> model;
  {
    const Bytes bytes(data);
    model = load_model(bytes.data(), bytes.size(), verify_crc ? P2L_LOAD_VERIFY_CRC : 0u);
  }
  auto rig = std::make_unique<Rig>(std::move(model), std::vector<std::string>{}, base_dir);
  load_external_textures(*rig);
  return rig;
}

std::unique_ptr<Rig> import_model3(const std::string& path, bool external_textures, bool cubism_playback,
                                   const std::string& rules) {
  std::uint32_t flags = external_textures ? P2L_IMPORT_EXTERNAL_TEXTURES : 0u;
  if (!cubism_playback) flags |= P2L_IMPORT_P2LRT_PLAYBACK;
  if (rules == "original")
    flags |= P2L_IMPORT_ORIGINAL_RULES;
  else if (rules != "cubism")
    raise(PyExc_ValueError, "import_cubism: rules must be \"cubism\" or \"original\", not \"" + rules + "\"");
  auto model = std::make_shared<ModelHandle>();
  char error[2048] = {};
  {
    py::gil_scoped_release unlocked;
    model->model = p2l_model_import_cubism(path.c_str(), flags, error, sizeof error);
  }
  if (model->model == nullptr) raise(load_error, error[0] != '\0' ? error : "the model could not be imported");
  std::vector<std::string> report(p2l_model_import_report_count(model->model));
  for (std::uint32_t i = 0; i < report.size(); ++i) report[i] = p2l_model_import_report_line(model->model, i);
  std::string folder = fs::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  auto rig = std::make_unique<Rig>(std::move(model), std::move(report), folder);
  load_external_textures(*rig);
  return rig;
}

// A (h, w, 4) C-contiguous uint8 array to draw into.
py::array_t<std::uint8_t> image_array(const py::object& out, std::uint32_t& width, std::uint32_t& height) {
  if (out.is_none()) {
    if (width == 0 || height == 0) raise(PyExc_ValueError, "render: width and height must be positive");
    return py::array_t<std::uint8_t>({static_cast<py::ssize_t>(height), static_cast<py::ssize_t>(width), py::ssize_t{4}});
  }
  if (!py::isinstance<py::array_t<std::uint8_t>>(out)) raise(PyExc_TypeError, "render: out must be a uint8 NumPy array");
  auto a = out.cast<py::array_t<std::uint8_t>>();
  if (a.ndim() != 3 || a.shape(2) != 4 || !(a.flags() & py::array::c_style) || !a.writeable())
    raise(PyExc_ValueError, "render: out must be a writable C-contiguous (height, width, 4) uint8 array");
  if ((width != 0 && width != a.shape(1)) || (height != 0 && height != a.shape(0)))
    raise(PyExc_ValueError, "render: out's shape does not match width and height");
  width = static_cast<std::uint32_t>(a.shape(1));
  height = static_cast<std::uint32_t>(a.shape(0));
  return a;
}

std::array<float, 6> parse_transform(const py::object& transform) {
  auto m = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(transform);
  if (!m) raise(PyExc_TypeError, "render: transform must be 6 numbers [a, b, c, d, tx, ty] or a 2x3 / 3x3 matrix");
  std::array<float, 6> t{};
  if (m.ndim() == 1 && m.shape(0) == 6) {
    for (int i = 0; i < 6; ++i) t[i] = m.at(i);
  } else if (m.ndim() == 2 && (m.shape(0) == 2 || m.shape(0) == 3) && m.shape(1) == 3) {
    // [[a, b, tx], [c, d, ty]] (x' = a x + b y + tx, y' = c x + d y + ty)
    t = {m.at(0, 0), m.at(0, 1), m.at(1, 0), m.at(1, 1), m.at(0, 2), m.at(1, 2)};
  } else {
    raise(PyExc_ValueError, "render: transform must be 6 numbers [a, b, c, d, tx, ty] or a 2x3 / 3x3 matrix");
  }
  for (float v : t)
    if (!std::isfinite(v)) raise(PyExc_ValueError, "render: transform has a value that is not finite");
  return t;
}

// Rig.draw_gl: the last evaluation drawn by p2l_gl into the framebuffer bound in the caller's
// current OpenGL 3.3 core / ES 3.0 context (pygame, PyQt, glfw, moderngl...).
void draw_gl(Rig& rig, std::uint32_t width, std::uint32_t height, const py::object& transform, const std::string& fit,
             bool clear) {
  P2lRig* r = rig.h();
  if (fit != "canvas" && fit != "drawn") raise(PyExc_ValueError, "draw_gl: fit must be \"canvas\" or \"drawn\", not \"" + fit + "\"");
  if (width == 0 || height == 0) raise(PyExc_ValueError, "draw_gl: width and height must be positive");
#ifdef P2L_PYTHON_GL
  const std::array<float, 6> t = transform.is_none() ? framing(r, width, height, fit == "drawn") : parse_transform(transform);
  if (rig.gl_ == nullptr) {
    char error[1024] = {};
    rig.gl_ = p2l_gl_create(r, error, sizeof error);
    if (rig.gl_ == nullptr)
      raise(PyExc_RuntimeError, std::string("draw_gl: ") + (error[0] ? error : "no renderer") +
                                    " (is an OpenGL 3.3 core or ES 3.0 context current on this thread?)");
  }
  if (!p2l_gl_draw(rig.gl_, r, width, height, t.data(), P2L_GL_UPLOAD_ALL | (clear ? P2L_GL_CLEAR : 0u)))
    raise(PyExc_RuntimeError, std::string("draw_gl: ") + p2l_gl_failure(rig.gl_));
#else
  (void)r, (void)transform, (void)clear;
  raise(PyExc_RuntimeError, "draw_gl: this p2l module was built without p2l_gl (libepoxy-dev was not installed)");
#endif
}

py::array render(Rig& rig, std::uint32_t width, std::uint32_t height, const py::object& transform,
                 const std::string& fit, const py::object& background, bool premultiplied, const py::object& out) {
  P2lRig* r = rig.h();
  if (fit != "canvas" && fit != "drawn") raise(PyExc_ValueError, "render: fit must be \"canvas\" or \"drawn\", not \"" + fit + "\"");
  auto image = image_array(out, width, height);
  if (std::uint64_t{width} * height > (std::uint64_t{1} << 28)) raise(PyExc_ValueError, "render: more than 2^28 pixels");
  const std::array<float, 6> t = transform.is_none() ? framing(r, width, height, fit == "drawn") : parse_transform(transform);
  std::uint8_t* pixels = image.mutable_data();
  const std::size_t bytes = std::size_t{width} * height * 4;
  // Over transparency (a new image), over what [out] holds, or over a background colour.
  std::uint32_t flags = premultiplied ? 0u : P2L_RENDER_STRAIGHT;
  if (!out.is_none()) flags |= P2L_RENDER_KEEP;
  if (!background.is_none()) {
    const auto colour = background.cast<std::vector<int>>();
    if (colour.size() != 3 && colour.size() != 4) raise(PyExc_ValueError, "render: background must be (r, g, b) or (r, g, b, a)");
    std::array<std::uint8_t, 4> rgba{0, 0, 0, 255};
    for (std::size_t i = 0; i < colour.size(); ++i) {
      if (colour[i] < 0 || colour[i] > 255) raise(PyExc_ValueError, "render: background channels must be 0..255");
      rgba[i] = static_cast<std::uint8_t>(colour[i]);
    }
    if (premultiplied)
      for (int i = 0; i < 3; ++i) rgba[i] = static_cast<std::uint8_t>((rgba[i] * rgba[3] + 127) / 255);
    for (std::size_t p = 0; p < bytes; p += 4) std::memcpy(pixels + p, rgba.data(), 4);
    flags |= P2L_RENDER_KEEP;
  }
  if (!p2l_render(r, pixels, width, height, t.data(), flags)) {
    rig.check();
    raise(PyExc_ValueError, "render: the renderer refused a " + std::to_string(width) + "x" + std::to_string(height) + " image");
  }
  return image;
}

// The C API's log (failed loads and rigs, texture pages that do not decode) goes to Python's
// logging, logger "p2l".
void log_to_python(std::int32_t level, const char* message, void*) {
  if (!Py_IsInitialized()) return;
  py::gil_scoped_acquire locked;
  try {
    py::object logger = py::module_::import("logging").attr("getLogger")("p2l");
    logger.attr(level == P2L_LOG_ERROR ? "error" : "warning")("%s", message);
  } catch (py::error_already_set&) {
    PyErr_Clear();
  }
}

}  // namespace

// A speech (include/p2l/p2l_speech.h): audio pushed as it arrives, or a whole file, measured
// into a mouth level and vowel weights by update(dt); Rig.speak hands them to a rig.
class Speech {
 public:
  Speech(std::uint32_t rate, std::uint32_t channels, bool vowels) {
    char error[512] = {};
    speech_ = p2l_speech_create(rate, channels, vowels ? P2L_SPEECH_VOWELS : 0u, error, sizeof error);
    if (speech_ == nullptr) raise(PyExc_ValueError, error);
  }
  explicit Speech(P2lSpeech* speech) : speech_(speech) {}
  Speech(const Speech&) = delete;
  Speech& operator=(const Speech&) = delete;
  ~Speech() { p2l_speech_free(speech_); }

  static std::unique_ptr<Speech> from_file(const std::string& path, bool vowels) {
    char error[1024] = {};
    P2lSpeech* s = nullptr;
    {
      py::gil_scoped_release unlocked;
      s = p2l_speech_load_file(path.c_str(), vowels ? P2L_SPEECH_VOWELS : 0u, error, sizeof error);
    }
    if (s == nullptr) raise(PyExc_ValueError, error);
    return std::make_unique<Speech>(s);
  }

  // A NumPy array of uint8, int16, int32, float32 or float64 samples: (frames, channels) or
  // interleaved in one dimension; or bytes in [format] ("u8", "s16", "s24", "s32", "f32", "f64").
  void push(const py::object& samples, const std::string& format) {
    const std::uint32_t channels = p2l_speech_channels(speech_);
    if (py::isinstance<py::bytes>(samples) || py::isinstance<py::bytearray>(samples) || py::isinstance<py::memoryview>(samples)) {
      const std::uint32_t f = format_code(format.empty() ? "s16" : format);
      const py::buffer_info info = py::buffer(samples).request();
      const std::size_t frame_bytes = p2l::pcm_bytes(static_cast<p2l::PcmFormat>(f)) * channels;
      const std::size_t size = static_cast<std::size_t>(info.size * info.itemsize);
      if (size % frame_bytes != 0)
        raise(PyExc_ValueError, std::to_string(size) + " bytes are not whole frames of " + std::to_string(frame_bytes) + " bytes");
      check(p2l_speech_push(speech_, info.ptr, size / frame_bytes, f));
      return;
    }
    const py::array array = py::array::ensure(samples, py::array::c_style);
    if (!array) raise(PyExc_TypeError, "push: expected a NumPy array or bytes");
    if (array.ndim() == 2 && static_cast<std::uint32_t>(array.shape(1)) != channels)
      raise(PyExc_ValueError, "push: " + std::to_string(array.shape(1)) + " columns for a speech of " + std::to_string(channels) + " channels");
    if (array.ndim() > 2) raise(PyExc_ValueError, "push: expected (frames,) or (frames, channels)");
    std::uint32_t f = 0;
    const py::dtype dtype = array.dtype();
    if (dtype.is(py::dtype::of<std::uint8_t>())) f = P2L_PCM_U8;
    else if (dtype.is(py::dtype::of<std::int16_t>())) f = P2L_PCM_S16;
    else if (dtype.is(py::dtype::of<std::int32_t>())) f = P2L_PCM_S32;
    else if (dtype.is(py::dtype::of<float>())) f = P2L_PCM_F32;
    else if (dtype.is(py::dtype::of<double>())) f = P2L_PCM_F64;
    else raise(PyExc_TypeError, "push: samples of dtype " + py::cast<std::string>(dtype.attr("name")) + " (expected uint8, int16, int32, float32 or float64)");
    if (!format.empty() && format_code(format) != f) raise(PyExc_ValueError, "push: format \"" + format + "\" does not match the array's dtype");
    const std::size_t count = static_cast<std::size_t>(array.size());
    if (count % channels != 0)
      raise(PyExc_ValueError, "push: " + std::to_string(count) + " samples are not whole frames of " + std::to_string(channels) + " channels");
    check(p2l_speech_push(speech_, array.data(), count / channels, f));
  }

  P2lSpeech* h() const { return speech_; }

 private:
  static std::uint32_t format_code(const std::string& f) {
    if (f == "u8") return P2L_PCM_U8;
    if (f == "s16") return P2L_PCM_S16;
    if (f == "s24") return P2L_PCM_S24;
    if (f == "s32") return P2L_PCM_S32;
    if (f == "f32") return P2L_PCM_F32;
    if (f == "f64") return P2L_PCM_F64;
    raise(PyExc_ValueError, "unknown sample format \"" + f + "\" (u8, s16, s24, s32, f32 or f64)");
  }
  void check(bool pushed) const {
    if (!pushed) raise(PyExc_ValueError, std::string("push: ") + p2l_speech_error(speech_));
  }
  P2lSpeech* speech_ = nullptr;
};

PYBIND11_MODULE(_p2l, m) {
  m.doc() = "p2lrt's C API for Python (see the p2l package)";
  load_error = PyErr_NewExceptionWithDoc("p2l.LoadError", "A .p2lrt file or a Cubism model that does not load.",
                                         PyExc_ValueError, nullptr);
  rig_error = PyErr_NewExceptionWithDoc(
      "p2l.RigError", "A rig that failed inside the runtime (out of memory, an internal error); it stays failed.",
      PyExc_RuntimeError, nullptr);
  m.attr("LoadError") = py::handle(load_error);
  m.attr("RigError") = py::handle(rig_error);

  p2l_set_log(&log_to_python, nullptr);
  py::module_::import("atexit").attr("register")(py::cpp_function([] { p2l_set_log(nullptr, nullptr); }));

  m.attr("ABI_VERSION") = p2l_abi_version();
  m.attr("BUILT_FROM") = P2L_PYTHON_FROM;
  m.def("version", [] { return std::string(p2l_version()); }, "The library's version, \"major.minor.patch\".");
  m.def("format_support", [] { return std::string(p2l_format_support()); },
        "The format versions and chunks this library reads, e.g. \"1,2 STRS/1 CANV/1 ...\".");

  m.attr("STAGE_CLIPS") = P2L_STAGE_CLIPS;
  m.attr("STAGE_EXPRESSIONS") = P2L_STAGE_EXPRESSIONS;
  m.attr("STAGE_BEHAVIORS") = P2L_STAGE_BEHAVIORS;
  m.attr("STAGE_POSES") = P2L_STAGE_POSES;
  m.attr("STAGE_PHYSICS") = P2L_STAGE_PHYSICS;
  m.attr("STAGE_SIM") = P2L_STAGE_SIM;
  m.attr("STAGE_ALL") = P2L_STAGE_ALL;
  m.attr("BLINK") = P2L_BLINK;
  m.attr("BREATH") = P2L_BREATH;
  m.attr("LOOK") = P2L_LOOK;
  m.attr("LIP_SYNC") = P2L_LIP_SYNC;
  m.attr("SKIN") = P2L_SKIN;
  m.attr("EXACT_LINKS") = P2L_EXACT_LINKS;
  m.attr("SIM") = P2L_SIM;
  m.attr("COLLISION") = P2L_COLLISION;

  m.def("_load_bytes", &load_bytes, py::arg("data"), py::arg("verify_crc") = false, py::arg("base_dir") = "");
  m.def("_import_cubism", &import_model3, py::arg("path"), py::arg("external_textures") = false,
        py::arg("cubism_playback") = true, py::arg("rules") = "cubism");

  py::class_<Speech>(m, "Speech", R"(Speech: audio in, a mouth out (docs/AUDIO.md).

    voice = p2l.Speech(48000, 1, vowels=True)      # or p2l.Speech.from_file("voice.wav", vowels=True)
    voice.push(chunk)                              # NumPy int16/int32/float32/float64/uint8, or bytes + format
    every frame: voice.update(dt); rig.speak(voice); rig.update(dt)

The level is what Cubism's sample computes: the RMS of the samples since the previous update.)")
      .def(py::init<std::uint32_t, std::uint32_t, bool>(), py::arg("sample_rate"), py::arg("channels") = 1, py::arg("vowels") = false)
      .def_static("from_file", &Speech::from_file, py::arg("path"), py::arg("vowels") = false,
                  "A whole WAV, FLAC or OGG/Vorbis file (ValueError naming the problem otherwise), its end marked.")
      .def("push", &Speech::push, py::arg("samples"), py::arg("format") = "",
           "Appends samples: a NumPy array (frames,) or (frames, channels), or bytes in format u8/s16/s24/s32/f32/f64.")
      .def("end", [](Speech& s) { p2l_speech_end(s.h()); }, "No more audio will come.")
      .def("update", [](Speech& s, double dt) { p2l_speech_update(s.h(), dt); }, py::arg("dt"),
           "Advances the clock by dt seconds (never past the audio pushed) and measures what it passed.")
      .def("reset", [](Speech& s) { p2l_speech_reset(s.h()); })
      .def_property_readonly("level", [](const Speech& s) { return p2l_speech_level(s.h()); }, "The mouth opening 0..1.")
      .def("set_gain", [](Speech& s, float g) {
            if (!p2l_speech_set_gain(s.h(), g)) raise(PyExc_ValueError, "set_gain: the gain must be finite and >= 0");
          }, py::arg("gain"), "The level is the RMS times the gain (1 until set), clamped to 0..1.")
      .def_property_readonly("vowels", [](const Speech& s) {
            std::array<float, 6> w{};
            p2l_speech_vowels(s.h(), w.data());
            return py::make_tuple(w[0], w[1], w[2], w[3], w[4], w[5]);
          }, "Weights of A, I, U, E, O and silence (sum 1).")
      .def_property_readonly("vowel", [](const Speech& s) {
            static const char* const kNames[] = {"A", "I", "U", "E", "O", "silence"};
            return std::string(kNames[std::min<std::uint32_t>(p2l_speech_vowels(s.h(), nullptr), 5)]);
          }, "The heaviest vowel: \"A\", \"I\", \"U\", \"E\", \"O\" or \"silence\".")
      .def_property_readonly("time", [](const Speech& s) { return p2l_speech_time(s.h()); })
      .def_property_readonly("buffered", [](const Speech& s) { return p2l_speech_buffered(s.h()); })
      .def_property_readonly("finished", [](const Speech& s) { return p2l_speech_finished(s.h()); })
      .def_property_readonly("latency", [](const Speech& s) { return p2l_speech_latency(s.h()); },
                             "How far the vowel estimate lags the clock, in seconds.")
      .def_property_readonly("sample_rate", [](const Speech& s) { return p2l_speech_rate(s.h()); })
      .def_property_readonly("channels", [](const Speech& s) { return p2l_speech_channels(s.h()); });

  m.def(
      "decode_png",
      [](const py::object& data) {
        p2l::Image image;
        std::string error;
        bool decoded = false;
        {
          const Bytes bytes(data);
          decoded = p2l::decode_png(std::span<const std::uint8_t>(bytes.data(), bytes.size()), image, error);
        }
        if (!decoded) raise(PyExc_ValueError, "decode_png: " + error);
        py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(image.height), static_cast<py::ssize_t>(image.width), py::ssize_t{4}});
        std::memcpy(out.mutable_data(), image.rgba.data(), image.rgba.size());
        return out;
      },
      py::arg("data"), "PNG bytes as a (height, width, 4) uint8 array of straight RGBA (libpng).");
  m.def(
      "encode_png",
      [](const py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>& rgba) {
        if (rgba.ndim() != 3 || rgba.shape(2) != 4) raise(PyExc_ValueError, "encode_png: expected a (height, width, 4) uint8 array");
        std::vector<std::uint8_t> png;
        std::string error;
        if (!p2l::encode_png(rgba.data(), static_cast<std::uint32_t>(rgba.shape(1)), static_cast<std::uint32_t>(rgba.shape(0)),
                             png, error))
          raise(PyExc_ValueError, "encode_png: " + error);
        return py::bytes(reinterpret_cast<const char*>(png.data()), png.size());
      },
      py::arg("rgba"), "A (height, width, 4) uint8 array of straight RGBA as PNG bytes.");

  py::class_<Rig> rig(m, "Rig", R"(One character: a .p2lrt file's parameters, clips, expressions and last evaluation.

Make one with p2l.load() or p2l.import_cubism(). Set parameters, then evaluate() (the host's
pose alone) or update(dt) (clips, expressions, behaviors, physics over it), then read vertices()
or render(). Arrays from vertices(), parameter_values, current_values, uvs() and indices() view
the rig's memory without copying; each keeps the rig alive.)");

  rig.def_property_readonly("import_report", [](const Rig& r) { return r.report(); },
                            "What the Cubism import could not carry over exactly, one line a thing (empty for a loaded file).");
  rig.def_property_readonly("failure", [](const Rig& r) -> std::optional<std::string> {
        if (const char* f = r.failure()) return std::string(f);
        return std::nullopt;
      },
      "Why the rig failed inside the runtime (every other call then raises p2l.RigError), or None.");
  rig.def("spawn", [](const Rig& r) {
        r.check();
        auto other = std::make_unique<Rig>(r.model(), r.report(), r.source());
        load_external_textures(*other);
        return other;
      },
      "A new rig on the same file (shared, not read again), at its default pose.");
  rig.def_property_readonly("canvas", [](const Rig& r) {
        float w = 0, h = 0;
        p2l_canvas(r.h(), &w, &h);
        return std::make_pair(w, h);
      },
      "The canvas size in pixels, (width, height).");
  rig.def_property_readonly("canvas_origin", [](const Rig& r) {
        float x = 0, y = 0, ppu = 0;
        p2l_canvas_origin(r.h(), &x, &y, &ppu);
        return std::make_tuple(x, y, ppu);
      },
      "The model origin on the canvas and the pixels per model unit, (x, y, pixels_per_unit).");
  rig.def_property_readonly("meta", [](const Rig& r) {
        py::dict out;
        const std::uint32_t n = p2l_meta_count(r.h());
        for (std::uint32_t i = 0; i < n; ++i) out[py::str(str_or_empty(p2l_meta_key(r.h(), i)))] = str_or_empty(p2l_meta_value(r.h(), i));
        return out;
      },
      "The file's generator information (META) as a dict.");

  // --- parameters ---
  rig.def_property_readonly("parameters", [](const Rig& r) { return r.ids(p2l_parameter_count, p2l_parameter_id); },
                            "The parameter ids, in file order.");
  rig.def("parameter_index", [](const Rig& r, const py::object& key) { return r.parameter(key); }, py::arg("parameter"),
          "The index of a parameter (id or index); KeyError when there is none.");
  rig.def("parameter_info", [](const Rig& r, const py::object& key) {
        const std::uint32_t i = r.parameter(key);
        float lo = 0, hi = 0, def = 0;
        p2l_parameter_range(r.h(), i, &lo, &hi, &def);
        const std::uint32_t flags = p2l_parameter_flags(r.h(), i);
        std::vector<float> snaps(p2l_parameter_snaps(r.h(), i, nullptr, 0));
        p2l_parameter_snaps(r.h(), i, snaps.data(), static_cast<std::uint32_t>(snaps.size()));
        py::dict d;
        d["index"] = i;
        d["id"] = str_or_empty(p2l_parameter_id(r.h(), i));
        d["name"] = str_or_empty(p2l_parameter_name(r.h(), i));
        d["min"] = lo;
        d["max"] = hi;
        d["default"] = def;
        d["repeat"] = (flags & P2L_PARAMETER_REPEAT) != 0;
        d["blend_shape"] = (flags & P2L_PARAMETER_BLEND_SHAPE) != 0;
        d["snaps"] = snaps;
        return d;
      },
      py::arg("parameter"), "A parameter's index, id, name, min, max, default, repeat, blend_shape and snaps, as a dict.");
  rig.def("set", [](Rig& r, const py::object& key, float value) {
        const std::uint32_t i = r.parameter(key);
        p2l_set_parameter(r.h(), i, value);
        r.check();
      },
      py::arg("parameter"), py::arg("value"),
      "Sets one value of the host's pose (parameter by id or index; not clamped). Takes effect at the next evaluate() or update().");
  rig.def("get", [](const Rig& r, const py::object& key) { return p2l_parameter_values(r.h())[r.parameter(key)]; },
          py::arg("parameter"), "The host's value of a parameter (what set() gave, or the default).");
  rig.def("__setitem__", [](Rig& r, const py::object& key, float value) {
    const std::uint32_t i = r.parameter(key);
    p2l_set_parameter(r.h(), i, value);
    r.check();
  });
  rig.def("__getitem__", [](const Rig& r, const py::object& key) { return p2l_parameter_values(r.h())[r.parameter(key)]; });
  rig.def("__contains__", [](const Rig& r, const py::str& key) {
    const std::string id = key;
    return p2l_parameter_index(r.h(), id.c_str()) >= 0;
  });
  rig.def("current", [](const Rig& r, const py::object& key) { return p2l_parameter_current(r.h())[r.parameter(key)]; },
          py::arg("parameter"), "The value a parameter had at the last evaluation, after clips, expressions, behaviors and physics.");
  rig.def("reset_parameters", [](Rig& r) {
        const std::uint32_t n = p2l_parameter_count(r.h());
        for (std::uint32_t i = 0; i < n; ++i) {
          float lo = 0, hi = 0, def = 0;
          p2l_parameter_range(r.h(), i, &lo, &hi, &def);
          p2l_set_parameter(r.h(), i, def);
        }
        r.check();
      },
      "Sets every value of the host's pose back to its default.");
  rig.def_property_readonly("parameter_values", [](Rig& r) {
        return view(p2l_parameter_values(r.h()), {static_cast<py::ssize_t>(p2l_parameter_count(r.h()))}, self_of(r), true);
      },
      "The host's pose: a writable float32 view, one value per parameter, that every evaluate() and update() starts from.");
  rig.def_property_readonly("current_values", [](Rig& r) {
        return view(p2l_parameter_current(r.h()), {static_cast<py::ssize_t>(p2l_parameter_count(r.h()))}, self_of(r), false);
      },
      "The values the last evaluation used (read-only float32 view, rewritten by every evaluation).");
  rig.def("set_override", [](Rig& r, const py::object& key, float value, float weight) {
        const std::uint32_t i = r.parameter(key);
        const bool ok = p2l_set_parameter_override(r.h(), i, value, weight);
        r.check();
        if (!ok) raise(PyExc_ValueError, "set_override: the value must be finite");
      },
      py::arg("parameter"), py::arg("value"), py::arg("weight") = 1.0f,
      "The host's layer (face tracking): after clips and expressions, the parameter moves toward value by weight (0..1).");
  rig.def("clear_overrides", [](Rig& r) { p2l_clear_parameter_overrides(r.h()); });
  rig.def("role_parameters", [](const Rig& r, const std::string& role) {
        std::vector<std::uint32_t> idx(p2l_role_parameters(r.h(), role.c_str(), nullptr, 0));
        p2l_role_parameters(r.h(), role.c_str(), idx.data(), static_cast<std::uint32_t>(idx.size()));
        std::vector<std::string> out;
        for (std::uint32_t i : idx) out.push_back(str_or_empty(p2l_parameter_id(r.h(), i)));
        return out;
      },
      py::arg("role"), "The ids of the parameters the file gives a role (\"EyeBlink\", \"LipSync\", ...).");

  // --- evaluation ---
  rig.def("evaluate", [](Rig& r) {
        p2l_evaluate(r.h());
        r.check();
      },
      "Evaluates at the host's pose alone (what clips, expressions, behaviors and physics added is not kept).");
  rig.def("update", [](Rig& r, float dt, std::uint32_t stages) {
        p2l_update_stages(r.h(), dt, stages);
        r.check();
      },
      py::arg("dt"), py::arg("stages") = P2L_STAGE_ALL,
      "Advances clips, expressions, behaviors, part poses and physics by dt seconds over the host's pose, then evaluates.");
  rig.def("set_behaviors", [](Rig& r, std::uint32_t flags) {
        p2l_behaviors(r.h(), flags);
        r.check();
      },
      py::arg("flags"), "Behaviors on: any of p2l.BLINK | p2l.BREATH | p2l.LOOK | p2l.LIP_SYNC (blink and breath start on).");
  rig.def("behavior_seed", [](Rig& r, std::uint32_t seed) { p2l_behavior_seed(r.h(), seed); }, py::arg("seed"));
  rig.def("look_at", [](Rig& r, float x, float y) { p2l_look_at(r.h(), x, y); }, py::arg("x"), py::arg("y"),
          "Where the character looks, each axis -1..1 (x right, y up), with p2l.LOOK on.");
  rig.def("lip_sync", [](Rig& r, float level) { p2l_lip_sync(r.h(), level); }, py::arg("level"),
          "The mouth opening 0..1, with p2l.LIP_SYNC on.");
  rig.def("speak", [](Rig& r, const Speech& speech) { p2l_speak(r.h(), speech.h()); }, py::arg("speech"),
          "Hands the speech's level and (with vowels) its vowels to the mouth for the next updates, with p2l.LIP_SYNC on.");
  rig.def("bind_mouth", [](Rig& r, const std::string& slot, const py::object& parameter) {
        static const char* const kSlots[] = {"open", "form", "a", "i", "u", "e", "o"};
        std::uint32_t s = 0;
        while (s < 7 && slot != kSlots[s]) ++s;
        if (s == 7) raise(PyExc_ValueError, "bind_mouth: unknown slot \"" + slot + "\" (open, form, a, i, u, e or o)");
        const std::int32_t index = parameter.is_none() ? -1 : static_cast<std::int32_t>(r.parameter(parameter));
        if (!p2l_mouth_bind(r.h(), s, index)) raise(PyExc_ValueError, "bind_mouth: the parameter cannot be bound");
      },
      py::arg("slot"), py::arg("parameter"),
      "Binds a parameter (id or index; None: the role's again) to a mouth slot: open, form, a, i, u, e or o.");
  rig.def_property("lip_mix", [](const Rig& r) {
        static const char* const kMixes[] = {"floor", "add", "set"};
        return std::string(kMixes[std::min<std::uint32_t>(p2l_lip_mix(r.h()), 2)]);
      },
      [](Rig& r, const std::string& mix) {
        const std::uint32_t m = mix == "floor" ? P2L_LIP_FLOOR : mix == "add" ? P2L_LIP_ADD : mix == "set" ? P2L_LIP_SET : 99u;
        if (!p2l_set_lip_mix(r.h(), m)) raise(PyExc_ValueError, "lip_mix: \"" + mix + "\" (floor, add or set)");
      },
      "How lip sync meets the clips' mouth: \"floor\" (max), \"add\" (Cubism: + 0.8 x level) or \"set\".");
  rig.def("physics_reset", [](Rig& r) { p2l_physics_reset(r.h()); });
  rig.def("physics_wind", [](Rig& r, float x, float y) { p2l_physics_wind(r.h(), x, y); }, py::arg("x"), py::arg("y"));
  rig.def_property("opacity", [](const Rig& r) { return p2l_opacity(r.h()); },
                   [](Rig& r, float v) { p2l_set_opacity(r.h(), v); }, "The rig's opacity 0..1 (from the next evaluation).");

  // --- clips ---
  rig.def_property_readonly("clips", [](const Rig& r) { return r.ids(p2l_clip_count, p2l_clip_id); }, "The clip ids.");
  rig.def("clip_info", [](const Rig& r, const py::object& key) {
        const std::uint32_t i = r.clip(key);
        float duration = 0, fps = 0, fade_in = 0, fade_out = 0;
        bool looping = false;
        p2l_clip_info(r.h(), i, &duration, &fps, &looping, &fade_in, &fade_out);
        py::dict d;
        d["index"] = i;
        d["id"] = str_or_empty(p2l_clip_id(r.h(), i));
        d["name"] = str_or_empty(p2l_clip_name(r.h(), i));
        d["group"] = str_or_empty(p2l_clip_group(r.h(), i));
        d["duration"] = duration;
        d["fps"] = fps;
        d["looping"] = (p2l_clip_playback(r.h(), i) & P2L_CLIP_LOOPING) != 0;
        d["fade_in"] = fade_in;
        d["fade_out"] = fade_out;
        d["cubism_playback"] = (p2l_clip_playback(r.h(), i) & P2L_CLIP_CUBISM) != 0;
        return d;
      },
      py::arg("clip"), "A clip's index, id, name, group, duration, fps, looping, fade_in, fade_out, cubism_playback.");
  rig.def("play", [](Rig& r, const py::object& key) {
        const std::int32_t i = key.is_none() ? -1 : static_cast<std::int32_t>(r.clip(key));
        p2l_play(r.h(), i);
        r.check();
      },
      py::arg("clip") = py::none(), "Plays a clip (id or index) on layer 0 from the next update(); None fades the layer out.");
  rig.def("play_layer", [](Rig& r, std::uint32_t layer, const py::object& key, std::uint32_t priority) {
        const std::int32_t i = key.is_none() ? -1 : static_cast<std::int32_t>(r.clip(key));
        const bool ok = p2l_play_layer(r.h(), layer, i, priority);
        r.check();
        return ok;
      },
      py::arg("layer"), py::arg("clip"), py::arg("priority") = 0,
      "Plays a clip on a layer (0..15) if priority is at least the playing clip's; False otherwise.");
  rig.def_property_readonly("clip_playing", [](const Rig& r) -> std::optional<std::string> {
        const std::int32_t i = p2l_clip_playing(r.h());
        if (i < 0) return std::nullopt;
        return str_or_empty(p2l_clip_id(r.h(), static_cast<std::uint32_t>(i)));
      },
      "Layer 0's clip id, or None.");
  rig.def_property_readonly("clip_time", [](const Rig& r) { return p2l_clip_time(r.h()); }, "Layer 0's clip time in seconds.");
  rig.def_property_readonly("clip_finished", [](const Rig& r) { return p2l_clip_finished(r.h()); },
                            "Whether layer 0 plays nothing or a one-shot past its end.");
  rig.def("seek", [](Rig& r, float time) { p2l_clip_seek(r.h(), time); }, py::arg("time"), "Moves layer 0's clip to time seconds.");
  rig.def("set_clip_looping", [](Rig& r, const py::object& key, bool looping) { p2l_set_clip_looping(r.h(), r.clip(key), looping); },
          py::arg("clip"), py::arg("looping"));
  rig.def_property("cubism_playback", [](const Rig& r) { return p2l_cubism_playback(r.h()); },
                   [](Rig& r, bool on) {
                     p2l_set_cubism_playback(r.h(), on);
                     r.check();
                   },
                   "Whether marked clips play by Cubism's rules (on by default); setting it stops every clip and expression.");
  rig.def_property_readonly("events", [](const Rig& r) {
        std::vector<std::tuple<std::string, std::uint32_t, std::optional<std::string>, float>> out;
        const std::uint32_t n = p2l_event_count(r.h());
        for (std::uint32_t i = 0; i < n; ++i) {
          std::uint32_t layer = 0;
          std::int32_t clip = -1;
          float time = 0;
          const char* text = p2l_event(r.h(), i, &layer, &clip, &time);
          if (text == nullptr) continue;
          std::optional<std::string> id;
          if (clip >= 0) id = str_or_empty(p2l_clip_id(r.h(), static_cast<std::uint32_t>(clip)));
          out.emplace_back(text, layer, id, time);
        }
        return out;
      },
      "The clip events the last update passed: (text, layer, clip id, time) tuples.");

  // --- expressions ---
  rig.def_property_readonly("expressions", [](const Rig& r) { return r.ids(p2l_expression_count, p2l_expression_id); },
                            "The expression ids.");
  rig.def("expression", [](Rig& r, const py::object& key) {
        const std::int32_t i = key.is_none() ? -1 : static_cast<std::int32_t>(r.expression(key));
        p2l_expression(r.h(), i);
        r.check();
      },
      py::arg("expression") = py::none(),
      "Plays one expression (id or index), fading the others out, from the next update(); None fades all out.");
  rig.def("expression_add", [](Rig& r, const py::object& key) { return p2l_expression_add(r.h(), r.expression(key)); },
          py::arg("expression"), "Fades an expression in over those playing; False when it already plays.");
  rig.def("expression_remove", [](Rig& r, const py::object& key) { return p2l_expression_remove(r.h(), r.expression(key)); },
          py::arg("expression"), "Fades an expression out; False when it does not play.");
  rig.def_property_readonly("expressions_playing", [](const Rig& r) {
        std::vector<std::uint32_t> idx(p2l_expressions_playing(r.h(), nullptr, 0));
        p2l_expressions_playing(r.h(), idx.data(), static_cast<std::uint32_t>(idx.size()));
        std::vector<std::string> out;
        for (std::uint32_t i : idx) out.push_back(str_or_empty(p2l_expression_id(r.h(), i)));
        return out;
      },
      "The expressions playing and not fading out, oldest first.");

  // --- parts ---
  rig.def_property_readonly("parts", [](const Rig& r) { return r.ids(p2l_part_count, p2l_part_id); }, "The part ids.");
  rig.def("set_part_opacity", [](Rig& r, const py::object& key, float opacity) { p2l_set_part_opacity(r.h(), r.part(key), opacity); },
          py::arg("part"), py::arg("opacity"), "The host's opacity 0..1 for every mesh under a part, from the next evaluation.");
  rig.def("part_opacity", [](const Rig& r, const py::object& key) { return p2l_part_opacity(r.h(), r.part(key)); }, py::arg("part"));

  // --- meshes ---
  rig.def_property_readonly("mesh_count", [](const Rig& r) { return p2l_mesh_count(r.h()); });
  rig.def_property_readonly("meshes", [](const Rig& r) { return r.ids(p2l_mesh_count, p2l_mesh_id); }, "The mesh ids.");
  rig.def("mesh_index", [](const Rig& r, const py::object& key) { return r.mesh(key); }, py::arg("mesh"));
  rig.def("vertices", [](Rig& r, const py::object& key) {
        const std::uint32_t i = r.mesh(key);
        const py::ssize_t n = p2l_mesh_vertex_count(r.h(), i);
        return view(p2l_mesh_vertices(r.h(), i), {n, 2}, self_of(r), false);
      },
      py::arg("mesh"),
      "The last evaluation's vertices of a mesh (id or index) in canvas pixels, y down: a read-only (n, 2) float32 view "
      "of the rig's memory, rewritten in place by the next evaluate() or update(); it keeps the rig alive. Copy it to keep a pose.");
  rig.def("uvs", [](Rig& r, const py::object& key) {
        const std::uint32_t i = r.mesh(key);
        const py::ssize_t n = p2l_mesh_vertex_count(r.h(), i);
        return view(p2l_mesh_uvs(r.h(), i), {n, 2}, self_of(r), false);
      },
      py::arg("mesh"), "A mesh's texture coordinates: a read-only (n, 2) float32 view, constant for the rig's lifetime.");
  rig.def("indices", [](Rig& r, const py::object& key) {
        const std::uint32_t i = r.mesh(key);
        std::uint32_t count = 0;
        const std::uint32_t* p = p2l_mesh_indices(r.h(), i, &count);
        return view(p, {static_cast<py::ssize_t>(count / 3), 3}, self_of(r), false);
      },
      py::arg("mesh"), "A mesh's triangles: a read-only (t, 3) uint32 view, constant for the rig's lifetime.");
  rig.def("mesh_opacity", [](const Rig& r, const py::object& key) { return p2l_mesh_opacity(r.h(), r.mesh(key)); }, py::arg("mesh"),
          "The last evaluation's opacity of a mesh.");
  rig.def("mesh_draw_order", [](const Rig& r, const py::object& key) { return p2l_mesh_draw_order(r.h(), r.mesh(key)); },
          py::arg("mesh"));
  rig.def("mesh_texture", [](const Rig& r, const py::object& key) { return p2l_mesh_texture(r.h(), r.mesh(key)); }, py::arg("mesh"),
          "The mesh's texture page, or -1.");
  rig.def("mesh_changes", [](const Rig& r, const py::object& key) { return p2l_mesh_changes(r.h(), r.mesh(key)); }, py::arg("mesh"),
          "The C API's per-mesh flags of the last evaluation (bit 0 visible, then what changed).");
  rig.def("render_order", [](const Rig& r) {
        const std::uint32_t n = p2l_render_order(r.h(), nullptr, 0);
        py::array_t<std::uint32_t> out(static_cast<py::ssize_t>(n));
        p2l_render_order(r.h(), out.mutable_data(), n);
        return out;
      },
      "The meshes to draw back to front at the last evaluation: a new uint32 array (its length changes with the pose, "
      "so it is a copy, not a view).");
  rig.def("render_commands", [](const Rig& r) {
        const std::uint32_t n = p2l_render_commands(r.h(), nullptr, 0);
        py::array_t<std::int32_t> out(static_cast<py::ssize_t>(n));
        p2l_render_commands(r.h(), out.mutable_data(), n);
        return out;
      },
      "The render order with isolated groups: mesh indices, -2 - part to begin a part's layer, -1 to end it (a copy).");

  // --- hit areas ---
  rig.def_property_readonly("hit_areas", [](const Rig& r) { return r.ids(p2l_hit_area_count, p2l_hit_area_id); });
  rig.def("hit_test", [](const Rig& r, float x, float y) -> std::optional<std::string> {
        const std::int32_t a = p2l_hit_test(r.h(), x, y);
        if (a < 0) return std::nullopt;
        return str_or_empty(p2l_hit_area_id(r.h(), static_cast<std::uint32_t>(a)));
      },
      py::arg("x"), py::arg("y"), "The hit area at canvas point (x, y) at the last evaluation, or None.");

  // --- advanced mode ---
  rig.def_property_readonly("advanced_available", [](const Rig& r) { return p2l_advanced_available(r.h()); },
                            "The advanced-mode features the file carries (p2l.SKIN | p2l.EXACT_LINKS | p2l.SIM | p2l.COLLISION).");
  rig.def("set_advanced", [](Rig& r, std::uint32_t features) {
        const std::uint32_t on = p2l_set_advanced(r.h(), features);
        r.check();
        return on;
      },
      py::arg("features"), "Turns advanced-mode features on (0: Cubism mode); returns those now on.");

  // --- textures and drawing ---
  rig.def_property_readonly("texture_count", [](const Rig& r) { return p2l_texture_count(r.h()); });
  rig.def("set_texture", [](Rig& r, std::uint32_t page, const py::object& rgba) {
        if (rgba.is_none()) return p2l_render_texture(r.h(), page, nullptr, 0, 0);
        auto a = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>::ensure(rgba);
        if (!a || a.ndim() != 3 || a.shape(2) != 4) raise(PyExc_ValueError, "set_texture: expected a (height, width, 4) uint8 array");
        const bool ok = p2l_render_texture(r.h(), page, a.data(), static_cast<std::uint32_t>(a.shape(1)),
                                           static_cast<std::uint32_t>(a.shape(0)));
        r.check();
        return ok;
      },
      py::arg("page"), py::arg("rgba"),
      "Gives the renderer straight RGBA pixels for a texture page not embedded as PNG (the pixels are copied); None takes them back.");
  rig.def("render", &render, py::arg("width"), py::arg("height"), py::arg("transform") = py::none(), py::kw_only(),
          py::arg("fit") = "canvas", py::arg("background") = py::none(), py::arg("premultiplied") = false,
          py::arg("out") = py::none(),
          R"(Draws the last evaluation into a new (height, width, 4) uint8 RGBA array (straight alpha on transparency, as `p2lrt render`).

transform: canvas pixels to image pixels, [a, b, c, d, tx, ty] or [[a, b, tx], [c, d, ty]];
None frames as `p2lrt render` does: fit="canvas" the whole canvas, fit="drawn" what is drawn
(as --fit), scaled to fit and centred. background: (r, g, b[, a]) under the character.
premultiplied: premultiplied alpha instead of straight. out: an existing (height, width, 4)
uint8 array to draw over (its pixels are kept under the character); width and height may
then be 0.)");
  rig.def("draw_gl", &draw_gl, py::arg("width"), py::arg("height"), py::arg("transform") = py::none(), py::kw_only(),
          py::arg("fit") = "canvas", py::arg("clear") = false,
          R"(Draws the last evaluation with the GPU (p2l_gl) into the framebuffer bound in the OpenGL context current on this thread (3.3 core or ES 3.0: pygame, PyQt, glfw, moderngl), width x height pixels, composited over what is there (premultiplied alpha), or over transparency with clear=True.

The same picture as render() with the same arguments: transform maps canvas pixels to the
framebuffer's pixels with y down; None frames as render() does (fit="canvas" or "drawn").
The renderer is made in the current context at the first call (textures uploaded once) and
kept; call release_gl() with that context current before the context goes, and
gl_context_lost() when it went without that. It changes the viewport, program, vertex array,
texture bindings and blend, cull and test states, and keeps the framebuffer binding.)");
  rig.def("release_gl", [](Rig& r) {
#ifdef P2L_PYTHON_GL
    p2l_gl_destroy(r.gl_);
    r.gl_ = nullptr;
#else
    (void)r;
#endif
  }, "Deletes draw_gl's GL objects (with the context it drew in current); the next draw_gl makes them again.");
  rig.def("gl_context_lost", [](Rig& r) {
#ifdef P2L_PYTHON_GL
    if (r.gl_ != nullptr) p2l_gl_context_lost(r.gl_);
#else
    (void)r;
#endif
  }, "Forgets draw_gl's GL objects of a context that is gone (nothing is deleted); the next draw_gl makes them again in the current one.");
  m.attr("HAS_GL") = py::bool_(
#ifdef P2L_PYTHON_GL
      true
#else
      false
#endif
  );
  rig.def("__repr__", [](const Rig& r) {
    if (const char* f = r.failure()) return std::string("<p2l.Rig, failed: ") + f + ">";
    return "<p2l.Rig: " + std::to_string(p2l_parameter_count(r.h())) + " parameters, " + std::to_string(p2l_mesh_count(r.h())) +
           " meshes, " + std::to_string(p2l_clip_count(r.h())) + " clips, " + std::to_string(p2l_expression_count(r.h())) +
           " expressions>";
  });
}
