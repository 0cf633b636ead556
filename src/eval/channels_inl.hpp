// The template part of channels.hpp.
#pragma once

namespace p2l::eval {

template <class S>
std::size_t binding_weights(const Binding<S>& binding, const float* values, std::uint32_t out_key[2], float out_weight[2]) {
  const Span s = span_exact(binding.keys.span(), values[binding.parameter]);
  float limit = 1.0f;
  for (const Limit& l : binding.limits) limit *= piecewise(l.points, values[l.parameter]);
  if (limit == 0.0f) return 0;
  std::size_t n = 0;
  const std::uint32_t keys[2] = {s.lo, s.hi};
  const float weights[2] = {1.0f - s.t, s.t};
  for (int i = 0; i < 2; ++i) {
    if (!(weights[i] > 0.0f) || keys[i] == binding.neutral || (i == 1 && s.hi == s.lo)) continue;
    if (keys[i] < binding.shapes.size() && binding.shapes[keys[i]]) {
      out_key[n] = keys[i];
      out_weight[n] = weights[i] * limit;
      ++n;
    }
  }
  return n;
}

}  // namespace p2l::eval
