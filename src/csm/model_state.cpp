#include "csm/model_state.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "eval/state.hpp"

namespace p2l::csm {
namespace {

csmVector4 rgba(const Rgb& c) { return {c[0], c[1], c[2], 1.0f}; }

enum class Flags { Created, Renewed, VisibleOnly };

// One update of the Core: the host's part opacities in, one evaluation, the parameters clamped.
void evaluate(ModelState& m);
// Fills every array from the instance's last evaluation; [how] says what becomes of the flags.
void read_back(ModelState& m, Flags how);

}  // namespace

ModelState::ModelState(std::shared_ptr<const MocData> data) : moc(std::move(data)), instance(moc->model) {
  const std::size_t nd = moc->drawable_count(), no = moc->offscreen_count();
  // The Core API gives the model vertices only: the canvas-pixel copy is not made.
  instance.set_pixel_vertices(false);
  part_opacities = moc->part_initial_opacity;
  dynamic_flags.assign(nd, 0);
  vertex_positions.resize(nd);
  for (std::uint32_t i = 0; i < nd; ++i)
    vertex_positions[i] = reinterpret_cast<const csmVector2*>(instance.model_vertices(i).data());
  multiply.assign(nd, {1, 1, 1, 1});
  screen.assign(nd, {0, 0, 0, 1});
  drawable_render_orders.assign(nd, 0);
  render_orders.assign(nd + no, 0);
  offscreen_opacity.assign(no, 0.0f);
  offscreen_multiply.assign(no, {1, 1, 1, 1});
  offscreen_screen.assign(no, {0, 0, 0, 1});
  render_order_before.assign(nd, 0);
  // One entry per render place the draw tree can hand out (a hostile tree may list an
  // offscreen's part under two groups: more places than drawables and offscreens).
  const auto& places = moc->model->plan().cubism_plan.group_places;
  offscreens_before.assign(no > 0 ? std::max<std::size_t>(nd + no, places.empty() ? 0 : places[0]) : 0, 0);
  // The Core evaluates a model as it makes it, and reports every change then. The instance has
  // made that evaluation already (at the defaults and the parts' starting opacities): a second
  // would move hidden meshes' buffers again (glue, blend shapes), which the Core's do not.
  read_back(*this, Flags::Created);
}

namespace {

void evaluate(ModelState& m) {
  const MocData& d = *m.moc;
  Instance& in = m.instance;
  // Part opacities: the host's, clamped into [0, 1] and written back as the Core does.
  for (std::uint32_t i = 0; i < m.part_opacities.size(); ++i) {
    float& o = m.part_opacities[i];
    if (std::isnan(o)) o = 0.0f;
    o = std::clamp(o, 0.0f, 1.0f);
    in.set_part_opacity(i, o);
  }
  in.evaluate();
  // Parameters: a value outside its range is clamped in place, except on a repeating one
  // (the evaluation wraps it and the Core leaves the value as the host wrote it).
  const std::span<float> values = in.parameters();
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!d.parameter_repeats[i]) values[i] = std::clamp(values[i], d.parameter_min[i], d.parameter_max[i]);
}

void read_back(ModelState& m, Flags how) {
  const MocData& d = *m.moc;
  const Instance& in = m.instance;
  const std::size_t nd = d.drawable_count(), no = d.offscreen_count();
  const std::span<const std::int32_t> places = in.cubism_render_orders();
  for (std::uint32_t i = 0; i < nd; ++i) {
    m.multiply[i] = rgba(in.multiply(i));
    m.screen[i] = rgba(in.screen(i));
    m.render_orders[i] = places[i];
  }
  const auto& offscreen_parts = d.model->plan().cubism_plan.offscreen_parts;
  for (std::uint32_t k = 0; k < no; ++k) {
    const std::uint32_t slot = d.offscreen_slot[k];
    const GroupComposite& c = in.part_composite(offscreen_parts[slot]);
    m.offscreen_opacity[k] = c.opacity;
    m.offscreen_multiply[k] = rgba(c.multiply);
    m.offscreen_screen[k] = rgba(c.screen);
    m.render_orders[nd + k] = places[nd + slot];
  }
  // The drawables' places among themselves (Core 5 hosts): each place less the offscreen places
  // before it, counted over the whole sequence once.
  if (no == 0) {
    std::copy(m.render_orders.begin(), m.render_orders.begin() + static_cast<std::ptrdiff_t>(nd), m.drawable_render_orders.begin());
  } else {
    std::fill(m.offscreens_before.begin(), m.offscreens_before.end(), 0);
    for (std::uint32_t k = 0; k < no; ++k) m.offscreens_before[static_cast<std::size_t>(m.render_orders[nd + k])] = 1;
    int seen = 0;
    for (int& place : m.offscreens_before) seen += std::exchange(place, seen);
    for (std::uint32_t i = 0; i < nd; ++i)
      m.drawable_render_orders[i] = m.render_orders[i] - m.offscreens_before[static_cast<std::size_t>(m.render_orders[i])];
  }
  // The flags. The instance's change bits already compare visibility, opacity, draw order and
  // colours with its evaluation before; the render order is compared here, over drawables and
  // offscreens together, and the vertex bit marks what was evaluated.
  constexpr std::uint32_t kCompared = kMeshVisibilityChanged | kMeshOpacityChanged | kMeshDrawOrderChanged | kMeshColorsChanged;
  static_assert(kMeshVisibilityChanged == csmVisibilityDidChange && kMeshOpacityChanged == csmOpacityDidChange &&
                kMeshDrawOrderChanged == csmDrawOrderDidChange && kMeshColorsChanged == csmBlendColorDidChange);
  const auto& enabled = in.state().cubism.mesh_on;
  for (std::uint32_t i = 0; i < nd; ++i) {
    const std::uint32_t changes = in.changes(i);
    const int shown = (changes & kMeshVisible) != 0 ? csmIsVisible : 0;
    csmFlags& f = m.dynamic_flags[i];
    if (how == Flags::Created) {
      f = static_cast<csmFlags>(0x7e | shown);
    } else if (how == Flags::VisibleOnly) {
      f = static_cast<csmFlags>((f & ~csmIsVisible) | shown);
    } else {
      int bits = shown | static_cast<int>(changes & kCompared);
      if (enabled[i]) bits |= csmVertexPositionsDidChange;
      if (m.render_orders[i] != m.render_order_before[i]) bits |= csmRenderOrderDidChange;
      f = static_cast<csmFlags>(bits);
    }
    m.render_order_before[i] = m.render_orders[i];
  }
}

}  // namespace

void update(ModelState& m) {
  evaluate(m);
  read_back(m, m.reset_pending ? Flags::Renewed : Flags::VisibleOnly);
  m.reset_pending = false;
}

void reset_flags(ModelState& m) { m.reset_pending = true; }

}  // namespace p2l::csm
