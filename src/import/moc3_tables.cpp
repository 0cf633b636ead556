// Mesh opacity and colours as the Core computes them, written as one channel each.
//
// Colours (moc 4.2+): Cubism composes a mesh's multiply and screen colours with every
// deformer above it (multiply M·M_parent, screen S + S_p − S·S_p = 1 − (1 − S)(1 − S_p)).
// p2lrt colours meshes only, so the importer writes the composed colour as the mesh's
// channel, keyed over the union of the chain's parameters (KeyedTable, combine()).
//
// Hiding outside keyed ranges: the Core disables an object whose binding value lies
// outside [first key − ε, last key + ε) (ε = 0.1^decimal places), and with it every
// object below it; p2lrt clamps to the end keys instead. For each mesh, the importer
// intersects the keyed ranges of the mesh, its deformers and the parts above both, per
// parameter, and multiplies the mesh's opacity by a step that is 1 inside and 0 outside:
// keys at L − 2ε (0), L (1), H (1), H + 2ε (0). p2lrt snaps a value within 0.001 of a key
// onto it, so the two snap zones of L − 2ε and L meet at L − ε and no value in between
// interpolates: the step is exact except at the boundary value itself.
//
// Glue: the Core evaluates glue from an earlier update's state in two cases a stateless
// runtime cannot follow (found with tests/cubism's synthetic models): while one of its
// meshes is disabled it glues to that mesh's stale vertex buffer (zeros if never computed),
// and outside its own keys it keeps the last intensity inside them. p2lrt skips the glue in
// the first case (steps over both meshes' ranges) and holds the end key in the second; the
// report names every glue either can happen to.
#include <algorithm>
#include <cmath>
#include <map>

#include "base/cubism_math.hpp"
#include "import/moc3_context.hpp"

namespace p2l::moc3 {
namespace {

constexpr std::size_t kMaxCells = 1 << 16;

using Ranges = std::map<std::uint32_t, std::pair<float, float>>;  // parameter -> [first key, last key]

void narrow(const Context& c, const KeyformRange& k, Ranges& r) {
  for (const auto& a : c.bindings.axes(k.binding)) {
    auto [it, fresh] = r.try_emplace(a.parameter, a.keys.front(), a.keys.back());
    if (!fresh) it->second = {std::max(it->second.first, a.keys.front()), std::min(it->second.second, a.keys.back())};
  }
}

void narrow_parts(const Context& c, std::int32_t part, Ranges& r) {
  for (; part >= 0; part = c.o.parts[static_cast<std::size_t>(part)].parent) narrow(c, c.o.parts[static_cast<std::size_t>(part)].keyforms, r);
}

// Appends one step table per parameter whose intersected keyed range [L, H] is narrower
// than the parameter's range. False when no value lies in every range (never enabled).
bool add_steps(const Context& c, const Ranges& ranges, std::vector<KeyedTable>& out) {
  for (const auto& [p, range] : ranges) {
    const auto& q = c.o.parameters[p];
    const float eps = cubism_math::epsilon(std::min<std::uint32_t>(q.decimals, 30));
    const auto [low, high] = range;
    if (!(low - eps < high + eps)) return false;
    // Far from zero a float cannot step by 2ε (the file allows values up to 1e12): no step
    // is written there, the range is kept as p2lrt's clamp.
    const bool below = q.min < low - eps && low - 2 * eps < low - eps && low - eps < low;
    const bool above = q.max >= high + eps && high < high + eps && high + eps < high + 2 * eps;
    if (!below && !above) continue;
    KeyedTable step;
    step.axes.push_back({p, {}});
    auto& keys = step.axes[0].keys;
    if (below) keys.push_back(low - 2 * eps), step.values.push_back({0, 0, 0});
    keys.push_back(low), step.values.push_back({1, 0, 0});
    if (high > low) keys.push_back(high), step.values.push_back({1, 0, 0});
    if (above) keys.push_back(high + 2 * eps), step.values.push_back({0, 0, 0});
    out.push_back(std::move(step));
  }
  return true;
}

// A table with all-equal values loses its axes: it then multiplies as a constant.
KeyedTable simplified(KeyedTable t) {
  if (t.constant()) {
    t.axes.clear();
    t.values.resize(1);
  }
  return t;
}

void add_channel(Channels& channels, ChannelType type, ChannelKind kind, Grid<Rgb> grid) {
  Channel ch;
  ch.type = type;
  ch.kind = kind;
  ch.grid = std::move(grid);
  channels.push_back(std::move(ch));
}

// Whether every cell holds the same value (then a static value replaces the channel).
bool uniform(const std::vector<Rgb>& forms) {
  return std::all_of(forms.begin(), forms.end(), [&](const Rgb& v) { return v == forms.front(); });
}

// Writes the tables' combination as a static value or a channel.
bool write(Context& c, p2l::Mesh& mesh, std::vector<KeyedTable> tables, ChannelType type,
           const std::function<Rgb(std::span<const Rgb>)>& join, bool* shared = nullptr, bool budgeted = true) {
  for (auto& t : tables) t = simplified(std::move(t));
  // One table alone is the file's own keyforms, as large as the file: only products count.
  auto combined = combine(tables, c.rig.parameters.size(), join, budgeted ? std::min(kMaxCells, c.cell_budget) : SIZE_MAX);
  if (!combined) return false;
  c.cell_budget -= std::min(c.cell_budget, combined->grid.forms.size());
  for (const Rgb& v : combined->grid.forms)
    if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) return false;  // products overflowed
  if (shared) *shared |= combined->shared_parameter;
  if (uniform(combined->grid.forms)) {
    const Rgb v = combined->grid.forms.front();
    if (type == ChannelType::Opacity) mesh.opacity = v[0];
    if (type == ChannelType::MultiplyColor) mesh.multiply = v;
    if (type == ChannelType::ScreenColor) mesh.screen = v;
    return true;
  }
  add_channel(mesh.channels, type, type == ChannelType::Opacity ? ChannelKind::Scalar : ChannelKind::Color,
              std::move(combined->grid));
  return true;
}

Rgb product(std::span<const Rgb> v) {
  Rgb out = kWhite;
  for (const Rgb& x : v)
    for (int k = 0; k < 3; ++k) out[k] *= x[k];
  return out;
}

}  // namespace

void compose_mesh_tables(Context& c) {
  const bool colors = c.colors.present();
  std::vector<Ranges> mesh_ranges(c.o.meshes.size());
  for (std::size_t mi = 0; mi < c.o.meshes.size(); ++mi) {
    const auto& m = c.o.meshes[mi];
    p2l::Mesh& mesh = c.rig.meshes[mi];

    // The deformer chain, nearest first.
    std::vector<std::size_t> chain;
    for (std::int32_t d = m.parent; d >= 0; d = c.o.deformers[static_cast<std::size_t>(d)].parent) chain.push_back(static_cast<std::size_t>(d));

    // Opacity: the mesh's keyforms times one step per parameter whose keyed range is
    // narrower than the parameter's.
    std::vector<KeyedTable> opacity{c.table(m.keyforms, [&](std::uint32_t j) { return Rgb{c.f.f32(kMeshOpacity, j), 0, 0}; })};
    Ranges ranges;
    narrow(c, m.keyforms, ranges);
    narrow_parts(c, m.parent_part, ranges);
    for (std::size_t d : chain) {
      narrow(c, c.o.deformers[d].keyforms, ranges);
      narrow_parts(c, c.o.deformers[d].parent_part, ranges);
    }
    mesh_ranges[mi] = ranges;
    if (!add_steps(c, ranges, opacity)) mesh.visible = false;
    if (!write(c, mesh, opacity, ChannelType::Opacity, product)) {
      c.report.dropped.push_back("mesh " + mesh.id + ": hiding outside its keyed ranges is not reproduced (the grid would be too large)");
      write(c, mesh, {opacity.front()}, ChannelType::Opacity, product, nullptr, false);
    }

    if (!colors) continue;
    std::vector<KeyedTable> multiply{c.table(m.keyforms, [&](std::uint32_t j) { return c.multiply_color(c.colors.mesh_multiply[j]); })};
    std::vector<KeyedTable> screen{c.table(m.keyforms, [&](std::uint32_t j) {
      const Rgb s = c.screen_color(c.colors.mesh_screen[j]);
      return Rgb{1 - s[0], 1 - s[1], 1 - s[2]};
    })};
    for (std::size_t d : chain) {
      const auto& def = c.o.deformers[d];
      const auto& mul = def.warp ? c.colors.warp_multiply : c.colors.rotation_multiply;
      const auto& scr = def.warp ? c.colors.warp_screen : c.colors.rotation_screen;
      multiply.push_back(c.table(def.keyforms, [&](std::uint32_t j) { return c.multiply_color(mul[j]); }));
      screen.push_back(c.table(def.keyforms, [&](std::uint32_t j) {
        const Rgb s = c.screen_color(scr[j]);
        return Rgb{1 - s[0], 1 - s[1], 1 - s[2]};
      }));
    }
    auto inverse_product = [](std::span<const Rgb> v) {
      const Rgb p = product(v);
      return Rgb{1 - p[0], 1 - p[1], 1 - p[2]};
    };
    bool shared = false;
    const bool written = write(c, mesh, multiply, ChannelType::MultiplyColor, product, &shared) &&
                         write(c, mesh, screen, ChannelType::ScreenColor, inverse_product, &shared);
    if (shared)
      c.report.dropped.push_back("mesh " + mesh.id +
                                 ": its colour and a deformer's are keyed on the same parameter; the composed colour is "
                                 "exact at the keys and interpolated linearly between them");
    if (!written)
      c.report.dropped.push_back("mesh " + mesh.id + ": its colours composed with its deformers' need too large a grid (or "
                                 "overflow); not imported");
  }

  for (std::size_t gi = 0; gi < c.o.glues.size(); ++gi) {
    const auto& g = c.o.glues[gi];
    p2l::Glue& glue = c.rig.glues[gi];
    if (!c.mesh_enabled[g.mesh_a] || !c.mesh_enabled[g.mesh_b]) {
      glue.channels.clear();
      glue.intensity = 0;
      continue;
    }
    Ranges ranges = mesh_ranges[g.mesh_a];
    for (const auto& [p, r] : mesh_ranges[g.mesh_b]) {
      auto [it, fresh] = ranges.try_emplace(p, r);
      if (!fresh) it->second = {std::max(it->second.first, r.first), std::min(it->second.second, r.second)};
    }
    std::vector<KeyedTable> intensity{c.table(g.keyforms, [&](std::uint32_t j) { return Rgb{c.f.f32(kGlueIntensity, j), 0, 0}; })};
    bool ever = add_steps(c, ranges, intensity);
    if (intensity.size() > 1)
      c.report.dropped.push_back("glue " + glue.id + ": while one of its meshes is disabled (a binding outside its keys), "
                                 "Cubism still glues to that mesh's positions; p2lrt skips the glue then");
    // Outside its own keys the Core keeps the intensity of the last update inside them;
    // p2lrt holds the end key's, which is that value when the parameter left the range
    // moving steadily.
    Ranges own;
    narrow(c, g.keyforms, own);
    std::vector<KeyedTable> own_steps;
    add_steps(c, own, own_steps);
    if (!own_steps.empty())
      c.report.dropped.push_back("glue " + glue.id + ": outside its keys, Cubism keeps the intensity of the last update "
                                 "inside them; p2lrt holds the end key's");
    glue.channels.clear();
    for (auto& t : intensity) t = simplified(std::move(t));
    auto combined =
        ever ? combine(intensity, c.rig.parameters.size(), product, std::min(kMaxCells, c.cell_budget)) : std::nullopt;
    if (ever && !combined) {
      c.report.dropped.push_back("glue " + glue.id + ": skipping it while a mesh is disabled is not reproduced (grid too large)");
      combined = combine(std::span(intensity).first(1), c.rig.parameters.size(), product, SIZE_MAX);
    }
    if (combined) c.cell_budget -= std::min(c.cell_budget, combined->grid.forms.size());
    if (!combined) {
      glue.intensity = 0;
      continue;
    }
    if (uniform(combined->grid.forms))
      glue.intensity = combined->grid.forms.front()[0];
    else
      add_channel(glue.channels, ChannelType::GlueIntensity, ChannelKind::Scalar, std::move(combined->grid));
  }
}

}  // namespace p2l::moc3
