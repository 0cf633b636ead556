// A small rig that uses every part of the model: every optional chunk is present, and every
// field of every struct holds a value other than its default in at least one record. It
// passes p2l::validate(), so tests of the file writer and loader can use it as well.
//
// A few fields are kept at their default here because a valid file requires them so:
// UserData::kind (must be 0), RawChunk::required (a reader refuses an unknown required
// chunk), and the fields a deformer of the other kind ignores (the file does not store a
// rotation's lattice size nor a warp's base angle). Tests that only need the model, such as
// the JSON round trip, set those on a copy.
//
// Float values include -0.0, 0.1, 1e-30, 3.4e38 and a denormal so that text forms are
// exercised at their edges. A plain float member compares -0.0 equal to 0 (the structs'
// operator== is memberwise), so -0.0 also sits in Array<float>s, which compare bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l_test {

namespace full_rig_detail {

using namespace p2l;

// A grid with no axes: one cell that always applies.
template <class F>
Grid<F> constant_grid(F form) {
  Grid<F> g;
  g.forms.push_back(std::move(form));
  return g;
}

inline Channels channels_of_every_kind() {
  Channels list;
  Channel opacity{ChannelType::Opacity, ChannelKind::Scalar, {}};
  opacity.grid.axes = {Axis{0, {-30.0f, 30.0f}}};
  opacity.grid.coords = {0, 1};
  opacity.grid.forms = {Rgb{0.25f, 0, 0}, Rgb{0.75f, 0, 0}};
  list.push_back(opacity);
  list.push_back({ChannelType::MultiplyColor, ChannelKind::Color, constant_grid(Rgb{0.1f, 0.2f, 0.3f})});
  list.push_back({ChannelType::FlipX, ChannelKind::Flag, constant_grid(Rgb{1, 0, 0})});
  return list;
}

inline Composite full_composite() {
  return Composite{3, 2, {1}, {1}, true, 0.5f, Rgb{0.9f, 0.8f, 0.7f}, Rgb{0.01f, 0.02f, 0.03f}};
}

inline ExtensionHeader full_header(std::uint16_t feature, std::uint32_t deformer) {
  ExtensionHeader h;
  h.feature = feature;
  h.hooks = kHookH1 | kHookH3 | kHookH6;
  h.parameters = {0, 3};
  h.physics_groups = {0};
  h.deformers = {deformer};
  h.meshes = {MeshOverride{1, {0, 1}, {0}}};
  h.depends_on = {"DEFM", "VNDR"};
  return h;
}

inline std::vector<CurveSegment> every_segment_kind() {
  return {
      CurveSegment{SegmentKind::Linear, {}, 0.5f, 1.0f},
      CurveSegment{SegmentKind::Bezier, {0.6f, 1.1f, 0.9f, -0.0f}, 1.0f, 0.1f},
      CurveSegment{SegmentKind::Stepped, {}, 1.5f, -1.0f},
      CurveSegment{SegmentKind::InverseStepped, {}, 2.0f, 0.25f},
  };
}

inline void add_parameters(Rig& rig) {
  rig.parameters = {
      Parameter{"ParamAngleX", "Angle X", -30.0f, 30.0f, 0.1f, false, true},
      Parameter{"ParamAngleY", "Angle Y", -30.0f, 30.0f, -0.0f, false, false},
      Parameter{"ParamSmile", "Smile", 0.0f, 1.0f, 0.0f, true, false},
      Parameter{"ParamArm", "Arm", -1.0f, 1.0f, 0.5f, false, false},
  };
}

// 0: a 2x2 warp; 1: a rotation keyed on two axes (sparse); 2: a rotation keyed on
// ParamArm alone (an arc needs that), the skinned mesh's parent.
inline void add_deformers(Rig& rig) {
  Deformer warp;
  warp.kind = DeformerKind::Warp;
  warp.id = "WarpFace";
  warp.part = 0;
  warp.visible = false;
  warp.enabled = false;
  warp.flip_x = true;
  warp.flip_y = true;
  warp.bilinear = true;
  warp.opacity = 0.75f;
  warp.multiply = {0.5f, 0.25f, 1.0f};
  warp.screen = {0.1f, 0.2f, 0.3f};
  warp.columns = 2;
  warp.rows = 2;
  std::vector<float> lattice(18);  // (2 + 1) x (2 + 1) points, two floats each
  for (std::size_t i = 0; i < lattice.size(); ++i) lattice[i] = static_cast<float>(i) * 0.1f;
  Grid<Array<float>> lattice_grid;
  lattice_grid.axes = {Axis{0, {-30.0f, 0.0f, 30.0f}}};
  lattice_grid.coords = {0, 1, 2};
  lattice_grid.forms = {Array<float>(lattice), Array<float>(std::vector<float>(18, 1e-30f)), Array<float>(lattice)};
  warp.lattice = lattice_grid;
  Binding<LatticeShape> lattice_binding{2, {0.0f, 1.0f}, 0, {}, {Limit{1, {{0.0f, 1.0f}, {1.0f, 0.0f}}}}};
  lattice_binding.shapes = {
      std::nullopt,
      LatticeShape{Array<float>(std::vector<float>(18, 0.5f)), 0.5f, {0.1f, 0.1f, 0.1f}, {0.2f, 0.2f, 0.2f}}};
  warp.lattice_shapes = {lattice_binding};
  warp.channels = channels_of_every_kind();

  Deformer head;
  head.kind = DeformerKind::Rotation;
  head.id = "RotHead";
  head.parent = 0;
  head.part = 1;
  head.base_angle = 15.0f;
  Grid<Pivot> pivots;
  pivots.axes = {Axis{0, {-30.0f, 30.0f}}, Axis{1, {-30.0f, 30.0f}}};
  pivots.coords = {0, 0, 1, 0, 1, 1};
  pivots.forms = {Pivot{1.0f, 2.0f, -10.0f, 1.5f}, Pivot{-1.0f, 2.0f, 10.0f, 0.5f}, Pivot{0.0f, 3.0f, 0.0f, 2.0f}};
  head.pivot = pivots;
  Binding<PivotShape> pivot_binding{2, {0.0f, 1.0f}, 1, {}, {}};
  pivot_binding.shapes = {
      PivotShape{Pivot{0.5f, -0.5f, 20.0f, 1.25f}, true, true, 0.25f, {0.3f, 0.3f, 0.3f}, {0.4f, 0.4f, 0.4f}},
      std::nullopt};
  head.pivot_shapes = {pivot_binding};
  head.channels = {Channel{ChannelType::DrawOrder, ChannelKind::Scalar, constant_grid(Rgb{600.0f, 0, 0})}};

  Deformer arm;
  arm.kind = DeformerKind::Rotation;
  arm.id = "RotArm";
  arm.parent = 1;
  Grid<Pivot> arm_pivots;
  arm_pivots.axes = {Axis{3, {-1.0f, 1.0f}}};
  arm_pivots.coords = {0, 1};
  arm_pivots.forms = {Pivot{0.0f, 1.0f, -45.0f, 1.0f}, Pivot{0.0f, 1.0f, 45.0f, 1.0f}};
  arm.pivot = arm_pivots;

  rig.deformers = {warp, head, arm};
}

inline void add_parts(Rig& rig) {
  Part root;
  root.id = "PartRoot";
  root.name = "Root";
  root.visible = false;
  root.sketch = true;
  root.group_mode = 2;
  root.draw_order = 300;
  root.children = {PartChild{ChildKind::Part, 1}, PartChild{ChildKind::Mesh, 0}};
  root.channels = {Channel{ChannelType::Opacity, ChannelKind::Scalar, constant_grid(Rgb{0.5f, 0, 0})}};
  root.composite = full_composite();
  Binding<PartShape> shape_binding{2, {0.0f, 1.0f}, 0, {}, {}};
  shape_binding.shapes = {std::nullopt, PartShape{10.0f, -0.5f, {0.6f, 0.6f, 0.6f}, {0.7f, 0.7f, 0.7f}}};
  root.shapes = {shape_binding};

  Part arm;
  arm.id = "PartArm";
  arm.name = "Arm";
  arm.children = {PartChild{ChildKind::Mesh, 1}, PartChild{ChildKind::Mesh, 2}};
  rig.parts = {root, arm};
}

inline Geometry quad() {
  return Geometry{{-1.0f, -1.0f, 1.0f, -0.0f, 0.1f, 1.0f, 3.4e38f, 1e-30f},
                  {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f},
                  {0, 1, 2, 2, 1, 3}};
}

inline Geometry triangle() {
  return Geometry{{0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f}, {0, 1, 2}};
}

// 0: a quad on the warp with keyforms and blend shapes; 1: a triangle skinned to the arm;
// 2: a triangle the cloth simulation moves.
inline void add_meshes(Rig& rig) {
  Mesh face;
  face.id = "MeshFace";
  face.name = "Face";
  face.parent = 0;
  face.blend = 1;
  face.alpha_blend = 2;
  face.mask_meshes = {1};
  face.invert_mask = true;
  face.culling = true;
  face.visible = false;
  face.texture_page = 0;
  face.geometry = quad();
  Grid<Array<float>> keyforms;
  keyforms.axes = {Axis{0, {-30.0f, 30.0f}}};
  keyforms.coords = {0, 1};
  keyforms.forms = {Array<float>{0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 1.4e-45f}, Array<float>{}};
  face.keyforms = keyforms;
  face.channels = {Channel{ChannelType::ScreenColor, ChannelKind::Color, constant_grid(Rgb{0.2f, 0.4f, 0.6f})},
                   Channel{ChannelType::FlipY, ChannelKind::Flag, constant_grid(Rgb{0, 0, 0})}};
  face.draw_order = 450.0f;
  face.opacity = 0.9f;
  face.multiply = {0.8f, 0.8f, 0.8f};
  face.screen = {0.05f, 0.05f, 0.05f};
  Binding<MeshShape> shape_binding{2, {0.0f, 0.5f, 1.0f}, 1, {}, {Limit{0, {{-30.0f, 0.0f}, {30.0f, 1.0f}}}}};
  shape_binding.shapes = {
      MeshShape{Array<float>(std::vector<float>(8, 0.25f)), 1.0f, 0.5f, {0.1f, 0.2f, 0.3f}, {0.3f, 0.2f, 0.1f}},
      std::nullopt, MeshShape{{}, -2.0f, 0.0f, kWhite, kBlack}};
  face.shapes = {shape_binding};

  Mesh arm;
  arm.id = "MeshArm";
  arm.name = "Arm";
  arm.parent = 2;
  arm.texture_page = 1;
  arm.geometry = triangle();

  Mesh cloth;
  cloth.id = "MeshCloth";
  cloth.name = "Cloth";
  cloth.parent = 1;
  cloth.texture_page = 2;
  cloth.geometry = triangle();

  rig.meshes = {face, arm, cloth};
}

inline void add_glue_and_draw_tree(Rig& rig) {
  Glue glue;
  glue.id = "GlueArm";
  glue.mesh_a = 1;
  glue.mesh_b = 2;
  glue.intensity = 0.8f;
  glue.pairs = {GluePair{2, 1, 0.25f, 0.75f}};
  glue.channels = {Channel{ChannelType::GlueIntensity, ChannelKind::Scalar, constant_grid(Rgb{0.6f, 0, 0})}};
  rig.glues = {glue};

  DrawGroup root;
  root.part = 0;
  root.draw_order = 10;
  root.channels = channels_of_every_kind();
  root.composite = full_composite();
  root.children = {DrawChild{DrawChildKind::Mesh, 0}, DrawChild{DrawChildKind::Group, 1},
                   DrawChild{DrawChildKind::Group, 2}};
  DrawGroup arm;
  arm.part = 1;
  arm.draw_order = 20;
  arm.children = {DrawChild{DrawChildKind::Mesh, 1}};
  DrawGroup cloth;
  cloth.children = {DrawChild{DrawChildKind::Mesh, 2}};
  rig.draw_groups = {root, arm, cloth};
}

inline void add_textures(Rig& rig) {
  // Lengths 10, 14 and 0 give base64 with two, one and no padding characters.
  rig.textures = {
      Texture{TextureKind::Png, 2, 2, Array<std::uint8_t>{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF}, ""},
      Texture{TextureKind::Ktx2, 4, 4,
              Array<std::uint8_t>{0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, 0x0D, 0x0A, 0x1A, 0x0A, 0x7F, 0x80}, ""},
      Texture{TextureKind::External, 512, 256, {}, "textures/cloth.png"},
  };
}

inline void add_physics_and_clips(Rig& rig) {
  rig.physics_fps = 60.0f;
  PhysicsGroup hair;
  hair.id = "PhysicsHair";
  hair.name = "Hair";
  hair.inputs = {PhysicsInput{0, 60.0f, PhysicsSource::X, true}, PhysicsInput{1, 40.0f, PhysicsSource::Angle, false}};
  hair.outputs = {PhysicsOutput{3, 2, 1.5f, 100.0f, PhysicsSource::Y, true}};
  hair.segments = {PhysicsSegment{0.0f, 1.0f, 1.0f, 1.0f}, PhysicsSegment{3.0f, 0.95f, 0.9f, 1.5f}};
  hair.normalization = Normalization{-10.0f, 0.5f, 10.0f, -20.0f, 0.25f, 20.0f};
  rig.physics = {hair};

  Clip idle;
  idle.id = "Idle";
  idle.name = "Idle motion";
  idle.group = "idle";
  idle.duration = 2.0f;
  idle.fps = 60.0f;
  idle.looping = true;
  idle.fade_in = 0.5f;
  idle.fade_out = 0.25f;
  idle.curves = {Curve{1, 0.1f, 0.5f, every_segment_kind()}, Curve{3, 0.0f, -0.0f, {}}};
  Clip wave;
  wave.id = "Wave";
  wave.duration = 1.0f;
  wave.curves = {Curve{3, 0.0f, 0.0f, {CurveSegment{SegmentKind::Linear, {}, 1.0f, 1.0f}}}};
  rig.clips = {wave, idle};

  rig.roles = {Role{"eye_blink", {1, 2}}};
}

inline void add_gui_and_meta(Rig& rig) {
  Gui gui;
  gui.snaps = {GuiSnap{1, {-30.0f, 0.0f, 30.0f}}};
  gui.joysticks = {GuiJoystick{3, 1}};
  gui.nodes = {
      GuiNode{true, true, GuiLabel::Custom, -1, "GroupHead", "Head", "", 0xFF336699u, 2},
      GuiNode{false, false, GuiLabel::Preset, 0, "LeafX", "", "angle_x", 0, 0},
      GuiNode{false, false, GuiLabel::None, 1, "LeafY", "Angle Y", "", 0x80FFFFFFu, 0},
  };
  rig.gui = gui;
  rig.meta = {MetaEntry{"author", "p2l tests"}, MetaEntry{"note", "ünïcödé \"quoted\"\n\ttab"}};
}

// The virtual bone is deformer index 3 (after the three DEFM deformers).
inline void add_bones_skins_colliders(Rig& rig) {
  BoneChunk bones;
  bones.header = full_header(1, 1);
  Deformer vbone;
  vbone.kind = DeformerKind::Rotation;
  vbone.id = "VBoneHand";
  vbone.parent = 2;
  vbone.base_angle = -90.0f;
  vbone.pivot = constant_grid(Pivot{0.0f, 2.0f, 5.0f, 1.0f});
  bones.virtual_bones = {vbone};
  bones.bones = {BoneRef{2, "arm"}, BoneRef{3, "hand"}};
  bones.arcs = {Arc{2, 3, 1.5f, -2.5f}};
  rig.bones = bones;

  SkinChunk skins;
  skins.header = full_header(2, 3);
  skins.skins = {Skin{1, {Axis{3, {0.0f, 1.0f}}}, {2, 3}, {0, 0, 1}, {1, 1, 0}, {0.25f, 0.5f, 1.0f}}};
  rig.skins = skins;

  ColliderChunk colliders;
  colliders.header = full_header(3, 3);
  Collider head;
  head.id = "ColliderHead";
  head.capsule = true;
  head.deformer = 1;
  head.mesh = 0;
  head.vertex_a = 1;
  head.vertex_b = 3;
  head.ax = 0.5f;
  head.ay = -0.5f;
  head.bx = 1.5f;
  head.by = 2.5f;
  head.radius_a = 2.0f;
  head.radius_b = 3.0f;
  head.friction = 0.5f;
  colliders.colliders = {head};
  rig.colliders = colliders;
}

// The cloth simulation has three particles (MeshCloth's vertices), two stretch edges, one
// triangle, bend, weld and long-range constraint each.
inline void add_simulation(Rig& rig) {
  Simulation s;
  s.id = "SimCloth";
  s.fps = 120.0f;
  s.substeps = 4;
  s.gravity_x = 0.5f;
  s.gravity_y = -9.8f;
  s.wind_x = 1.0f;
  s.wind_y = 0.25f;
  s.pin_compliance = 1e-6f;
  s.targets = {SimTarget{2, 3}};
  s.inv_mass = {0.0f, 1.0f, 2.0f};
  s.damping = {0.1f, 0.2f, 0.3f};
  s.wind_factor = {1.0f, 0.5f, 0.25f};
  s.pin_weight = {1.0f, 0.0f, 0.0f};
  s.goal_compliance = {0.01f, 0.02f, 0.03f};
  s.goal_offset_x = {0.0f, -0.0f, 0.1f};
  s.goal_offset_y = {1e-30f, 3.4e38f, -1.0f};
  s.anchor_mesh = {0xFFFFFFFFu, 0, 2};
  s.anchor_vertex = {0, 3, 1};
  s.stretch_a = {0, 1};
  s.stretch_b = {1, 2};
  s.stretch_rest = {1.0f, 1.5f};
  s.stretch_compliance = {0.001f, 0.002f};
  s.compression_compliance = {0.003f, 0.004f};
  s.tri_a = {0};
  s.tri_b = {1};
  s.tri_c = {2};
  s.area_compliance = {0.005f};
  s.bend_t1 = {0};
  s.bend_t2 = {0};
  s.bend_compliance = {0.006f};
  s.weld_a = {0};
  s.weld_b = {2};
  s.weld_weight_a = {0.4f};
  s.weld_weight_b = {0.6f};
  s.weld_compliance = {0.007f};
  s.long_particle = {2};
  s.long_root = {0};
  s.long_max_distance = {2.5f};
  s.parameters = {1};
  s.physics_groups = {0};
  s.statics = {SimStatic{
      2, {0.0f, 1.0f}, {SimStaticMesh{2, {Array<float>{0, 0, 0.1f, 0, 0, 0.1f}, Array<float>{1, 1, 1, 1, 1, 1}}}}}};
  s.colliders = {0};

  SimulationChunk chunk;
  chunk.header = full_header(4, 2);
  chunk.simulations = {s};
  rig.simulations = chunk;
}

inline void add_attached(Rig& rig) {
  rig.expressions = {
      Expression{"ExpSmile",
                 "Smile",
                 0.3f,
                 0.4f,
                 {ExpressionValue{2, ExpressionBlend::Add, 1.0f}, ExpressionValue{0, ExpressionBlend::Multiply, 1.5f},
                  ExpressionValue{1, ExpressionBlend::Overwrite, -2.0f}}}};
  rig.hit_areas = {HitArea{"HitHead", "Head", {0, 1}}};
  rig.user_data = {UserData{0, 1, "tag=arm"}};
  rig.pose = Pose{0.75f, {PoseGroup{{PoseEntry{0, {1}}, PoseEntry{1, {}}}}}};

  ClipExtension x;
  x.clip = 1;  // "Idle"
  x.events = {ClipEvent{0.5f, "blink"}, ClipEvent{1.0f, "step"}};
  x.curves = {ClipExtraCurve{ClipCurveTarget::PartOpacity, 1, 0.2f, 0.3f, 0.1f, 1.0f, every_segment_kind()},
              ClipExtraCurve{ClipCurveTarget::ModelOpacity, -1, -1.0f, -1.0f, 0.0f, 0.5f, {}},
              ClipExtraCurve{ClipCurveTarget::EyeBlink, -1, 0.1f, 0.1f, 0.0f, 1.0f, {}},
              ClipExtraCurve{ClipCurveTarget::LipSync, -1, -1.0f, 0.5f, 0.0f, 0.0f, {}}};
  x.fades = {ClipCurveFade{1, 0.1f, 0.2f}};
  rig.clip_extensions = {x};
  rig.hairs = {Hair{"HairFront",
                    0.17f,
                    0.5f,
                    0.1f,
                    {HairInput{0, HairSource::X, 0.005f, 1.0f}, HairInput{1, HairSource::Y, -0.01f, 0.5f},
                     HairInput{2, HairSource::GravityAngle, 0.8f, 1.0f}},
                    {HairOutput{2, HairValue::Angle, 0.025f, 1.0f}, HairOutput{1, HairValue::AngularVelocity, 0.001f, 0.5f}}},
               Hair{"", 0.2f, 1.4f, 0.3f, {}, {}}};

  rig.unknown_chunks = {RawChunk{"VNDR", 3, false, Array<std::uint8_t>{0x00, 0xFF, 0x10}}};
}

}  // namespace full_rig_detail

inline p2l::Rig make_full_rig() {
  using namespace full_rig_detail;
  p2l::Rig rig;
  rig.names_stripped = true;  // a header flag only: the names below are still written
  rig.canvas = p2l::Canvas{1024.0f, 768.0f, 0.1f, -12.5f, 256.0f};
  add_parameters(rig);
  add_deformers(rig);
  add_parts(rig);
  add_meshes(rig);
  add_glue_and_draw_tree(rig);
  add_textures(rig);
  add_physics_and_clips(rig);
  add_gui_and_meta(rig);
  add_bones_skins_colliders(rig);
  add_simulation(rig);
  add_attached(rig);
  return rig;
}

}  // namespace p2l_test
