#include "eval/grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "base/same_bits.hpp"

namespace p2l::eval {

Span span_exact(std::span<const float> keys, float value) {
  if (keys.empty()) return {};
  const std::uint32_t last = static_cast<std::uint32_t>(keys.size() - 1);
  if (last == 0 || value <= keys[0]) return {0, 0, 0.0f};
  if (value >= keys[last]) return {last, last, 0.0f};
  std::uint32_t j = 0;
  while (j + 1 < last && keys[j + 1] <= value) ++j;
  const float width = keys[j + 1] - keys[j];
  const float t = width > 0.0f ? (value - keys[j]) / width : 0.0f;
  return {j, j + 1, t};
}

Span span_snapped(std::span<const float> keys, float value) {
  for (float k : keys)
    if (std::fabs(value - k) < kKeySnap) return span_exact(keys, k);
  return span_exact(keys, value);
}

CubismSpan span_cubism(std::span<const float> keys, float value, float epsilon) {
  const std::size_t n = keys.size();
  if (n == 0) return {};
  // As the Core 6.0.1 compares: the value against key - epsilon and epsilon + key, each
  // rounded to float (not the value's distance from the key, which rounds differently).
  if (n == 1) return {0, 0.0f, !(keys[0] - epsilon < value && value < epsilon + keys[0])};
  if (value < keys[0] - epsilon) return {0, 0.0f, true};
  if (value < epsilon + keys[0]) return {0, 0.0f, false};
  // The first key i >= 1 with value < key + epsilon; none (NaN too): past the last key.
  std::size_t i = 1;
  while (!(value < epsilon + keys[i]))
    if (++i == n) return {static_cast<std::uint32_t>(n - 1), 0.0f, true};
  if (keys[i] - epsilon < value) return {static_cast<std::uint32_t>(i), 0.0f, false};
  const float gap = keys[i] - keys[i - 1];
  return {static_cast<std::uint32_t>(i - 1), gap < epsilon * 1.5f ? 0.0f : (value - keys[i - 1]) / gap, false};
}

CubismSpan span_cubism2(std::span<const float> keys, float value) {
  const std::size_t n = keys.size();
  if (n == 0) return {};
  const double v = value, e = kCubism2KeySnap;
  if (n == 1) return {0, 0.0f, !(keys[0] - e < v && v < keys[0] + e)};
  if (v < keys[0] - e) return {0, 0.0f, true};
  if (v < keys[0] + e) return {0, 0.0f, false};
  // The first key i >= 1 with value < key + 0.0001; none (NaN too): past the last key.
  for (std::size_t i = 1; i < n; ++i) {
    if (!(v < keys[i] + e)) continue;
    if (keys[i] - e < v) return {static_cast<std::uint32_t>(i), 0.0f, false};
    const double t = (v - keys[i - 1]) / (static_cast<double>(keys[i]) - keys[i - 1]);
    return {static_cast<std::uint32_t>(i - 1), static_cast<float>(t), false};
  }
  return {static_cast<std::uint32_t>(n - 1), 0.0f, true};
}

void GridPlan::build(const std::vector<Axis>& axes, const std::vector<std::uint16_t>& coords, std::size_t cells) {
  cells_ = cells;
  axes_.clear();
  std::uint64_t stride = 1;
  for (const Axis& a : axes) {
    axes_.push_back({a.parameter, a.keys.span(), stride});
    stride *= std::max<std::uint64_t>(1, a.keys.size());
  }
  const std::uint64_t combinations = stride;
  const std::size_t n = axes.size();
  auto dense_number = [&](std::size_t c) {
    std::uint64_t d = 0;
    for (std::size_t a = 0; a < n; ++a) d += coords[c * n + a] * axes_[a].stride;
    return d;
  };
  if (combinations <= 4 * static_cast<std::uint64_t>(cells) + 64) {
    dense_.assign(static_cast<std::size_t>(combinations), std::numeric_limits<std::uint32_t>::max());
    for (std::size_t c = 0; c < cells; ++c) dense_[static_cast<std::size_t>(dense_number(c))] = static_cast<std::uint32_t>(c);
  } else {
    // Sorting the numbers alone and placing each cell by bisection (rather than sorting
    // number-cell pairs) shares the one sort of 64-bit numbers the library has anyway, which
    // keeps the WebAssembly module smaller. The numbers are unique: Model::create validates
    // the rig first, and validation refuses two cells at one coordinate.
    sparse_numbers_.resize(cells);
    for (std::size_t c = 0; c < cells; ++c) sparse_numbers_[c] = dense_number(c);
    std::sort(sparse_numbers_.begin(), sparse_numbers_.end());
    sparse_cells_.assign(cells, 0);
    for (std::size_t c = 0; c < cells; ++c) {
      const auto at = std::lower_bound(sparse_numbers_.begin(), sparse_numbers_.end(), dense_number(c));
      sparse_cells_[static_cast<std::size_t>(at - sparse_numbers_.begin())] = static_cast<std::uint32_t>(c);
    }
  }
}

std::int64_t GridPlan::find(std::uint64_t dense) const {
  if (!dense_.empty()) {
    std::uint32_t cell = dense < dense_.size() ? dense_[static_cast<std::size_t>(dense)] : std::numeric_limits<std::uint32_t>::max();
    return cell == std::numeric_limits<std::uint32_t>::max() ? std::int64_t{-1} : std::int64_t{cell};
  }
  const auto it = std::lower_bound(sparse_numbers_.begin(), sparse_numbers_.end(), dense);
  return it != sparse_numbers_.end() && *it == dense
             ? std::int64_t{sparse_cells_[static_cast<std::size_t>(it - sparse_numbers_.begin())]}
             : std::int64_t{-1};
}

std::size_t GridPlan::corners(std::uint64_t base, const std::uint32_t* active, const float* t, std::size_t m,
                              CellWeight* out) const {
  std::size_t count = 0;
  // A full table bounds the corners by the key combinations; a sparse one may have far
  // more corners than cells, and then the cells are walked instead.
  if (!dense_.empty() || (m < 32 && (std::uint64_t{1} << m) <= cells_)) {
    for (std::uint64_t corner = 0; corner < (std::uint64_t{1} << m); ++corner) {
      float weight = 1.0f;
      std::uint64_t dense = base;
      for (std::size_t j = 0; j < m; ++j) {
        if ((corner >> j) & 1) {
          weight *= t[j];
          dense += axes_[active[j]].stride;
        } else {
          weight *= 1.0f - t[j];
        }
      }
      if (!(weight > 0.0f)) continue;
      std::int64_t cell = find(dense);
      if (cell >= 0) out[count++] = {static_cast<std::uint32_t>(cell), weight};
    }
    return count;
  }
  // The cell walk visits cells by ascending dense number, which is the corner order: an
  // active axis has two keys or more, so each one's stride exceeds the sum of the strides
  // of the active axes before it. The weights multiply in the same axis order as above.
  for (std::size_t i = 0; i < sparse_numbers_.size(); ++i) {
    const std::uint64_t dense = sparse_numbers_[i];
    const std::uint32_t cell = sparse_cells_[i];
    float weight = 1.0f;
    bool inside = true;
    std::size_t j = 0;
    for (std::size_t a = 0; a < axes_.size() && inside; ++a) {
      const AxisPlan& ax = axes_[a];
      const std::uint64_t keys = std::max<std::size_t>(1, ax.keys.size());
      const std::uint64_t k = (dense / ax.stride) % keys;
      const std::uint64_t lo = (base / ax.stride) % keys;
      if (j < m && active[j] == a) {
        if (k == lo)
          weight *= 1.0f - t[j];
        else if (k == lo + 1)
          weight *= t[j];
        else
          inside = false;
        ++j;
      } else if (k != lo) {
        inside = false;
      }
    }
    if (inside && weight > 0.0f) out[count++] = {cell, weight};
  }
  return count;
}

// An axis as a lookup sees it: the lower key's number, the weight toward the next key
// (interpolating when not 0), or outside the keys.
struct AxisSpan {
  std::uint64_t lo = 0;
  float t = 0;
  bool outside = false;
};

template <class SpanOf>
std::size_t GridPlan::weights_by(SpanOf span_of, CellWeight* out) const {
  if (cells_ == 0) return 0;
  if (axes_.empty()) {
    out[0] = {0, 1.0f};
    return 1;
  }
  // Axes whose value sits on a key (or beyond the ends) take their lower key alone; only
  // the others branch. Skipping the factor 1 of the former leaves every product unchanged.
  constexpr std::size_t kMaxActive = 64;
  std::uint32_t active[kMaxActive];
  float t[kMaxActive];
  std::size_t m = 0;
  std::uint64_t base = 0;
  for (const AxisPlan& a : axes_) {
    const AxisSpan s = span_of(a);
    if (s.outside) return kOutside;
    base += s.lo * a.stride;
    if (s.t != 0.0f && m < kMaxActive) {
      active[m] = static_cast<std::uint32_t>(&a - axes_.data());
      t[m] = s.t;
      ++m;
    }
  }
  return corners(base, active, t, m, out);
}

std::size_t GridPlan::weights(const float* values, CellWeight* out) const {
  return weights_by(
      [&](const AxisPlan& a) {
        const Span s = span_snapped(a.keys, values[a.parameter]);
        return AxisSpan{s.lo, s.hi != s.lo ? s.t : 0.0f, false};
      },
      out);
}

// The corners come in the same order and with the same float products as weights(), which
// are the Core's (a corner of weight 0, which only an underflow could give, adds nothing
// either way).
std::size_t GridPlan::cubism_weights(const float* values, const float* epsilon, CellWeight* out) const {
  return weights_by(
      [&](const AxisPlan& a) {
        const float v = values[a.parameter], e = epsilon[a.parameter];
        const CubismSpan s = span_cubism(a.keys, v, e);
        return AxisSpan{s.lo, s.t, s.outside};
      },
      out);
}

bool GridPlan::cubism2_corners(const float* values, std::uint32_t* cells, float* t, std::uint32_t& dims) const {
  dims = 0;
  cells[0] = kMissing;
  if (cells_ == 0) return false;
  std::uint64_t base = 0;
  std::uint64_t strides[kMaxCubism2Dims];
  bool inside = true;
  for (const AxisPlan& a : axes_) {
    const CubismSpan s = span_cubism2(a.keys, values[a.parameter]);
    inside &= !s.outside;
    base += s.lo * a.stride;
    if (s.t != 0.0f) {
      if (dims == kMaxCubism2Dims || (std::uint64_t{2} << dims) > cells_) {
        dims = 0;
        return false;
      }
      t[dims] = s.t;
      strides[dims++] = a.stride;
    }
  }
  const std::uint64_t corners = std::uint64_t{1} << dims;
  for (std::uint64_t c = 0; c < corners; ++c) {
    std::uint64_t dense = base;
    for (std::uint32_t j = 0; j < dims; ++j)
      if ((c >> j) & 1) dense += strides[j];
    const std::int64_t cell = find(dense);
    cells[c] = cell >= 0 ? static_cast<std::uint32_t>(cell) : kMissing;
  }
  return inside;
}

namespace {

// FNV-1a, a word at a time (the hash only groups candidates; same_lookup decides).
struct Fnv {
  std::uint64_t h = 14695981039346656037ull;
  void add(std::uint64_t word) {
    h ^= word;
    h *= 1099511628211ull;
  }
};

}  // namespace

bool GridPlan::same_lookup(const GridPlan& o) const {
  if (cells_ != o.cells_ || axes_.size() != o.axes_.size() || dense_ != o.dense_ || sparse_numbers_ != o.sparse_numbers_ ||
      sparse_cells_ != o.sparse_cells_)
    return false;
  for (std::size_t i = 0; i < axes_.size(); ++i) {
    const AxisPlan &a = axes_[i], &b = o.axes_[i];
    if (a.parameter != b.parameter || a.stride != b.stride || !same_bits(a.keys, b.keys)) return false;
  }
  return true;
}

std::uint64_t GridPlan::lookup_hash() const {
  Fnv f;
  f.add(cells_);
  for (const AxisPlan& a : axes_) {
    f.add(a.parameter);
    for (float k : a.keys) f.add(std::bit_cast<std::uint32_t>(k));
  }
  for (std::uint32_t c : dense_) f.add(c);
  for (std::uint32_t c : sparse_cells_) f.add(c);
  return f.h;
}

std::int64_t GridPlan::floor_cell(const float* values) const {
  if (cells_ == 0) return -1;
  std::uint64_t dense = 0;
  for (const AxisPlan& a : axes_) dense += span_snapped(a.keys, values[a.parameter]).lo * a.stride;
  return find(dense);
}

}  // namespace p2l::eval
