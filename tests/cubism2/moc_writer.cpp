#include "cubism2/moc_writer.hpp"

#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace p2l_test::cubism2 {

using namespace p2l::cubism2;

void put_compact(std::vector<std::uint8_t>& out, std::uint32_t v) {
  if (v < (1u << 7)) {
    out.push_back(static_cast<std::uint8_t>(v));
  } else if (v < (1u << 14)) {
    out.push_back(static_cast<std::uint8_t>(0x80u | v >> 7));
    out.push_back(static_cast<std::uint8_t>(v & 0x7fu));
  } else if (v < (1u << 21)) {
    out.push_back(static_cast<std::uint8_t>(0x80u | v >> 14));
    out.push_back(static_cast<std::uint8_t>(0x80u | (v >> 7 & 0x7fu)));
    out.push_back(static_cast<std::uint8_t>(v & 0x7fu));
  } else {
    out.push_back(static_cast<std::uint8_t>(0x80u | (v >> 21 & 0x7fu)));
    out.push_back(static_cast<std::uint8_t>(0x80u | (v >> 14 & 0x7fu)));
    out.push_back(static_cast<std::uint8_t>(0x80u | (v >> 7 & 0x7fu)));
    out.push_back(static_cast<std::uint8_t>(v & 0x7fu));
  }
}

namespace {

class Writer {
 public:
  Writer(int version, const MocWriteOptions& options) : version_(version), options_(options) {}

  std::vector<std::uint8_t> model(const Moc& moc) {
    out_ = {'m', 'o', 'c', static_cast<std::uint8_t>(moc.version)};
    tag(136);
    // parameter definition set: a list of parameter definitions
    tag(137);
    tag(15);
    put_compact(out_, static_cast<std::uint32_t>(moc.parameters.size()));
    for (const ParameterDef& p : moc.parameters) {
      tag(131);
      f32(p.min);
      f32(p.max);
      f32(p.value);
      id(60, p.id);
      done();
    }
    done();  // the list
    done();  // the set
    list_begin(moc.parts.size());
    for (const Part& part : moc.parts) this->part(part);
    list_end(moc.parts.size());
    i32(moc.canvas_width);
    i32(moc.canvas_height);
    done();  // the model
    if (version_ >= 8) {
      for (int i = 0; i < 4; ++i) out_.push_back(0x88);
    }
    return std::move(out_);
  }

 private:
  void tag(std::uint32_t t) { put_compact(out_, t); }
  // An object is complete: the reader numbers it now.
  std::uint32_t done() { return next_++; }
  void i32(std::int32_t v) {
    const auto u = static_cast<std::uint32_t>(v);
    for (int s = 24; s >= 0; s -= 8) out_.push_back(static_cast<std::uint8_t>(u >> s));
  }
  void f32(float v) {
    std::uint32_t u = 0;
    std::memcpy(&u, &v, 4);
    i32(static_cast<std::int32_t>(u));
  }
  void reference(std::uint32_t index) {
    tag(33);
    i32(static_cast<std::int32_t>(index));
  }
  void null() {
    tag(0);
    done();
  }
  void id(std::uint32_t kind, const std::string& text) {
    if (options_.share) {
      if (auto it = ids_.find({kind, text}); it != ids_.end()) return reference(it->second);
    }
    tag(kind);
    put_compact(out_, static_cast<std::uint32_t>(text.size()));
    out_.insert(out_.end(), text.begin(), text.end());
    ids_[{kind, text}] = done();
  }
  void floats(const std::vector<float>& v) {  // untagged
    put_compact(out_, static_cast<std::uint32_t>(v.size()));
    for (float f : v) f32(f);
  }
  void float_object(const std::vector<float>& v) {
    if (options_.share_arrays) {
      if (auto it = arrays_.find(v); it != arrays_.end()) return reference(it->second);
    }
    tag(27);
    floats(v);
    const std::uint32_t index = done();
    if (options_.share_arrays) arrays_[v] = index;
  }
  void ints(const std::vector<std::int32_t>& v) {
    put_compact(out_, static_cast<std::uint32_t>(v.size()));
    for (std::int32_t i : v) i32(i);
  }
  void list_begin(std::size_t n) {
    if (n == 0 && options_.empty_lists_as_null) return;
    tag(15);
    put_compact(out_, static_cast<std::uint32_t>(n));
  }
  void list_end(std::size_t n) {
    if (n == 0 && options_.empty_lists_as_null) return null();
    done();
  }
  void axes(const KeyAxes& a) {
    std::string key;
    for (const KeyAxis& axis : a) {
      key += axis.parameter + ':';
      for (float k : axis.keys) key += std::to_string(k) + ',';
      key += ';';
    }
    if (options_.share) {
      if (auto it = managers_.find(key); it != managers_.end()) return reference(it->second);
    }
    tag(66);
    tag(15);
    put_compact(out_, static_cast<std::uint32_t>(a.size()));
    for (const KeyAxis& axis : a) {
      tag(67);
      id(60, axis.parameter);
      i32(static_cast<std::int32_t>(axis.keys.size()));
      float_object(axis.keys);
      done();
    }
    done();  // the list
    managers_[key] = done();
  }
  void part(const Part& p) {
    tag(133);
    out_.push_back(static_cast<std::uint8_t>((p.locked ? 0x80 : 0) | (p.visible ? 0x40 : 0)));
    id(134, p.id);
    list_begin(p.deformers.size());
    for (const Deformer& d : p.deformers) deformer(d);
    list_end(p.deformers.size());
    list_begin(p.meshes.size());
    for (const Mesh& m : p.meshes) mesh(m);
    list_end(p.meshes.size());
    done();
  }
  void deformer(const Deformer& d) {
    const bool warp = d.kind == DeformerKind::Warp;
    tag(warp ? 65 : 68);
    id(51, d.id);
    id(51, d.parent);
    if (warp) {
      i32(static_cast<std::int32_t>(d.rows));
      i32(static_cast<std::int32_t>(d.columns));
    }
    axes(d.axes);
    if (warp) {
      tag(15);
      put_compact(out_, static_cast<std::uint32_t>(d.grids.size()));
      for (const auto& g : d.grids) float_object(g);
      done();
    } else {
      tag(15);
      put_compact(out_, static_cast<std::uint32_t>(d.affines.size()));
      for (const AffineForm& a : d.affines) {
        tag(69);
        f32(a.origin_x);
        f32(a.origin_y);
        f32(a.scale);
        f32(a.scale_y);
        f32(a.angle);
        if (version_ >= 10) {
          out_.push_back(a.reflect_x ? 1 : 0);
          out_.push_back(a.reflect_y ? 1 : 0);
        }
        done();
      }
      done();
    }
    if (version_ >= 10) floats(d.opacities);
    done();
  }
  void mesh(const Mesh& m) {
    tag(70);
    id(50, m.id);
    id(51, m.parent);
    axes(m.axes);
    i32(m.average_draw_order);
    ints(m.draw_orders);
    floats(m.opacities);
    if (version_ >= 11) {
      if (m.clip_ids.empty()) {
        null();
      } else {
        std::string joined;
        for (const std::string& c : m.clip_ids) joined += (joined.empty() ? "" : ",") + c;
        id(50, joined);
      }
    }
    i32(m.texture);
    i32(static_cast<std::int32_t>(m.vertex_count));
    i32(static_cast<std::int32_t>(m.indices.size() / 3));
    tag(16);
    put_compact(out_, static_cast<std::uint32_t>(m.indices.size()));
    for (std::uint16_t i : m.indices) i32(i);
    done();
    tag(15);
    put_compact(out_, static_cast<std::uint32_t>(m.positions.size()));
    for (const auto& p : m.positions) float_object(p);
    done();
    float_object(m.uvs);
    if (version_ >= 8) {
      const std::uint32_t options = (m.colour_group >= 0 ? 1u : 0u) | static_cast<std::uint32_t>(m.blend & 15) << 1 |
                                    (m.culling ? 0u : 32u);
      i32(static_cast<std::int32_t>(options));
      if (m.colour_group >= 0) i32(m.colour_group);
    }
    done();
  }

  int version_;
  MocWriteOptions options_;
  std::vector<std::uint8_t> out_;
  std::uint32_t next_ = 0;
  std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> ids_;
  std::map<std::string, std::uint32_t> managers_;
  std::map<std::vector<float>, std::uint32_t> arrays_;
};

}  // namespace

std::vector<std::uint8_t> write_moc(const Moc& moc, const MocWriteOptions& options) {
  return Writer(moc.version, options).model(moc);
}

}  // namespace p2l_test::cubism2
