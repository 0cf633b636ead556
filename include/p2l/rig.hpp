// p2l::Rig: the one in-memory model that .p2lrt version 1 and version 2 files load into
// and that the writer writes back. It is a faithful document of the file's records
// (docs/FORMAT.md names every field); evaluation compiles it into its own tables.
//
// Conventions: a reference that may be empty is an int32_t with -1 for "none", as in the
// file; every other reference is a uint32_t index. Strings are UTF-8. A loaded Rig is
// shared as std::shared_ptr<const Rig> and never changes; building one by hand is
// ordinary struct filling, checked by p2l::validate() before it is written.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "p2l/array.hpp"

namespace p2l {

using Rgb = std::array<float, 3>;
inline constexpr Rgb kWhite{1.0f, 1.0f, 1.0f};
inline constexpr Rgb kBlack{0.0f, 0.0f, 0.0f};

struct Canvas {
  float width = 0, height = 0, origin_x = 0, origin_y = 0;
  float pixels_per_unit = -1;  // negative: the rig has no pixels-per-unit
  // Cubism's rules (CANV version 2): the root's model units already point y up (the moc3's
  // canvas flag), so the Core gives them back as they are instead of negating y.
  bool y_up = false;
  // Cubism's rules: blend shapes clamp what they blend (opacity and colours to [0, 1], a
  // rotation's angle and scale, draw orders), as the Core does for moc3 version 5 (Cubism 5.0
  // blend shapes); without it they add positions only and clamp nothing (version 4).
  bool blend_clamp = false;
  // Cubism's rules: the meshes' colours are keyform data (moc3 version 4 and later), so the
  // Core's colour buffers hold 0 until a mesh is first evaluated; without it they hold the
  // meshes' constant colours from the start (what a host reads of a mesh hidden since then).
  bool keyform_colors = false;
  bool operator==(const Canvas&) const = default;
};

struct Parameter {
  std::string id, name;
  float min = 0, max = 1, default_value = 0;
  bool blend = false;   // flags bit0: a blend-shape parameter
  bool repeat = false;  // flags bit1: values wrap around the range
  // Cubism rules (PARM version 2): keys snap within 0.1^decimals, as the moc3 says.
  std::uint8_t decimals = 3;
  bool operator==(const Parameter&) const = default;
};

// One keyed parameter axis of a keyform grid.
struct Axis {
  std::uint32_t parameter = 0;
  Array<float> keys;  // ascending
  bool operator==(const Axis&) const = default;
};

// Forms keyed over the product of parameter axes. Cells may be sparse: cell i sits at
// coordinate coords[i*axes.size() .. (i+1)*axes.size()) and holds forms[i].
template <class F>
struct Grid {
  std::vector<Axis> axes;
  std::vector<std::uint16_t> coords;
  std::vector<F> forms;
  std::size_t cell_count() const { return forms.size(); }
  bool operator==(const Grid&) const = default;
};

enum class ChannelType : std::uint8_t { DrawOrder, Opacity, MultiplyColor, ScreenColor, FlipX, FlipY, GlueIntensity };
inline constexpr int kChannelTypeCount = 7;
enum class ChannelKind : std::uint8_t { Scalar = 0, Color = 1, Flag = 2 };

// A keyed property. Scalar values are in [0], flags are 0 or 1 in [0], colours use all three.
struct Channel {
  ChannelType type = ChannelType::Opacity;
  ChannelKind kind = ChannelKind::Scalar;
  Grid<Rgb> grid;
  bool operator==(const Channel&) const = default;
};
using Channels = std::vector<Channel>;

// A limit curve of a blend binding: (parameter value, weight) points.
struct Limit {
  std::uint32_t parameter = 0;
  std::vector<std::array<float, 2>> points;
  bool operator==(const Limit&) const = default;
};

// An additive blend shape keyed on one parameter; shapes has one optional entry per key.
template <class S>
struct Binding {
  std::uint32_t parameter = 0;
  Array<float> keys;  // ascending, not empty
  std::uint32_t neutral = 0;
  std::vector<std::optional<S>> shapes;
  std::vector<Limit> limits;
  bool operator==(const Binding&) const = default;
};

struct LatticeShape {
  Array<float> points;
  float opacity = 0;
  Rgb multiply = kBlack, screen = kBlack;
  bool operator==(const LatticeShape&) const = default;
};

struct Pivot {
  float x = 0, y = 0, angle = 0, scale = 1;
  bool operator==(const Pivot&) const = default;
};

struct PivotShape {
  Pivot pivot;
  bool flip_x = false, flip_y = false;
  float opacity = 0;
  Rgb multiply = kBlack, screen = kBlack;
  bool operator==(const PivotShape&) const = default;
};

struct MeshShape {
  Array<float> deltas;  // empty, or two per vertex
  float draw_order = 0, opacity = 0;
  Rgb multiply = kBlack, screen = kBlack;
  bool operator==(const MeshShape&) const = default;
};

struct PartShape {
  float draw_order = 0, opacity = 0;
  Rgb multiply = kBlack, screen = kBlack;
  bool operator==(const PartShape&) const = default;
};
// GLUE version 2 (Cubism rules): a blend shape's intensity delta.
struct GlueShape {
  float intensity = 0;
  bool operator==(const GlueShape&) const = default;
};

enum class DeformerKind : std::uint8_t { Warp = 0, Rotation = 1 };

// A warp or rotation deformer. The flag byte is kept whole (flip bits on a warp,
// bilinear on a rotation) so that what was read is what is written.
struct Deformer {
  DeformerKind kind = DeformerKind::Warp;
  std::string id;
  std::int32_t parent = -1;  // deformer, before this one
  std::int32_t part = -1;
  bool visible = true, enabled = true, flip_x = false, flip_y = false, bilinear = false;
  float opacity = 1;
  Rgb multiply = kWhite, screen = kBlack;
  // Warp: a (columns+1) x (rows+1) lattice, two floats a point.
  std::uint32_t columns = 1, rows = 1;
  std::optional<Grid<Array<float>>> lattice;
  std::vector<Binding<LatticeShape>> lattice_shapes;
  // Rotation.
  float base_angle = 0;
  std::optional<Grid<Pivot>> pivot;
  std::vector<Binding<PivotShape>> pivot_shapes;
  Channels channels;
  bool operator==(const Deformer&) const = default;
};

struct Composite {
  std::uint8_t blend = 0, alpha_blend = 0;
  std::vector<std::uint32_t> mask_meshes, mask_parts;
  bool invert_mask = false;
  float opacity = 1;
  Rgb multiply = kWhite, screen = kBlack;
  bool operator==(const Composite&) const = default;
};

enum class ChildKind : std::uint8_t { Part = 0, Mesh = 1 };
struct PartChild {
  ChildKind kind = ChildKind::Mesh;
  std::uint32_t index = 0;
  bool operator==(const PartChild&) const = default;
};

struct Part {
  std::string id, name;
  bool visible = true, sketch = false;
  bool enabled = true;  // Cubism rules (PART version 2): a disabled part hides its subtree
  std::uint8_t group_mode = 0;
  std::int32_t draw_order = 500;
  std::vector<PartChild> children;
  Channels channels;
  Composite composite;
  std::vector<Binding<PartShape>> shapes;
  bool operator==(const Part&) const = default;
};

struct Geometry {
  Array<float> positions;  // x, y per vertex
  Array<float> uvs;        // u, v per vertex
  IndexArray indices;      // three per triangle
  bool operator==(const Geometry&) const = default;
};

struct Mesh {
  std::string id, name;
  std::int32_t parent = -1;  // deformer
  std::uint8_t blend = 0, alpha_blend = 0;
  std::vector<std::uint32_t> mask_meshes;
  bool invert_mask = false, culling = false, visible = true;
  std::int32_t texture_page = -1;
  std::optional<Geometry> geometry;
  std::optional<Grid<Array<float>>> keyforms;  // position deltas; a cell may be empty
  Channels channels;
  float draw_order = 500, opacity = 1;
  Rgb multiply = kWhite, screen = kBlack;
  std::vector<Binding<MeshShape>> shapes;
  std::size_t vertex_count() const { return geometry ? geometry->positions.size() / 2 : 0; }
  bool operator==(const Mesh&) const = default;
};

struct GluePair {
  std::uint32_t a = 0, b = 0;
  float weight_a = 0, weight_b = 0;
  bool operator==(const GluePair&) const = default;
};

struct Glue {
  std::string id;
  std::uint32_t mesh_a = 0, mesh_b = 0;
  float intensity = 1;
  std::vector<GluePair> pairs;
  Channels channels;
  std::vector<Binding<GlueShape>> shapes;  // Cubism rules (GLUE version 2) only
  bool operator==(const Glue&) const = default;
};

// The draw tree, flattened: Rig::draw_groups[0] is the root and a group's child groups
// come after it (pre-order), each referenced by exactly one parent.
enum class DrawChildKind : std::uint8_t { Group = 0, Mesh = 1 };
struct DrawChild {
  DrawChildKind kind = DrawChildKind::Mesh;
  std::uint32_t index = 0;  // into Rig::draw_groups or Rig::meshes
  bool operator==(const DrawChild&) const = default;
};

struct DrawGroup {
  std::int32_t part = -1;
  std::int32_t draw_order = 0;
  std::int32_t floor_order = 0;  // Cubism rules (DRAW version 2): where a disabled child sorts
  Channels channels;
  std::optional<Composite> composite;
  std::vector<DrawChild> children;
  bool operator==(const DrawGroup&) const = default;
};

enum class TextureKind : std::uint8_t { Png = 0, Ktx2 = 1, External = 2 };
struct Texture {
  TextureKind kind = TextureKind::Png;
  std::uint32_t width = 0, height = 0;
  Array<std::uint8_t> data;  // PNG or KTX2 bytes; empty for an external page
  std::string uri;           // external pages: a path relative to the rig file
  bool operator==(const Texture&) const = default;
};

// Physics (Cubism pendulums). Y needs PHYS chunk version 2.
enum class PhysicsSource : std::uint8_t { X = 0, Angle = 1, Y = 2 };
struct PhysicsInput {
  std::uint32_t parameter = 0;
  float weight = 0;
  PhysicsSource source = PhysicsSource::X;
  bool reflect = false;
  bool operator==(const PhysicsInput&) const = default;
};
struct PhysicsOutput {
  std::uint32_t parameter = 0;
  std::uint32_t vertex = 0;
  float scale = 0, weight = 0;
  PhysicsSource source = PhysicsSource::X;
  bool reflect = false;
  bool operator==(const PhysicsOutput&) const = default;
};
struct PhysicsSegment {
  float length = 0, mobility = 0, delay = 0, acceleration = 0;
  bool operator==(const PhysicsSegment&) const = default;
};
struct Normalization {
  float position_min = 0, position_default = 0, position_max = 0;
  float angle_min = 0, angle_default = 0, angle_max = 0;
  bool operator==(const Normalization&) const = default;
};
struct PhysicsGroup {
  std::string id, name;
  std::vector<PhysicsInput> inputs;
  std::vector<PhysicsOutput> outputs;
  std::vector<PhysicsSegment> segments;
  Normalization normalization;
  bool operator==(const PhysicsGroup&) const = default;
};

// Motion curves. Only Bezier segments carry control points in the file.
enum class SegmentKind : std::uint8_t { Linear = 0, Bezier = 1, Stepped = 2, InverseStepped = 3 };
struct CurveSegment {
  SegmentKind kind = SegmentKind::Linear;
  std::array<float, 4> control{};  // c1x, c1y, c2x, c2y (Bezier only)
  float time = 0, value = 0;
  bool operator==(const CurveSegment&) const = default;
};
struct Curve {
  std::uint32_t parameter = 0;
  float start_time = 0, start_value = 0;
  std::vector<CurveSegment> segments;
  bool operator==(const Curve&) const = default;
};
struct Clip {
  std::string id, name, group;
  float duration = 0, fps = 30;
  bool looping = false;
  float fade_in = -1, fade_out = -1;  // negative: the runtime's default
  std::vector<Curve> curves;
  bool operator==(const Clip&) const = default;
};

struct Role {
  std::string role;
  std::vector<std::uint32_t> parameters;
  bool operator==(const Role&) const = default;
};

// PGUI: how a parameter panel shows the parameters; never affects evaluation.
struct GuiSnap {
  std::uint32_t parameter = 0;
  Array<float> values;  // ascending
  bool operator==(const GuiSnap&) const = default;
};
struct GuiJoystick {
  std::uint32_t horizontal = 0, vertical = 0;
  bool operator==(const GuiJoystick&) const = default;
};
enum class GuiLabel : std::uint8_t { None = 0, Preset = 1, Custom = 2 };
struct GuiNode {
  bool group = false;  // kind 1; kind 0 is a parameter leaf
  bool open = false;
  GuiLabel label = GuiLabel::None;
  std::int32_t parameter = -1;  // leaves only
  std::string id, name, preset;
  std::uint32_t argb = 0;
  std::uint32_t children = 0;  // direct children, which follow in pre-order
  bool operator==(const GuiNode&) const = default;
};
struct Gui {
  std::vector<GuiSnap> snaps;
  std::vector<GuiJoystick> joysticks;
  std::vector<GuiNode> nodes;
  bool operator==(const Gui&) const = default;
};

struct MetaEntry {
  std::string key, value;
  bool operator==(const MetaEntry&) const = default;
};

// The coverage declaration every extension chunk starts with.
enum Hook : std::uint16_t { kHookH1 = 1, kHookH2 = 2, kHookH3 = 4, kHookH4 = 8, kHookH6 = 32 };
struct MeshOverride {
  std::uint32_t mesh = 0;
  std::vector<std::uint32_t> axes;      // parameters
  std::vector<std::uint32_t> bindings;  // blend-shape binding indices
  bool operator==(const MeshOverride&) const = default;
};
struct ExtensionHeader {
  std::uint16_t feature = 0, hooks = 0;
  std::vector<std::uint32_t> parameters, physics_groups, deformers;
  std::vector<MeshOverride> meshes;
  std::vector<std::string> depends_on;  // four-character tags
  bool operator==(const ExtensionHeader&) const = default;
};

struct BoneRef {
  std::uint32_t deformer = 0;  // a DEFM deformer or virtual bone (index past DEFM)
  std::string id;
  bool operator==(const BoneRef&) const = default;
};
struct Arc {
  std::uint32_t deformer = 0, parameter = 0;
  float cx = 0, cy = 0;
  bool operator==(const Arc&) const = default;
};
struct BoneChunk {
  ExtensionHeader header;
  std::vector<Deformer> virtual_bones;  // rotations; index DEFM count + i
  std::vector<BoneRef> bones;
  std::vector<Arc> arcs;
  bool operator==(const BoneChunk&) const = default;
};

struct Skin {
  std::uint32_t mesh = 0;
  std::vector<Axis> axes;
  std::vector<std::uint32_t> bones;  // deformers (or virtual bones)
  IndexArray from, to;               // per vertex, into bones; empty: fitted at load
  Array<float> weight;
  bool operator==(const Skin&) const = default;
};
struct SkinChunk {
  ExtensionHeader header;
  std::vector<Skin> skins;
  bool operator==(const SkinChunk&) const = default;
};

struct Collider {
  std::string id;
  bool capsule = false;
  std::int32_t deformer = -1, mesh = -1;
  std::uint32_t vertex_a = 0, vertex_b = 0;
  float ax = 0, ay = 0, bx = 0, by = 0, radius_a = 1, radius_b = 1, friction = 0;
  bool operator==(const Collider&) const = default;
};
struct ColliderChunk {
  ExtensionHeader header;
  std::vector<Collider> colliders;
  bool operator==(const ColliderChunk&) const = default;
};

struct SimTarget {
  std::uint32_t mesh = 0, vertex_count = 0;
  bool operator==(const SimTarget&) const = default;
};
struct SimStaticMesh {
  std::uint32_t mesh = 0;
  std::vector<Array<float>> offsets;  // one per key, two floats a vertex
  bool operator==(const SimStaticMesh&) const = default;
};
struct SimStatic {
  std::uint32_t parameter = 0;
  Array<float> keys;
  std::vector<SimStaticMesh> meshes;
  bool operator==(const SimStatic&) const = default;
};
struct Simulation {
  std::string id;
  float fps = 60;
  std::uint32_t substeps = 1;
  float gravity_x = 0, gravity_y = 0, wind_x = 0, wind_y = 0, pin_compliance = 0;
  std::vector<SimTarget> targets;
  // Per particle.
  Array<float> inv_mass, damping, wind_factor, pin_weight, goal_compliance, goal_offset_x, goal_offset_y;
  IndexArray anchor_mesh, anchor_vertex;  // anchor_mesh 0xFFFFFFFF: follows itself
  // Constraints.
  IndexArray stretch_a, stretch_b;
  Array<float> stretch_rest, stretch_compliance, compression_compliance;
  IndexArray tri_a, tri_b, tri_c;
  Array<float> area_compliance;
  IndexArray bend_t1, bend_t2;
  Array<float> bend_compliance;
  IndexArray weld_a, weld_b;
  Array<float> weld_weight_a, weld_weight_b, weld_compliance;
  IndexArray long_particle, long_root;
  Array<float> long_max_distance;
  std::vector<std::uint32_t> parameters;      // held at defaults while simulating
  std::vector<std::uint32_t> physics_groups;  // skipped while simulating
  std::vector<SimStatic> statics;
  std::vector<std::uint32_t> colliders;
  std::size_t particle_count() const {
    std::size_t n = 0;
    for (const auto& t : targets) n += t.vertex_count;
    return n;
  }
  bool operator==(const Simulation&) const = default;
};
struct SimulationChunk {
  ExtensionHeader header;
  std::vector<Simulation> simulations;
  bool operator==(const SimulationChunk&) const = default;
};

enum class ExpressionBlend : std::uint8_t { Add = 0, Multiply = 1, Overwrite = 2 };
struct ExpressionValue {
  std::uint32_t parameter = 0;
  ExpressionBlend blend = ExpressionBlend::Add;
  float value = 0;
  bool operator==(const ExpressionValue&) const = default;
};
struct Expression {
  std::string id, name;
  float fade_in = 1, fade_out = 1;
  std::vector<ExpressionValue> values;
  // EXPR version 2 (flags bit0): the expression starts as Cubism's Framework starts one (its
  // first update at weight 0). Any expression with it makes the writer use version 2.
  bool cubism_playback = false;
  bool operator==(const Expression&) const = default;
};

struct HitArea {
  std::string id, name;
  std::vector<std::uint32_t> meshes;
  bool operator==(const HitArea&) const = default;
};

struct UserData {
  std::uint8_t kind = 0;  // 0: a mesh
  std::uint32_t target = 0;
  std::string value;
  bool operator==(const UserData&) const = default;
};

struct PoseEntry {
  std::uint32_t part = 0;
  std::vector<std::uint32_t> linked;
  bool operator==(const PoseEntry&) const = default;
};
struct PoseGroup {
  std::vector<PoseEntry> entries;  // not empty
  bool operator==(const PoseGroup&) const = default;
};
struct Pose {
  float fade_in = 0.5f;
  std::vector<PoseGroup> groups;
  // POSE version 2 (flags bit0): the pose follows Cubism's Framework (docs/RUNTIME.md
  // "Poses"): its first update resets it, the values clips write persist, and a group where
  // none is above 0.001 falls back as Cubism's does. It makes the writer use version 2.
  bool cubism_playback = false;
  // POSE version 2 flags bit1: with Cubism playback, the Cubism 2 framework's L2DPose rules
  // instead (docs/RUNTIME.md "Poses"): every entry's value starts at 1 (the pose is updated
  // as the model loads, not reset on the first update), an entry shows when its value is not
  // 0, and a group where none does shows its own first entry.
  bool cubism2 = false;
  bool operator==(const Pose&) const = default;
};

// HAIR: Cubism 2's hair pendulums (a model's physics.json), each played as the Cubism 2.1
// runtime plays one (docs/RUNTIME.md "Hair physics"): an anchor its inputs move or tilt
// gravity for, a bob hanging at [length] from it, and outputs that read the bob's angle.
enum class HairSource : std::uint8_t { X = 0, Y = 1, GravityAngle = 2 };
enum class HairValue : std::uint8_t { Angle = 0, AngularVelocity = 1 };
struct HairInput {
  std::uint32_t parameter = 0;
  HairSource source = HairSource::X;
  float scale = 0;   // the parameter's value times this is where the input pulls
  float weight = 0;  // how far it pulls each update (1: all the way)
  bool operator==(const HairInput&) const = default;
};
struct HairOutput {
  std::uint32_t parameter = 0;
  HairValue value = HairValue::Angle;
  float scale = 0;   // degrees (or degrees per second) times this is written
  float weight = 0;  // blended over the parameter's value by this
  bool operator==(const HairOutput&) const = default;
};
struct Hair {
  std::string name;
  float length = 0;      // > 0
  float resistance = 0;  // damps the bob's velocity (the file's "regist")
  float mass = 0;        // > 0, of both points
  std::vector<HairInput> inputs;
  std::vector<HairOutput> outputs;
  bool operator==(const Hair&) const = default;
};

// CEXT: what Cubism motions carry beyond parameter curves.
enum class ClipCurveTarget : std::uint8_t { PartOpacity = 1, ModelOpacity = 2, EyeBlink = 3, LipSync = 4 };
struct ClipEvent {
  float time = 0;
  std::string value;
  bool operator==(const ClipEvent&) const = default;
};
struct ClipExtraCurve {
  ClipCurveTarget target = ClipCurveTarget::ModelOpacity;
  std::int32_t part = -1;
  float fade_in = -1, fade_out = -1, start_time = 0, start_value = 0;
  std::vector<CurveSegment> segments;
  bool operator==(const ClipExtraCurve&) const = default;
};
struct ClipCurveFade {
  std::uint32_t curve = 0;  // index into the clip's curves
  float fade_in = -1, fade_out = -1;
  bool operator==(const ClipCurveFade&) const = default;
};
struct ClipExtension {
  std::uint32_t clip = 0;
  std::vector<ClipEvent> events;  // ascending time
  std::vector<ClipExtraCurve> curves;
  std::vector<ClipCurveFade> fades;
  // CEXT version 2 (flags bit0, bit1): the clip plays by the rules of Cubism's Framework
  // (docs/RUNTIME.md "Cubism playback"), and its Bezier segments are unrestricted (their
  // control times count: x(s) = t is solved for s). Either one makes the writer use version 2.
  bool cubism_playback = false;
  bool unrestricted_beziers = false;
  bool operator==(const ClipExtension&) const = default;
};

// A chunk this library does not know (a vendor chunk, or a newer optional one), kept
// verbatim so that reading and writing again loses nothing.
struct RawChunk {
  std::string tag;  // four characters
  std::uint16_t version = 1;
  bool required = false;
  Array<std::uint8_t> data;  // decompressed content
  bool operator==(const RawChunk&) const = default;
};

// Which rules the core chunks evaluate by (docs/RUNTIME.md): the format's own (chunk
// version 1, the original runtime's), or the Cubism Core's (version 2 of CANV PARM DEFM
// PART MESH GLUE DRAW: model units, keys snapping per parameter, objects hidden outside
// their keys, blend shapes as deltas, Cubism's float arithmetic), which the Cubism importer
// writes so that a moc3 evaluates exactly as the official Core evaluates it; or the Cubism
// 2.1 runtime's (version 3: the same layouts as 2, evaluated as that runtime evaluates a .moc:
// double-precision sums, its key lookup, draw orders truncated stage by stage), which the
// Cubism 2 importer writes.
enum class CoreRules : std::uint8_t { Original = 1, Cubism = 2, Cubism2 = 3 };

struct Rig {
  bool names_stripped = false;  // header flag bit0: every name field is empty
  CoreRules rules = CoreRules::Original;
  Canvas canvas;
  std::vector<Parameter> parameters;
  std::vector<Deformer> deformers;  // parents first
  std::vector<Part> parts;
  std::vector<Mesh> meshes;
  std::vector<Glue> glues;
  std::vector<DrawGroup> draw_groups{DrawGroup{}};  // [0] is the root
  std::vector<Texture> textures;
  float physics_fps = 0;  // 0: the runtime's default
  std::vector<PhysicsGroup> physics;
  std::vector<Clip> clips;
  std::vector<Role> roles;
  std::optional<Gui> gui;
  std::vector<MetaEntry> meta;
  std::optional<BoneChunk> bones;
  std::optional<SkinChunk> skins;
  std::optional<ColliderChunk> colliders;
  std::optional<SimulationChunk> simulations;
  std::vector<Expression> expressions;
  std::vector<HitArea> hit_areas;
  std::vector<UserData> user_data;
  std::optional<Pose> pose;
  std::vector<ClipExtension> clip_extensions;
  std::vector<Hair> hairs;
  std::vector<RawChunk> unknown_chunks;

  // Deformers and virtual bones share one index space: DEFM first, then BONE's.
  std::size_t deformer_count_with_bones() const {
    return deformers.size() + (bones ? bones->virtual_bones.size() : 0);
  }
  const Deformer& deformer_or_bone(std::size_t i) const {
    return i < deformers.size() ? deformers[i] : bones->virtual_bones[i - deformers.size()];
  }
  std::int32_t find_parameter(std::string_view id) const;
  std::int32_t find_mesh(std::string_view id) const;
  std::int32_t find_part(std::string_view id) const;
  std::int32_t find_deformer(std::string_view id) const;
  const std::string* find_meta(std::string_view key) const;

  bool operator==(const Rig&) const = default;
};

}  // namespace p2l
