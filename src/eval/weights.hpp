// Where an evaluation's grid weights come from.
//
// Every keyed object looks its grids up at the pose: on Haru 269 lookups per evaluation,
// of only 47 different grids (a Cubism mesh keys its positions, opacity and draw order on
// one grid, and sibling meshes are often keyed alike). The core evaluation therefore asks
// through a cache that computes each shared grid's weights once per evaluation
// (GridPlan::slot); everything else (the plan's default-pose measurements, advanced mode's
// substituted values, the importer) computes into scratch.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "eval/grid.hpp"

namespace p2l::eval {

// An instance's cached weights, one slot per shared grid (ModelPlan::weight_slots).
class WeightCache {
 public:
  // [offsets]: the plan's slot offsets (slots + 1 entries), which outlive the cache. With
  // [epsilon] (one per parameter, outliving the cache) the lookups are Cubism's.
  void init(std::span<const std::size_t> offsets, const float* epsilon = nullptr);
  // Forgets every slot: the next lookups are at new values.
  void invalidate();

  std::span<const CellWeight> get(const GridPlan& grid, const float* values);
  // Cubism's lookup: also whether a value lies outside its keys (then no weights).
  std::span<const CellWeight> get(const GridPlan& grid, const float* values, bool& outside);

 private:
  static constexpr std::uint32_t kOutside = 0xFFFFFFFFu;
  const float* epsilon_ = nullptr;
  std::span<const std::size_t> offsets_;
  std::vector<std::uint32_t> stamp_, count_;
  std::vector<CellWeight> weights_;
  std::uint32_t now_ = 1;
};

// The values grids are looked up at, the scratch their weights go to, and in the core
// evaluation the cache (valid for these values until it is invalidated).
struct Weigher {
  const float* values;
  CellWeight* scratch;
  WeightCache* cache = nullptr;

  std::span<const CellWeight> operator()(const GridPlan& grid) const {
    if (cache && grid.slot() != GridPlan::kNoSlot) return cache->get(grid, values);
    return {scratch, grid.weights(values, scratch)};
  }
};

// The same under Cubism's lookup (GridPlan::cubism_weights): [outside] is set, never
// cleared, when the pose lies outside the grid's keys.
struct CubismWeigher {
  const float* values;
  const float* epsilon;
  CellWeight* scratch;
  WeightCache* cache = nullptr;

  std::span<const CellWeight> operator()(const GridPlan& grid, bool& outside) const {
    if (cache && grid.slot() != GridPlan::kNoSlot) {
      bool out = false;
      const auto w = cache->get(grid, values, out);
      outside |= out;
      return w;
    }
    const std::size_t n = grid.cubism_weights(values, epsilon, scratch);
    if (n == GridPlan::kOutside) {
      outside = true;
      return {};
    }
    return {scratch, n};
  }
};

}  // namespace p2l::eval
