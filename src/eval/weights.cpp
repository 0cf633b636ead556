#include "eval/weights.hpp"

#include <algorithm>

#include "base/sized.hpp"

namespace p2l::eval {

void WeightCache::init(std::span<const std::size_t> offsets, const float* epsilon) {
  offsets_ = offsets;
  epsilon_ = epsilon;
  const std::size_t slots = offsets.empty() ? 0 : offsets.size() - 1;
  sized(stamp_, slots);
  sized(count_, slots);
  sized(weights_, offsets.empty() ? 0 : offsets.back());
  now_ = 1;
}

void WeightCache::invalidate() {
  // A stamp wraps after four billion evaluations; then every slot is cleared once.
  if (++now_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    now_ = 1;
  }
}

std::span<const CellWeight> WeightCache::get(const GridPlan& grid, const float* values) {
  bool outside = false;
  return get(grid, values, outside);
}

std::span<const CellWeight> WeightCache::get(const GridPlan& grid, const float* values, bool& outside) {
  const std::uint32_t slot = grid.slot();
  CellWeight* out = weights_.data() + offsets_[slot];
  if (stamp_[slot] != now_) {
    if (epsilon_) {
      const std::size_t n = grid.cubism_weights(values, epsilon_, out);
      count_[slot] = n == GridPlan::kOutside ? kOutside : static_cast<std::uint32_t>(n);
    } else {
      count_[slot] = static_cast<std::uint32_t>(grid.weights(values, out));
    }
    stamp_[slot] = now_;
  }
  outside = count_[slot] == kOutside;
  return {out, outside ? 0u : count_[slot]};
}

}  // namespace p2l::eval
