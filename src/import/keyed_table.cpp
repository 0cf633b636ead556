#include "import/keyed_table.hpp"

#include <algorithm>

namespace p2l::moc3 {

bool KeyedTable::constant() const {
  return std::all_of(values.begin(), values.end(), [&](const Rgb& v) { return v == values.front(); });
}

Rgb KeyedTable::at(std::span<const float> parameters) const {
  // Per axis the lower key; the axes strictly between two keys ("active") each double the
  // corners, so a value at keys on every axis reads one cell whatever the axis count.
  std::size_t stride = 1, base = 0;
  struct Active {
    std::size_t stride;
    float t;
  };
  std::vector<Active> active;
  for (const auto& axis : axes) {
    const auto& keys = axis.keys;
    const float v = parameters[axis.parameter];
    if (v > keys.front() && v < keys.back()) {
      const std::size_t j = static_cast<std::size_t>(std::upper_bound(keys.begin(), keys.end(), v) - keys.begin()) - 1;
      const float t = (v - keys[j]) / (keys[j + 1] - keys[j]);
      base += j * stride;
      if (t != 0.0f) active.push_back({stride, t});
    } else if (v >= keys.back()) {
      base += (keys.size() - 1) * stride;
    }
    stride *= keys.size();
  }
  if (active.size() > 20) active.resize(20);  // keyed tables here have a handful of axes; bounds the work
  Rgb out{0, 0, 0};
  for (std::size_t c = 0; c < (std::size_t{1} << active.size()); ++c) {
    float w = 1.0f;
    std::size_t index = base;
    for (std::size_t a = 0; a < active.size(); ++a) {
      if (c >> a & 1) {
        w *= active[a].t;
        index += active[a].stride;
      } else {
        w *= 1.0f - active[a].t;
      }
    }
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
