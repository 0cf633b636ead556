#include "format/record_reader.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/message.hpp"
#include "base/sized.hpp"
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

// Record lists are sized from their counts and filled in place (base/sized.hpp says why).
// The counts are bounded by the bytes that remain (ByteReader::count), so sizing a list up
// front is as safe as reserving it was. A record a failure leaves half-read stays in its
// list, but a load that fails gives no rig.

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
  sized(out, n);
  std::uint32_t previous = ByteReader::load_u32(raw);
  if (previous != 0) {
    r.fail_at(offsets_at, ErrorCode::BadString, "expected the first string offset to be 0");
    return false;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t next = ByteReader::load_u32(raw + 4 * (i + 1));
    if (next < previous || next > blob_size) {
      r.fail_at(offsets_at + 4 * (i + 1), ErrorCode::BadString,
                message("string {} ends at {}, expected an offset between {} and the blob size {}", i, next, previous,
                        blob_size));
      return false;
    }
    out[i].assign(blob + previous, next - previous);
    if (!valid_utf8(out[i])) {
      r.fail_at(blob_at + previous, ErrorCode::BadString, message("string {} is not valid UTF-8", i));
      return false;
    }
    previous = next;
  }
  if (previous != blob_size) {
    r.fail_at(blob_at + previous, ErrorCode::BadRecord,
              message("the strings end at {} but the blob has {} bytes", previous, blob_size));
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
                 message("{}: string reference {} is past the {} strings of STRS", what, i, strings_->size()));
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
    r_.fail_at(at, ErrorCode::BadString, message("{} is not valid UTF-8", what));
    return {};
  }
  return s;
}

// Into a field: the value moves in here, once, rather than at each of the record fields.
void RecordReader::str(std::string& out, const char* what) { out = str(what); }
void RecordReader::floats(Array<float>& out, const char* what) { out = floats(what); }
void RecordReader::indices(IndexArray& out, const char* what) { out = indices(what); }

std::uint32_t RecordReader::array_header(std::initializer_list<std::uint8_t> codecs, std::uint8_t& codec,
                                         const char* what) {
  // Zero padding to a four-byte boundary of the chunk, then the 8-byte header.
  while (r_.ok() && r_.pos() % 4 != 0) {
    std::size_t at = r_.pos();
    if (r_.u8("array padding") != 0) {
      r_.fail_at(at, ErrorCode::BadRecord, message("expected zero padding before the array {}", what));
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
    for (std::uint8_t c : codecs) list += message(list.empty() ? "{}" : ", {}", c);
    r_.fail_at(at, ErrorCode::BadRecord,
               message("{}: array codec {} is not allowed here (expected {})", what, codec, list));
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
               message("{}: element {} is not a finite number", what, i));
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
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) v[i] = r_.u32(what);
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
  if (version_ >= 2) {
    const std::size_t at = r_.pos();
    const std::uint8_t flags = r_.u8("canvas flags");
    if (r_.ok() && (flags & ~7u))
      r_.fail_at(at, ErrorCode::BadRecord,
                 message("canvas flags {} set unknown bits (expected bit 0 y up, bit 1 blend-shape clamps, bit 2 keyform "
                         "colours)",
                         flags));
    c.y_up = flags & 1;
    c.blend_clamp = flags & 2;
    c.keyform_colors = flags & 4;
  }
}

void RecordReader::parameters(std::vector<Parameter>& out) {
  // At least: two strings (4 bytes each: a reference, or an empty inline string), three f32, flags.
  std::uint32_t n = r_.count(21, "parameter");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PARM);
    Parameter& p = out[i];
    str(p.id, "parameter id");
    str(p.name, "parameter name");
    p.min = r_.f32("parameter min");
    p.max = r_.f32("parameter max");
    p.default_value = r_.f32("parameter default");
    std::uint8_t flags = r_.u8("parameter flags");
    p.blend = flags & 1;
    p.repeat = flags & 2;
    if (version_ >= 2) p.decimals = r_.u8("parameter decimals");
  }
}

template <class F, class ReadForm>
bool RecordReader::grid(Grid<F>& g, ReadForm read_form) {
  std::uint16_t axis_count = r_.u16("keyform axis count");
  if (!r_.ok() || axis_count == 0xFFFF) return false;
  r_.check_count(r_.pos() - 2, axis_count, 8, "keyform axis");
  if (!r_.ok()) return false;
  sized(g.axes, axis_count);
  for (std::uint16_t i = 0; i < axis_count && r_.ok(); ++i) {
    Axis& a = g.axes[i];
    a.parameter = r_.u32("keyform axis parameter");
    floats(a.keys, "keyform axis keys");
  }
  std::size_t at = r_.pos();
  std::uint32_t cells = r_.count(2 * std::size_t{axis_count}, "keyform cell");
  // A grid has at most one cell per key combination; capping here keeps a run of tiny
  // cells from costing more memory than the bytes that describe the axes.
  std::uint64_t combinations = 1;
  for (const Axis& a : g.axes) combinations = std::min<std::uint64_t>(combinations * a.keys.size(), 1ull << 32);
  if (r_.ok() && cells > combinations) {
    r_.fail_at(at, ErrorCode::BadStructure,
               message("{} keyform cells, expected at most one per key combination ({})", cells, combinations));
    return false;
  }
  sized(g.coords, std::size_t{cells} * axis_count);
  sized(g.forms, cells);
  for (std::uint32_t c = 0; c < cells && r_.ok(); ++c) {
    for (std::uint16_t i = 0; i < axis_count; ++i) g.coords[std::size_t{c} * axis_count + i] = r_.u16("keyform cell coordinate");
    g.forms[c] = read_form();
  }
  return r_.ok();
}

void RecordReader::channels(Channels& out) {
  std::size_t at = r_.pos();
  std::uint8_t n = r_.u8("channel count");
  r_.check_count(at, n, kMinChannel, "channel");
  sized(out, r_.ok() ? n : 0);
  for (std::uint8_t i = 0; i < n && r_.ok(); ++i) {
    at = r_.pos();
    std::uint8_t type = r_.u8("channel");
    std::uint8_t kind = r_.u8("channel kind");
    if (!r_.ok()) break;
    if (type >= kChannelTypeCount) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 message("channel {} is unknown (expected 0..6: DrawOrder, Opacity, MultiplyColor, ScreenColor, FlipX, "
                         "FlipY, GlueIntensity)",
                         type));
      break;
    }
    if (kind > 2) {
      r_.fail_at(at + 1, ErrorCode::BadRecord,
                 message("channel kind {} is unknown (expected 0 scalar, 1 colour, 2 flag)", kind));
      break;
    }
    Channel& ch = out[i];
    ch.type = static_cast<ChannelType>(type);
    ch.kind = static_cast<ChannelKind>(kind);
    bool present = grid(ch.grid, [&] {
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
    if (!present) {
      r_.fail_at(at + 2, ErrorCode::BadRecord, "expected a keyform grid for the channel, found 0xFFFF (no grid)");
      break;
    }
  }
}

template <class S, class ReadShape>
void RecordReader::bindings(std::vector<Binding<S>>& out, ReadShape read_shape) {
  std::uint16_t n = r_.count16(kMinBinding, "blend binding");
  sized(out, n);
  for (std::uint16_t i = 0; i < n && r_.ok(); ++i) {
    Binding<S>& b = out[i];
    b.parameter = r_.u32("blend binding parameter");
    floats(b.keys, "blend binding keys");
    b.neutral = r_.u32("blend binding neutral");
    sized(b.shapes, b.keys.size());  // bounded: the keys were read
    for (std::size_t k = 0; k < b.keys.size() && r_.ok(); ++k)
      if (r_.flag("blend shape present")) b.shapes[k] = read_shape();
    std::uint16_t limits = r_.count16(6, "blend limit");
    sized(b.limits, limits);
    for (std::uint16_t l = 0; l < limits && r_.ok(); ++l) {
      Limit& lim = b.limits[l];
      lim.parameter = r_.u32("blend limit parameter");
      std::uint16_t points = r_.count16(8, "blend limit point");
      sized(lim.points, points);
      for (std::uint16_t p = 0; p < points && r_.ok(); ++p) {
        lim.points[p][0] = r_.f32("blend limit value");
        lim.points[p][1] = r_.f32("blend limit weight");
      }
    }
  }
}

void RecordReader::deformer(Deformer& d) {
  std::size_t at = r_.pos();
  std::uint8_t kind = r_.u8("deformer kind");
  str(d.id, "deformer id");
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
  if (!r_.ok()) return;
  if (kind == 0) {
    d.kind = DeformerKind::Warp;
    d.columns = r_.u32("warp columns");
    d.rows = r_.u32("warp rows");
    if (!grid(d.lattice.emplace(), [&] { return floats("warp lattice points"); })) d.lattice.reset();
    channels(d.channels);
    bindings(d.lattice_shapes, [&] {
      LatticeShape s;
      floats(s.points, "warp blend points");
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
    if (!grid(d.pivot.emplace(), pivot)) d.pivot.reset();
    channels(d.channels);
    bindings(d.pivot_shapes, [&] {
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
               message("deformer kind {} is unknown (expected 0 warp or 1 rotation)", kind));
  }
}

void RecordReader::deformers(std::vector<Deformer>& out) {
  std::uint32_t n = r_.count(kMinDeformer, "deformer");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::DEFM);
    deformer(out[i]);
  }
}

void RecordReader::composite(Composite& c) {
  c.blend = r_.u8("composite blend");
  c.alpha_blend = r_.u8("composite alphaBlend");
  c.mask_meshes = refs("composite mask mesh");
  c.mask_parts = refs("composite mask part");
  c.invert_mask = r_.flag("composite invertMask");
  c.opacity = r_.f32("composite opacity");
  c.multiply = rgb("composite multiply");
  c.screen = rgb("composite screen");
}

void RecordReader::parts(std::vector<Part>& out) {
  std::uint32_t n = r_.count(kMinPart, "part");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PART);
    Part& p = out[i];
    str(p.id, "part id");
    str(p.name, "part name");
    std::uint8_t flags = r_.u8("part flags");
    p.visible = flags & 1;
    p.sketch = flags & 2;
    if (version_ >= 2) p.enabled = !(flags & 4);
    p.group_mode = r_.u8("part groupMode");
    p.draw_order = r_.i32("part drawOrder");
    std::uint32_t children = r_.count(5, "part child");
    sized(p.children, children);
    for (std::uint32_t c = 0; c < children && r_.ok(); ++c) {
      std::size_t at = r_.pos();
      std::uint8_t kind = r_.u8("part child kind");
      std::uint32_t index = r_.u32("part child");
      if (kind > 1) {
        r_.fail_at(at, ErrorCode::BadRecord, message("part child kind {} is unknown (expected 0 part or 1 mesh)", kind));
        break;
      }
      p.children[c] = {static_cast<ChildKind>(kind), index};
    }
    channels(p.channels);
    composite(p.composite);
    bindings(p.shapes, [&] {
      PartShape s;
      s.draw_order = r_.f32("part blend drawOrder");
      s.opacity = r_.f32("part blend opacity");
      s.multiply = rgb("part blend multiply");
      s.screen = rgb("part blend screen");
      return s;
    });
  }
}

void RecordReader::meshes(std::vector<Mesh>& out) {
  std::uint32_t n = r_.count(kMinMesh, "mesh");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::MESH);
    Mesh& m = out[i];
    str(m.id, "mesh id");
    str(m.name, "mesh name");
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
      Geometry& g = m.geometry.emplace();
      floats(g.positions, "mesh positions");
      floats(g.uvs, "mesh uvs");
      indices(g.indices, "mesh indices");
    }
    if (!grid(m.keyforms.emplace(), [&] { return floats("mesh keyform deltas"); })) m.keyforms.reset();
    channels(m.channels);
    m.draw_order = r_.f32("mesh drawOrder");
    m.opacity = r_.f32("mesh opacity");
    m.multiply = rgb("mesh multiply");
    m.screen = rgb("mesh screen");
    bindings(m.shapes, [&] {
      MeshShape s;
      floats(s.deltas, "mesh blend deltas");
      s.draw_order = r_.f32("mesh blend drawOrder");
      s.opacity = r_.f32("mesh blend opacity");
      s.multiply = rgb("mesh blend multiply");
      s.screen = rgb("mesh blend screen");
      return s;
    });
  }
}

void RecordReader::glues(std::vector<Glue>& out) {
  std::uint32_t n = r_.count(kMinGlue, "glue");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::GLUE);
    Glue& g = out[i];
    str(g.id, "glue id");
    g.mesh_a = r_.u32("glue meshA");
    g.mesh_b = r_.u32("glue meshB");
    g.intensity = r_.f32("glue intensity");
    std::uint32_t pairs = r_.count(16, "glue pair");
    sized(g.pairs, pairs);
    for (std::uint32_t k = 0; k < pairs && r_.ok(); ++k) {
      GluePair& p = g.pairs[k];
      p.a = r_.u32("glue vertex a");
      p.b = r_.u32("glue vertex b");
      p.weight_a = r_.f32("glue weightA");
      p.weight_b = r_.f32("glue weightB");
    }
    channels(g.channels);
    if (version_ >= 2) bindings(g.shapes, [&] { return GlueShape{r_.f32("glue blend intensity")}; });
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
  if (version_ >= 2) g.floor_order = r_.i32("draw group floorOrder");
  channels(g.channels);
  if (r_.flag("draw group hasComposite")) composite(g.composite.emplace());
  std::uint32_t n = r_.count(5, "draw node");
  sized(g.children, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    std::size_t at = r_.pos();
    std::uint8_t kind = r_.u8("draw node kind");
    if (kind == 1) {
      g.children[i] = {DrawChildKind::Mesh, r_.u32("draw node mesh")};
    } else if (kind == 0) {
      g.children[i] = {DrawChildKind::Group, static_cast<std::uint32_t>(out.size())};
      draw_group(out, depth + 1);
    } else if (r_.ok()) {
      r_.fail_at(at, ErrorCode::BadRecord, message("draw node kind {} is unknown (expected 0 group or 1 mesh)", kind));
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
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::TEXR);
    Texture& t = out[i];
    if (v2()) {
      std::size_t at = r_.pos();
      std::uint8_t kind = r_.u8("texture kind");
      if (kind > 2) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   message("texture kind {} is unknown (expected 0 PNG, 1 KTX2 or 2 external)", kind));
        break;
      }
      t.kind = static_cast<TextureKind>(kind);
    }
    t.width = r_.u32("texture width");
    t.height = r_.u32("texture height");
    if (t.kind == TextureKind::External)
      str(t.uri, "texture uri");
    else
      t.data = byte_string("texture payload");
  }
}

PhysicsSource RecordReader::physics_source(std::uint16_t chunk_version) {
  std::size_t at = r_.pos();
  std::uint8_t s = r_.u8("physics source");
  std::uint8_t newest = chunk_version >= 2 ? 2 : 1;
  if (r_.ok() && s > newest) {
    r_.fail_at(at, ErrorCode::BadRecord,
               message(newest == 1 ? "physics source {} is unknown in PHYS version {} (expected 0 X or 1 angle; Y needs "
                                     "version 2)"
                                   : "physics source {} is unknown in PHYS version {} (expected 0 X, 1 angle or 2 Y)",
                       s, chunk_version));
  }
  return static_cast<PhysicsSource>(s);
}

void RecordReader::physics(Rig& rig, std::uint16_t chunk_version) {
  rig.physics_fps = r_.f32("physics fps");
  std::uint32_t n = r_.count(kMinPhysicsGroup, "physics group");
  sized(rig.physics, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PHYS);
    PhysicsGroup& g = rig.physics[i];
    str(g.id, "physics group id");
    str(g.name, "physics group name");
    std::uint32_t inputs = r_.count(10, "physics input");
    sized(g.inputs, inputs);
    for (std::uint32_t k = 0; k < inputs && r_.ok(); ++k) {
      PhysicsInput& in = g.inputs[k];
      in.parameter = r_.u32("physics input parameter");
      in.weight = r_.f32("physics input weight");
      in.source = physics_source(chunk_version);
      in.reflect = r_.flag("physics input reflect");
    }
    std::uint32_t outputs = r_.count(18, "physics output");
    sized(g.outputs, outputs);
    for (std::uint32_t k = 0; k < outputs && r_.ok(); ++k) {
      PhysicsOutput& o = g.outputs[k];
      o.parameter = r_.u32("physics output parameter");
      o.vertex = r_.u32("physics output vertex");
      o.scale = r_.f32("physics output scale");
      o.weight = r_.f32("physics output weight");
      o.source = physics_source(chunk_version);
      o.reflect = r_.flag("physics output reflect");
    }
    std::uint32_t segments = r_.count(16, "physics segment");
    sized(g.segments, segments);
    for (std::uint32_t k = 0; k < segments && r_.ok(); ++k) {
      PhysicsSegment& s = g.segments[k];
      s.length = r_.f32("physics segment length");
      s.mobility = r_.f32("physics segment mobility");
      s.delay = r_.f32("physics segment delay");
      s.acceleration = r_.f32("physics segment acceleration");
    }
    Normalization& nz = g.normalization;
    nz.position_min = r_.f32("physics position min");
    nz.position_default = r_.f32("physics position default");
    nz.position_max = r_.f32("physics position max");
    nz.angle_min = r_.f32("physics angle min");
    nz.angle_default = r_.f32("physics angle default");
    nz.angle_max = r_.f32("physics angle max");
  }
}

void RecordReader::segments(std::vector<CurveSegment>& out) {
  std::uint32_t n = r_.count(9, "curve segment");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    std::size_t at = r_.pos();
    std::uint8_t kind = r_.u8("curve segment kind");
    if (kind > 3) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 message("curve segment kind {} is unknown (expected 0 linear, 1 Bezier, 2 stepped, 3 inverse stepped)",
                         kind));
      break;
    }
    CurveSegment& s = out[i];
    s.kind = static_cast<SegmentKind>(kind);
    if (s.kind == SegmentKind::Bezier)
      for (float& c : s.control) c = r_.f32("Bezier control point");
    s.time = r_.f32("curve segment time");
    s.value = r_.f32("curve segment value");
  }
}

void RecordReader::clips(std::vector<Clip>& out) {
  std::uint32_t n = r_.count(kMinClip, "clip");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::CLIP);
    Clip& c = out[i];
    str(c.id, "clip id");
    str(c.name, "clip name");
    str(c.group, "clip group");
    c.duration = r_.f32("clip duration");
    c.fps = r_.f32("clip fps");
    c.looping = r_.flag("clip loop");
    c.fade_in = r_.f32("clip fadeIn");
    c.fade_out = r_.f32("clip fadeOut");
    std::uint32_t curves = r_.count(16, "clip curve");
    sized(c.curves, curves);
    for (std::uint32_t k = 0; k < curves && r_.ok(); ++k) {
      Curve& cv = c.curves[k];
      cv.parameter = r_.u32("curve parameter");
      cv.start_time = r_.f32("curve start time");
      cv.start_value = r_.f32("curve start value");
      segments(cv.segments);
    }
  }
}

void RecordReader::roles(std::vector<Role>& out) {
  std::uint32_t n = r_.count(8, "role");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::ROLE);
    Role& role = out[i];
    str(role.role, "role name");
    role.parameters = refs("role parameter");
  }
}

// ---- information -----------------------------------------------------------------------

void RecordReader::gui(Gui& out) {
  std::uint32_t n = r_.count(12, "snap list");
  sized(out.snaps, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::PGUI);
    GuiSnap& s = out.snaps[i];
    s.parameter = r_.u32("snap parameter");
    floats(s.values, "snap values");
  }
  n = r_.count(8, "joystick");
  sized(out.joysticks, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    GuiJoystick& j = out.joysticks[i];
    j.horizontal = r_.u32("joystick horizontal");
    j.vertical = r_.u32("joystick vertical");
  }
  n = r_.count(28, "parameter tree node");
  sized(out.nodes, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    std::size_t at = r_.pos();
    GuiNode& node = out.nodes[i];
    std::uint8_t kind = r_.u8("node kind");
    node.open = r_.flag("node open");
    std::uint8_t label = r_.u8("node label");
    r_.u8("node reserved");
    node.parameter = r_.i32("node parameter");
    str(node.id, "node id");
    str(node.name, "node name");
    str(node.preset, "node preset");
    node.argb = r_.u32("node argb");
    node.children = r_.u32("node children");
    if (!r_.ok()) break;
    if (kind > 1 || label > 2) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 message("parameter tree node kind {}, label {} (expected kind 0 or 1, label 0, 1 or 2)", kind, label));
      break;
    }
    node.group = kind == 1;
    node.label = static_cast<GuiLabel>(label);
  }
}

void RecordReader::meta(std::vector<MetaEntry>& out) {
  std::uint32_t n = r_.count(8, "META entry");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::META);
    MetaEntry& e = out[i];
    str(e.key, "META key");
    str(e.value, "META value");
  }
}

// ---- extensions --------------------------------------------------------------------------

void RecordReader::extension_header(ExtensionHeader& h) {
  h.feature = r_.u16("extension feature bit");
  h.hooks = r_.u16("extension hooks");
  h.parameters = refs("overridden parameter");
  h.physics_groups = refs("skipped physics group");
  h.deformers = refs("replaced deformer");
  std::uint32_t n = r_.count(12, "mesh override");
  sized(h.meshes, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    MeshOverride& m = h.meshes[i];
    m.mesh = r_.u32("overridden mesh");
    m.axes = refs("overridden axis");
    m.bindings = refs("overridden binding");
  }
  n = r_.count(4, "dependency");
  sized(h.depends_on, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    const std::uint8_t* tag = r_.take(4, "dependency tag");
    if (tag) h.depends_on[i].assign(reinterpret_cast<const char*>(tag), 4);
  }
}

void RecordReader::bones(BoneChunk& out) {
  extension_header(out.header);
  std::uint32_t n = r_.count(kMinDeformer, "virtual bone");
  sized(out.virtual_bones, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::BONE);
    deformer(out.virtual_bones[i]);
  }
  n = r_.count(8, "bone");
  sized(out.bones, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    BoneRef& b = out.bones[i];
    b.deformer = r_.u32("bone deformer");
    str(b.id, "bone id");
  }
  n = r_.count(16, "arc");
  sized(out.arcs, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    Arc& a = out.arcs[i];
    a.deformer = r_.u32("arc deformer");
    a.parameter = r_.u32("arc parameter");
    a.cx = r_.f32("arc cx");
    a.cy = r_.f32("arc cy");
  }
}

void RecordReader::skins(SkinChunk& out) {
  extension_header(out.header);
  std::uint32_t n = r_.count(kMinSkin, "skin");
  sized(out.skins, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::SKIN);
    Skin& s = out.skins[i];
    s.mesh = r_.u32("skin mesh");
    std::uint32_t axes = r_.count(8, "skin axis");
    sized(s.axes, axes);
    for (std::uint32_t k = 0; k < axes && r_.ok(); ++k) {
      Axis& a = s.axes[k];
      a.parameter = r_.u32("skin axis parameter");
      floats(a.keys, "skin axis keys");
    }
    s.bones = refs("skin bone");
    indices(s.from, "skin from");
    indices(s.to, "skin to");
    floats(s.weight, "skin weight");
  }
}

void RecordReader::colliders(ColliderChunk& out) {
  extension_header(out.header);
  std::uint32_t n = r_.count(45, "collider");
  sized(out.colliders, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::COLL);
    Collider& c = out.colliders[i];
    str(c.id, "collider id");
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
  }
}

void RecordReader::simulations(SimulationChunk& out) {
  extension_header(out.header);
  std::uint32_t n = r_.count(kMinSimulation, "simulation");
  sized(out.simulations, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::SIMS);
    Simulation& s = out.simulations[i];
    str(s.id, "simulation id");
    s.fps = r_.f32("simulation fps");
    s.substeps = r_.u32("simulation substeps");
    s.gravity_x = r_.f32("simulation gravityX");
    s.gravity_y = r_.f32("simulation gravityY");
    s.wind_x = r_.f32("simulation windX");
    s.wind_y = r_.f32("simulation windY");
    s.pin_compliance = r_.f32("simulation pinCompliance");
    std::uint32_t targets = r_.count(8, "simulation target");
    sized(s.targets, targets);
    for (std::uint32_t k = 0; k < targets && r_.ok(); ++k) {
      SimTarget& t = s.targets[k];
      t.mesh = r_.u32("simulation target mesh");
      t.vertex_count = r_.u32("simulation target vertexCount");
    }
    floats(s.inv_mass, "invMass");
    floats(s.damping, "damping");
    floats(s.wind_factor, "windFactor");
    floats(s.pin_weight, "pinWeight");
    floats(s.goal_compliance, "goalCompliance");
    floats(s.goal_offset_x, "goalOffsetX");
    floats(s.goal_offset_y, "goalOffsetY");
    indices(s.anchor_mesh, "anchorMesh");
    indices(s.anchor_vertex, "anchorVertex");
    indices(s.stretch_a, "stretchA");
    indices(s.stretch_b, "stretchB");
    floats(s.stretch_rest, "stretch rest");
    floats(s.stretch_compliance, "stretch compliance");
    floats(s.compression_compliance, "compressionCompliance");
    indices(s.tri_a, "triA");
    indices(s.tri_b, "triB");
    indices(s.tri_c, "triC");
    floats(s.area_compliance, "areaCompliance");
    indices(s.bend_t1, "bendT1");
    indices(s.bend_t2, "bendT2");
    floats(s.bend_compliance, "bendCompliance");
    indices(s.weld_a, "weldA");
    indices(s.weld_b, "weldB");
    floats(s.weld_weight_a, "weld weightA");
    floats(s.weld_weight_b, "weld weightB");
    floats(s.weld_compliance, "weldCompliance");
    indices(s.long_particle, "longParticle");
    indices(s.long_root, "longRoot");
    floats(s.long_max_distance, "maxDistance");
    s.parameters = refs("simulation parameter");
    s.physics_groups = refs("simulation physics group");
    std::uint32_t statics = r_.count(12, "simulation static");
    sized(s.statics, statics);
    for (std::uint32_t k = 0; k < statics && r_.ok(); ++k) {
      SimStatic& st = s.statics[k];
      st.parameter = r_.u32("static parameter");
      floats(st.keys, "static keys");
      std::uint32_t meshes = r_.count(4, "static mesh");
      sized(st.meshes, meshes);
      for (std::uint32_t m = 0; m < meshes && r_.ok(); ++m) {
        SimStaticMesh& sm = st.meshes[m];
        sm.mesh = r_.u32("static mesh");
        sized(sm.offsets, st.keys.size());  // bounded: the keys were read
        for (std::size_t key = 0; key < st.keys.size() && r_.ok(); ++key) sm.offsets[key] = floats("static offsets");
      }
    }
    s.colliders = refs("simulation collider");
  }
}

// ---- attached ------------------------------------------------------------------------------

void RecordReader::expressions(std::vector<Expression>& out, std::uint16_t chunk_version) {
  std::uint32_t n = r_.count(chunk_version >= 2 ? 21 : 20, "expression");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::EXPR);
    Expression& e = out[i];
    str(e.id, "expression id");
    str(e.name, "expression name");
    e.fade_in = r_.f32("expression fadeIn");
    e.fade_out = r_.f32("expression fadeOut");
    std::uint32_t values = r_.count(9, "expression value");
    sized(e.values, values);
    for (std::uint32_t k = 0; k < values && r_.ok(); ++k) {
      ExpressionValue& v = e.values[k];
      v.parameter = r_.u32("expression parameter");
      std::size_t at = r_.pos();
      std::uint8_t blend = r_.u8("expression blend");
      if (r_.ok() && blend > 2) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   message("expression blend {} is unknown (expected 0 add, 1 multiply, 2 overwrite)", blend));
        break;
      }
      v.blend = static_cast<ExpressionBlend>(blend);
      v.value = r_.f32("expression value");
    }
    if (chunk_version < 2) continue;
    // Version 2 appends the expression's flags.
    const std::size_t at = r_.pos();
    const std::uint8_t flags = r_.u8("expression flags");
    if (r_.ok() && (flags & ~kExpressionFlagCubism)) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 message("expression flags {} set unknown bits (expected bit 0 Cubism playback)", flags));
      break;
    }
    e.cubism_playback = (flags & kExpressionFlagCubism) != 0;
  }
}

void RecordReader::hit_areas(std::vector<HitArea>& out) {
  std::uint32_t n = r_.count(12, "hit area");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::HITA);
    HitArea& h = out[i];
    str(h.id, "hit area id");
    str(h.name, "hit area name");
    h.meshes = refs("hit area mesh");
  }
}

void RecordReader::user_data(std::vector<UserData>& out) {
  std::uint32_t n = r_.count(9, "user data");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::UDAT);
    UserData& u = out[i];
    std::size_t at = r_.pos();
    u.kind = r_.u8("user data kind");
    if (r_.ok() && u.kind != 0) {
      r_.fail_at(at, ErrorCode::BadRecord, message("user data kind {} is unknown (expected 0, a mesh)", u.kind));
      break;
    }
    u.target = r_.u32("user data target");
    str(u.value, "user data value");
  }
}

void RecordReader::pose(Pose& out, std::uint16_t chunk_version) {
  out.fade_in = r_.f32("pose fadeIn");
  std::uint32_t n = r_.count(4, "pose group");
  sized(out.groups, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::POSE);
    PoseGroup& g = out.groups[i];
    std::uint32_t entries = r_.count(8, "pose entry");
    sized(g.entries, entries);
    for (std::uint32_t k = 0; k < entries && r_.ok(); ++k) {
      PoseEntry& e = g.entries[k];
      e.part = r_.u32("pose part");
      e.linked = refs("pose linked part");
    }
  }
  if (chunk_version < 2) return;
  // Version 2 appends the pose's flags.
  const std::size_t at = r_.pos();
  const std::uint8_t flags = r_.u8("pose flags");
  if (r_.ok() && (flags & ~(kPoseFlagCubism | kPoseFlagCubism2)))
    r_.fail_at(at, ErrorCode::BadRecord,
               message("pose flags {} set unknown bits (expected bit 0 Cubism playback, bit 1 Cubism 2's rules)", flags));
  out.cubism_playback = (flags & kPoseFlagCubism) != 0;
  out.cubism2 = (flags & kPoseFlagCubism2) != 0;
}

void RecordReader::hairs(std::vector<Hair>& out) {
  // Name, length, resistance, mass and two counts: 24 bytes; an input or output: 13.
  std::uint32_t n = r_.count(24, "hair");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::HAIR);
    Hair& h = out[i];
    str(h.name, "hair name");
    h.length = r_.f32("hair length");
    h.resistance = r_.f32("hair resistance");
    h.mass = r_.f32("hair mass");
    hair_links(h.inputs, "input", &HairInput::source, 2, "0 x, 1 y, 2 gravity angle");
    hair_links(h.outputs, "output", &HairOutput::value, 1, "0 angle, 1 angular velocity");
  }
}

// A hair's inputs or outputs: parameter, kind byte (at most [last]), scale, weight.
template <class Link, class Kind>
void RecordReader::hair_links(std::vector<Link>& out, const char* what, Kind Link::*kind, std::uint8_t last,
                              const char* kinds) {
  const std::string name = std::string("hair ") + what;
  std::uint32_t n = r_.count(13, name.c_str());
  sized(out, n);
  for (std::uint32_t k = 0; k < n && r_.ok(); ++k) {
    Link& link = out[k];
    link.parameter = r_.u32("hair link parameter");
    const std::size_t at = r_.pos();
    const std::uint8_t byte = r_.u8("hair link kind");
    if (r_.ok() && byte > last) {
      r_.fail_at(at, ErrorCode::BadRecord, message("{} kind {} is unknown (expected {})", name, byte, kinds));
      break;
    }
    link.*kind = static_cast<Kind>(byte);
    link.scale = r_.f32("hair link scale");
    link.weight = r_.f32("hair link weight");
  }
}

void RecordReader::clip_extensions(std::vector<ClipExtension>& out, std::uint16_t chunk_version) {
  std::uint32_t n = r_.count(chunk_version >= 2 ? 17 : 16, "clip extension");
  sized(out, n);
  for (std::uint32_t i = 0; i < n && r_.ok(); ++i) {
    mark(ChunkId::CEXT);
    ClipExtension& x = out[i];
    x.clip = r_.u32("clip");
    std::uint32_t events = r_.count(8, "clip event");
    sized(x.events, events);
    for (std::uint32_t k = 0; k < events && r_.ok(); ++k) {
      ClipEvent& e = x.events[k];
      e.time = r_.f32("event time");
      str(e.value, "event value");
    }
    std::uint32_t curves = r_.count(25, "extra curve");
    sized(x.curves, curves);
    for (std::uint32_t k = 0; k < curves && r_.ok(); ++k) {
      ClipExtraCurve& c = x.curves[k];
      std::size_t at = r_.pos();
      std::uint8_t target = r_.u8("curve target");
      if (r_.ok() && (target < 1 || target > 4)) {
        r_.fail_at(at, ErrorCode::BadRecord,
                   message("clip curve target {} is unknown (expected 1 part opacity, 2 model opacity, 3 eye blink, 4 "
                           "lip sync)",
                           target));
        break;
      }
      c.target = static_cast<ClipCurveTarget>(target);
      c.part = r_.i32("curve part");
      c.fade_in = r_.f32("curve fadeIn");
      c.fade_out = r_.f32("curve fadeOut");
      c.start_time = r_.f32("curve start time");
      c.start_value = r_.f32("curve start value");
      segments(c.segments);
    }
    std::uint32_t fades = r_.count(12, "curve fade");
    sized(x.fades, fades);
    for (std::uint32_t k = 0; k < fades && r_.ok(); ++k) {
      ClipCurveFade& f = x.fades[k];
      f.curve = r_.u32("faded curve");
      f.fade_in = r_.f32("curve fadeIn");
      f.fade_out = r_.f32("curve fadeOut");
    }
    if (chunk_version < 2) continue;
    // Version 2 appends the playback flags to the record.
    const std::size_t at = r_.pos();
    const std::uint8_t flags = r_.u8("clip playback flags");
    if (r_.ok() && (flags & ~kClipFlagsKnown)) {
      r_.fail_at(at, ErrorCode::BadRecord,
                 message("clip playback flags {} set unknown bits (expected bit 0 Cubism playback, bit 1 unrestricted "
                         "Beziers)",
                         flags));
      break;
    }
    x.cubism_playback = (flags & kClipFlagCubism) != 0;
    x.unrestricted_beziers = (flags & kClipFlagUnrestricted) != 0;
  }
}

}  // namespace p2l::format
