#include "format/record_writer.hpp"

#include "format/record_reader.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace p2l::format {

void StringPool::use(ByteWriter& chunk, const std::string& s) {
  auto [it, added] = ids_.try_emplace(s, static_cast<std::uint32_t>(strings_.size()));
  if (added) strings_.push_back(s);
  uses_.push_back({&chunk, chunk.size()});
  chunk.u32(it->second);
}

std::vector<std::uint8_t> StringPool::finish() {
  std::vector<std::uint32_t> order(strings_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return strings_[a] < strings_[b]; });
  std::vector<std::uint32_t> final_index(strings_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) final_index[order[i]] = i;
  for (const Use& u : uses_) {
    const auto& bytes = u.chunk->bytes();
    std::uint32_t provisional = std::uint32_t{bytes[u.at]} | (std::uint32_t{bytes[u.at + 1]} << 8) |
                                (std::uint32_t{bytes[u.at + 2]} << 16) | (std::uint32_t{bytes[u.at + 3]} << 24);
    u.chunk->patch_u32(u.at, final_index[provisional]);
  }
  ByteWriter out;
  out.u32(static_cast<std::uint32_t>(order.size()));
  std::uint32_t offset = 0;
  out.u32(0);
  for (std::uint32_t i : order) {
    offset += static_cast<std::uint32_t>(strings_[i].size());
    out.u32(offset);
  }
  for (std::uint32_t i : order) out.raw(strings_[i]);
  return std::move(out.bytes());
}

void RecordWriter::str(const std::string& s) {
  // A string the reader would refuse is never written: write() reports the first one.
  if (invalid_utf8_.empty() && !valid_utf8(s)) invalid_utf8_ = s.empty() ? " " : s;
  if (v2()) {
    if (s.empty())
      w_.u32(0xFFFFFFFFu);  // the empty string is the null reference
    else
      pool_->use(w_, s);
    return;
  }
  w_.u32(static_cast<std::uint32_t>(s.size()));
  w_.raw(s);
}

void RecordWriter::array_header(ArrayCodec codec, std::size_t count) {
  w_.pad_to(4);
  w_.u8(static_cast<std::uint8_t>(codec));
  w_.zeros(3);
  w_.u32(static_cast<std::uint32_t>(count));
}

void RecordWriter::floats(const Array<float>& a, FloatUse use) {
  if (!std::all_of(a.begin(), a.end(), [](float v) { return std::isfinite(v); })) w_.mark_non_finite();
  if (!v2()) {
    w_.u32(static_cast<std::uint32_t>(a.size()));
    w_.values32(a.data(), a.size());
    return;
  }
  ArrayCodec codec = ArrayCodec::F32;
  if (options_.publish && !a.empty()) {
    if (use == FloatUse::Position && std::all_of(a.begin(), a.end(), fits_half)) codec = ArrayCodec::F16;
    if (use == FloatUse::Uv && std::all_of(a.begin(), a.end(), [](float v) { return v >= 0 && v <= 1; }))
      codec = ArrayCodec::Unorm16;
  }
  array_header(codec, a.size());
  if (codec == ArrayCodec::F32) {
    w_.values32(a.data(), a.size());
    return;
  }
  for (float v : a) w_.u16(codec == ArrayCodec::F16 ? float_to_half(v) : float_to_unorm16(v));
}

void RecordWriter::indices(const IndexArray& a, bool allow_narrow) {
  if (!v2()) {
    w_.u32(static_cast<std::uint32_t>(a.size()));
    for (std::size_t i = 0; i < a.size(); ++i) w_.u32(a[i]);
    return;
  }
  bool narrow = allow_narrow;
  array_header(narrow ? ArrayCodec::U16 : ArrayCodec::U32, a.size());
  if (!narrow && !a.u32().empty()) {
    w_.values32(a.u32().data(), a.size());
    return;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (narrow)
      w_.u16(static_cast<std::uint16_t>(a[i]));
    else
      w_.u32(a[i]);
  }
}

void RecordWriter::byte_string(const Array<std::uint8_t>& a) {
  if (v2())
    array_header(ArrayCodec::U8, a.size());
  else
    w_.u32(static_cast<std::uint32_t>(a.size()));
  w_.raw(a.span());
}

void RecordWriter::rgb(const Rgb& c) {
  for (float v : c) w_.f32(v);
}

void RecordWriter::refs(const std::vector<std::uint32_t>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (auto v : list) w_.u32(v);
}

// ---- core ----------------------------------------------------------------------------

void RecordWriter::canvas(const Canvas& c) {
  w_.f32(c.width);
  w_.f32(c.height);
  w_.f32(c.origin_x);
  w_.f32(c.origin_y);
  w_.f32(c.pixels_per_unit);
  if (cubism_) w_.u8(static_cast<std::uint8_t>((c.y_up ? 1 : 0) | (c.blend_clamp ? 2 : 0) | (c.keyform_colors ? 4 : 0)));
}

void RecordWriter::parameters(const std::vector<Parameter>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Parameter& p : list) {
    str(p.id);
    name(p.name);
    w_.f32(p.min);
    w_.f32(p.max);
    w_.f32(p.default_value);
    w_.u8(static_cast<std::uint8_t>((p.blend ? 1 : 0) | (p.repeat ? 2 : 0)));
    if (cubism_) w_.u8(p.decimals);
  }
}

template <class F, class WriteForm>
void RecordWriter::grid(const std::optional<Grid<F>>& g, WriteForm write_form) {
  if (!g) {
    w_.u16(0xFFFF);
    return;
  }
  w_.u16(static_cast<std::uint16_t>(g->axes.size()));
  for (const Axis& a : g->axes) {
    w_.u32(a.parameter);
    floats(a.keys);
  }
  w_.u32(static_cast<std::uint32_t>(g->forms.size()));
  for (std::size_t c = 0; c < g->forms.size(); ++c) {
    for (std::size_t a = 0; a < g->axes.size(); ++a) w_.u16(g->coords[c * g->axes.size() + a]);
    write_form(g->forms[c]);
  }
}

void RecordWriter::channels(const Channels& list) {
  w_.u8(static_cast<std::uint8_t>(list.size()));
  for (const Channel& ch : list) {
    w_.u8(static_cast<std::uint8_t>(ch.type));
    w_.u8(static_cast<std::uint8_t>(ch.kind));
    std::optional<Grid<Rgb>> g(ch.grid);
    grid(g, [&](const Rgb& v) {
      if (ch.kind == ChannelKind::Color)
        rgb(v);
      else if (ch.kind == ChannelKind::Scalar)
        w_.f32(v[0]);
      else
        w_.flag(v[0] != 0);
    });
  }
}

template <class S, class WriteShape>
void RecordWriter::bindings(const std::vector<Binding<S>>& list, WriteShape write_shape) {
  w_.u16(static_cast<std::uint16_t>(list.size()));
  for (const Binding<S>& b : list) {
    w_.u32(b.parameter);
    floats(b.keys);
    w_.u32(b.neutral);
    for (const auto& s : b.shapes) {
      w_.flag(s.has_value());
      if (s) write_shape(*s);
    }
    w_.u16(static_cast<std::uint16_t>(b.limits.size()));
    for (const Limit& l : b.limits) {
      w_.u32(l.parameter);
      w_.u16(static_cast<std::uint16_t>(l.points.size()));
      for (const auto& p : l.points) {
        w_.f32(p[0]);
        w_.f32(p[1]);
      }
    }
  }
}

void RecordWriter::deformer(const Deformer& d) {
  w_.u8(static_cast<std::uint8_t>(d.kind));
  str(d.id);
  w_.i32(d.parent);
  w_.i32(d.part);
  w_.u8(static_cast<std::uint8_t>((d.visible ? 1 : 0) | (d.enabled ? 2 : 0) | (d.flip_x ? 4 : 0) | (d.flip_y ? 8 : 0) |
                                  (d.bilinear ? 16 : 0)));
  w_.f32(d.opacity);
  rgb(d.multiply);
  rgb(d.screen);
  if (d.kind == DeformerKind::Warp) {
    w_.u32(d.columns);
    w_.u32(d.rows);
    grid(d.lattice, [&](const Array<float>& p) { floats(p); });
    channels(d.channels);
    bindings(d.lattice_shapes, [&](const LatticeShape& s) {
      floats(s.points);
      w_.f32(s.opacity);
      rgb(s.multiply);
      rgb(s.screen);
    });
  } else {
    w_.f32(d.base_angle);
    auto pivot = [&](const Pivot& p) {
      w_.f32(p.x);
      w_.f32(p.y);
      w_.f32(p.angle);
      w_.f32(p.scale);
    };
    grid(d.pivot, pivot);
    channels(d.channels);
    bindings(d.pivot_shapes, [&](const PivotShape& s) {
      pivot(s.pivot);
      w_.flag(s.flip_x);
      w_.flag(s.flip_y);
      w_.f32(s.opacity);
      rgb(s.multiply);
      rgb(s.screen);
    });
  }
}

void RecordWriter::deformers(const std::vector<Deformer>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Deformer& d : list) deformer(d);
}

void RecordWriter::composite(const Composite& c) {
  w_.u8(c.blend);
  w_.u8(c.alpha_blend);
  refs(c.mask_meshes);
  refs(c.mask_parts);
  w_.flag(c.invert_mask);
  w_.f32(c.opacity);
  rgb(c.multiply);
  rgb(c.screen);
}

void RecordWriter::parts(const std::vector<Part>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Part& p : list) {
    str(p.id);
    name(p.name);
    w_.u8(static_cast<std::uint8_t>((p.visible ? 1 : 0) | (p.sketch ? 2 : 0) | (cubism_ && !p.enabled ? 4 : 0)));
    w_.u8(p.group_mode);
    w_.i32(p.draw_order);
    w_.u32(static_cast<std::uint32_t>(p.children.size()));
    for (const PartChild& c : p.children) {
      w_.u8(static_cast<std::uint8_t>(c.kind));
      w_.u32(c.index);
    }
    channels(p.channels);
    composite(p.composite);
    bindings(p.shapes, [&](const PartShape& s) {
      w_.f32(s.draw_order);
      w_.f32(s.opacity);
      rgb(s.multiply);
      rgb(s.screen);
    });
  }
}

void RecordWriter::meshes(const std::vector<Mesh>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Mesh& m : list) {
    str(m.id);
    name(m.name);
    w_.i32(m.parent);
    w_.u8(m.blend);
    w_.u8(m.alpha_blend);
    refs(m.mask_meshes);
    w_.u8(static_cast<std::uint8_t>((m.invert_mask ? 1 : 0) | (m.culling ? 2 : 0) | (m.visible ? 4 : 0) |
                                    (m.geometry ? 8 : 0)));
    w_.i32(m.texture_page);
    if (m.geometry) {
      floats(m.geometry->positions, FloatUse::Position);
      floats(m.geometry->uvs, FloatUse::Uv);
      indices(m.geometry->indices, m.vertex_count() <= 65535);
    }
    grid(m.keyforms, [&](const Array<float>& d) { floats(d, FloatUse::Position); });
    channels(m.channels);
    w_.f32(m.draw_order);
    w_.f32(m.opacity);
    rgb(m.multiply);
    rgb(m.screen);
    bindings(m.shapes, [&](const MeshShape& s) {
      floats(s.deltas, FloatUse::Position);
      w_.f32(s.draw_order);
      w_.f32(s.opacity);
      rgb(s.multiply);
      rgb(s.screen);
    });
  }
}

void RecordWriter::glues(const std::vector<Glue>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Glue& g : list) {
    str(g.id);
    w_.u32(g.mesh_a);
    w_.u32(g.mesh_b);
    w_.f32(g.intensity);
    w_.u32(static_cast<std::uint32_t>(g.pairs.size()));
    for (const GluePair& p : g.pairs) {
      w_.u32(p.a);
      w_.u32(p.b);
      w_.f32(p.weight_a);
      w_.f32(p.weight_b);
    }
    channels(g.channels);
    if (cubism_) bindings(g.shapes, [&](const GlueShape& s) { w_.f32(s.intensity); });
  }
}

void RecordWriter::draw_group(const std::vector<DrawGroup>& groups, std::size_t index) {
  const DrawGroup& g = groups[index];
  w_.i32(g.part);
  w_.i32(g.draw_order);
  if (cubism_) w_.i32(g.floor_order);
  channels(g.channels);
  w_.flag(g.composite.has_value());
  if (g.composite) composite(*g.composite);
  w_.u32(static_cast<std::uint32_t>(g.children.size()));
  for (const DrawChild& c : g.children) {
    w_.u8(static_cast<std::uint8_t>(c.kind));
    if (c.kind == DrawChildKind::Mesh)
      w_.u32(c.index);
    else
      draw_group(groups, c.index);  // validated: later in the list, depth bounded
  }
}

void RecordWriter::draw_tree(const std::vector<DrawGroup>& groups) { draw_group(groups, 0); }

void RecordWriter::textures(const std::vector<Texture>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Texture& t = list[i];
    if (v2()) {
      w_.u8(static_cast<std::uint8_t>(t.kind));
      w_.u32(t.width);
      w_.u32(t.height);
      if (t.kind == TextureKind::External)
        str(t.uri);
      else
        byte_string(t.data);
      continue;
    }
    // Version 1 pages are PNG bytes only.
    w_.u32(t.width);
    w_.u32(t.height);
    if (t.kind == TextureKind::Png) {
      byte_string(t.data);
    } else {
      byte_string({});
      dropped_.push_back("TEXR: texture page " + std::to_string(i) +
                         (t.kind == TextureKind::Ktx2 ? " is KTX2" : " is an external file (" + t.uri + ")") +
                         "; version 1 holds only PNG pages, so it is written empty");
    }
  }
}

void RecordWriter::physics(const Rig& rig) {
  w_.f32(rig.physics_fps);
  w_.u32(static_cast<std::uint32_t>(rig.physics.size()));
  std::size_t dropped_y = 0;
  // Version 1 has no vertical (Y) source: those inputs and outputs are left out.
  auto keep = [&](PhysicsSource s) {
    if (v2() || s != PhysicsSource::Y) return true;
    ++dropped_y;
    return false;
  };
  for (const PhysicsGroup& g : rig.physics) {
    str(g.id);
    name(g.name);
    std::size_t count_at = w_.size();
    w_.u32(0);
    std::uint32_t n = 0;
    for (const PhysicsInput& in : g.inputs) {
      if (!keep(in.source)) continue;
      w_.u32(in.parameter);
      w_.f32(in.weight);
      w_.u8(static_cast<std::uint8_t>(in.source));
      w_.flag(in.reflect);
      ++n;
    }
    w_.patch_u32(count_at, n);
    count_at = w_.size();
    w_.u32(0);
    n = 0;
    for (const PhysicsOutput& o : g.outputs) {
      if (!keep(o.source)) continue;
      w_.u32(o.parameter);
      w_.u32(o.vertex);
      w_.f32(o.scale);
      w_.f32(o.weight);
      w_.u8(static_cast<std::uint8_t>(o.source));
      w_.flag(o.reflect);
      ++n;
    }
    w_.patch_u32(count_at, n);
    w_.u32(static_cast<std::uint32_t>(g.segments.size()));
    for (const PhysicsSegment& s : g.segments) {
      w_.f32(s.length);
      w_.f32(s.mobility);
      w_.f32(s.delay);
      w_.f32(s.acceleration);
    }
    const Normalization& nz = g.normalization;
    for (float v : {nz.position_min, nz.position_default, nz.position_max, nz.angle_min, nz.angle_default, nz.angle_max})
      w_.f32(v);
  }
  if (dropped_y)
    dropped_.push_back("PHYS: " + std::to_string(dropped_y) +
                       " vertical (Y) physics inputs/outputs; version 1 has only X and angle sources");
}

void RecordWriter::segments(const std::vector<CurveSegment>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const CurveSegment& s : list) {
    w_.u8(static_cast<std::uint8_t>(s.kind));
    if (s.kind == SegmentKind::Bezier)
      for (float c : s.control) w_.f32(c);
    w_.f32(s.time);
    w_.f32(s.value);
  }
}

void RecordWriter::clips(const std::vector<Clip>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Clip& c : list) {
    str(c.id);
    name(c.name);
    str(c.group);
    w_.f32(c.duration);
    w_.f32(c.fps);
    w_.flag(c.looping);
    w_.f32(c.fade_in);
    w_.f32(c.fade_out);
    w_.u32(static_cast<std::uint32_t>(c.curves.size()));
    for (const Curve& cv : c.curves) {
      w_.u32(cv.parameter);
      w_.f32(cv.start_time);
      w_.f32(cv.start_value);
      segments(cv.segments);
    }
  }
}

void RecordWriter::roles(const std::vector<Role>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Role& r : list) {
    str(r.role);
    refs(r.parameters);
  }
}

// ---- information, extensions, attached ---------------------------------------------------

void RecordWriter::gui(const Gui& gui) {
  w_.u32(static_cast<std::uint32_t>(gui.snaps.size()));
  for (const GuiSnap& s : gui.snaps) {
    w_.u32(s.parameter);
    floats(s.values);
  }
  w_.u32(static_cast<std::uint32_t>(gui.joysticks.size()));
  for (const GuiJoystick& j : gui.joysticks) {
    w_.u32(j.horizontal);
    w_.u32(j.vertical);
  }
  w_.u32(static_cast<std::uint32_t>(gui.nodes.size()));
  for (const GuiNode& n : gui.nodes) {
    w_.u8(n.group ? 1 : 0);
    w_.flag(n.open);
    w_.u8(static_cast<std::uint8_t>(n.label));
    w_.u8(0);
    w_.i32(n.parameter);
    str(n.id);
    name(n.name);
    str(n.preset);
    w_.u32(n.argb);
    w_.u32(n.children);
  }
}

void RecordWriter::meta(const std::vector<MetaEntry>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const MetaEntry& e : list) {
    str(e.key);
    str(e.value);
  }
}

void RecordWriter::extension_header(const ExtensionHeader& h) {
  w_.u16(h.feature);
  w_.u16(h.hooks);
  refs(h.parameters);
  refs(h.physics_groups);
  refs(h.deformers);
  w_.u32(static_cast<std::uint32_t>(h.meshes.size()));
  for (const MeshOverride& m : h.meshes) {
    w_.u32(m.mesh);
    refs(m.axes);
    refs(m.bindings);
  }
  w_.u32(static_cast<std::uint32_t>(h.depends_on.size()));
  for (const std::string& tag : h.depends_on) {
    std::string t = tag;
    t.resize(4, ' ');
    w_.raw(t);
  }
}

void RecordWriter::bones(const BoneChunk& b) {
  extension_header(b.header);
  deformers(b.virtual_bones);
  w_.u32(static_cast<std::uint32_t>(b.bones.size()));
  for (const BoneRef& r : b.bones) {
    w_.u32(r.deformer);
    str(r.id);
  }
  w_.u32(static_cast<std::uint32_t>(b.arcs.size()));
  for (const Arc& a : b.arcs) {
    w_.u32(a.deformer);
    w_.u32(a.parameter);
    w_.f32(a.cx);
    w_.f32(a.cy);
  }
}

void RecordWriter::skins(const SkinChunk& s) {
  extension_header(s.header);
  w_.u32(static_cast<std::uint32_t>(s.skins.size()));
  for (const Skin& k : s.skins) {
    w_.u32(k.mesh);
    w_.u32(static_cast<std::uint32_t>(k.axes.size()));
    for (const Axis& a : k.axes) {
      w_.u32(a.parameter);
      floats(a.keys);
    }
    refs(k.bones);
    bool narrow = k.bones.size() <= 65536;
    indices(k.from, narrow);
    indices(k.to, narrow);
    floats(k.weight);
  }
}

void RecordWriter::colliders(const ColliderChunk& c) {
  extension_header(c.header);
  w_.u32(static_cast<std::uint32_t>(c.colliders.size()));
  for (const Collider& k : c.colliders) {
    str(k.id);
    w_.flag(k.capsule);
    w_.i32(k.deformer);
    w_.i32(k.mesh);
    w_.u32(k.vertex_a);
    w_.u32(k.vertex_b);
    for (float v : {k.ax, k.ay, k.bx, k.by, k.radius_a, k.radius_b, k.friction}) w_.f32(v);
  }
}

void RecordWriter::simulations(const SimulationChunk& s) {
  extension_header(s.header);
  w_.u32(static_cast<std::uint32_t>(s.simulations.size()));
  for (const Simulation& m : s.simulations) {
    str(m.id);
    w_.f32(m.fps);
    w_.u32(m.substeps);
    for (float v : {m.gravity_x, m.gravity_y, m.wind_x, m.wind_y, m.pin_compliance}) w_.f32(v);
    w_.u32(static_cast<std::uint32_t>(m.targets.size()));
    for (const SimTarget& t : m.targets) {
      w_.u32(t.mesh);
      w_.u32(t.vertex_count);
    }
    for (const auto* a : {&m.inv_mass, &m.damping, &m.wind_factor, &m.pin_weight, &m.goal_compliance,
                          &m.goal_offset_x, &m.goal_offset_y})
      floats(*a);
    // SIMS types its index arrays as array<u32>: always written wide.
    indices(m.anchor_mesh, false);
    indices(m.anchor_vertex, false);
    indices(m.stretch_a, false);
    indices(m.stretch_b, false);
    floats(m.stretch_rest);
    floats(m.stretch_compliance);
    floats(m.compression_compliance);
    indices(m.tri_a, false);
    indices(m.tri_b, false);
    indices(m.tri_c, false);
    floats(m.area_compliance);
    indices(m.bend_t1, false);
    indices(m.bend_t2, false);
    floats(m.bend_compliance);
    indices(m.weld_a, false);
    indices(m.weld_b, false);
    floats(m.weld_weight_a);
    floats(m.weld_weight_b);
    floats(m.weld_compliance);
    indices(m.long_particle, false);
    indices(m.long_root, false);
    floats(m.long_max_distance);
    refs(m.parameters);
    refs(m.physics_groups);
    w_.u32(static_cast<std::uint32_t>(m.statics.size()));
    for (const SimStatic& st : m.statics) {
      w_.u32(st.parameter);
      floats(st.keys);
      w_.u32(static_cast<std::uint32_t>(st.meshes.size()));
      for (const SimStaticMesh& sm : st.meshes) {
        w_.u32(sm.mesh);
        for (const auto& o : sm.offsets) floats(o);
      }
    }
    refs(m.colliders);
  }
}

std::uint16_t expression_version(const std::vector<Expression>& list) {
  for (const Expression& e : list)
    if (e.cubism_playback) return 2;
  return 1;
}

void RecordWriter::expressions(const std::vector<Expression>& list) {
  const bool flags = expression_version(list) >= 2;
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Expression& e : list) {
    str(e.id);
    name(e.name);
    w_.f32(e.fade_in);
    w_.f32(e.fade_out);
    w_.u32(static_cast<std::uint32_t>(e.values.size()));
    for (const ExpressionValue& v : e.values) {
      w_.u32(v.parameter);
      w_.u8(static_cast<std::uint8_t>(v.blend));
      w_.f32(v.value);
    }
    if (flags) w_.u8(e.cubism_playback ? kExpressionFlagCubism : 0);
  }
}

void RecordWriter::hit_areas(const std::vector<HitArea>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const HitArea& h : list) {
    str(h.id);
    name(h.name);
    refs(h.meshes);
  }
}

void RecordWriter::user_data(const std::vector<UserData>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const UserData& u : list) {
    w_.u8(u.kind);
    w_.u32(u.target);
    str(u.value);
  }
}

void RecordWriter::pose(const Pose& p) {
  w_.f32(p.fade_in);
  w_.u32(static_cast<std::uint32_t>(p.groups.size()));
  for (const PoseGroup& g : p.groups) {
    w_.u32(static_cast<std::uint32_t>(g.entries.size()));
    for (const PoseEntry& e : g.entries) {
      w_.u32(e.part);
      refs(e.linked);
    }
  }
  if (pose_version(p) >= 2)
    w_.u8(static_cast<std::uint8_t>((p.cubism_playback ? kPoseFlagCubism : 0) | (p.cubism2 ? kPoseFlagCubism2 : 0)));
}

void RecordWriter::hairs(const std::vector<Hair>& list) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Hair& h : list) {
    name(h.name);
    for (float v : {h.length, h.resistance, h.mass}) w_.f32(v);
    hair_links(h.inputs, &HairInput::source);
    hair_links(h.outputs, &HairOutput::value);
  }
}

// A hair's inputs or outputs: parameter, kind byte, scale, weight (RecordReader::hair_links).
template <class Link, class Kind>
void RecordWriter::hair_links(const std::vector<Link>& list, Kind Link::*kind) {
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const Link& link : list) {
    w_.u32(link.parameter);
    w_.u8(static_cast<std::uint8_t>(link.*kind));
    w_.f32(link.scale);
    w_.f32(link.weight);
  }
}

std::uint16_t pose_version(const Pose& p) { return p.cubism_playback || p.cubism2 ? 2 : 1; }

std::uint16_t clip_extension_version(const std::vector<ClipExtension>& list) {
  // Version 1 stays the layout (and bytes) of files without playback flags.
  for (const ClipExtension& x : list)
    if (x.cubism_playback || x.unrestricted_beziers) return 2;
  return 1;
}

void RecordWriter::clip_extensions(const std::vector<ClipExtension>& list) {
  const bool flags = clip_extension_version(list) >= 2;
  w_.u32(static_cast<std::uint32_t>(list.size()));
  for (const ClipExtension& x : list) {
    w_.u32(x.clip);
    w_.u32(static_cast<std::uint32_t>(x.events.size()));
    for (const ClipEvent& e : x.events) {
      w_.f32(e.time);
      str(e.value);
    }
    w_.u32(static_cast<std::uint32_t>(x.curves.size()));
    for (const ClipExtraCurve& c : x.curves) {
      w_.u8(static_cast<std::uint8_t>(c.target));
      w_.i32(c.part);
      for (float v : {c.fade_in, c.fade_out, c.start_time, c.start_value}) w_.f32(v);
      segments(c.segments);
    }
    w_.u32(static_cast<std::uint32_t>(x.fades.size()));
    for (const ClipCurveFade& f : x.fades) {
      w_.u32(f.curve);
      w_.f32(f.fade_in);
      w_.f32(f.fade_out);
    }
    if (flags)
      w_.u8(static_cast<std::uint8_t>((x.cubism_playback ? kClipFlagCubism : 0) |
                                      (x.unrestricted_beziers ? kClipFlagUnrestricted : 0)));
  }
}

}  // namespace p2l::format
