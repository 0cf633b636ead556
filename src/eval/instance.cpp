// Instance: buffers sized once, the core evaluation, the host layer over it (the rig's
// opacity, part opacities, colour overrides) and the change flags hosts upload by.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/same_bits.hpp"
#include "base/sized.hpp"
#include "eval/cubism2_evaluate.hpp"
#include "eval/cubism_evaluate.hpp"
#include "eval/evaluate.hpp"
#include "eval/state.hpp"
#include "ext/advanced.hpp"
#include "p2l/eval.hpp"

namespace p2l {
namespace {

using p2l::same_bits;  // the span one (base/same_bits.hpp) beside these
bool same_bits(const Rgb& a, const Rgb& b) { return std::memcmp(a.data(), b.data(), sizeof(Rgb)) == 0; }
bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

float clamp01(float v) { return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 1.0f; }

// Multiplies each mesh's opacity by the host's opacities of the parts above it and by the
// rig's; puts the host's colours in place of the evaluated ones (the mesh's own override,
// else that of the nearest part above it that has one).
void apply_host_layer(const Model& model, InstanceState& s) {
  const std::size_t meshes = s.opacity.size();
  const std::size_t parts = s.part_opacity.size();
  // Under Cubism's rules the part opacities are the core's own input (evaluate_cubism).
  if (!model.plan().cubism && (s.any_part_opacity || s.any_animation_part_opacity)) {
    for (std::size_t m = 0; m < meshes; ++m) {
      float factor = 1.0f;
      std::int32_t part = model.mesh_part(static_cast<std::uint32_t>(m));
      for (std::size_t steps = 0; part >= 0 && steps <= parts; ++steps) {
        factor *= s.part_opacity[static_cast<std::size_t>(part)] * s.animation_part_opacity[static_cast<std::size_t>(part)];
        part = model.part_parent(static_cast<std::uint32_t>(part));
      }
      if (factor != 1.0f) s.opacity[m] *= factor;
    }
  }
  const float rig_opacity = s.host_opacity * s.animation_opacity;
  if (rig_opacity != 1.0f)
    for (float& o : s.opacity) o *= rig_opacity;
  if (s.any_color_override) {
    for (std::size_t m = 0; m < meshes; ++m) {
      const std::optional<ColorOverride>* colors = &s.mesh_colors[m];
      std::int32_t part = model.mesh_part(static_cast<std::uint32_t>(m));
      for (std::size_t steps = 0; !*colors && part >= 0 && steps <= parts; ++steps) {
        colors = &s.part_colors[static_cast<std::size_t>(part)];
        part = model.part_parent(static_cast<std::uint32_t>(part));
      }
      if (*colors) {
        s.multiply[m] = (*colors)->multiply;
        s.screen[m] = (*colors)->screen;
      }
    }
  }
}

// Sets each mesh's change bits against what the evaluation before showed; the first
// evaluation sets them all.
void track_changes(const Model& model, InstanceState& s) {
  const std::size_t n = s.opacity.size();
  std::fill(s.place.begin(), s.place.end(), -1);
  for (std::size_t k = 0; k < s.render_order.size(); ++k) s.place[s.render_order[k]] = static_cast<std::int32_t>(k);
  const auto& plan = model.plan();
  InstanceState::Shown& shown = s.shown;
  // Cubism's visible flag: drawn and an opacity other than 0.
  const bool cubism = plan.cubism;
  for (std::size_t m = 0; m < n; ++m) {
    const bool visible = s.place[m] >= 0 && (cubism ? s.opacity[m] != 0.0f : s.opacity[m] > 0.0f);
    std::uint32_t bits = visible ? kMeshVisible : 0;
    const std::span<const float> now(s.vertices.data() + plan.meshes[m].vertex_offset, std::size_t{plan.meshes[m].vertex_count} * 2);
    const std::span<const float> before(shown.vertices.data() + plan.meshes[m].vertex_offset, now.size());
    if (!shown.valid) {
      bits |= kMeshVisibilityChanged | kMeshOpacityChanged | kMeshDrawOrderChanged | kMeshRenderOrderChanged |
              kMeshVerticesChanged | kMeshColorsChanged;
    } else {
      const bool was_visible = shown.place[m] >= 0 && (cubism ? shown.opacity[m] != 0.0f : shown.opacity[m] > 0.0f);
      if (visible != was_visible) bits |= kMeshVisibilityChanged;
      if (!same_bits(s.opacity[m], shown.opacity[m])) bits |= kMeshOpacityChanged;
      if (!same_bits(s.draw_order[m], shown.draw_order[m])) bits |= kMeshDrawOrderChanged;
      if (s.place[m] != shown.place[m]) bits |= kMeshRenderOrderChanged;
      // A mesh change tracking skipped kept the vertices the last evaluation showed.
      if (s.pixel_vertices && s.mesh_dirty[m] && !same_bits(now, before)) {
        bits |= kMeshVerticesChanged;
        std::copy(now.begin(), now.end(), shown.vertices.begin() + plan.meshes[m].vertex_offset);
      }
      if (!same_bits(s.multiply[m], shown.multiply[m]) || !same_bits(s.screen[m], shown.screen[m]))
        bits |= kMeshColorsChanged;
    }
    s.changes[m] = bits;
  }
  if (!shown.valid) std::copy(s.vertices.begin(), s.vertices.end(), shown.vertices.begin());
  std::copy(s.opacity.begin(), s.opacity.end(), shown.opacity.begin());
  std::copy(s.draw_order.begin(), s.draw_order.end(), shown.draw_order.begin());
  std::copy(s.multiply.begin(), s.multiply.end(), shown.multiply.begin());
  std::copy(s.screen.begin(), s.screen.end(), shown.screen.begin());
  std::copy(s.place.begin(), s.place.end(), shown.place.begin());
  shown.valid = true;
}

}  // namespace

Instance::Instance(std::shared_ptr<const Model> model) : model_(std::move(model)), state_(std::make_unique<InstanceState>()) {
  const Rig& rig = model_->rig();
  const eval::ModelPlan& plan = model_->plan();
  InstanceState& s = *state_;
  // The state's buffers, each sized once (base/sized.hpp says why not resize()).
  const std::size_t meshes = rig.meshes.size(), parts = rig.parts.size();
  sized(s.values, rig.parameters.size());
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) s.values[i] = rig.parameters[i].default_value;
  s.current = s.values;
  sized(s.normalized, rig.parameters.size());
  sized(s.cells, plan.max_cells);
  s.weight_cache.init(plan.weight_offsets, plan.cubism ? plan.cubism_plan.epsilon.data() : nullptr);
  if (plan.cubism) eval::init_cubism_state(rig, plan, s);
  sized(s.evaluated, rig.parameters.size());
  sized(s.changed, rig.parameters.size());
  sized(s.deformer_dirty, rig.deformers.size());
  sized(s.mesh_dirty, meshes);
  sized(s.frames, rig.deformers.size());
  sized(s.virtual_frames, rig.deformer_count_with_bones() - rig.deformers.size());
  sized(s.deformer_opacity, rig.deformers.size());
  sized(s.warp_points, plan.warp_floats);
  sized(s.warp_cells, plan.warp_cell_doubles);
  sized(s.vertices, plan.vertex_floats);
  sized(s.opacity, meshes);
  sized(s.draw_order, meshes);
  sized(s.multiply, meshes);
  sized(s.screen, meshes);
  sized(s.changes, meshes);
  s.render_order.reserve(plan.sort_entries);
  s.render_commands.reserve(plan.render_commands);
  sized(s.part_draw_order, parts);
  sized(s.part_composite, parts);
  // Under Cubism's rules an offscreen not computed yet (its part hidden since the start) reads
  // as the Core's buffers do: opacity 0, colours 0 (measured, Core 6.0.1).
  if (plan.cubism)
    for (std::uint32_t p : plan.cubism_plan.offscreen_parts) s.part_composite[p] = {0.0f, Rgb{0, 0, 0}, Rgb{0, 0, 0}};
  if (plan.cubism2) eval::init_cubism2_state(rig, plan, s);  // after warp_points: its frames point there
  sized(s.sort_scratch, plan.sort_entries);
  // Each group's entries start in tree order; each evaluation re-sorts the last one's.
  // (The groups' runs follow one another in group order: Model::create lays them out so.)
  for (std::size_t gi = 0; gi < plan.draw_groups.size(); ++gi) {
    const std::size_t begin = plan.draw_groups[gi].sort_offset;
    const std::size_t end = gi + 1 < plan.draw_groups.size() ? plan.draw_groups[gi + 1].sort_offset : plan.sort_entries;
    for (std::size_t i = begin; i < end; ++i) s.sort_scratch[i] = {0, static_cast<std::uint32_t>(i - begin)};
  }
  s.part_opacity.assign(parts, 1.0f);
  // Under Cubism's rules a part's visible flag is only where its opacity starts, as the Core's
  // part opacities start at 0 for a part saved hidden (the host may show it).
  if (plan.cubism)
    for (std::size_t p = 0; p < parts; ++p) s.part_opacity[p] = rig.parts[p].visible ? 1.0f : 0.0f;
  s.any_part_opacity = std::find(s.part_opacity.begin(), s.part_opacity.end(), 0.0f) != s.part_opacity.end();
  s.animation_part_opacity.assign(parts, 1.0f);
  sized(s.mesh_colors, meshes);
  sized(s.part_colors, parts);
  sized(s.place, meshes);
  sized(s.shown.vertices, plan.vertex_floats);
  sized(s.shown.opacity, meshes);
  sized(s.shown.draw_order, meshes);
  sized(s.shown.multiply, meshes);
  sized(s.shown.screen, meshes);
  sized(s.shown.place, meshes);
  evaluate();
  // The 2.1 runtime makes no update as it loads a model: what its first update keeps of earlier
  // ones (a deformer's frame while one above it is outside its keys) is its buffers' zeros.
  if (plan.cubism2) eval::forget_cubism2_history(rig, plan, s);
}

Instance::~Instance() = default;
Instance::Instance(Instance&&) noexcept = default;
Instance& Instance::operator=(Instance&&) noexcept = default;

std::span<float> Instance::parameters() { return state_->values; }
std::span<const float> Instance::parameters() const { return state_->values; }
std::span<const float> Instance::current() const { return state_->current; }

void Instance::evaluate() { evaluate_values(state_->values); }

void Instance::evaluate_values(std::span<const float> values) { evaluate_values(values, 0.0f); }

void Instance::evaluate_values(std::span<const float> values, float dt) {
  InstanceState& s = *state_;
  // Missing values take the defaults; extra ones are ignored.
  const std::size_t n = s.current.size();
  const std::size_t given = std::min(n, values.size());
  if (values.data() != s.current.data()) std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(given), s.current.begin());
  for (std::size_t i = given; i < n; ++i) s.current[i] = model_->rig().parameters[i].default_value;
  eval::evaluate_core(*model_, s);
  if (s.advanced) ext::advance_simulations(*s.advanced, s, std::isfinite(dt) ? dt : 0.0f);  // H6
  apply_host_layer(*model_, s);
  track_changes(*model_, s);
}

std::span<const float> Instance::vertices(std::uint32_t mesh) const {
  const auto& mp = model_->plan().meshes[mesh];
  return {state_->vertices.data() + mp.vertex_offset, std::size_t{mp.vertex_count} * 2};
}
std::span<const std::int32_t> Instance::cubism_render_orders() const { return state_->cubism.render_orders; }

std::span<const float> Instance::model_vertices(std::uint32_t mesh) const {
  if (!model_->plan().cubism) return {};
  const auto& mp = model_->plan().meshes[mesh];
  return {state_->cubism.vertices.data() + mp.vertex_offset, std::size_t{mp.vertex_count} * 2};
}
float Instance::opacity(std::uint32_t mesh) const { return state_->opacity[mesh]; }
float Instance::draw_order(std::uint32_t mesh) const { return state_->draw_order[mesh]; }
const Rgb& Instance::multiply(std::uint32_t mesh) const { return state_->multiply[mesh]; }
const Rgb& Instance::screen(std::uint32_t mesh) const { return state_->screen[mesh]; }
std::uint32_t Instance::changes(std::uint32_t mesh) const { return state_->changes[mesh]; }
std::span<const std::uint32_t> Instance::render_order() const { return state_->render_order; }
std::span<const std::int32_t> Instance::render_commands() const { return state_->render_commands; }
const GroupComposite& Instance::part_composite(std::uint32_t part) const { return state_->part_composite[part]; }
float Instance::part_draw_order(std::uint32_t part) const { return state_->part_draw_order[part]; }

void Instance::set_opacity(float opacity) {
  if (std::isfinite(opacity)) state_->host_opacity = std::clamp(opacity, 0.0f, 1.0f);
}
float Instance::host_opacity() const { return state_->host_opacity; }

bool Instance::set_part_opacity(std::uint32_t part, float opacity) {
  if (part >= state_->part_opacity.size() || !std::isfinite(opacity)) return false;
  float& o = state_->part_opacity[part];
  const bool was_below = o != 1.0f;
  o = clamp01(opacity);
  // Hosts set every part at every update (the Core API does): only a part leaving 1 for good
  // asks whether any other is still below it.
  if (o != 1.0f)
    state_->any_part_opacity = true;
  else if (was_below)
    state_->any_part_opacity =
        std::any_of(state_->part_opacity.begin(), state_->part_opacity.end(), [](float v) { return v != 1.0f; });
  return true;
}
float Instance::part_opacity(std::uint32_t part) const { return state_->part_opacity[part]; }

void Instance::set_animation_opacity(float rig, std::span<const float> parts) {
  InstanceState& s = *state_;
  s.animation_opacity = clamp01(rig);
  bool any = false;
  for (std::size_t p = 0; p < s.animation_part_opacity.size(); ++p) {
    const float o = p < parts.size() ? clamp01(parts[p]) : 1.0f;
    s.animation_part_opacity[p] = o;
    any |= o != 1.0f;
  }
  s.any_animation_part_opacity = any;
}
void Instance::reset_changes() { state_->shown.valid = false; }

bool Instance::set_pixel_vertices(bool on) {
  InstanceState& s = *state_;
  if (!model_->plan().cubism) return false;
  if (on && !s.pixel_vertices) {
    eval::cubism_pixel_vertices(model_->rig(), model_->plan(), s);
    s.shown.valid = false;
  }
  s.pixel_vertices = on;
  return true;
}
float Instance::opacity() const { return state_->host_opacity * state_->animation_opacity; }

namespace {
void refresh_override_flag(InstanceState& s) {
  s.any_color_override = std::any_of(s.mesh_colors.begin(), s.mesh_colors.end(), [](const auto& c) { return c.has_value(); }) ||
                         std::any_of(s.part_colors.begin(), s.part_colors.end(), [](const auto& c) { return c.has_value(); });
}
// A NaN colour would go through every blend and into the pixels; such a setting is refused.
bool finite_colors(const std::optional<ColorOverride>& colors) {
  if (!colors) return true;
  for (const Rgb* c : {&colors->multiply, &colors->screen})
    for (const float v : *c)
      if (!std::isfinite(v)) return false;
  return true;
}
}  // namespace

bool Instance::set_mesh_colors(std::uint32_t mesh, std::optional<ColorOverride> colors) {
  if (mesh >= state_->mesh_colors.size() || !finite_colors(colors)) return false;
  state_->mesh_colors[mesh] = colors;
  refresh_override_flag(*state_);
  return true;
}

bool Instance::set_part_colors(std::uint32_t part, std::optional<ColorOverride> colors) {
  if (part >= state_->part_colors.size() || !finite_colors(colors)) return false;
  state_->part_colors[part] = colors;
  refresh_override_flag(*state_);
  return true;
}

}  // namespace p2l
