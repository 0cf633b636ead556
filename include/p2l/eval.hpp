// Evaluation: a p2l::Model is a loaded rig compiled for evaluation, immutable and shared
// by any number of p2l::Instance objects on any threads; an Instance is one character's
// mutable state (its parameters, the last evaluation's outputs and its scratch).
//
//   auto loaded = p2l::load(bytes);
//   auto model = p2l::Model::create(loaded.rig).model;
//   p2l::Instance a(model), b(model);      // two characters sharing one model
//   a.parameters()[i] = 12.5f;
//   a.evaluate();                          // allocates nothing
//   a.vertices(mesh);                      // canvas pixels, y down
//
// Nothing here throws on purpose; Model::create reports what it cannot compile as an
// Error. docs/RUNTIME.md states every evaluation rule.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "p2l/affine.hpp"
#include "p2l/format.hpp"
#include "p2l/rig.hpp"

namespace p2l {

namespace eval {
struct ModelPlan;  // src/eval/plan.hpp: the evaluation plan
}
struct InstanceState;  // src/eval/state.hpp: per-instance buffers

// p2l_mesh_changes bits, as Cubism's dynamic flags.
inline constexpr std::uint32_t kMeshVisible = 1;
inline constexpr std::uint32_t kMeshVisibilityChanged = 2;
inline constexpr std::uint32_t kMeshOpacityChanged = 4;
inline constexpr std::uint32_t kMeshDrawOrderChanged = 8;
inline constexpr std::uint32_t kMeshRenderOrderChanged = 16;
inline constexpr std::uint32_t kMeshVerticesChanged = 32;
inline constexpr std::uint32_t kMeshColorsChanged = 64;

// Advanced-mode features (p2l_set_advanced): runtime skinning, exact links, vertex
// simulation, collisions.
inline constexpr std::uint32_t kAdvancedSkin = 1;
inline constexpr std::uint32_t kAdvancedExactLinks = 2;
inline constexpr std::uint32_t kAdvancedSim = 4;
inline constexpr std::uint32_t kAdvancedCollision = 8;
// The features a rig's extension chunks carry (what Instance::advanced_available reports).
std::uint32_t advanced_features(const Rig& rig);

// Render commands: a mesh index, a group opening (kRenderBeginGroup - part) or a closing.
inline constexpr std::int32_t kRenderEndGroup = -1;
inline constexpr std::int32_t render_begin_group(std::uint32_t part) { return -2 - static_cast<std::int32_t>(part); }

class Model;
struct ModelResult {
  std::shared_ptr<const Model> model;  // null on failure
  Error error;
  explicit operator bool() const { return model != nullptr; }
};

class Model {
 public:
  // Compiles [rig] (as p2l::load gives it: validated) into an evaluation plan.
  static ModelResult create(std::shared_ptr<const Rig> rig);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const Rig& rig() const { return *rig_; }
  const std::shared_ptr<const Rig>& rig_ptr() const { return rig_; }
  const eval::ModelPlan& plan() const { return *plan_; }

  // Derived facts hosts ask for.
  std::int32_t mesh_part(std::uint32_t mesh) const;  // the part holding the mesh, or -1
  std::int32_t part_parent(std::uint32_t part) const;
  // The mesh's triangle indices widened to u32 (the file may store u16).
  std::span<const std::uint32_t> mesh_indices(std::uint32_t mesh) const;
  // The composite an isolated part's group uses (the draw tree's, else the part's) and
  // every mesh masking it, the masking parts' meshes included.
  const Composite& part_group_composite(std::uint32_t part) const;
  std::span<const std::uint32_t> part_group_masks(std::uint32_t part) const;
  // Parameter values normalised as the evaluation uses them at the defaults.
  std::span<const float> default_values() const;

 private:
  Model() = default;
  std::shared_ptr<const Rig> rig_;
  std::unique_ptr<const eval::ModelPlan> plan_;
};

// A part's isolated-group composite at the last evaluation.
struct GroupComposite {
  float opacity = 1;
  Rgb multiply = kWhite, screen = kBlack;
};

// Colours a host puts in place of a mesh's evaluated ones (p2l_set_mesh_colors).
struct ColorOverride {
  Rgb multiply = kWhite, screen = kBlack;
};

class Instance {
 public:
  // An instance at the model's defaults, evaluated once.
  explicit Instance(std::shared_ptr<const Model> model);
  ~Instance();
  Instance(Instance&&) noexcept;
  Instance& operator=(Instance&&) noexcept;

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& model_ptr() const { return model_; }

  // The pose the host sets, one raw value per parameter (not clamped).
  std::span<float> parameters();
  std::span<const float> parameters() const;
  // The values the last evaluation started from, before clamping and wrapping: as the
  // layers stored them (an Animator's clips and expressions with Cubism playback store theirs
  // in the range, as Cubism's model does; p2l_parameter_current in p2l.h states the rules).
  std::span<const float> current() const;

  // Evaluates at parameters(): deformation, opacity, colours, draw and render order,
  // then the host layer (rig opacity, part opacities, colour overrides) and change flags.
  // Allocates nothing.
  void evaluate();
  // The same from explicit raw values (one per parameter), as the update pipeline does.
  void evaluate_values(std::span<const float> values);
  // The same, then the vertex simulations step by dt seconds (advanced mode's H6; without
  // time, as above, they show their last step).
  void evaluate_values(std::span<const float> values, float dt);

  // Outputs of the last evaluation, per mesh in file order.
  std::span<const float> vertices(std::uint32_t mesh) const;  // x, y per vertex, canvas pixels
  // Under Cubism's rules (Rig::rules): the vertices exactly as the Cubism Core gives them, in
  // model units with y up (vertices() holds them converted to canvas pixels); else empty.
  std::span<const float> model_vertices(std::uint32_t mesh) const;
  // Under Cubism's rules a host that reads only model_vertices() (as the Cubism Core API does)
  // may turn the canvas-pixel copy off: evaluate() then neither converts the vertices into
  // vertices() nor compares them for kMeshVerticesChanged, which spares a pass over every
  // vertex twice over. Turned on again, vertices() are converted from the model vertices at
  // once (a hidden mesh's from what its model buffer holds, which glue and blend shapes may
  // have moved since it was drawn) and the next evaluation reports every change. False,
  // changing nothing, for a rig under the format's rules (its vertices() are the only ones).
  bool set_pixel_vertices(bool on);
  // Under Cubism's rules: the render order as csmGetRenderOrders gives it, one place per mesh
  // and then one per offscreen (the isolated parts in part order); else empty.
  std::span<const std::int32_t> cubism_render_orders() const;
  float opacity(std::uint32_t mesh) const;
  float draw_order(std::uint32_t mesh) const;
  const Rgb& multiply(std::uint32_t mesh) const;
  const Rgb& screen(std::uint32_t mesh) const;
  std::uint32_t changes(std::uint32_t mesh) const;
  std::span<const std::uint32_t> render_order() const;    // meshes back to front
  std::span<const std::int32_t> render_commands() const;  // with isolated groups
  const GroupComposite& part_composite(std::uint32_t part) const;
  float part_draw_order(std::uint32_t part) const;

  // The host layer, applied from the next evaluation.
  void set_opacity(float opacity);  // the rig's, 0..1
  float host_opacity() const;
  bool set_part_opacity(std::uint32_t part, float opacity);  // 0..1, multiplies meshes under it
  float part_opacity(std::uint32_t part) const;
  // False, changing nothing, for no such mesh (part) or a colour that is not finite.
  bool set_mesh_colors(std::uint32_t mesh, std::optional<ColorOverride> colors);
  bool set_part_colors(std::uint32_t part, std::optional<ColorOverride> colors);

  // The animation layer's opacities (p2l::Animator sets them before it evaluates): the
  // rig's opacity clips set, and per part a factor (part poses, clip part opacities) that
  // multiplies every mesh under the part like the host's part opacity. An empty span: 1.
  void set_animation_opacity(float rig, std::span<const float> parts);
  // The rig's opacity at the last evaluation: the host's times the animation's.
  float opacity() const;
  // Makes the next evaluation report every change bit, as the first one does.
  void reset_changes();

  // Advanced mode (docs/RUNTIME.md "Advanced mode"), off by default: the Cubism-equivalent
  // evaluation. available: the features the rig's extension chunks carry. set_advanced turns
  // on those of [features] that can run (dependencies on, limits kept), the others off, and
  // starts the simulations again; it returns the features now on and adds to [notes] what it
  // left off and why. It allocates; evaluating afterwards does not. It applies from the next
  // evaluation.
  std::uint32_t advanced_available() const;
  std::uint32_t set_advanced(std::uint32_t features, std::vector<std::string>* notes = nullptr);
  std::uint32_t advanced() const;
  void reset_simulations();                      // the next update starts them at rest again
  void set_simulation_wind(float x, float y);    // added to every simulation's, canvas px/s², y down
  std::span<const float> simulation_colliders() const;  // last update's: ax ay bx by ra rb, canvas px
  std::span<const std::uint8_t> skipped_physics() const;  // per PHYS group, 1: a simulation replaces it
  // A BONE attachable bone's canvas frame at the last evaluation (a virtual bone's computed on
  // request); nothing for a warp or an index past the bones.
  std::optional<Affine> bone_transform(std::uint32_t bone);

  // Internal state, for the modules layered on the core (animation, rendering, C API).
  InstanceState& state() { return *state_; }
  const InstanceState& state() const { return *state_; }

 private:
  std::shared_ptr<const Model> model_;
  std::unique_ptr<InstanceState> state_;
};

}  // namespace p2l
