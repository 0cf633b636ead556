#include "import/cubism2/moc_file.hpp"

#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>

namespace p2l::cubism2 {

namespace {

// Type tags of the object stream (cubism-2.md 2.1).
enum Tag : std::uint32_t {
  kNull = 0,
  kString = 1,
  kColour = 10,
  kRectD = 11,
  kRectF = 12,
  kPointD = 13,
  kPointF = 14,
  kList = 15,
  kInts = 16,
  kMatrix = 17,
  kIntRect = 21,
  kIntPoint = 22,
  kInts2 = 25,
  kDoubles = 26,
  kFloats = 27,
  kReference = 33,
  kDrawId = 50,
  kDeformerId = 51,
  kParameterId = 60,
  kPartId = 134,
  kWarp = 65,
  kPivotManager = 66,
  kPivots = 67,
  kRotation = 68,
  kAffine = 69,
  kMesh = 70,
  kParameterDef = 131,
  kPart = 133,
  kModel = 136,
  kParameterDefSet = 137,
  kPartItem = 142,
};

// Objects nest this deep at most (a real model: about eight).
constexpr int kMaxDepth = 64;
// Keyed objects have at most this many keyforms (the runtime interpolates at most six
// parameters at once; real objects have a few dozen keyforms).
constexpr std::uint32_t kMaxKeyforms = 1u << 20;

const char* kind_name(std::uint32_t tag) {
  switch (tag) {
    case kNull: return "null";
    case kString: case kDrawId: case kDeformerId: case kParameterId: case kPartId: return "an id";
    case kList: return "a list";
    case kInts: case kInts2: return "an int array";
    case kFloats: return "a float array";
    case kDoubles: return "a double array";
    case kWarp: return "a warp deformer";
    case kRotation: return "a rotation deformer";
    case kPivotManager: return "a key list";
    case kPivots: return "a parameter's keys";
    case kAffine: return "a rotation keyform";
    case kMesh: return "a mesh";
    case kParameterDef: return "a parameter";
    case kParameterDefSet: return "a parameter list";
    case kPart: return "a part";
    case kModel: return "a model";
    case kPartItem: return "a part item";
    default: return "a value";
  }
}

bool is_string(std::uint32_t tag) {
  return tag == kString || tag == kDrawId || tag == kDeformerId || tag == kParameterId || tag == kPartId;
}

// What each kind of object holds as read: fields that are objects hold their index in the
// object table; build() resolves them.
struct RawPivots {
  std::uint32_t id = 0, keys = 0;
  std::int32_t count = 0;
};
struct RawParameter {
  float min = 0, max = 0, value = 0;
  std::uint32_t id = 0;
};
struct RawDeformer {
  DeformerKind kind = DeformerKind::Warp;
  std::uint32_t id = 0, parent = 0, manager = 0, forms = 0;
  std::int32_t rows = 0, columns = 0;
  std::vector<float> opacities;
};
struct RawMesh {
  std::uint32_t id = 0, parent = 0, manager = 0, clip = 0, indices = 0, forms = 0, uvs = 0;
  bool has_clip = false;
  std::int32_t average = 0, texture = 0, vertices = 0, triangles = 0;
  std::vector<std::int32_t> orders;
  std::vector<float> opacities;
  std::uint32_t options = 0;
  std::int32_t colour_group = -1;
};
struct RawPart {
  bool locked = false, visible = true;
  std::uint32_t id = 0, deformers = 0, meshes = 0;
};
struct RawModel {
  std::uint32_t parameters = 0, parts = 0;
  std::int32_t width = 0, height = 0;
};

struct Entry {
  std::uint32_t tag = 0;
  std::uint32_t index = 0;   // into the store of its kind
  std::uint64_t offset = 0;  // where its tag is
};

class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, Error& error) : bytes_(bytes), error_(error) {
    // A shared object may be named many times; what the names copy is bounded by the file.
    budget_ = 16 * static_cast<std::uint64_t>(bytes.size()) + (1u << 20);
  }

  bool read(Moc& out) {
    notes_ = &out.notes;
    if (bytes_.size() < 4 || std::memcmp(bytes_.data(), "moc", 3) != 0)
      return fail(ErrorCode::NotP2lrt, 0, "not a Cubism 2 .moc file (it does not begin with \"moc\")");
    version_ = bytes_[3];
    if (version_ < kFirstVersion || version_ > kLastVersion)
      return fail(ErrorCode::UnsupportedVersion, 3,
                  ".moc version " + std::to_string(version_) + ": the Cubism 2.1 runtime reads versions " +
                      std::to_string(kFirstVersion) + " to " + std::to_string(kLastVersion));
    pos_ = 4;
    std::uint32_t root = 0;
    if (!object(root, 0)) return false;
    if (table_[root].tag != kModel)
      return fail(ErrorCode::BadStructure, 4, std::string("the file holds ") + kind_name(table_[root].tag) + ", not a model");
    if (version_ >= 8) {
      const std::uint64_t at = pos_;
      std::uint32_t marker = 0;
      if (!u32(marker)) return false;
      if (marker != 0x88888888u)
        return fail(ErrorCode::BadStructure, at, "the model is not followed by the end marker 88 88 88 88");
    }
    out = Moc{};
    out.version = version_;
    return build_model(table_[root], out);
  }

 private:
  // --- bytes ---------------------------------------------------------------------------
  bool fail(ErrorCode code, std::uint64_t offset, std::string message) {
    error_.code = code;
    error_.chunk.clear();
    error_.offset = static_cast<std::int64_t>(offset);
    error_.in_chunk = false;
    error_.message = std::move(message);
    return false;
  }
  bool truncated(const char* what) { return fail(ErrorCode::Truncated, pos_, std::string("the file ends inside ") + what); }
  std::uint64_t left() const { return bytes_.size() - pos_; }

  bool u8(std::uint8_t& v) {
    if (left() < 1) return truncated("a value");
    v = bytes_[pos_++];
    return true;
  }
  bool u32(std::uint32_t& v) {
    if (left() < 4) return truncated("a value");
    v = std::uint32_t{bytes_[pos_]} << 24 | std::uint32_t{bytes_[pos_ + 1]} << 16 | std::uint32_t{bytes_[pos_ + 2]} << 8 |
        std::uint32_t{bytes_[pos_ + 3]};
    pos_ += 4;
    return true;
  }
  bool i32(std::int32_t& v) {
    std::uint32_t u = 0;
    if (!u32(u)) return false;
    v = static_cast<std::int32_t>(u);
    return true;
  }
  bool f32(float& v) {
    std::uint32_t u = 0;
    if (!u32(u)) return false;
    std::memcpy(&v, &u, 4);
    return true;
  }
  bool skip(std::uint64_t n, const char* what) {
    if (left() < n) return truncated(what);
    pos_ += n;
    return true;
  }
  // A compact number: 1 to 4 bytes of 7 bits, most significant first, the high bit saying
  // another byte follows. The fourth byte is taken whole, its high bit falling on the third
  // byte's lowest bit, as the runtime reads it.
  bool compact(std::uint32_t& v) {
    v = 0;
    for (int i = 0; i < 4; ++i) {
      std::uint8_t b = 0;
      if (!u8(b)) return false;
      if (i == 3) {
        v = v << 7 | b;
        return true;
      }
      v = v << 7 | (b & 0x7fu);
      if ((b & 0x80u) == 0) return true;
    }
    return true;
  }
  // A count of elements of [size] bytes each: refused when the file cannot hold them.
  bool count(std::uint32_t& n, std::uint64_t size, const char* what) {
    const std::uint64_t at = pos_;
    if (!compact(n)) return false;
    if (static_cast<std::uint64_t>(n) * size > left())
      return fail(ErrorCode::Truncated, at,
                  std::string(what) + " of " + std::to_string(n) + " elements: the file has " + std::to_string(left()) +
                      " bytes left");
    return true;
  }
  bool ints(std::vector<std::int32_t>& out, const char* what) {
    std::uint32_t n = 0;
    if (!count(n, 4, what)) return false;
    out.resize(n);
    for (auto& v : out)
      if (!i32(v)) return false;
    return true;
  }
  bool floats(std::vector<float>& out, const char* what) {
    std::uint32_t n = 0;
    if (!count(n, 4, what)) return false;
    out.resize(n);
    for (auto& v : out)
      if (!f32(v)) return false;
    return true;
  }

  // --- objects -------------------------------------------------------------------------
  // Reads one tagged object (or a back-reference to one) and gives its index in the table.
  bool object(std::uint32_t& index, int depth) {
    if (depth > kMaxDepth) return fail(ErrorCode::BadStructure, pos_, "objects nest deeper than " + std::to_string(kMaxDepth));
    const std::uint64_t at = pos_;
    std::uint32_t tag = 0;
    if (!compact(tag)) return false;
    if (tag == kReference) {
      std::uint32_t i = 0;
      if (!u32(i)) return false;
      if (i >= table_.size())
        return fail(ErrorCode::BadReference, at,
                    "a reference to object " + std::to_string(i) + " of " + std::to_string(table_.size()) + " read so far");
      index = i;
      return true;
    }
    Entry e;
    e.tag = tag;
    e.offset = at;
    if (!payload(e, depth)) return false;
    index = static_cast<std::uint32_t>(table_.size());
    table_.push_back(e);
    return true;
  }

  bool payload(Entry& e, int depth) {
    switch (e.tag) {
      case kNull:
        return true;
      case kString: case kDrawId: case kDeformerId: case kParameterId: case kPartId: {
        std::uint32_t n = 0;
        if (!count(n, 1, "a string")) return false;
        e.index = static_cast<std::uint32_t>(strings_.size());
        strings_.emplace_back(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
        pos_ += n;
        return true;
      }
      case kColour: return skip(4, "a colour");
      case kRectD: return skip(32, "a rectangle");
      case kRectF: return skip(16, "a rectangle");
      case kPointD: return skip(16, "a point");
      case kPointF: return skip(8, "a point");
      case kMatrix: return skip(48, "a matrix");
      case kIntRect: return skip(16, "a rectangle");
      case kIntPoint: return skip(8, "a point");
      case kInts: case kInts2:
        e.index = static_cast<std::uint32_t>(int_arrays_.size());
        int_arrays_.emplace_back();
        return ints(int_arrays_.back(), "an int array");
      case kFloats:
        e.index = static_cast<std::uint32_t>(float_arrays_.size());
        float_arrays_.emplace_back();
        return floats(float_arrays_.back(), "a float array");
      case kDoubles: {
        std::uint32_t n = 0;
        return count(n, 8, "a double array") && skip(std::uint64_t{n} * 8, "a double array");
      }
      case kList: {
        std::uint32_t n = 0;
        if (!count(n, 1, "a list")) return false;
        std::vector<std::uint32_t> items(n);
        for (auto& item : items)
          if (!object(item, depth + 1)) return false;
        e.index = static_cast<std::uint32_t>(lists_.size());
        lists_.push_back(std::move(items));
        return true;
      }
      case kPivotManager: {
        std::uint32_t list = 0;
        if (!object(list, depth + 1)) return false;
        e.index = list;  // the manager is its list
        return true;
      }
      case kPivots: {
        RawPivots p;
        if (!object(p.id, depth + 1) || !i32(p.count) || !object(p.keys, depth + 1)) return false;
        e.index = static_cast<std::uint32_t>(pivots_.size());
        pivots_.push_back(p);
        return true;
      }
      case kParameterDef: {
        RawParameter p;
        if (!f32(p.min) || !f32(p.max) || !f32(p.value) || !object(p.id, depth + 1)) return false;
        e.index = static_cast<std::uint32_t>(parameters_.size());
        parameters_.push_back(p);
        return true;
      }
      case kParameterDefSet: {
        std::uint32_t list = 0;
        if (!object(list, depth + 1)) return false;
        e.index = list;
        return true;
      }
      case kAffine: {
        AffineForm a;
        if (!f32(a.origin_x) || !f32(a.origin_y) || !f32(a.scale) || !f32(a.scale_y) || !f32(a.angle)) return false;
        if (version_ >= 10) {
          std::uint8_t x = 0, y = 0;
          if (!u8(x) || !u8(y)) return false;
          a.reflect_x = x != 0;
          a.reflect_y = y != 0;
        }
        e.index = static_cast<std::uint32_t>(affines_.size());
        affines_.push_back(a);
        return true;
      }
      case kWarp: case kRotation: {
        RawDeformer d;
        d.kind = e.tag == kWarp ? DeformerKind::Warp : DeformerKind::Rotation;
        if (!object(d.id, depth + 1) || !object(d.parent, depth + 1)) return false;
        if (d.kind == DeformerKind::Warp && (!i32(d.rows) || !i32(d.columns))) return false;
        if (!object(d.manager, depth + 1) || !object(d.forms, depth + 1)) return false;
        if (version_ >= 10 && !floats(d.opacities, "a deformer's keyform opacities")) return false;
        e.index = static_cast<std::uint32_t>(deformers_.size());
        deformers_.push_back(std::move(d));
        return true;
      }
      case kMesh: {
        RawMesh m;
        if (!object(m.id, depth + 1) || !object(m.parent, depth + 1) || !object(m.manager, depth + 1)) return false;
        if (!i32(m.average) || !ints(m.orders, "a mesh's keyform draw orders") ||
            !floats(m.opacities, "a mesh's keyform opacities"))
          return false;
        if (version_ >= 11) {
          if (!object(m.clip, depth + 1)) return false;
          m.has_clip = true;
        }
        if (!i32(m.texture) || !i32(m.vertices) || !i32(m.triangles)) return false;
        if (!object(m.indices, depth + 1) || !object(m.forms, depth + 1) || !object(m.uvs, depth + 1)) return false;
        if (version_ >= 8) {
          if (!u32(m.options)) return false;
          if ((m.options & 1u) != 0 && !i32(m.colour_group)) return false;
        }
        e.index = static_cast<std::uint32_t>(meshes_.size());
        meshes_.push_back(std::move(m));
        return true;
      }
      case kPart: {
        RawPart p;
        std::uint8_t bits = 0;
        if (!u8(bits)) return false;
        p.locked = (bits & 0x80u) != 0;   // bits are read from the most significant
        p.visible = (bits & 0x40u) != 0;
        if (!object(p.id, depth + 1) || !object(p.deformers, depth + 1) || !object(p.meshes, depth + 1)) return false;
        e.index = static_cast<std::uint32_t>(parts_.size());
        parts_.push_back(p);
        return true;
      }
      case kPartItem: {  // an id and two lists the evaluation does not read
        std::uint32_t unused = 0;
        return object(unused, depth + 1) && object(unused, depth + 1) && object(unused, depth + 1);
      }
      case kModel: {
        RawModel m;
        if (!object(m.parameters, depth + 1) || !object(m.parts, depth + 1) || !i32(m.width) || !i32(m.height)) return false;
        e.index = static_cast<std::uint32_t>(models_.size());
        models_.push_back(m);
        return true;
      }
      default:
        return fail(ErrorCode::BadRecord, e.offset, "an object of unknown type " + std::to_string(e.tag));
    }
  }

  // --- resolving fields ----------------------------------------------------------------
  const Entry& entry(std::uint32_t index) const { return table_[index]; }

  bool wrong(std::uint32_t index, const std::string& field, const char* expected) {
    const Entry& e = entry(index);
    return fail(ErrorCode::BadStructure, e.offset, field + " is " + kind_name(e.tag) + ", not " + expected);
  }
  bool spend(std::uint64_t values, std::uint64_t at) {
    if (values > budget_)
      return fail(ErrorCode::TooLarge, at, "objects named more than once would copy more values than the file can mean");
    budget_ -= values;
    return true;
  }
  // The string [index] names; [optional]: null gives an empty one.
  bool text(std::uint32_t index, const std::string& field, std::string& out, bool optional = false) {
    const Entry& e = entry(index);
    if (e.tag == kNull && optional) {
      out.clear();
      return true;
    }
    if (!is_string(e.tag)) return wrong(index, field, "an id");
    out = strings_[e.index];
    return spend(out.size(), e.offset);
  }
  bool list(std::uint32_t index, const std::string& field, const std::vector<std::uint32_t>*& out) {
    static const std::vector<std::uint32_t> kNone;
    const Entry& e = entry(index);
    if (e.tag == kNull) {  // the runtime reads a missing list as none
      out = &kNone;
      return true;
    }
    if (e.tag != kList) return wrong(index, field, "a list");
    out = &lists_[e.index];
    return spend(out->size(), e.offset);
  }
  bool float_array(std::uint32_t index, const std::string& field, std::vector<float>& out) {
    const Entry& e = entry(index);
    if (e.tag != kFloats) return wrong(index, field, "a float array");
    out = float_arrays_[e.index];
    return spend(out.size(), e.offset);
  }
  bool int_array(std::uint32_t index, const std::string& field, std::vector<std::int32_t>& out) {
    const Entry& e = entry(index);
    if (e.tag != kInts && e.tag != kInts2) return wrong(index, field, "an int array");
    out = int_arrays_[e.index];
    return spend(out.size(), e.offset);
  }
  bool axes(std::uint32_t index, const std::string& owner, KeyAxes& out) {
    const Entry& e = entry(index);
    if (e.tag != kPivotManager) return wrong(index, owner + "'s keys", "a key list");
    const std::vector<std::uint32_t>* items = nullptr;
    if (!list(e.index, owner + "'s keys", items)) return false;
    out.clear();
    out.reserve(items->size());
    for (const std::uint32_t item : *items) {
      const Entry& p = entry(item);
      if (p.tag != kPivots) return wrong(item, owner + "'s keys", "a parameter's keys");
      const RawPivots& raw = pivots_[p.index];
      KeyAxis axis;
      if (!text(raw.id, owner + "'s key parameter", axis.parameter) ||
          !float_array(raw.keys, owner + "'s keys of " + axis.parameter, axis.keys))
        return false;
      if (axis.keys.empty())
        return fail(ErrorCode::BadStructure, p.offset, owner + " is keyed on " + axis.parameter + " with no key values");
      for (std::size_t k = 0; k < axis.keys.size(); ++k) {
        if (!std::isfinite(axis.keys[k]))
          return fail(ErrorCode::NonFinite, p.offset, owner + "'s keys of " + axis.parameter + " are not all finite");
        if (k > 0 && !(axis.keys[k - 1] < axis.keys[k]))
          return fail(ErrorCode::BadStructure, p.offset, owner + "'s keys of " + axis.parameter + " do not ascend");
      }
      out.push_back(std::move(axis));
    }
    if (keyform_count(out) == 0)
      return fail(ErrorCode::TooLarge, e.offset, owner + "'s keys make more than 2^20 keyforms");
    return true;
  }

  // --- the model ----------------------------------------------------------------------
  bool build_model(const Entry& root, Moc& out) {
    const RawModel& m = models_[root.index];
    out.canvas_width = m.width;
    out.canvas_height = m.height;
    if (!(m.width > 0 && m.height > 0))
      return fail(ErrorCode::BadStructure, root.offset,
                  "the canvas is " + std::to_string(m.width) + " x " + std::to_string(m.height) + " pixels");
    const Entry& set = entry(m.parameters);
    if (set.tag != kParameterDefSet) return wrong(m.parameters, "the model's parameters", "a parameter list");
    const std::vector<std::uint32_t>* items = nullptr;
    if (!list(set.index, "the model's parameters", items)) return false;
    for (const std::uint32_t item : *items) {
      const Entry& p = entry(item);
      if (p.tag != kParameterDef) return wrong(item, "a parameter of the model", "a parameter");
      const RawParameter& raw = parameters_[p.index];
      ParameterDef def{{}, raw.min, raw.max, raw.value};
      if (!text(raw.id, "a parameter's id", def.id)) return false;
      if (!std::isfinite(def.min) || !std::isfinite(def.max) || !std::isfinite(def.value))
        return fail(ErrorCode::NonFinite, p.offset, "parameter " + def.id + "'s range or default is not finite");
      out.parameters.push_back(std::move(def));
    }
    return objects(m.parts, "the model's parts", kPart, kPart, "a part", out.parts,
                   [&](const Entry& p, Part& part) { return build_part(p, part); });
  }

  // build(entry, out.back()) for each item of the list [index], which must be objects tagged
  // [tag] or [other_tag] ([expected] in words).
  template <class T, class Build>
  bool objects(std::uint32_t index, const std::string& field, std::uint32_t tag, std::uint32_t other_tag,
               const char* expected, std::vector<T>& out, Build&& build) {
    const std::vector<std::uint32_t>* items = nullptr;
    if (!list(index, field, items)) return false;
    for (const std::uint32_t item : *items) {
      const Entry& e = entry(item);
      if (e.tag != tag && e.tag != other_tag) return wrong(item, "an item of " + field, expected);
      if (!build(e, out.emplace_back())) return false;
    }
    return true;
  }

  bool build_part(const Entry& e, Part& out) {
    const RawPart& raw = parts_[e.index];
    out.locked = raw.locked;
    out.visible = raw.visible;
    if (!text(raw.id, "a part's id", out.id)) return false;
    const std::string name = "part " + out.id;
    return objects(raw.deformers, name + "'s deformers", kWarp, kRotation, "a deformer", out.deformers,
                   [&](const Entry& d, Deformer& deformer) { return build_deformer(d, deformer); }) &&
           objects(raw.meshes, name + "'s meshes", kMesh, kMesh, "a mesh", out.meshes,
                   [&](const Entry& m, Mesh& mesh) { return build_mesh(m, mesh); });
  }

  // A keyed list needs one entry per keyform the keys make: fewer is refused; more are kept
  // out with a note, as the runtime never reaches them (it indexes by the keys' corners; seen
  // in gathered game models).
  bool enough(std::size_t have, std::uint32_t forms, const std::string& name, const char* what, std::uint64_t offset) {
    if (have < forms)
      return fail(ErrorCode::BadStructure, offset,
                  name + " has " + std::to_string(have) + " " + what + "; its keys make " + std::to_string(forms));
    if (have > forms)
      notes_->push_back(name + " has " + std::to_string(have) + " " + what + " where its keys make " + std::to_string(forms) +
                        ": the first " + std::to_string(forms) + " are read, as the runtime reads them");
    return true;
  }

  bool build_deformer(const Entry& e, Deformer& out) {
    const RawDeformer& raw = deformers_[e.index];
    out.kind = raw.kind;
    const char* kind = raw.kind == DeformerKind::Warp ? "warp deformer " : "rotation deformer ";
    if (!text(raw.id, std::string("a ") + kind + "id", out.id)) return false;
    const std::string name = kind + out.id;
    if (!text(raw.parent, name + "'s parent", out.parent) || !axes(raw.manager, name, out.axes)) return false;
    const std::uint32_t forms = keyform_count(out.axes);
    const std::vector<std::uint32_t>* items = nullptr;
    if (!list(raw.forms, name + "'s keyforms", items)) return false;
    if (!enough(items->size(), forms, name, "keyforms", e.offset)) return false;
    if (!raw.opacities.empty() && !enough(raw.opacities.size(), forms, name, "keyform opacities", e.offset)) return false;
    if (!spend(raw.opacities.size(), e.offset)) return false;
    out.opacities.assign(raw.opacities.begin(), raw.opacities.begin() + (raw.opacities.empty() ? 0 : forms));
    if (raw.kind == DeformerKind::Warp) {
      if (raw.rows < 1 || raw.columns < 1 || raw.rows > 1024 || raw.columns > 1024)
        return fail(ErrorCode::BadStructure, e.offset,
                    name + " has " + std::to_string(raw.rows) + " x " + std::to_string(raw.columns) + " cells");
      out.rows = static_cast<std::uint32_t>(raw.rows);
      out.columns = static_cast<std::uint32_t>(raw.columns);
      const std::size_t floats = 2 * std::size_t{out.rows + 1} * (out.columns + 1);
      out.grids.resize(forms);
      for (std::size_t k = 0; k < forms; ++k) {
        if (!float_array((*items)[k], name + "'s grid " + std::to_string(k), out.grids[k])) return false;
        if (out.grids[k].size() != floats)
          return fail(ErrorCode::BadStructure, entry((*items)[k]).offset,
                      name + "'s grid " + std::to_string(k) + " holds " + std::to_string(out.grids[k].size()) +
                          " floats; its cells need " + std::to_string(floats));
      }
    } else {
      for (std::size_t k = 0; k < forms; ++k) {
        const Entry& a = entry((*items)[k]);
        if (a.tag != kAffine) return wrong((*items)[k], name + "'s keyform " + std::to_string(k), "a rotation keyform");
        out.affines.push_back(affines_[a.index]);
      }
    }
    return true;
  }

  bool build_mesh(const Entry& e, Mesh& out) {
    const RawMesh& raw = meshes_[e.index];
    if (!text(raw.id, "a mesh's id", out.id)) return false;
    const std::string name = "mesh " + out.id;
    if (!text(raw.parent, name + "'s parent", out.parent) || !axes(raw.manager, name, out.axes)) return false;
    const std::uint32_t forms = keyform_count(out.axes);
    out.average_draw_order = raw.average;
    if (!enough(raw.orders.size(), forms, name, "keyform draw orders", e.offset) ||
        !enough(raw.opacities.size(), forms, name, "keyform opacities", e.offset))
      return false;
    if (!spend(raw.orders.size() + raw.opacities.size(), e.offset)) return false;
    out.draw_orders.assign(raw.orders.begin(), raw.orders.begin() + forms);
    out.opacities.assign(raw.opacities.begin(), raw.opacities.begin() + forms);
    if (raw.has_clip) {
      std::string clip;
      if (!text(raw.clip, name + "'s mask", clip, true)) return false;
      // Several meshes joined by commas mask as one.
      std::string_view rest = clip;
      while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view one = rest.substr(0, comma);
        if (!one.empty()) out.clip_ids.emplace_back(one);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
    out.texture = raw.texture;
    if (raw.vertices < 0 || raw.vertices > 65536)
      return fail(ErrorCode::BadStructure, e.offset, name + " has " + std::to_string(raw.vertices) + " vertices");
    if (raw.triangles < 0)
      return fail(ErrorCode::BadStructure, e.offset, name + " has " + std::to_string(raw.triangles) + " triangles");
    out.vertex_count = static_cast<std::uint32_t>(raw.vertices);
    std::vector<std::int32_t> indices;
    if (!int_array(raw.indices, name + "'s triangles", indices)) return false;
    // The runtime keeps the first 3 x triangles indices, as 16 bits.
    const std::size_t used = 3 * static_cast<std::size_t>(raw.triangles);
    if (indices.size() < used)
      return fail(ErrorCode::BadStructure, entry(raw.indices).offset,
                  name + " has " + std::to_string(raw.triangles) + " triangles but " + std::to_string(indices.size()) +
                      " indices");
    out.indices.resize(used);
    for (std::size_t i = 0; i < used; ++i) {
      if (indices[i] < 0 || static_cast<std::uint32_t>(indices[i]) >= out.vertex_count)
        return fail(ErrorCode::BadReference, entry(raw.indices).offset,
                    name + "'s triangle index " + std::to_string(indices[i]) + " is not one of its " +
                        std::to_string(out.vertex_count) + " vertices");
      out.indices[i] = static_cast<std::uint16_t>(indices[i]);
    }
    const std::vector<std::uint32_t>* items = nullptr;
    if (!list(raw.forms, name + "'s keyforms", items)) return false;
    if (!enough(items->size(), forms, name, "keyforms of positions", e.offset)) return false;
    out.positions.resize(forms);
    for (std::size_t k = 0; k < forms; ++k) {
      if (!float_array((*items)[k], name + "'s positions " + std::to_string(k), out.positions[k])) return false;
      if (out.positions[k].size() != 2 * std::size_t{out.vertex_count})
        return fail(ErrorCode::BadStructure, entry((*items)[k]).offset,
                    name + "'s keyform " + std::to_string(k) + " holds " + std::to_string(out.positions[k].size()) +
                        " floats for " + std::to_string(out.vertex_count) + " vertices");
    }
    if (!float_array(raw.uvs, name + "'s texture coordinates", out.uvs)) return false;
    if (out.uvs.size() != 2 * std::size_t{out.vertex_count})
      return fail(ErrorCode::BadStructure, entry(raw.uvs).offset,
                  name + " has " + std::to_string(out.uvs.size()) + " texture coordinates for " +
                      std::to_string(out.vertex_count) + " vertices");
    out.options = raw.options;
    out.colour_group = raw.colour_group;
    out.blend = static_cast<std::uint8_t>((raw.options >> 1) & 15u);
    out.culling = (raw.options & 32u) == 0;
    return true;
  }

  std::span<const std::uint8_t> bytes_;
  std::vector<std::string>* notes_ = nullptr;
  Error& error_;
  std::uint64_t pos_ = 0, budget_ = 0;
  int version_ = 0;
  std::vector<Entry> table_;
  std::vector<std::string> strings_;
  std::vector<std::vector<std::uint32_t>> lists_;
  std::vector<std::vector<std::int32_t>> int_arrays_;
  std::vector<std::vector<float>> float_arrays_;
  std::vector<RawPivots> pivots_;
  std::vector<RawParameter> parameters_;
  std::vector<AffineForm> affines_;
  std::vector<RawDeformer> deformers_;
  std::vector<RawMesh> meshes_;
  std::vector<RawPart> parts_;
  std::vector<RawModel> models_;
};

}  // namespace

std::uint32_t keyform_count(const KeyAxes& axes) {
  std::uint64_t n = 1;
  for (const KeyAxis& a : axes) {
    n *= a.keys.size();
    if (n > kMaxKeyforms) return 0;
  }
  return static_cast<std::uint32_t>(n);
}

bool read_moc(std::span<const std::uint8_t> bytes, Moc& out, Error& error) {
  error = Error{};
  return Reader(bytes, error).read(out);
}

}  // namespace p2l::cubism2
