// The field lists of the JSON form (docs/JSON.md): one function per model struct that
// names its members in declaration order. `fields(v, s)` calls v("key", s.member) for each
// member; `s` is const when writing and not when reading, and the constraint on S picks
// the struct. The JSON writer and reader both walk these lists, so a key cannot be written
// under one name and read under another, nor be forgotten by one of the two.
//
// Internal to src/json; the keys are the model's member names.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::json_fields {

template <class S, class T>
concept Is = std::same_as<std::remove_const_t<S>, T>;

template <class T, template <class> class Template>
inline constexpr bool kInstanceOf = false;
template <class A, template <class> class Template>
inline constexpr bool kInstanceOf<Template<A>, Template> = true;
template <class S, template <class> class Template>
concept InstanceOf = kInstanceOf<std::remove_const_t<S>, Template>;

// A flag that a chunk's version 2 added (Cubism playback): written only when set, so the
// document of a rig without it stays as it was, as its chunks stay at version 1; always read.
template <class V, class S, class B>
void flag(V& v, S&, const char* key, B& member) {
  if (!std::is_const_v<S> || member) v(key, member);
}

// The same for a list a later chunk added (HAIR): written only when not empty; always read.
template <class V, class S, class L>
void added_list(V& v, S&, const char* key, L& member) {
  if (!std::is_const_v<S> || !member.empty()) v(key, member);
}

// Grid<F> flattens its cells' coordinates into one vector; the JSON form gives each cell
// its own "at" list, so a grid is written and read through this shape.
template <class F>
struct Cell {
  std::vector<std::uint16_t> at;
  F form{};
};
template <class F>
struct GridForm {
  std::vector<Axis> axes;
  std::vector<Cell<F>> cells;
};

template <class V, Is<Canvas> S>
void fields(V& v, S& s) {
  v("width", s.width);
  v("height", s.height);
  v("origin_x", s.origin_x);
  v("origin_y", s.origin_y);
  v("pixels_per_unit", s.pixels_per_unit);
  v("y_up", s.y_up);
  v("blend_clamp", s.blend_clamp);
  v("keyform_colors", s.keyform_colors);
}

template <class V, Is<Parameter> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("min", s.min);
  v("max", s.max);
  v("default_value", s.default_value);
  v("blend", s.blend);
  v("repeat", s.repeat);
  v("decimals", s.decimals);
}

template <class V, Is<Axis> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("keys", s.keys);
}

template <class V, InstanceOf<Cell> S>
void fields(V& v, S& s) {
  v("at", s.at);
  v("form", s.form);
}

template <class V, InstanceOf<GridForm> S>
void fields(V& v, S& s) {
  v("axes", s.axes);
  v("cells", s.cells);
}

template <class V, Is<Channel> S>
void fields(V& v, S& s) {
  v("type", s.type);
  v("kind", s.kind);
  v("grid", s.grid);
}

template <class V, Is<Limit> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("points", s.points);
}

template <class V, InstanceOf<Binding> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("keys", s.keys);
  v("neutral", s.neutral);
  v("shapes", s.shapes);
  v("limits", s.limits);
}

template <class V, Is<LatticeShape> S>
void fields(V& v, S& s) {
  v("points", s.points);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
}

template <class V, Is<Pivot> S>
void fields(V& v, S& s) {
  v("x", s.x);
  v("y", s.y);
  v("angle", s.angle);
  v("scale", s.scale);
}

template <class V, Is<PivotShape> S>
void fields(V& v, S& s) {
  v("pivot", s.pivot);
  v("flip_x", s.flip_x);
  v("flip_y", s.flip_y);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
}

template <class V, Is<MeshShape> S>
void fields(V& v, S& s) {
  v("deltas", s.deltas);
  v("draw_order", s.draw_order);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
}

template <class V, Is<PartShape> S>
void fields(V& v, S& s) {
  v("draw_order", s.draw_order);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
}

template <class V, Is<GlueShape> S>
void fields(V& v, S& s) {
  v("intensity", s.intensity);
}

template <class V, Is<Deformer> S>
void fields(V& v, S& s) {
  v("kind", s.kind);
  v("id", s.id);
  v("parent", s.parent);
  v("part", s.part);
  v("visible", s.visible);
  v("enabled", s.enabled);
  v("flip_x", s.flip_x);
  v("flip_y", s.flip_y);
  v("bilinear", s.bilinear);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
  v("columns", s.columns);
  v("rows", s.rows);
  v("lattice", s.lattice);
  v("lattice_shapes", s.lattice_shapes);
  v("base_angle", s.base_angle);
  v("pivot", s.pivot);
  v("pivot_shapes", s.pivot_shapes);
  v("channels", s.channels);
}

template <class V, Is<Composite> S>
void fields(V& v, S& s) {
  v("blend", s.blend);
  v("alpha_blend", s.alpha_blend);
  v("mask_meshes", s.mask_meshes);
  v("mask_parts", s.mask_parts);
  v("invert_mask", s.invert_mask);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
}

template <class V, Is<PartChild> S>
void fields(V& v, S& s) {
  v("kind", s.kind);
  v("index", s.index);
}

template <class V, Is<Part> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("visible", s.visible);
  v("sketch", s.sketch);
  v("enabled", s.enabled);
  v("group_mode", s.group_mode);
  v("draw_order", s.draw_order);
  v("children", s.children);
  v("channels", s.channels);
  v("composite", s.composite);
  v("shapes", s.shapes);
}

template <class V, Is<Geometry> S>
void fields(V& v, S& s) {
  v("positions", s.positions);
  v("uvs", s.uvs);
  v("indices", s.indices);
}

template <class V, Is<Mesh> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("parent", s.parent);
  v("blend", s.blend);
  v("alpha_blend", s.alpha_blend);
  v("mask_meshes", s.mask_meshes);
  v("invert_mask", s.invert_mask);
  v("culling", s.culling);
  v("visible", s.visible);
  v("texture_page", s.texture_page);
  v("geometry", s.geometry);
  v("keyforms", s.keyforms);
  v("channels", s.channels);
  v("draw_order", s.draw_order);
  v("opacity", s.opacity);
  v("multiply", s.multiply);
  v("screen", s.screen);
  v("shapes", s.shapes);
}

template <class V, Is<GluePair> S>
void fields(V& v, S& s) {
  v("a", s.a);
  v("b", s.b);
  v("weight_a", s.weight_a);
  v("weight_b", s.weight_b);
}

template <class V, Is<Glue> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("mesh_a", s.mesh_a);
  v("mesh_b", s.mesh_b);
  v("intensity", s.intensity);
  v("pairs", s.pairs);
  v("channels", s.channels);
  v("shapes", s.shapes);
}

template <class V, Is<DrawChild> S>
void fields(V& v, S& s) {
  v("kind", s.kind);
  v("index", s.index);
}

template <class V, Is<DrawGroup> S>
void fields(V& v, S& s) {
  v("part", s.part);
  v("draw_order", s.draw_order);
  v("floor_order", s.floor_order);
  v("channels", s.channels);
  v("composite", s.composite);
  v("children", s.children);
}

template <class V, Is<Texture> S>
void fields(V& v, S& s) {
  v("kind", s.kind);
  v("width", s.width);
  v("height", s.height);
  v("data", s.data);
  v("uri", s.uri);
}

template <class V, Is<PhysicsInput> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("weight", s.weight);
  v("source", s.source);
  v("reflect", s.reflect);
}

template <class V, Is<PhysicsOutput> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("vertex", s.vertex);
  v("scale", s.scale);
  v("weight", s.weight);
  v("source", s.source);
  v("reflect", s.reflect);
}

template <class V, Is<PhysicsSegment> S>
void fields(V& v, S& s) {
  v("length", s.length);
  v("mobility", s.mobility);
  v("delay", s.delay);
  v("acceleration", s.acceleration);
}

template <class V, Is<Normalization> S>
void fields(V& v, S& s) {
  v("position_min", s.position_min);
  v("position_default", s.position_default);
  v("position_max", s.position_max);
  v("angle_min", s.angle_min);
  v("angle_default", s.angle_default);
  v("angle_max", s.angle_max);
}

template <class V, Is<PhysicsGroup> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("inputs", s.inputs);
  v("outputs", s.outputs);
  v("segments", s.segments);
  v("normalization", s.normalization);
}

template <class V, Is<CurveSegment> S>
void fields(V& v, S& s) {
  v("kind", s.kind);
  v("control", s.control);
  v("time", s.time);
  v("value", s.value);
}

template <class V, Is<Curve> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("start_time", s.start_time);
  v("start_value", s.start_value);
  v("segments", s.segments);
}

template <class V, Is<Clip> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("group", s.group);
  v("duration", s.duration);
  v("fps", s.fps);
  v("looping", s.looping);
  v("fade_in", s.fade_in);
  v("fade_out", s.fade_out);
  v("curves", s.curves);
}

template <class V, Is<Role> S>
void fields(V& v, S& s) {
  v("role", s.role);
  v("parameters", s.parameters);
}

template <class V, Is<GuiSnap> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("values", s.values);
}

template <class V, Is<GuiJoystick> S>
void fields(V& v, S& s) {
  v("horizontal", s.horizontal);
  v("vertical", s.vertical);
}

template <class V, Is<GuiNode> S>
void fields(V& v, S& s) {
  v("group", s.group);
  v("open", s.open);
  v("label", s.label);
  v("parameter", s.parameter);
  v("id", s.id);
  v("name", s.name);
  v("preset", s.preset);
  v("argb", s.argb);
  v("children", s.children);
}

template <class V, Is<Gui> S>
void fields(V& v, S& s) {
  v("snaps", s.snaps);
  v("joysticks", s.joysticks);
  v("nodes", s.nodes);
}

template <class V, Is<MetaEntry> S>
void fields(V& v, S& s) {
  v("key", s.key);
  v("value", s.value);
}

template <class V, Is<MeshOverride> S>
void fields(V& v, S& s) {
  v("mesh", s.mesh);
  v("axes", s.axes);
  v("bindings", s.bindings);
}

template <class V, Is<ExtensionHeader> S>
void fields(V& v, S& s) {
  v("feature", s.feature);
  v("hooks", s.hooks);
  v("parameters", s.parameters);
  v("physics_groups", s.physics_groups);
  v("deformers", s.deformers);
  v("meshes", s.meshes);
  v("depends_on", s.depends_on);
}

template <class V, Is<BoneRef> S>
void fields(V& v, S& s) {
  v("deformer", s.deformer);
  v("id", s.id);
}

template <class V, Is<Arc> S>
void fields(V& v, S& s) {
  v("deformer", s.deformer);
  v("parameter", s.parameter);
  v("cx", s.cx);
  v("cy", s.cy);
}

template <class V, Is<BoneChunk> S>
void fields(V& v, S& s) {
  v("header", s.header);
  v("virtual_bones", s.virtual_bones);
  v("bones", s.bones);
  v("arcs", s.arcs);
}

template <class V, Is<Skin> S>
void fields(V& v, S& s) {
  v("mesh", s.mesh);
  v("axes", s.axes);
  v("bones", s.bones);
  v("from", s.from);
  v("to", s.to);
  v("weight", s.weight);
}

template <class V, Is<SkinChunk> S>
void fields(V& v, S& s) {
  v("header", s.header);
  v("skins", s.skins);
}

template <class V, Is<Collider> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("capsule", s.capsule);
  v("deformer", s.deformer);
  v("mesh", s.mesh);
  v("vertex_a", s.vertex_a);
  v("vertex_b", s.vertex_b);
  v("ax", s.ax);
  v("ay", s.ay);
  v("bx", s.bx);
  v("by", s.by);
  v("radius_a", s.radius_a);
  v("radius_b", s.radius_b);
  v("friction", s.friction);
}

template <class V, Is<ColliderChunk> S>
void fields(V& v, S& s) {
  v("header", s.header);
  v("colliders", s.colliders);
}

template <class V, Is<SimTarget> S>
void fields(V& v, S& s) {
  v("mesh", s.mesh);
  v("vertex_count", s.vertex_count);
}

template <class V, Is<SimStaticMesh> S>
void fields(V& v, S& s) {
  v("mesh", s.mesh);
  v("offsets", s.offsets);
}

template <class V, Is<SimStatic> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("keys", s.keys);
  v("meshes", s.meshes);
}

template <class V, Is<Simulation> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("fps", s.fps);
  v("substeps", s.substeps);
  v("gravity_x", s.gravity_x);
  v("gravity_y", s.gravity_y);
  v("wind_x", s.wind_x);
  v("wind_y", s.wind_y);
  v("pin_compliance", s.pin_compliance);
  v("targets", s.targets);
  v("inv_mass", s.inv_mass);
  v("damping", s.damping);
  v("wind_factor", s.wind_factor);
  v("pin_weight", s.pin_weight);
  v("goal_compliance", s.goal_compliance);
  v("goal_offset_x", s.goal_offset_x);
  v("goal_offset_y", s.goal_offset_y);
  v("anchor_mesh", s.anchor_mesh);
  v("anchor_vertex", s.anchor_vertex);
  v("stretch_a", s.stretch_a);
  v("stretch_b", s.stretch_b);
  v("stretch_rest", s.stretch_rest);
  v("stretch_compliance", s.stretch_compliance);
  v("compression_compliance", s.compression_compliance);
  v("tri_a", s.tri_a);
  v("tri_b", s.tri_b);
  v("tri_c", s.tri_c);
  v("area_compliance", s.area_compliance);
  v("bend_t1", s.bend_t1);
  v("bend_t2", s.bend_t2);
  v("bend_compliance", s.bend_compliance);
  v("weld_a", s.weld_a);
  v("weld_b", s.weld_b);
  v("weld_weight_a", s.weld_weight_a);
  v("weld_weight_b", s.weld_weight_b);
  v("weld_compliance", s.weld_compliance);
  v("long_particle", s.long_particle);
  v("long_root", s.long_root);
  v("long_max_distance", s.long_max_distance);
  v("parameters", s.parameters);
  v("physics_groups", s.physics_groups);
  v("statics", s.statics);
  v("colliders", s.colliders);
}

template <class V, Is<SimulationChunk> S>
void fields(V& v, S& s) {
  v("header", s.header);
  v("simulations", s.simulations);
}

template <class V, Is<ExpressionValue> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("blend", s.blend);
  v("value", s.value);
}

template <class V, Is<Expression> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("fade_in", s.fade_in);
  v("fade_out", s.fade_out);
  v("values", s.values);
  flag(v, s, "cubism_playback", s.cubism_playback);
}

template <class V, Is<HitArea> S>
void fields(V& v, S& s) {
  v("id", s.id);
  v("name", s.name);
  v("meshes", s.meshes);
}

template <class V, Is<UserData> S>
void fields(V& v, S& s) {
  v("kind", s.kind);
  v("target", s.target);
  v("value", s.value);
}

template <class V, Is<PoseEntry> S>
void fields(V& v, S& s) {
  v("part", s.part);
  v("linked", s.linked);
}

template <class V, Is<PoseGroup> S>
void fields(V& v, S& s) {
  v("entries", s.entries);
}

template <class V, Is<Pose> S>
void fields(V& v, S& s) {
  v("fade_in", s.fade_in);
  v("groups", s.groups);
  flag(v, s, "cubism_playback", s.cubism_playback);
  flag(v, s, "cubism2", s.cubism2);
}

template <class V, Is<ClipEvent> S>
void fields(V& v, S& s) {
  v("time", s.time);
  v("value", s.value);
}

template <class V, Is<ClipExtraCurve> S>
void fields(V& v, S& s) {
  v("target", s.target);
  v("part", s.part);
  v("fade_in", s.fade_in);
  v("fade_out", s.fade_out);
  v("start_time", s.start_time);
  v("start_value", s.start_value);
  v("segments", s.segments);
}

template <class V, Is<ClipCurveFade> S>
void fields(V& v, S& s) {
  v("curve", s.curve);
  v("fade_in", s.fade_in);
  v("fade_out", s.fade_out);
}

template <class V, Is<ClipExtension> S>
void fields(V& v, S& s) {
  v("clip", s.clip);
  v("events", s.events);
  v("curves", s.curves);
  v("fades", s.fades);
  flag(v, s, "cubism_playback", s.cubism_playback);
  flag(v, s, "unrestricted_beziers", s.unrestricted_beziers);
}

template <class V, Is<HairInput> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("source", s.source);
  v("scale", s.scale);
  v("weight", s.weight);
}

template <class V, Is<HairOutput> S>
void fields(V& v, S& s) {
  v("parameter", s.parameter);
  v("value", s.value);
  v("scale", s.scale);
  v("weight", s.weight);
}

template <class V, Is<Hair> S>
void fields(V& v, S& s) {
  v("name", s.name);
  v("length", s.length);
  v("resistance", s.resistance);
  v("mass", s.mass);
  v("inputs", s.inputs);
  v("outputs", s.outputs);
}

template <class V, Is<RawChunk> S>
void fields(V& v, S& s) {
  v("tag", s.tag);
  v("version", s.version);
  v("required", s.required);
  v("data", s.data);
}

// The document's own "format" and "version" keys come first; the document writer and
// reader handle them before calling this.
template <class V, Is<Rig> S>
void fields(V& v, S& s) {
  v("names_stripped", s.names_stripped);
  v("rules", s.rules);
  v("canvas", s.canvas);
  v("parameters", s.parameters);
  v("deformers", s.deformers);
  v("parts", s.parts);
  v("meshes", s.meshes);
  v("glues", s.glues);
  v("draw_groups", s.draw_groups);
  v("textures", s.textures);
  v("physics_fps", s.physics_fps);
  v("physics", s.physics);
  v("clips", s.clips);
  v("roles", s.roles);
  v("gui", s.gui);
  v("meta", s.meta);
  v("bones", s.bones);
  v("skins", s.skins);
  v("colliders", s.colliders);
  v("simulations", s.simulations);
  v("expressions", s.expressions);
  v("hit_areas", s.hit_areas);
  v("user_data", s.user_data);
  v("pose", s.pose);
  v("clip_extensions", s.clip_extensions);
  added_list(v, s, "hairs", s.hairs);
  v("unknown_chunks", s.unknown_chunks);
}

}  // namespace p2l::json_fields
