#include "eval/draw_order.hpp"

#include <cmath>

#include "base/keyed_sort.hpp"

namespace p2l::eval {

std::int64_t order_key(float value) {
  // The sum rounds in single precision, as the draw order is a float.
  const float v = std::floor(value + 0.001f);
  if (!(v == v)) return 0;
  if (v >= 9.2e18f) return INT64_MAX;
  if (v <= -9.2e18f) return INT64_MIN;
  return static_cast<std::int64_t>(v);
}

namespace {

void walk(const Rig& rig, const ModelPlan& plan, InstanceState& s, std::uint32_t group_index) {
  const DrawGroup& g = rig.draw_groups[group_index];
  KeyedIndex* entries = s.sort_scratch.data() + plan.draw_groups[group_index].sort_offset;
  const std::size_t n = g.children.size();
  // The entries hold last evaluation's order (at first the tree order): new keys, re-sorted.
  for (std::size_t e = 0; e < n; ++e) {
    const DrawChild& c = g.children[entries[e].index];
    float order;
    if (c.kind == DrawChildKind::Mesh) {
      order = s.draw_order[c.index];
    } else {
      const DrawGroup& child = rig.draw_groups[c.index];
      order = child.part >= 0 && static_cast<std::size_t>(child.part) < s.part_draw_order.size()
                  ? s.part_draw_order[static_cast<std::size_t>(child.part)]
                  : static_cast<float>(child.draw_order);
    }
    entries[e].key = order_key(order);
  }
  // Ties keep tree order: the position breaks them, so an unstable sort is stable here
  // and needs no temporary memory.
  resort_keyed(entries, entries + n);
  for (std::size_t i = 0; i < n; ++i) {
    const DrawChild c = g.children[entries[i].index];
    if (c.kind == DrawChildKind::Mesh) {
      if (rig.meshes[c.index].visible) {
        s.render_order.push_back(c.index);
        s.render_commands.push_back(static_cast<std::int32_t>(c.index));
      }
      continue;
    }
    const DrawGroup& child = rig.draw_groups[c.index];
    const bool isolated = child.part >= 0 && static_cast<std::size_t>(child.part) < rig.parts.size() &&
                          rig.parts[static_cast<std::size_t>(child.part)].group_mode == 2;
    if (isolated) s.render_commands.push_back(-2 - child.part);
    walk(rig, plan, s, c.index);
    if (isolated) s.render_commands.push_back(-1);
  }
}

}  // namespace

void build_render_order(const Rig& rig, const ModelPlan& plan, InstanceState& s) {
  // Both vectors were reserved for every mesh and group: these pushes never allocate.
  s.render_order.clear();
  s.render_commands.clear();
  if (!rig.draw_groups.empty()) walk(rig, plan, s, 0);
}

}  // namespace p2l::eval
