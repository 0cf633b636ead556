#include "import/keyed_table.hpp"

#include <algorithm>

namespace p2l::moc3 {

bool KeyedTable::constant() const {
  return std::all_of(values.begin(), values.end(), [&](const Rgb& v) { return v == values.front(); });
}

Rgb KeyedTable::at(std::span<const float> parameters) const {
  // Per axis: the lower key index and the fraction toward the next (0 at and beyond the ends).
  std::vector<std::size_t> lo(axes.size());
  std::vector<float> t(axes.size(), 0.0f);
  std::size_t stride = 1, base = 0;
  std::vector<std::size_t> strides(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const auto& keys = axes[a].keys;
    const float v = parameters[axes[a].parameter];
    std::size_t j = 0;
    if (v >= keys.back()) {
      j = keys.size() - 1;
    } else if (v > keys.front()) {
      j = static_cast<std::size_t>(std::upper_bound(keys.begin(), keys.end(), v) - keys.begin()) - 1;
      t[a] = (v - keys[j]) / (keys[j + 1] - keys[j]);
    }
    lo[a] = j;
    strides[a] = stride;
    base += j * stride;
    stride *= keys.size();
  }
  Rgb out{0, 0, 0};
  const std::size_t corners = std::size_t{1} << axes.size();
  for (std::size_t c = 0; c < corners; ++c) {
    float w = 1.0f;
    std::size_t index = base;
    bool skip = false;
    for (std::size_t a = 0; a < axes.size() && !skip; ++a) {
      if (c >> a & 1) {
        if (t[a] == 0.0f) skip = true;
        w *= t[a];
        index += strides[a];
      } else {
        w *= 1.0f - t[a];
      }
    }
    if (skip) continue;
    for (int k = 0; k < 3; ++k) out[k] += values[index][k] * w;
  }
  return out;
}

std::optional<Combined> combine(std::span<const KeyedTable> tables, std::size_t parameter_count,
                                const std::function<Rgb(std::span<const Rgb>)>& join, std::size_t max_cells) {
  Combined result;
  // Axes in the order the tables first name them (the first table's own order first, so a
  // lone table keeps its grid exactly), each parameter's keys merged.
  std::vector<std::pair<std::uint32_t, std::vector<float>>> keys;
  for (const auto& t : tables)
    for (const auto& a : t.axes) {
      auto it = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == a.parameter; });
      if (it == keys.end()) {
        keys.emplace_back(a.parameter, a.keys);
      } else {
        result.shared_parameter = true;
        it->second.insert(it->second.end(), a.keys.begin(), a.keys.end());
      }
    }
  std::size_t cells = 1;
  for (auto& [p, k] : keys) {
    std::sort(k.begin(), k.end());
    k.erase(std::unique(k.begin(), k.end()), k.end());
    if (k.size() > 0xFFFF) return std::nullopt;
    cells *= k.size();
    if (cells > max_cells) return std::nullopt;
    result.grid.axes.push_back({p, Array<float>(std::vector<float>(k))});
  }
  std::vector<float> parameters(parameter_count, 0.0f);
  std::vector<Rgb> factors(tables.size());
  std::vector<std::uint16_t> coord(result.grid.axes.size(), 0);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::size_t rest = cell;
    for (std::size_t a = 0; a < result.grid.axes.size(); ++a) {
      const auto& k = result.grid.axes[a].keys;
      coord[a] = static_cast<std::uint16_t>(rest % k.size());
      rest /= k.size();
      parameters[result.grid.axes[a].parameter] = k[coord[a]];
    }
    for (std::size_t i = 0; i < tables.size(); ++i) factors[i] = tables[i].at(parameters);
    result.grid.coords.insert(result.grid.coords.end(), coord.begin(), coord.end());
    result.grid.forms.push_back(join(factors));
  }
  return result;
}

}  // namespace p2l::moc3
