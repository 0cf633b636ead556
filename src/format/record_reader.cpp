#include "format/record_reader.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "format/array_codec.hpp"

namespace p2l::format {

namespace {
constexpr int kMaxTreeDepth = 256;
constexpr bool kLittleEndian = std::endian::native == std::endian::little;

// The smallest encoding of each record (the same in both versions: a string is at least
// a 4-byte reference or length, an array at least a 4-byte count). Counts are bounded by
// them, which also makes reserving a counted vector safe: a file cannot make the reader
// hold more records than its bytes could encode.
constexpr std::size_t kRefSize = 4;
constexpr std::size_t kMinDeformer = 51;  // a rotation with no grid, channels or bindings
constexpr std::size_t kMinPart = 60;
constexpr std::size_t kMinMesh = 60;  // no geometry
constexpr std::size_t kMinGlue = 21;
constexpr std::size_t kMinPhysicsGroup = 44;
constexpr std::size_t kMinClip = 33;
constexpr std::size_t kMinChannel = 8;  // type, kind, an empty grid
constexpr std::size_t kMinBinding = 14;
constexpr std::size_t kMinSkin = 24;
constexpr std::size_t kMinSimulation = 168;
}  // namespace

bool valid_utf8(std::string_view s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len;
    std::uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (n - i < len) return false;
    for (std::size_t k = 1; k < len; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

bool read_string_table(ByteReader& r, std::vector<std::string>& out) {
  std::uint32_t n = r.count(4, "string");
  if (!r.ok()) return false;
  std::size_t offsets_at = r.pos();
  const std::uint8_t* raw = r.take((std::size_t{n} + 1) * 4, "the string offsets");
  if (!raw) return false;
  std::size_t blob_at = r.pos();
  std::size_t blob_size = r.remaining();
  const char* blob = reinterpret_cast<const char*>(r.here());
  out.clear();
  out.reserve(n);
  std::uint32_t previous = ByteReader::load_u32(raw);
  if (previous != 0) {
    r.fail_at(offsets_at, ErrorCode::BadString, "expected the first string offset to be 0");
    return false;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t next = ByteReader::load_u32(raw + 4 * (i + 1));
    if (next < previous || next > blob_size) {
      r.fail_at(offsets_at + 4 * (i + 1), ErrorCode::BadString,
                "string " + std::to_string(i) + " ends at " + std::to_string(next) +
                    ", expected an offset between " + std::to_string(previous) + " and the blob size " +
                    std::to_string(blob_size));
      return false;
    }
    std::string s(blob + previous, next - previous);
    if (!valid_utf8(s)) {
      r.fail_at(blob_at + previous, ErrorCode::BadString, "string " + std::to_string(i) + " is not valid UTF-8");
      return false;
    }
    out.push_back(std::move(s));
    previous = next;
  }
  if (previous != blob_size) {
    r.fail_at(blob_at + previous, ErrorCode::BadRecord,
              "the strings end at " + std::to_string(previous) + " but the blob has " + std::to_string(blob_size) +
                  " bytes");
    return false;
  }
  r.take(blob_size, "the string blob");
  return r.ok();
}

std::string RecordReader::str(const char* what) {
  if (v2()) {
    std::size_t at = r_.pos();
    std::uint32_t i = r_.u32(what);
    if (!r_.ok() || i == 0xFFFFFFFFu) return {};
    if (i >= strings_->size()) {
      r_.fail_at(at, ErrorCode::BadReference,
                 std::string(what) + ": string reference " + std::to_string(i) + " is past the " +
                     std::to_string(strings_->size()) + " strings of STRS");
      return {};
    }
    return (*strings_)[i];
  }
  std::uint32_t n = r_.count(1, what);
  std::size_t at = r_.pos();
  const std::uint8_t* p = r_.take(n, what);
  if (!p) return {};
  std::string s(reinterpret_cast<const char*>(p), n);
  if (!valid_utf8(s)) {
    r_.fail_at(at, ErrorCode::BadString, std::string(what) + " is not valid UTF-8");
    return {};
  }
  return s;
}

std::uint32_t RecordReader::array_header(std::initializer_list<std::uint8_t> codecs, std::uint8_t& codec,
                                         const char* what) {
  // Zero padding to a four-byte boundary of the chunk, then the 8-byte header.
  while (r_.ok() && r_.pos() % 4 != 0) {
    std::size_t at = r_.pos();
    if (r_.u8("array padding") != 0) {
      r_.fail_at(at, ErrorCode::BadRecord, std::string("expected zero padding before the array ") + what);
      return 0;
    }
  }
  std::size_t at = r_.pos();
  codec = r_.u8(what);
  r_.take(3, "the array header's reserved bytes");
  if (!r_.ok()) return 0;
  bool allowed = false;
  for (std::uint8_t c : codecs) allowed |= c == codec;
  if (!allowed) {
    std::string list;
    for (std::uint8_t c : codecs) list += (list.empty() ? "" : ", ") + std::to_string(c);
    r_.fail_at(at, ErrorCode::BadRecord,
               std::string(what) + ": array codec " + std::to_string(codec) + " is not allowed here (expected " +
                   list + ")");
    return 0;
  }
  return r_.count(codec_element_size(static_cast<ArrayCodec>(codec)), what);
}

Array<float> RecordReader::floats(const char* what) {
  std::uint8_t codec = 0;
  std::uint32_t n = v2() ? array_header({0, 1, 2}, codec, what) : r_.count(4, what);
  if (!r_.ok() || n == 0) return {};
  std::size_t at = r_.pos();
  const std::uint8_t* p = r_.take(std::size_t{n} * codec_element_size(static_cast<ArrayCodec>(codec)), what);
  if (!p) return {};
  auto non_finite = [&](std::uint32_t i) {
    r_.fail_at(at + i * codec_element_size(static_cast<ArrayCodec>(codec)), ErrorCode::NonFinite,
               std::string(what) + ": element " + std::to_string(i) + " is not a finite number");
  };
  if (codec == static_cast<std::uint8_t>(ArrayCodec::F32)) {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!std::isfinite(ByteReader::load_f32(p + 4 * i))) {
        non_finite(i);
        return {};
      }
    }
    // In place when the platform's floats are the file's and the address is aligned.
    if (v2() && kLittleEndian && reinterpret_cast<std::uintptr_t>(p) % alignof(float) == 0)
      return Array<float>::view(reinterpret_cast<const float*>(p), n, owner_);
    std::vector<float> v(n);
    for (std::uint32_t i = 0; i < n; ++i) v[i] = ByteReader::load_f32(p + 4 * i);
    return v;
  }
  std::vector<float> v(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint16_t h = static_cast<std::uint16_t>(p[2 * i] | (p[2 * i + 1] << 8));
    v[i] = codec == static_cast<std::uint8_t>(ArrayCodec::F16) ? half_to_float(h) : unorm16_to_float(h);
    if (!std::isfinite(v[i])) {
      non_finite(i);
      return {};
    }
  }
  return v;
}

IndexArray RecordReader::indices(const char* what) {
  std::uint8_t codec = static_cast<std::uint8_t>(ArrayCodec::U32);
  std::uint32_t n = v2() ? array_header({16, 17}, codec, what) : r_.count(4, what);
  if (!r_.ok() || n == 0) return {};
  bool narrow = codec == static_cast<std::uint8_t>(ArrayCodec::U16);
  const std::uint8_t* p = r_.take(std::size_t{n} * (narrow ? 2 : 4), what);
  if (!p) return {};
  if (narrow) {
    if (kLittleEndian && reinterpret_cast<std::uintptr_t>(p) % 2 == 0)
      return IndexArray::narrow(Array<std::uint16_t>::view(reinterpret_cast<const std::uint16_t*>(p), n, owner_));
    std::vector<std::uint16_t> v(n);
    for (std::uint32_t i = 0; i < n; ++i) v[i] = static_cast<std::uint16_t>(p[2 * i] | (p[2 * i + 1] << 8));
    return IndexArray::narrow(std::move(v));
  }
  if (v2() && kLittleEndian && reinterpret_cast<std::uintptr_t>(p) % 4 == 0)
    return IndexArray::wide(Array<std::uint32_t>::view(reinterpret_cast<const std::uint32_t*>(p), n, owner_));
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t i = 0; i < n; ++i) v[i] = ByteReader::load_u32(p + 4 * i);
  return IndexArray::wide(std::move(v));
}

Array<std::uint8_t> RecordReader::byte_string(const char* what) {
  std::uint8_t codec = 0;
  std::uint32_t n = v2() ? array_header({32}, codec, what) : r_.count(1, what);
  const std::uint8_t* p = r_.take(n, what);
  if (!p || n == 0) return {};
  return Array<std::uint8_t>::view(p, n, owner_);
}

Rgb RecordReader::rgb(const char* what) {
  Rgb c;
  for (float& v : c) v = r_.f32(what);
  return c;
}

std::vector<std::uint32_t> RecordReader::refs(const char* what) {
  std::uint32_t n = r_.count(kRefSize, what);
  std::vector<std::uint32_t> v;
  v.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) v.push_back(r_.u32(what));
  return v;
}

// ---- core ----------------------------------------------------------------------------

void RecordReader::canvas(Canvas& c) {
  mark(ChunkId::CANV);
  c.width = r_.f32("canvas width");
  c.height = r_.f32("canvas height");
  c.origin_x = r_.f32("canvas originX");
  c.origin_y = r_.f32("canvas originY");
  c.pixels_per_unit = r_.f32("canvas pixelsPerUnit");
}

void RecordReader::parameters(std::vector<Parameter>& out) {
  // At least: two strings (4 bytes each: a reference, or an empty inline string), three f32, flags.
  std::uint32_t n = r_.count(21, "parameter");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PARM);
    Parameter p;
    p.id = str("parameter id");
    p.name = str("parameter name");
    p.min = r_.f32("parameter min");
    p.max = r_.f32("parameter max");
    p.default_value = r_.f32("parameter default");
    std::uint8_t flags = r_.u8("parameter flags");
    p.blend = flags & 1;
    p.repeat = flags & 2;
    if (r_.ok()) out.push_back(std::move(p));
  }
}

template <class F, class ReadForm>
std::optional<Grid<F>> RecordReader::grid(ReadForm read_form) {
  std::uint16_t axis_count = r_.u16("keyform axis count");
  if (!r_.ok() || axis_count == 0xFFFF) return std::nullopt;
  Grid<F> g;
  r_.check_count(r_.pos() - 2, axis_count, 8, "keyform axis");
  for (std::uint16_t i = 0; i < axis_count && r_.ok(); ++i) {
    Axis a;
    a.parameter = r_.u32("keyform axis parameter");
    a.keys = floats("keyform axis keys");
    g.axes.push_back(std::move(a));
  }
  std::size_t at = r_.pos();
  std::uint32_t cells = r_.count(2 * std::size_t{axis_count}, "keyform cell");
  // A grid has at most one cell per key combination; capping here keeps a run of tiny
  // cells from costing more memory than the bytes that describe the axes.
  std::uint64_t combinations = 1;
  for (const Axis& a : g.axes) combinations = std::min<std::uint64_t>(combinations * a.keys.size(), 1ull << 32);
  if (r_.ok() && cells > combinations) {
    r_.fail_at(at, ErrorCode::BadStructure,
               std::to_string(cells) + " keyform cells, expected at most one per key combination (" +
                   std::to_string(combinations) + ")");
    return std::nullopt;
  }
  g.coords.reserve(std::size_t{cells} * axis_count);
  g.forms.reserve(cells);
  for (std::uint32_t c = 0; c < cells && r_.ok(); ++c) {
    for (std::uint16_t i = 0; i < axis_count; ++i) g.coords.push_back(r_.u16("keyform cell coordinate"));
    F form = read_form();
    if (r_.ok()) g.forms.push_back(std::move(form));
  }
  if (!r_.ok()) return std::nullopt;
  return g;
}

Channels RecordReader::channels() {
  Channels out;
  std::size_t at = r_.pos();
  std::uint8_t n = r_.u8("channel count");
  r_.check_count(at, n, kMinChannel, "channel");
  out.reserve(r_.ok() ? n : 0);
  for (std::uint8_t i = 0; i < n && r_.ok(); ++i) {
    at = r_.pos();
    std::uint8_t type = r_.u8("channel");
    std::uint8_t kind = r_.u8("channel kind");
    if (!r_.ok()) break;
    if (type >= kChannelTypeCount) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 "channel " + std::to_string(type) + " is unknown (expected 0..6: DrawOrder, Opacity, MultiplyColor, "
                 "ScreenColor, FlipX, FlipY, GlueIntensity)");
      break;
    }
    if (kind > 2) {
      r_.fail_at(at + 1, ErrorCode::BadRecord,
                 "channel kind " + std::to_string(kind) + " is unknown (expected 0 scalar, 1 colour, 2 flag)");
      break;
    }
    Channel ch;
    ch.type = static_cast<ChannelType>(type);
    ch.kind = static_cast<ChannelKind>(kind);
    auto g = grid<Rgb>([&] {
      Rgb v{0, 0, 0};
      if (kind == 1)
        v = rgb("channel colour");
      else if (kind == 0)
        v[0] = r_.f32("channel value");
      else
        v[0] = r_.flag("channel flag") ? 1.0f : 0.0f;
      return v;
    });
    if (!r_.ok()) break;
    if (!g) {
      r_.fail_at(at + 2, ErrorCode::BadRecord, "expected a keyform grid for the channel, found 0xFFFF (no grid)");
      break;
    }
    ch.grid = std::move(*g);
    out.push_back(std::move(ch));
  }
  return out;
}

template <class S, class ReadShape>
std::vector<Binding<S>> RecordReader::bindings(ReadShape read_shape) {
  std::vector<Binding<S>> out;
  std::uint16_t n = r_.count16(kMinBinding, "blend binding");
  out.reserve(n);
  for (std::uint16_t i = 0; i < n && r_.ok(); ++i) {
    Binding<S> b;
    b.parameter = r_.u32("blend binding parameter");
    b.keys = floats("blend binding keys");
    b.neutral = r_.u32("blend binding neutral");
    b.shapes.reserve(b.keys.size());  // bounded: the keys were read
    for (std::size_t k = 0; k < b.keys.size() && r_.ok(); ++k) {
      if (r_.flag("blend shape present"))
        b.shapes.emplace_back(read_shape());
      else
        b.shapes.emplace_back(std::nullopt);
    }
    std::uint16_t limits = r_.count16(6, "blend limit");
    for (std::uint16_t l = 0; l < limits && r_.ok(); ++l) {
      Limit lim;
      lim.parameter = r_.u32("blend limit parameter");
      std::uint16_t points = r_.count16(8, "blend limit point");
      for (std::uint16_t p = 0; p < points && r_.ok(); ++p) {
        float value = r_.f32("blend limit value");
        float weight = r_.f32("blend limit weight");
        lim.points.push_back({value, weight});
      }
      b.limits.push_back(std::move(lim));
    }
    if (r_.ok()) out.push_back(std::move(b));
  }
  return out;
}

Deformer RecordReader::deformer() {
  Deformer d;
  std::size_t at = r_.pos();
  std::uint8_t kind = r_.u8("deformer kind");
  d.id = str("deformer id");
  d.parent = r_.i32("deformer parent");
  d.part = r_.i32("deformer part");
  std::uint8_t flags = r_.u8("deformer flags");
  d.visible = flags & 1;
  d.enabled = flags & 2;
  d.flip_x = flags & 4;
  d.flip_y = flags & 8;
  d.bilinear = flags & 16;
  d.opacity = r_.f32("deformer opacity");
  d.multiply = rgb("deformer multiply");
  d.screen = rgb("deformer screen");
  if (!r_.ok()) return d;
  if (kind == 0) {
    d.kind = DeformerKind::Warp;
    d.columns = r_.u32("warp columns");
    d.rows = r_.u32("warp rows");
    d.lattice = grid<Array<float>>([&] { return floats("warp lattice points"); });
    d.channels = channels();
    d.lattice_shapes = bindings<LatticeShape>([&] {
      LatticeShape s;
      s.points = floats("warp blend points");
      s.opacity = r_.f32("warp blend opacity");
      s.multiply = rgb("warp blend multiply");
      s.screen = rgb("warp blend screen");
      return s;
    });
  } else if (kind == 1) {
    d.kind = DeformerKind::Rotation;
    d.base_angle = r_.f32("rotation base angle");
    auto pivot = [&] {
      Pivot p;
      p.x = r_.f32("pivot x");
      p.y = r_.f32("pivot y");
      p.angle = r_.f32("pivot angle");
      p.scale = r_.f32("pivot scale");
      return p;
    };
    d.pivot = grid<Pivot>(pivot);
    d.channels = channels();
    d.pivot_shapes = bindings<PivotShape>([&] {
      PivotShape s;
      s.pivot = pivot();
      s.flip_x = r_.flag("rotation blend flipX");
      s.flip_y = r_.flag("rotation blend flipY");
      s.opacity = r_.f32("rotation blend opacity");
      s.multiply = rgb("rotation blend multiply");
      s.screen = rgb("rotation blend screen");
      return s;
    });
  } else {
    r_.fail_at(at, ErrorCode::BadRecord,
               "deformer kind " + std::to_string(kind) + " is unknown (expected 0 warp or 1 rotation)");
  }
  return d;
}

void RecordReader::deformers(std::vector<Deformer>& out) {
  std::uint32_t n = r_.count(kMinDeformer, "deformer");
  out.reserve(out.size() + n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::DEFM);
    Deformer d = deformer();
    if (r_.ok()) out.push_back(std::move(d));
  }
}

Composite RecordReader::composite() {
  Composite c;
  c.blend = r_.u8("composite blend");
  c.alpha_blend = r_.u8("composite alphaBlend");
  c.mask_meshes = refs("composite mask mesh");
  c.mask_parts = refs("composite mask part");
  c.invert_mask = r_.flag("composite invertMask");
  c.opacity = r_.f32("composite opacity");
  c.multiply = rgb("composite multiply");
  c.screen = rgb("composite screen");
  return c;
}

void RecordReader::parts(std::vector<Part>& out) {
  std::uint32_t n = r_.count(kMinPart, "part");
  out.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PART);
    Part p;
    p.id = str("part id");
    p.name = str("part name");
    std::uint8_t flags = r_.u8("part flags");
    p.visible = flags & 1;
    p.sketch = flags & 2;
    p.group_mode = r_.u8("part groupMode");
    p.draw_order = r_.i32("part drawOrder");
    std::uint32_t children = r_.count(5, "part child");
    for (std::uint32_t c = 0; c < children && r_.ok(); ++c) {
      std::size_t at = r_.pos();
      std::uint8_t kind = r_.u8("part child kind");
      std::uint32_t index = r_.u32("part child");
      if (kind > 1) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   "part child kind " + std::to_string(kind) + " is unknown (expected 0 part or 1 mesh)");
        break;
      }
      p.children.push_back({static_cast<ChildKind>(kind), index});
    }
    p.channels = channels();
    p.composite = composite();
    p.shapes = bindings<PartShape>([&] {
      PartShape s;
      s.draw_order = r_.f32("part blend drawOrder");
      s.opacity = r_.f32("part blend opacity");
      s.multiply = rgb("part blend multiply");
      s.screen = rgb("part blend screen");
      return s;
    });
    if (r_.ok()) out.push_back(std::move(p));
  }
}

void RecordReader::meshes(std::vector<Mesh>& out) {
  std::uint32_t n = r_.count(kMinMesh, "mesh");
  out.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::MESH);
    Mesh m;
    m.id = str("mesh id");
    m.name = str("mesh name");
    m.parent = r_.i32("mesh parent");
    m.blend = r_.u8("mesh blend");
    m.alpha_blend = r_.u8("mesh alphaBlend");
    m.mask_meshes = refs("mesh mask");
    std::uint8_t flags = r_.u8("mesh flags");
    m.invert_mask = flags & 1;
    m.culling = flags & 2;
    m.visible = flags & 4;
    m.texture_page = r_.i32("mesh texturePage");
    if (flags & 8) {
      Geometry g;
      g.positions = floats("mesh positions");
      g.uvs = floats("mesh uvs");
      g.indices = indices("mesh indices");
      m.geometry = std::move(g);
    }
    m.keyforms = grid<Array<float>>([&] { return floats("mesh keyform deltas"); });
    m.channels = channels();
    m.draw_order = r_.f32("mesh drawOrder");
    m.opacity = r_.f32("mesh opacity");
    m.multiply = rgb("mesh multiply");
    m.screen = rgb("mesh screen");
    m.shapes = bindings<MeshShape>([&] {
      MeshShape s;
      s.deltas = floats("mesh blend deltas");
      s.draw_order = r_.f32("mesh blend drawOrder");
      s.opacity = r_.f32("mesh blend opacity");
      s.multiply = rgb("mesh blend multiply");
      s.screen = rgb("mesh blend screen");
      return s;
    });
    if (r_.ok()) out.push_back(std::move(m));
  }
}

void RecordReader::glues(std::vector<Glue>& out) {
  std::uint32_t n = r_.count(kMinGlue, "glue");
  out.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::GLUE);
    Glue g;
    g.id = str("glue id");
    g.mesh_a = r_.u32("glue meshA");
    g.mesh_b = r_.u32("glue meshB");
    g.intensity = r_.f32("glue intensity");
    std::uint32_t pairs = r_.count(16, "glue pair");
    g.pairs.reserve(pairs);
    for (std::uint32_t k = 0; k < pairs && r_.ok(); ++k) {
      GluePair p;
      p.a = r_.u32("glue vertex a");
      p.b = r_.u32("glue vertex b");
      p.weight_a = r_.f32("glue weightA");
      p.weight_b = r_.f32("glue weightB");
      g.pairs.push_back(p);
    }
    g.channels = channels();
    if (r_.ok()) out.push_back(std::move(g));
  }
}

void RecordReader::draw_group(std::vector<DrawGroup>& out, int depth) {
  if (depth > kMaxTreeDepth) {
    r_.fail(ErrorCode::BadStructure, "the draw tree is nested deeper than 256 groups");
    return;
  }
  mark(ChunkId::DRAW);
  std::size_t self = out.size();
  out.emplace_back();
  DrawGroup g;
  g.part = r_.i32("draw group part");
  g.draw_order = r_.i32("draw group drawOrder");
  g.channels = channels();
  if (r_.flag("draw group hasComposite")) g.composite = composite();
  std::uint32_t n = r_.count(5, "draw node");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    std::size_t at = r_.pos();
    std::uint8_t kind = r_.u8("draw node kind");
    if (kind == 1) {
      g.children.push_back({DrawChildKind::Mesh, r_.u32("draw node mesh")});
    } else if (kind == 0) {
      g.children.push_back({DrawChildKind::Group, static_cast<std::uint32_t>(out.size())});
      draw_group(out, depth + 1);
    } else if (r_.ok()) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 "draw node kind " + std::to_string(kind) + " is unknown (expected 0 group or 1 mesh)");
    }
  }
  out[self] = std::move(g);
}

void RecordReader::draw_tree(std::vector<DrawGroup>& out) {
  out.clear();
  draw_group(out, 0);
}

void RecordReader::textures(std::vector<Texture>& out) {
  std::uint32_t n = r_.count(v2() ? 13 : 12, "texture page");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::TEXR);
    Texture t;
    if (v2()) {
      std::size_t at = r_.pos();
      std::uint8_t kind = r_.u8("texture kind");
      if (kind > 2) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   "texture kind " + std::to_string(kind) + " is unknown (expected 0 PNG, 1 KTX2 or 2 external)");
        break;
      }
      t.kind = static_cast<TextureKind>(kind);
    }
    t.width = r_.u32("texture width");
    t.height = r_.u32("texture height");
    if (t.kind == TextureKind::External)
      t.uri = str("texture uri");
    else
      t.data = byte_string("texture payload");
    if (r_.ok()) out.push_back(std::move(t));
  }
}

PhysicsSource RecordReader::physics_source(std::uint16_t chunk_version) {
  std::size_t at = r_.pos();
  std::uint8_t s = r_.u8("physics source");
  std::uint8_t newest = chunk_version >= 2 ? 2 : 1;
  if (r_.ok() && s > newest) {
    r_.fail_at(at, ErrorCode::BadRecord,
               "physics source " + std::to_string(s) + " is unknown in PHYS version " + std::to_string(chunk_version) +
                   (newest == 1 ? " (expected 0 X or 1 angle; Y needs version 2)" : " (expected 0 X, 1 angle or 2 Y)"));
  }
  return static_cast<PhysicsSource>(s);
}

void RecordReader::physics(Rig& rig, std::uint16_t chunk_version) {
  rig.physics_fps = r_.f32("physics fps");
  std::uint32_t n = r_.count(kMinPhysicsGroup, "physics group");
  rig.physics.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PHYS);
    PhysicsGroup g;
    g.id = str("physics group id");
    g.name = str("physics group name");
    std::uint32_t inputs = r_.count(10, "physics input");
    for (std::uint32_t k = 0; k < inputs && r_.ok(); ++k) {
      PhysicsInput in;
      in.parameter = r_.u32("physics input parameter");
      in.weight = r_.f32("physics input weight");
      in.source = physics_source(chunk_version);
      in.reflect = r_.flag("physics input reflect");
      g.inputs.push_back(in);
    }
    std::uint32_t outputs = r_.count(18, "physics output");
    for (std::uint32_t k = 0; k < outputs && r_.ok(); ++k) {
      PhysicsOutput o;
      o.parameter = r_.u32("physics output parameter");
      o.vertex = r_.u32("physics output vertex");
      o.scale = r_.f32("physics output scale");
      o.weight = r_.f32("physics output weight");
      o.source = physics_source(chunk_version);
      o.reflect = r_.flag("physics output reflect");
      g.outputs.push_back(o);
    }
    std::uint32_t segments = r_.count(16, "physics segment");
    for (std::uint32_t k = 0; k < segments && r_.ok(); ++k) {
      PhysicsSegment s;
      s.length = r_.f32("physics segment length");
      s.mobility = r_.f32("physics segment mobility");
      s.delay = r_.f32("physics segment delay");
      s.acceleration = r_.f32("physics segment acceleration");
      g.segments.push_back(s);
    }
    Normalization& nz = g.normalization;
    nz.position_min = r_.f32("physics position min");
    nz.position_default = r_.f32("physics position default");
    nz.position_max = r_.f32("physics position max");
    nz.angle_min = r_.f32("physics angle min");
    nz.angle_default = r_.f32("physics angle default");
    nz.angle_max = r_.f32("physics angle max");
    if (r_.ok()) rig.physics.push_back(std::move(g));
  }
}

std::vector<CurveSegment> RecordReader::segments() {
  std::vector<CurveSegment> out;
  std::uint32_t n = r_.count(9, "curve segment");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    std::size_t at = r_.pos();
    std::uint8_t kind = r_.u8("curve segment kind");
    if (kind > 3) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 "curve segment kind " + std::to_string(kind) +
                     " is unknown (expected 0 linear, 1 Bezier, 2 stepped, 3 inverse stepped)");
      break;
    }
    CurveSegment s;
    s.kind = static_cast<SegmentKind>(kind);
    if (s.kind == SegmentKind::Bezier)
      for (float& c : s.control) c = r_.f32("Bezier control point");
    s.time = r_.f32("curve segment time");
    s.value = r_.f32("curve segment value");
    out.push_back(s);
  }
  return out;
}

void RecordReader::clips(std::vector<Clip>& out) {
  std::uint32_t n = r_.count(kMinClip, "clip");
  out.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::CLIP);
    Clip c;
    c.id = str("clip id");
    c.name = str("clip name");
    c.group = str("clip group");
    c.duration = r_.f32("clip duration");
    c.fps = r_.f32("clip fps");
    c.looping = r_.flag("clip loop");
    c.fade_in = r_.f32("clip fadeIn");
    c.fade_out = r_.f32("clip fadeOut");
    std::uint32_t curves = r_.count(16, "clip curve");
    for (std::uint32_t k = 0; k < curves && r_.ok(); ++k) {
      Curve cv;
      cv.parameter = r_.u32("curve parameter");
      cv.start_time = r_.f32("curve start time");
      cv.start_value = r_.f32("curve start value");
      cv.segments = segments();
      c.curves.push_back(std::move(cv));
    }
    if (r_.ok()) out.push_back(std::move(c));
  }
}

void RecordReader::roles(std::vector<Role>& out) {
  std::uint32_t n = r_.count(8, "role");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::ROLE);
    Role role;
    role.role = str("role name");
    role.parameters = refs("role parameter");
    if (r_.ok()) out.push_back(std::move(role));
  }
}

// ---- information -----------------------------------------------------------------------

void RecordReader::gui(Gui& out) {
  std::uint32_t n = r_.count(12, "snap list");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PGUI);
    GuiSnap s;
    s.parameter = r_.u32("snap parameter");
    s.values = floats("snap values");
    if (r_.ok()) out.snaps.push_back(std::move(s));
  }
  n = r_.count(8, "joystick");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    GuiJoystick j;
    j.horizontal = r_.u32("joystick horizontal");
    j.vertical = r_.u32("joystick vertical");
    out.joysticks.push_back(j);
  }
  n = r_.count(28, "parameter tree node");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    std::size_t at = r_.pos();
    GuiNode node;
    std::uint8_t kind = r_.u8("node kind");
    node.open = r_.flag("node open");
    std::uint8_t label = r_.u8("node label");
    r_.u8("node reserved");
    node.parameter = r_.i32("node parameter");
    node.id = str("node id");
    node.name = str("node name");
    node.preset = str("node preset");
    node.argb = r_.u32("node argb");
    node.children = r_.u32("node children");
    if (!r_.ok()) break;
    if (kind > 1 || label > 2) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 "parameter tree node kind " + std::to_string(kind) + ", label " + std::to_string(label) +
                     " (expected kind 0 or 1, label 0, 1 or 2)");
      break;
    }
    node.group = kind == 1;
    node.label = static_cast<GuiLabel>(label);
    out.nodes.push_back(std::move(node));
  }
}

void RecordReader::meta(std::vector<MetaEntry>& out) {
  std::uint32_t n = r_.count(8, "META entry");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::META);
    MetaEntry e;
    e.key = str("META key");
    e.value = str("META value");
    if (r_.ok()) out.push_back(std::move(e));
  }
}

// ---- extensions --------------------------------------------------------------------------

ExtensionHeader RecordReader::extension_header() {
  ExtensionHeader h;
  h.feature = r_.u16("extension feature bit");
  h.hooks = r_.u16("extension hooks");
  h.parameters = refs("overridden parameter");
  h.physics_groups = refs("skipped physics group");
  h.deformers = refs("replaced deformer");
  std::uint32_t n = r_.count(12, "mesh override");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    MeshOverride m;
    m.mesh = r_.u32("overridden mesh");
    m.axes = refs("overridden axis");
    m.bindings = refs("overridden binding");
    h.meshes.push_back(std::move(m));
  }
  n = r_.count(4, "dependency");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    const std::uint8_t* tag = r_.take(4, "dependency tag");
    if (tag) h.depends_on.emplace_back(reinterpret_cast<const char*>(tag), 4);
  }
  return h;
}

void RecordReader::bones(BoneChunk& out) {
  out.header = extension_header();
  std::uint32_t n = r_.count(kMinDeformer, "virtual bone");
  out.virtual_bones.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::BONE);
    Deformer d = deformer();
    if (r_.ok()) out.virtual_bones.push_back(std::move(d));
  }
  n = r_.count(8, "bone");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    BoneRef b;
    b.deformer = r_.u32("bone deformer");
    b.id = str("bone id");
    out.bones.push_back(std::move(b));
  }
  n = r_.count(16, "arc");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    Arc a;
    a.deformer = r_.u32("arc deformer");
    a.parameter = r_.u32("arc parameter");
    a.cx = r_.f32("arc cx");
    a.cy = r_.f32("arc cy");
    out.arcs.push_back(a);
  }
}

void RecordReader::skins(SkinChunk& out) {
  out.header = extension_header();
  std::uint32_t n = r_.count(kMinSkin, "skin");
  out.skins.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::SKIN);
    Skin s;
    s.mesh = r_.u32("skin mesh");
    std::uint32_t axes = r_.count(8, "skin axis");
    for (std::uint32_t k = 0; k < axes && r_.ok(); ++k) {
      Axis a;
      a.parameter = r_.u32("skin axis parameter");
      a.keys = floats("skin axis keys");
      s.axes.push_back(std::move(a));
    }
    s.bones = refs("skin bone");
    s.from = indices("skin from");
    s.to = indices("skin to");
    s.weight = floats("skin weight");
    if (r_.ok()) out.skins.push_back(std::move(s));
  }
}

void RecordReader::colliders(ColliderChunk& out) {
  out.header = extension_header();
  std::uint32_t n = r_.count(45, "collider");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::COLL);
    Collider c;
    c.id = str("collider id");
    c.capsule = r_.flag("collider capsule");
    c.deformer = r_.i32("collider deformer");
    c.mesh = r_.i32("collider mesh");
    c.vertex_a = r_.u32("collider vertexA");
    c.vertex_b = r_.u32("collider vertexB");
    c.ax = r_.f32("collider ax");
    c.ay = r_.f32("collider ay");
    c.bx = r_.f32("collider bx");
    c.by = r_.f32("collider by");
    c.radius_a = r_.f32("collider radiusA");
    c.radius_b = r_.f32("collider radiusB");
    c.friction = r_.f32("collider friction");
    if (r_.ok()) out.colliders.push_back(std::move(c));
  }
}

void RecordReader::simulations(SimulationChunk& out) {
  out.header = extension_header();
  std::uint32_t n = r_.count(kMinSimulation, "simulation");
  out.simulations.reserve(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::SIMS);
    Simulation s;
    s.id = str("simulation id");
    s.fps = r_.f32("simulation fps");
    s.substeps = r_.u32("simulation substeps");
    s.gravity_x = r_.f32("simulation gravityX");
    s.gravity_y = r_.f32("simulation gravityY");
    s.wind_x = r_.f32("simulation windX");
    s.wind_y = r_.f32("simulation windY");
    s.pin_compliance = r_.f32("simulation pinCompliance");
    std::uint32_t targets = r_.count(8, "simulation target");
    for (std::uint32_t k = 0; k < targets && r_.ok(); ++k) {
      SimTarget t;
      t.mesh = r_.u32("simulation target mesh");
      t.vertex_count = r_.u32("simulation target vertexCount");
      s.targets.push_back(t);
    }
    s.inv_mass = floats("invMass");
    s.damping = floats("damping");
    s.wind_factor = floats("windFactor");
    s.pin_weight = floats("pinWeight");
    s.goal_compliance = floats("goalCompliance");
    s.goal_offset_x = floats("goalOffsetX");
    s.goal_offset_y = floats("goalOffsetY");
    s.anchor_mesh = indices("anchorMesh");
    s.anchor_vertex = indices("anchorVertex");
    s.stretch_a = indices("stretchA");
    s.stretch_b = indices("stretchB");
    s.stretch_rest = floats("stretch rest");
    s.stretch_compliance = floats("stretch compliance");
    s.compression_compliance = floats("compressionCompliance");
    s.tri_a = indices("triA");
    s.tri_b = indices("triB");
    s.tri_c = indices("triC");
    s.area_compliance = floats("areaCompliance");
    s.bend_t1 = indices("bendT1");
    s.bend_t2 = indices("bendT2");
    s.bend_compliance = floats("bendCompliance");
    s.weld_a = indices("weldA");
    s.weld_b = indices("weldB");
    s.weld_weight_a = floats("weld weightA");
    s.weld_weight_b = floats("weld weightB");
    s.weld_compliance = floats("weldCompliance");
    s.long_particle = indices("longParticle");
    s.long_root = indices("longRoot");
    s.long_max_distance = floats("maxDistance");
    s.parameters = refs("simulation parameter");
    s.physics_groups = refs("simulation physics group");
    std::uint32_t statics = r_.count(12, "simulation static");
    for (std::uint32_t k = 0; k < statics && r_.ok(); ++k) {
      SimStatic st;
      st.parameter = r_.u32("static parameter");
      st.keys = floats("static keys");
      std::uint32_t meshes = r_.count(4, "static mesh");
      for (std::uint32_t m = 0; m < meshes && r_.ok(); ++m) {
        SimStaticMesh sm;
        sm.mesh = r_.u32("static mesh");
        for (std::size_t key = 0; key < st.keys.size() && r_.ok(); ++key) sm.offsets.push_back(floats("static offsets"));
        st.meshes.push_back(std::move(sm));
      }
      s.statics.push_back(std::move(st));
    }
    s.colliders = refs("simulation collider");
    if (r_.ok()) out.simulations.push_back(std::move(s));
  }
}

// ---- attached ------------------------------------------------------------------------------

void RecordReader::expressions(std::vector<Expression>& out) {
  std::uint32_t n = r_.count(20, "expression");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::EXPR);
    Expression e;
    e.id = str("expression id");
    e.name = str("expression name");
    e.fade_in = r_.f32("expression fadeIn");
    e.fade_out = r_.f32("expression fadeOut");
    std::uint32_t values = r_.count(9, "expression value");
    for (std::uint32_t k = 0; k < values && r_.ok(); ++k) {
      ExpressionValue v;
      v.parameter = r_.u32("expression parameter");
      std::size_t at = r_.pos();
      std::uint8_t blend = r_.u8("expression blend");
      if (r_.ok() && blend > 2) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   "expression blend " + std::to_string(blend) + " is unknown (expected 0 add, 1 multiply, 2 overwrite)");
        break;
      }
      v.blend = static_cast<ExpressionBlend>(blend);
      v.value = r_.f32("expression value");
      e.values.push_back(v);
    }
    if (r_.ok()) out.push_back(std::move(e));
  }
}

void RecordReader::hit_areas(std::vector<HitArea>& out) {
  std::uint32_t n = r_.count(12, "hit area");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::HITA);
    HitArea h;
    h.id = str("hit area id");
    h.name = str("hit area name");
    h.meshes = refs("hit area mesh");
    if (r_.ok()) out.push_back(std::move(h));
  }
}

void RecordReader::user_data(std::vector<UserData>& out) {
  std::uint32_t n = r_.count(9, "user data");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::UDAT);
    UserData u;
    std::size_t at = r_.pos();
    u.kind = r_.u8("user data kind");
    if (r_.ok() && u.kind != 0) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 "user data kind " + std::to_string(u.kind) + " is unknown (expected 0, a mesh)");
      break;
    }
    u.target = r_.u32("user data target");
    u.value = str("user data value");
    if (r_.ok()) out.push_back(std::move(u));
  }
}

void RecordReader::pose(Pose& out) {
  out.fade_in = r_.f32("pose fadeIn");
  std::uint32_t n = r_.count(4, "pose group");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::POSE);
    PoseGroup g;
    std::uint32_t entries = r_.count(8, "pose entry");
    for (std::uint32_t k = 0; k < entries && r_.ok(); ++k) {
      PoseEntry e;
      e.part = r_.u32("pose part");
      e.linked = refs("pose linked part");
      g.entries.push_back(std::move(e));
    }
    if (r_.ok()) out.groups.push_back(std::move(g));
  }
}

void RecordReader::clip_extensions(std::vector<ClipExtension>& out) {
  std::uint32_t n = r_.count(16, "clip extension");
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::CEXT);
    ClipExtension x;
    x.clip = r_.u32("clip");
    std::uint32_t events = r_.count(8, "clip event");
    for (std::uint32_t k = 0; k < events && r_.ok(); ++k) {
      ClipEvent e;
      e.time = r_.f32("event time");
      e.value = str("event value");
      x.events.push_back(std::move(e));
    }
    std::uint32_t curves = r_.count(25, "extra curve");
    for (std::uint32_t k = 0; k < curves && r_.ok(); ++k) {
      ClipExtraCurve c;
      std::size_t at = r_.pos();
      std::uint8_t target = r_.u8("curve target");
      if (r_.ok() && (target < 1 || target > 4)) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   "clip curve target " + std::to_string(target) +
                       " is unknown (expected 1 part opacity, 2 model opacity, 3 eye blink, 4 lip sync)");
        break;
      }
      c.target = static_cast<ClipCurveTarget>(target);
      c.part = r_.i32("curve part");
      c.fade_in = r_.f32("curve fadeIn");
      c.fade_out = r_.f32("curve fadeOut");
      c.start_time = r_.f32("curve start time");
      c.start_value = r_.f32("curve start value");
      c.segments = segments();
      x.curves.push_back(std::move(c));
    }
    std::uint32_t fades = r_.count(12, "curve fade");
    for (std::uint32_t k = 0; k < fades && r_.ok(); ++k) {
      ClipCurveFade f;
      f.curve = r_.u32("faded curve");
      f.fade_in = r_.f32("curve fadeIn");
      f.fade_out = r_.f32("curve fadeOut");
      x.fades.push_back(f);
    }
    if (r_.ok()) out.push_back(std::move(x));
  }
}

}  // namespace p2l::format
