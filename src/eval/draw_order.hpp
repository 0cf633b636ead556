// Draw order: the draw tree walked back to front. Each group sorts its children by draw
// order (a child group by its part's evaluated draw order, a group without a part by its
// static one) with the key floor(order + 0.001), keeping tree order on ties; hidden
// meshes are left out. Render commands keep isolated parts' groups as begin/end pairs.
#pragma once

#include <cstdint>

#include "eval/plan.hpp"
#include "eval/state.hpp"

namespace p2l::eval {

// floor(value + 0.001) as an integer, saturating; NaN sorts as 0.
std::int64_t order_key(float value);

void build_render_order(const Rig& rig, const ModelPlan& plan, InstanceState& s);

}  // namespace p2l::eval
