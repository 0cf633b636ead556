// Channels (keyed draw order, opacity, colours, flips, glue intensity) and blend-shape
// bindings: the two ways a property moves with parameters besides an object's keyforms.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "eval/plan.hpp"
#include "eval/weights.hpp"

namespace p2l::eval {

// Sets the channels' values at the pose over [state] (which starts at the object's
// static values). Scalar and colour channels blend their cells; flag channels take the
// cell at or below the pose.
void apply_channels(std::span<const ChannelPlan> channels, const Weigher& weigh, ChannelState& state);

std::vector<ChannelPlan> plan_channels(const Channels& channels);

// Moves [state] toward a blend shape's targets by [w], measured from [base], the state at
// the default pose. Draw order moves only for shapes that carry one.
void toward(ChannelState& state, const ChannelState& base, float opacity, const float* draw_order, const Rgb& multiply,
            const Rgb& screen, float w);

// A limit's piecewise-linear weight at x, held beyond the end points; 1 with no points.
float piecewise(const std::vector<std::array<float, 2>>& points, float x);

// The shapes a binding mixes at [values]: at most two (key index, weight) pairs, limits
// applied. Blend shapes do not snap to keys; the neutral key and keys without a shape
// add nothing. Returns how many were written to [out].
template <class S>
std::size_t binding_weights(const Binding<S>& binding, const float* values, std::uint32_t out_key[2], float out_weight[2]);

// Calls apply(shape, weight) for every shape the bindings mix at [values], in file order.
template <class S, class F>
void for_each_shape(const std::vector<Binding<S>>& bindings, const float* values, F&& apply) {
  for (const Binding<S>& b : bindings) {
    std::uint32_t keys[2];
    float weights[2];
    const std::size_t n = binding_weights(b, values, keys, weights);
    for (std::size_t k = 0; k < n; ++k) apply(*b.shapes[keys[k]], weights[k]);
  }
}

}  // namespace p2l::eval

#include "eval/channels_inl.hpp"
