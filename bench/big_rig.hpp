// A large, valid, deterministic rig for benchmarks (and anything else that wants bulk):
// by default 240 meshes with 169..361 vertices each (about 62,000 vertices), 120
// parameters, and under one root warp 8 branches of warp -> rotation -> (warp, rotation)
// deformers, all with keyform grids. Every mesh has position keyforms (one axis, or two
// axes on every fourth mesh, sparse on every eighth), every 16th a blend shape, every
// 10th an opacity channel. Parts: a root with 12 parts holding the meshes; the draw
// tree mirrors them and references every mesh once. The result passes p2l::validate().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l_bench {

struct BigRigOptions {
  std::uint32_t meshes = 240;
  std::uint32_t parameters = 120;  // at least 64: the deformer and blend axes use fixed ranges
  std::uint32_t branches = 8;      // deformer chains under the root warp
  std::uint32_t parts = 12;        // besides the root part
  std::uint32_t seed = 0x5EED1234u;
};

namespace detail {

// xorshift32: fixed sequence for a fixed seed on every platform.
class Random {
 public:
  explicit Random(std::uint32_t seed) : state_(seed ? seed : 1u) {}
  std::uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f);
  }

 private:
  std::uint32_t state_;
};

inline p2l::Axis axis(std::uint32_t parameter, float lo, float hi) {
  return p2l::Axis{parameter, p2l::Array<float>{lo, (lo + hi) * 0.5f, hi}};
}

// Cells at every key combination of `axes` (row-major, last axis fastest), or only the
// listed ones; `form(cell, coords)` makes each cell's form.
template <class F, class Make>
p2l::Grid<F> grid(std::vector<p2l::Axis> axes, const std::vector<std::vector<std::uint16_t>>& cells, Make form) {
  p2l::Grid<F> g;
  g.axes = std::move(axes);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    g.coords.insert(g.coords.end(), cells[c].begin(), cells[c].end());
    g.forms.push_back(form(c, cells[c]));
  }
  return g;
}

inline std::vector<std::vector<std::uint16_t>> all_cells(std::size_t axes) {
  std::vector<std::vector<std::uint16_t>> cells{{}};
  for (std::size_t a = 0; a < axes; ++a) {
    std::vector<std::vector<std::uint16_t>> longer;
    for (const auto& c : cells)
      for (std::uint16_t k = 0; k < 3; ++k) {
        auto d = c;
        d.push_back(k);
        longer.push_back(std::move(d));
      }
    cells = std::move(longer);
  }
  return cells;
}

inline bool is_neutral(const std::vector<std::uint16_t>& coords) {
  for (auto k : coords)
    if (k != 1) return false;
  return true;
}

inline p2l::Array<float> jitter(Random& rng, std::size_t floats, float amount) {
  std::vector<float> v(floats);
  for (float& f : v) f = rng.uniform(-amount, amount);
  return v;
}

inline p2l::Array<float> lattice(Random& rng, std::uint32_t columns, std::uint32_t rows, float x0, float y0, float w,
                                 float h) {
  std::vector<float> v;
  v.reserve(std::size_t{columns + 1} * (rows + 1) * 2);
  for (std::uint32_t r = 0; r <= rows; ++r)
    for (std::uint32_t c = 0; c <= columns; ++c) {
      v.push_back(x0 + w * static_cast<float>(c) / static_cast<float>(columns) + rng.uniform(-2, 2));
      v.push_back(y0 + h * static_cast<float>(r) / static_cast<float>(rows) + rng.uniform(-2, 2));
    }
  return v;
}

inline p2l::Deformer warp(Random& rng, std::string id, std::int32_t parent, std::int32_t part, std::uint32_t size,
                          std::vector<p2l::Axis> axes, float x0, float y0, float w, float h) {
  p2l::Deformer d;
  d.kind = p2l::DeformerKind::Warp;
  d.id = std::move(id);
  d.parent = parent;
  d.part = part;
  d.columns = d.rows = size;
  auto cells = all_cells(axes.size());
  d.lattice = grid<p2l::Array<float>>(std::move(axes), cells, [&](std::size_t, const auto&) {
    return lattice(rng, size, size, x0, y0, w, h);
  });
  return d;
}

inline p2l::Deformer rotation(Random& rng, std::string id, std::int32_t parent, std::int32_t part,
                              std::vector<p2l::Axis> axes) {
  p2l::Deformer d;
  d.kind = p2l::DeformerKind::Rotation;
  d.id = std::move(id);
  d.parent = parent;
  d.part = part;
  d.base_angle = rng.uniform(-10, 10);
  float x = rng.uniform(0, 1), y = rng.uniform(0, 1);
  auto cells = all_cells(axes.size());
  d.pivot = grid<p2l::Pivot>(std::move(axes), cells, [&](std::size_t, const auto& coords) {
    float angle = 0;
    for (auto k : coords) angle += (static_cast<float>(k) - 1.0f) * 15.0f;
    return p2l::Pivot{x, y, angle, 1.0f};
  });
  return d;
}

}  // namespace detail

inline p2l::Rig make_big_rig(const BigRigOptions& o = {}) {
  using namespace p2l;
  detail::Random rng(o.seed);
  Rig rig;
  rig.canvas = Canvas{2048, 2048, 1024, 1024, 1000};

  // Parameters: the last 24 (or fewer) are 0..1 blend parameters, the rest -30..30 angles.
  const std::uint32_t blend_count = o.parameters >= 88 ? 24 : 8;
  const std::uint32_t first_blend = o.parameters - blend_count;
  for (std::uint32_t p = 0; p < o.parameters; ++p) {
    Parameter prm;
    prm.id = "Param" + std::to_string(p);
    prm.name = "Parameter " + std::to_string(p);
    prm.blend = p >= first_blend;
    prm.min = prm.blend ? 0.0f : -30.0f;
    prm.max = prm.blend ? 1.0f : 30.0f;
    prm.repeat = p % 17 == 5;
    rig.parameters.push_back(prm);
  }
  auto angle_param = [&](std::uint32_t i) { return i % first_blend; };
  auto blend_param = [&](std::uint32_t i) { return first_blend + i % blend_count; };
  auto angle_axis = [&](std::uint32_t i) { return detail::axis(angle_param(i), -30, 30); };

  // Parts: 0 is the root, 1..parts hold the meshes.
  {
    Part root;
    root.id = "PartRoot";
    root.name = "Root";
    for (std::uint32_t p = 1; p <= o.parts; ++p) root.children.push_back({ChildKind::Part, p});
    rig.parts.push_back(std::move(root));
    for (std::uint32_t p = 1; p <= o.parts; ++p) {
      Part part;
      part.id = "Part" + std::to_string(p);
      part.name = "Part " + std::to_string(p);
      part.draw_order = static_cast<std::int32_t>(400 + 10 * p);
      rig.parts.push_back(std::move(part));
    }
  }
  auto part_of_branch = [&](std::uint32_t b) { return static_cast<std::int32_t>(1 + b % o.parts); };

  // Deformers, parents first: root warp, then per branch warp -> rotation -> {warp, rotation}.
  rig.deformers.push_back(detail::warp(rng, "WarpRoot", -1, 0, 10, {angle_axis(0)}, 0, 0, 2048, 2048));
  std::vector<std::int32_t> leaves;  // where meshes hang
  for (std::uint32_t b = 0; b < o.branches; ++b) {
    std::int32_t part = part_of_branch(b);
    float x0 = 256.0f * static_cast<float>(b % 8), y0 = 256.0f * static_cast<float>(b / 8 % 8);
    std::string n = std::to_string(b);
    auto branch_warp = static_cast<std::int32_t>(rig.deformers.size());
    rig.deformers.push_back(
        detail::warp(rng, "Warp" + n, 0, part, 6, {angle_axis(1 + 2 * b), angle_axis(2 + 2 * b)}, x0, y0, 256, 256));
    if (b % 4 == 0) {  // a lattice blend shape on some branch warps
      Binding<LatticeShape> binding;
      binding.parameter = blend_param(b);
      binding.keys = Array<float>{0.0f, 1.0f};
      binding.neutral = 0;
      binding.shapes = {std::nullopt, LatticeShape{detail::jitter(rng, 7 * 7 * 2, 8), 0, kBlack, kBlack}};
      rig.deformers.back().lattice_shapes.push_back(std::move(binding));
    }
    auto rot = static_cast<std::int32_t>(rig.deformers.size());
    rig.deformers.push_back(detail::rotation(rng, "Rotation" + n, branch_warp, part, {angle_axis(20 + b)}));
    leaves.push_back(static_cast<std::int32_t>(rig.deformers.size()));
    rig.deformers.push_back(detail::warp(rng, "Inner" + n, rot, part, 4, {angle_axis(30 + b)}, 0, 0, 1, 1));
    leaves.push_back(static_cast<std::int32_t>(rig.deformers.size()));
    rig.deformers.push_back(
        detail::rotation(rng, "Spin" + n, rot, part, {angle_axis(40 + b), angle_axis(50 + b)}));
    leaves.push_back(branch_warp);
  }
  if (leaves.empty()) leaves.push_back(0);

  // Meshes: grids of (g+1)^2 vertices, g = 12..18.
  for (std::uint32_t i = 0; i < o.meshes; ++i) {
    Mesh m;
    m.id = "Mesh" + std::to_string(i);
    m.name = "Mesh " + std::to_string(i);
    m.parent = leaves[i % leaves.size()];
    m.draw_order = static_cast<float>(300 + i % 400);
    m.culling = i % 5 == 0;
    const std::uint32_t g = 12 + i % 7, side = g + 1;
    const std::size_t vertices = std::size_t{side} * side, floats = vertices * 2;
    float x0 = rng.uniform(0, 0.8f), y0 = rng.uniform(0, 0.8f), size = rng.uniform(0.05f, 0.2f);
    std::vector<float> positions, uvs;
    positions.reserve(floats);
    uvs.reserve(floats);
    for (std::uint32_t r = 0; r < side; ++r)
      for (std::uint32_t c = 0; c < side; ++c) {
        float u = static_cast<float>(c) / static_cast<float>(g), v = static_cast<float>(r) / static_cast<float>(g);
        positions.push_back(x0 + size * u);
        positions.push_back(y0 + size * v);
        uvs.push_back(u);
        uvs.push_back(v);
      }
    std::vector<std::uint32_t> indices;
    indices.reserve(std::size_t{g} * g * 6);
    for (std::uint32_t r = 0; r < g; ++r)
      for (std::uint32_t c = 0; c < g; ++c) {
        std::uint32_t a = r * side + c, b = a + 1, d = a + side, e = d + 1;
        indices.insert(indices.end(), {a, b, d, b, e, d});
      }
    m.geometry = Geometry{std::move(positions), std::move(uvs), std::move(indices)};

    // Position keyforms: deltas two per vertex; the neutral cell is stored empty.
    std::vector<Axis> axes{angle_axis(60 + i)};
    if (i % 4 == 0) axes.push_back(angle_axis(61 + i));
    auto cells = detail::all_cells(axes.size());
    if (i % 8 == 0) cells = {{0, 0}, {0, 2}, {1, 1}, {2, 0}, {2, 2}};  // sparse corners and centre
    m.keyforms = detail::grid<Array<float>>(std::move(axes), cells, [&](std::size_t, const auto& coords) {
      return detail::is_neutral(coords) ? Array<float>{} : detail::jitter(rng, floats, 0.01f);
    });

    if (i % 10 == 0) {  // an opacity channel
      Channel ch;
      ch.type = ChannelType::Opacity;
      ch.kind = ChannelKind::Scalar;
      ch.grid = detail::grid<Rgb>({angle_axis(i + 7)}, detail::all_cells(1), [](std::size_t c, const auto&) {
        return Rgb{c == 1 ? 1.0f : 0.5f, 0, 0};
      });
      m.channels.push_back(std::move(ch));
    }
    if (i % 16 == 3) {  // a blend shape
      Binding<MeshShape> binding;
      binding.parameter = blend_param(i);
      binding.keys = Array<float>{0.0f, 1.0f};
      binding.neutral = 0;
      MeshShape shape;
      shape.deltas = detail::jitter(rng, floats, 0.02f);
      binding.shapes = {std::nullopt, std::move(shape)};
      binding.limits.push_back(Limit{angle_param(i), {{-30.0f, 0.0f}, {0.0f, 1.0f}, {30.0f, 0.0f}}});
      m.shapes.push_back(std::move(binding));
    }
    rig.parts[1 + i % o.parts].children.push_back({ChildKind::Mesh, i});
    rig.meshes.push_back(std::move(m));
  }

  // Draw tree: the root holds one group per part, each holding that part's meshes.
  rig.draw_groups.assign(1, DrawGroup{});
  for (std::uint32_t p = 1; p <= o.parts; ++p) {
    rig.draw_groups[0].children.push_back({DrawChildKind::Group, p});
    DrawGroup group;
    group.part = static_cast<std::int32_t>(p);
    group.draw_order = static_cast<std::int32_t>(400 + 10 * p);
    for (const PartChild& c : rig.parts[p].children) group.children.push_back({DrawChildKind::Mesh, c.index});
    rig.draw_groups.push_back(std::move(group));
  }
  return rig;
}

}  // namespace p2l_bench
