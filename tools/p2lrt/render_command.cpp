#include "p2lrt/render_command.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <sstream>

#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"

namespace p2lrt {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kDefaultLongSide = 1024;
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 26;  // 8192 x 8192

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

bool parse_float(std::string_view text, float& out) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(out);
}

bool parse_uint(std::string_view text, std::uint32_t& out) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

// The rig: a .p2lrt file, or a Cubism model imported on the fly (its report is summarised).
std::shared_ptr<const p2l::Rig> load_rig(const std::string& path) {
  if (path.ends_with(".model3.json")) {
    p2l::ImportResult imported = p2l::import_cubism(path);
    if (!imported) {
      std::cerr << "p2lrt render: " << imported.error.to_string() << "\n";
      return nullptr;
    }
    if (!imported.report.dropped.empty())
      std::cerr << "p2lrt render: imported " << path << " (" << imported.report.dropped.size()
                << " things not carried over exactly; `p2lrt import` lists them)\n";
    return std::make_shared<const p2l::Rig>(std::move(imported.rig));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "p2lrt render: cannot open " << path << "\n";
    return nullptr;
  }
  std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  p2l::LoadResult loaded = p2l::load(bytes);
  if (!loaded) {
    std::cerr << path << ": " << loaded.error.to_string() << "\n";
    return nullptr;
  }
  return loaded.rig;
}

// "#rrggbb", "#rrggbbaa", "transparent", "white" or "black" as straight RGBA.
bool parse_color(const std::string& text, std::array<std::uint8_t, 4>& rgba) {
  if (text == "transparent") rgba = {0, 0, 0, 0};
  else if (text == "white") rgba = {255, 255, 255, 255};
  else if (text == "black") rgba = {0, 0, 0, 255};
  else {
    if (text.size() != 7 && text.size() != 9) return false;
    if (text[0] != '#') return false;
    rgba[3] = 255;
    for (std::size_t i = 0; 1 + 2 * i < text.size(); ++i) {
      const auto r = std::from_chars(text.data() + 1 + 2 * i, text.data() + 3 + 2 * i, rgba[i], 16);
      if (r.ec != std::errc() || r.ptr != text.data() + 3 + 2 * i) return false;
    }
  }
  return true;
}

// Index of the clip, expression, ... named by [key] (its id, or its index), or -1 with the
// choices printed.
template <class List, class Id>
std::int32_t find_by_key(const List& list, const std::string& key, const char* what, Id id) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (id(list[i]) == key) return static_cast<std::int32_t>(i);
  std::uint32_t index = 0;
  if (parse_uint(key, index) && index < list.size()) return static_cast<std::int32_t>(index);
  std::cerr << "p2lrt render: no " << what << " \"" << key << "\"";
  if (list.empty()) {
    std::cerr << " (the rig has none)\n";
  } else {
    std::cerr << "; the rig has:";
    for (std::size_t i = 0; i < list.size(); ++i) std::cerr << (i ? ", " : " ") << i << " " << id(list[i]);
    std::cerr << "\n";
  }
  return -1;
}

// A progress bar on a terminal, redrawn at most ten times a second; silent elsewhere.
class Progress {
 public:
  Progress(std::size_t total, bool enabled) : total_(total), enabled_(enabled && isatty(2)), start_(Clock::now()) {}
  void update(std::size_t done) {
    if (!enabled_ || seconds_since(start_) < 1.0) return;  // short work: no bar
    const auto now = Clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double elapsed = seconds_since(start_);
    const double eta = done > 0 ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0.0;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(total_, 1)));
    std::fprintf(stderr, "\r  [%s%s] %zu/%zu frames, %.1f s, %.1f s left ", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done, total_, elapsed, eta);
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::fprintf(stderr, "\n");
  }

 private:
  std::size_t total_;
  bool enabled_, drawn_ = false;
  Clock::time_point start_, last_{};
};

struct Frame {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // straight
};

// The canvas-to-image transform: the whole canvas, or with [fit] the bounds of what the
// instance draws, fitted with a margin and centred.
p2l::Affine framing(const p2l::Rig& rig, const p2l::Instance& instance, std::uint32_t width, std::uint32_t height,
                    bool fit) {
  float x0 = 0, y0 = 0, x1 = rig.canvas.width, y1 = rig.canvas.height;
  if (fit) {
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    for (std::uint32_t m : instance.render_order()) {
      if (!(instance.opacity(m) > 0.0f)) continue;
      const auto v = instance.vertices(m);
      for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
        if (!std::isfinite(v[i]) || !std::isfinite(v[i + 1])) continue;
        bx0 = std::min(bx0, v[i]), bx1 = std::max(bx1, v[i]);
        by0 = std::min(by0, v[i + 1]), by1 = std::max(by1, v[i + 1]);
      }
    }
    if (bx1 > bx0 && by1 > by0) {
      const float margin = 0.04f * std::max(bx1 - bx0, by1 - by0);
      x0 = bx0 - margin, y0 = by0 - margin, x1 = bx1 + margin, y1 = by1 + margin;
    }
  }
  const float w = std::max(x1 - x0, 1e-3f), h = std::max(y1 - y0, 1e-3f);
  const float scale = std::min(static_cast<float>(width) / w, static_cast<float>(height) / h);
  p2l::Affine t;
  t.a = t.d = scale;
  t.tx = (static_cast<float>(width) - w * scale) * 0.5f - x0 * scale;
  t.ty = (static_cast<float>(height) - h * scale) * 0.5f - y0 * scale;
  return t;
}

bool write_png(const fs::path& path, const Frame& frame) {
  std::vector<std::uint8_t> png;
  std::string error;
  if (!p2l::encode_png(frame.rgba.data(), frame.width, frame.height, png, error)) {
    std::cerr << "p2lrt render: cannot encode " << path.string() << ": " << error << "\n";
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  if (!out) {
    std::cerr << "p2lrt render: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

// Frames tiled left to right, top to bottom, on the background.
Frame contact_sheet(const std::vector<Frame>& frames, std::uint32_t columns, const std::array<std::uint8_t, 4>& background) {
  Frame sheet;
  if (frames.empty()) return sheet;
  const std::uint32_t n = static_cast<std::uint32_t>(frames.size());
  if (columns == 0) columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  columns = std::min(columns, n);
  const std::uint32_t rows = (n + columns - 1) / columns;
  const std::uint32_t w = frames[0].width, h = frames[0].height;
  sheet.width = w * columns;
  sheet.height = h * rows;
  sheet.rgba.resize(std::size_t{sheet.width} * sheet.height * 4);
  for (std::size_t p = 0; p < sheet.rgba.size(); p += 4) std::copy(background.begin(), background.end(), sheet.rgba.begin() + static_cast<std::ptrdiff_t>(p));
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t ox = (i % columns) * w, oy = (i / columns) * h;
    for (std::uint32_t y = 0; y < h; ++y)
      std::copy_n(frames[i].rgba.begin() + static_cast<std::ptrdiff_t>(std::size_t{y} * w * 4), std::size_t{w} * 4,
                  sheet.rgba.begin() + static_cast<std::ptrdiff_t>((std::size_t{oy + y} * sheet.width + ox) * 4));
  }
  return sheet;
}

}  // namespace

void RenderOptions::add_to(CLI::App* command) {
  command->add_option("FILE", input, "A .p2lrt file, or a Cubism .model3.json (imported on the fly)")->required();
  command->add_option("-o,--output", output, "A PNG for one pose; a folder for an animation")->required();
  command->add_option("--param", params, "PARAMETER_ID=VALUE (repeatable): the host's pose");
  command->add_option("--size", size, "Image size WxH (default: the canvas, at most 1024 on its longer side)");
  command->add_flag("--fit", fit, "Frame what is drawn (first frame) instead of the whole canvas");
  command->add_option("--background", background, "transparent (default), white, black, #rrggbb or #rrggbbaa");
  command->add_option("--clip", clip, "Play this clip (id or index) and write frames into the output folder");
  command->add_option("--seconds", seconds, "Animation length (default 3)");
  command->add_option("--fps", fps, "Frames per second of the animation (default 30)");
  command->add_option("--expression", expressions, "Expression to add (id or index; repeatable)");
  command->add_option("--behaviors", behaviors, "blink,breath,look,lipsync or none (default blink,breath)");
  command->add_flag("--no-physics", no_physics, "Run the animation without physics");
  command->add_option("--seed", seed, "Blink timing seed (default 1: the same frames every run)");
  command->add_flag("--sheet", sheet, "Also tile the frames into sheet.png in the output folder");
  command->add_option("--sheet-columns", sheet_columns, "Columns of the contact sheet (default: about square)");
  command->add_flag("-q,--quiet", quiet, "No progress bar or summary");
}

int render(const RenderOptions& o) {
  // Arguments first, so that a typo fails before any work.
  std::array<std::uint8_t, 4> background{};
  if (!parse_color(o.background, background)) {
    std::cerr << "p2lrt render: --background " << o.background << ": expected transparent, white, black, #rrggbb or #rrggbbaa\n";
    return 2;
  }
  const bool animate = !o.clip.empty() || !o.expressions.empty();
  if (animate && !(o.seconds > 0.0f && o.fps > 0.0f && o.seconds * o.fps <= 100000.0f)) {
    std::cerr << "p2lrt render: --seconds and --fps must be positive, at most 100000 frames in all\n";
    return 2;
  }
  std::uint32_t behaviors = 0;
  if (o.behaviors != "none") {
    std::stringstream list(o.behaviors);
    for (std::string name; std::getline(list, name, ',');) {
      if (name == "blink") behaviors |= p2l::kBehaviorBlink;
      else if (name == "breath") behaviors |= p2l::kBehaviorBreath;
      else if (name == "look") behaviors |= p2l::kBehaviorLook;
      else if (name == "lipsync") behaviors |= p2l::kBehaviorLipSync;
      else {
        std::cerr << "p2lrt render: --behaviors: unknown behavior \"" << name << "\" (blink, breath, look, lipsync or none)\n";
        return 2;
      }
    }
  }

  auto rig = load_rig(o.input);
  if (!rig) return 1;
  p2l::ModelResult compiled = p2l::Model::create(rig);
  if (!compiled) {
    std::cerr << o.input << ": " << compiled.error.to_string() << "\n";
    return 1;
  }
  auto model = compiled.model;
  p2l::Instance instance(model);
  p2l::Animator animator(model);
  for (const std::string& s : o.params) {
    const auto eq = s.find('=');
    const std::int32_t index = eq == std::string::npos ? -1 : rig->find_parameter(s.substr(0, eq));
    float value = 0;
    if (index < 0 || !parse_float(std::string_view(s).substr(eq + 1), value)) {
      std::cerr << "p2lrt render: --param " << s << ": expected PARAMETER_ID=NUMBER";
      if (index < 0 && eq != std::string::npos) std::cerr << " (the rig has no parameter \"" << s.substr(0, eq) << "\")";
      std::cerr << "\n";
      return 2;
    }
    instance.parameters()[static_cast<std::size_t>(index)] = value;
  }

  // Image size: given, or the canvas scaled to at most kDefaultLongSide.
  std::uint32_t width = 0, height = 0;
  if (!o.size.empty()) {
    const auto x = o.size.find('x');
    if (x == std::string::npos || !parse_uint(std::string_view(o.size).substr(0, x), width) ||
        !parse_uint(std::string_view(o.size).substr(x + 1), height) || width == 0 || height == 0 ||
        std::uint64_t{width} * height > kMaxPixels) {
      std::cerr << "p2lrt render: --size " << o.size << ": expected WxH, e.g. 512x512 (at most 8192x8192)\n";
      return 2;
    }
  } else {
    const float long_side = std::max(rig->canvas.width, rig->canvas.height);
    const float scale = long_side > static_cast<float>(kDefaultLongSide) ? static_cast<float>(kDefaultLongSide) / long_side : 1.0f;
    width = std::max(1u, static_cast<std::uint32_t>(std::lround(rig->canvas.width * scale)));
    height = std::max(1u, static_cast<std::uint32_t>(std::lround(rig->canvas.height * scale)));
  }

  std::int32_t clip = -1;
  if (!o.clip.empty()) {
    clip = find_by_key(rig->clips, o.clip, "clip", [](const p2l::Clip& c) { return c.id; });
    if (clip < 0) return 2;
  }
  for (const std::string& e : o.expressions) {
    const std::int32_t index = find_by_key(rig->expressions, e, "expression", [](const p2l::Expression& x) { return x.id; });
    if (index < 0) return 2;
    animator.expression_add(static_cast<std::uint32_t>(index));
  }

  // The host's part of texturing: pages stored as files next to the rig are loaded here (PNG
  // only); KTX2 pages are not decoded by this command.
  p2l::Renderer renderer(model);
  for (std::uint32_t page = 0; page < rig->textures.size(); ++page) {
    const p2l::Texture& t = rig->textures[page];
    if (t.kind == p2l::TextureKind::Png) continue;
    std::string problem = "KTX2, which this command does not decode";
    if (t.kind == p2l::TextureKind::External) {
      const fs::path file = fs::path(o.input).parent_path() / t.uri;
      std::ifstream in(file, std::ios::binary);
      std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
      p2l::Image image;
      std::string error;
      if (!in && bytes.empty())
        problem = "the file " + file.string() + ", which cannot be opened";
      else if (!p2l::decode_png(bytes, image, error))
        problem = "the file " + file.string() + ": " + error;
      else if (renderer.set_texture(page, image.rgba, image.width, image.height))
        continue;
      else
        problem = "the file " + file.string() + ", which the renderer refused";
    }
    std::cerr << "p2lrt render: texture page " << page << " is " << problem << ": its meshes draw transparent\n";
  }

  Frame frame{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 4)};
  animator.evaluate(instance);
  const p2l::Affine transform = framing(*rig, instance, width, height, o.fit);
  double render_seconds = 0, update_seconds = 0;
  auto draw = [&]() {
    for (std::size_t p = 0; p < frame.rgba.size(); p += 4) std::copy(background.begin(), background.end(), frame.rgba.begin() + static_cast<std::ptrdiff_t>(p));
    const auto start = Clock::now();
    const bool ok = renderer.render(instance, frame.rgba.data(), width, height, &transform, p2l::kRenderStraight | p2l::kRenderKeep);
    render_seconds += seconds_since(start);
    return ok;
  };

  if (!animate) {
    if (!draw()) {
      std::cerr << "p2lrt render: the renderer refused a " << width << "x" << height << " image\n";
      return 1;
    }
    if (!write_png(o.output, frame)) return 1;
    if (!o.quiet)
      std::cerr << "wrote " << o.output << " (" << width << "x" << height << ", " << std::fixed << std::setprecision(1)
                << render_seconds * 1e3 << " ms to draw)\n";
    return 0;
  }

  // An animation: frame k shows the rig after k updates of 1/fps (frame 0: the start).
  std::error_code ec;
  fs::create_directories(o.output, ec);
  if (ec) {
    std::cerr << "p2lrt render: cannot create the folder " << o.output << ": " << ec.message() << "\n";
    return 1;
  }
  animator.set_behaviors(behaviors);
  animator.behavior_seed(o.seed);
  if (clip >= 0) animator.play(clip);
  const std::uint32_t stages = p2l::kStageAll & ~(o.no_physics ? p2l::kStagePhysics : 0u);
  const std::size_t count = static_cast<std::size_t>(std::lround(o.seconds * o.fps));
  const float dt = 1.0f / o.fps;
  std::vector<Frame> kept;
  if (o.sheet) kept.reserve(count);
  Progress progress(count, !o.quiet);
  std::size_t events = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const auto start = Clock::now();
    animator.update(instance, k == 0 ? 0.0f : dt, stages);
    update_seconds += seconds_since(start);
    events += animator.event_count();
    if (!draw()) {
      std::cerr << "p2lrt render: the renderer refused a " << width << "x" << height << " image\n";
      return 1;
    }
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05zu.png", k);
    if (!write_png(fs::path(o.output) / name, frame)) return 1;
    if (o.sheet) kept.push_back(frame);
    progress.update(k + 1);
  }
  progress.finish();
  if (o.sheet && !write_png(fs::path(o.output) / "sheet.png", contact_sheet(kept, o.sheet_columns, background))) return 1;
  if (!o.quiet) {
    const double n = static_cast<double>(std::max<std::size_t>(count, 1));
    std::cerr << "wrote " << count << " frames (" << width << "x" << height << ") to " << o.output
              << (o.sheet ? " and sheet.png" : "") << "\n"
              << std::fixed << std::setprecision(1) << "per frame: update " << update_seconds / n * 1e6 << " us, draw "
              << render_seconds / n * 1e3 << " ms; " << events << (events == 1 ? " clip event" : " clip events") << "\n";
  }
  return 0;
}

}  // namespace p2lrt
