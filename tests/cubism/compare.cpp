// Compares p2lrt's evaluation of an imported Cubism model with what an official Cubism Core
// computed for the same poses (tests/cubism/core_dump.js output): per pose and drawable the
// vertices in model units, opacity, multiply and screen colours, draw order, render order,
// visibility; for hidden drawables the Core's buffers as earlier updates left them (vertices,
// opacity, colours, draw order); and once the constant data (masks, blend modes and culling
// flags, textures);
// for moc3 version 6 also per offscreen its opacity, colours and render place, and once its
// owner, blend mode, masks and inverted-mask flag.
//
//   p2l_cubism_compare MODEL CORE_PREFIX [--name NAME] [--row] [--vertex-bound X]
//                      [--opacity-bound X] [--color-bound X] [--rules original] [--quiet]
//
// The poses are evaluated in the order the Core's were, on one instance, or each on an instance
// of its own where the dump says "fresh" (core_dump.js --fresh).
// MODEL is a .model3.json (imported with its side files) or a .moc3. Prints the worst case
// of each quantity with where it happened; with --row, also one Markdown table row. Exits 1
// when a bound is exceeded or anything discrete differs. With --rules original the model is
// imported under the format's own rules (which clamp every opacity level to [0, 1]), and
// opacities are compared with the Core's capped at 1.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "p2l/import.hpp"
#include "eval/state.hpp"

namespace {

std::vector<char> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Worst {
  double value = 0;
  std::size_t pose = 0;
  std::uint32_t drawable = 0;
  void see(double v, std::size_t p, std::uint32_t d) {
    if (!(v <= value)) *this = {v, p, d};  // NaN counts as worse than anything
  }
};

// The first value past its bound, to start looking from (printed unless --quiet).
struct First {
  bool seen = false;
  std::size_t pose = 0;
  std::uint32_t drawable = 0;
  std::size_t vertex = 0;
  double ours[2] = {0, 0}, core[2] = {0, 0};
  void see(bool past, std::size_t p, std::uint32_t d, std::size_t v, double o0, double o1, double c0, double c1) {
    if (!past || seen) return;
    *this = {true, p, d, v, {o0, o1}, {c0, c1}};
  }
};

}  // namespace

int main(int argc, char** argv) {
  double vertex_bound = 1e-5, opacity_bound = 3e-7, color_bound = 3e-7;
  bool row = false, quiet = false, original = false;
  std::string name;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto number = [&] { return i + 1 < argc ? std::atof(argv[++i]) : 0.0; };
    if (a == "--vertex-bound") vertex_bound = number();
    else if (a == "--opacity-bound") opacity_bound = number();
    else if (a == "--color-bound") color_bound = number();
    else if (a == "--row") row = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--rules" && i + 1 < argc) original = std::string(argv[++i]) == "original";
    else if (a == "--name" && i + 1 < argc) name = argv[++i];
    else files.push_back(a);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: p2l_cubism_compare MODEL.model3.json|MODEL.moc3 CORE_PREFIX [--name NAME] [--row] "
                         "[--vertex-bound X] [--opacity-bound X] [--color-bound X] [--rules original] [--quiet]\n");
    return 2;
  }
  if (name.empty()) name = files[0];
  p2l::ImportResult imported;
  const p2l::CoreRules rules = original ? p2l::CoreRules::Original : p2l::CoreRules::Cubism;
  if (files[0].size() > 5 && files[0].ends_with(".moc3")) {
    const auto moc = read(files[0]);
    imported = p2l::import_moc3(std::span(reinterpret_cast<const std::uint8_t*>(moc.data()), moc.size()), {rules});
  } else {
    p2l::CubismImportOptions options;
    options.rules = rules;
    imported = p2l::import_cubism(files[0], options);
  }
  if (!imported) {
    std::fprintf(stderr, "%s: import failed: %s\n", name.c_str(), imported.error.to_string().c_str());
    return 1;
  }
  if (!quiet)
    for (const auto& d : imported.report.dropped) std::printf("import report: %s\n", d.c_str());
  auto made = p2l::Model::create(std::make_shared<const p2l::Rig>(std::move(imported.rig)));
  if (!made) {
    std::fprintf(stderr, "%s: model: %s\n", name.c_str(), made.error.to_string().c_str());
    return 1;
  }
  p2l::Instance in(made.model);
  const p2l::Rig& rig = made.model->rig();

  const auto text = read(files[1] + ".json");
  const auto core = nlohmann::json::parse(text.begin(), text.end());
  const auto raw = read(files[1] + ".bin");
  std::vector<float> floats(raw.size() / 4);
  std::memcpy(floats.data(), raw.data(), floats.size() * 4);
  const auto& drawables = core["drawables"];
  const std::size_t nd = drawables.size(), np = core["parameters"].size(), nparts = core["parts"].size();
  if (nd != rig.meshes.size() || np != rig.parameters.size()) {
    std::fprintf(stderr, "%s: the Core has %zu drawables and %zu parameters, the import %zu meshes and %zu parameters\n",
                 name.c_str(), nd, np, rig.meshes.size(), rig.parameters.size());
    return 1;
  }
  std::size_t vertex_floats = 0;
  for (const auto& d : drawables) vertex_floats += 2 * d["vertexCount"].get<std::size_t>();
  const std::size_t no = core.contains("offscreens") ? core["offscreens"].size() : 0;
  const std::size_t per_pose = vertex_floats + nd * 9 + np + nparts + no * 9;
  if (raw.size() != core["poses"].size() * per_pose * 4) {
    std::fprintf(stderr, "%s: the Core's .bin holds %zu bytes, expected %zu poses x %zu floats\n", name.c_str(), raw.size(),
                 core["poses"].size(), per_pose);
    return 1;
  }
  // The offscreens are the isolated parts in part order (the importer keeps the Core's order).
  const std::vector<std::uint32_t>& offscreen_parts = made.model->plan().cubism_plan.offscreen_parts;
  const double ox = core["canvas"]["originX"].get<double>(), oy = core["canvas"]["originY"].get<double>();
  const double ppu = core["canvas"]["pixelsPerUnit"].get<double>();

  // Constant data: masks, flags, textures.
  std::size_t constants = 0;
  for (std::uint32_t m = 0; m < nd; ++m) {
    const auto& d = drawables[m];
    const p2l::Mesh& mesh = rig.meshes[m];
    std::vector<std::uint32_t> masks;
    for (const auto& k : d["masks"])
      if (k.get<int>() >= 0) masks.push_back(k.get<std::uint32_t>());
    const int flags = d["constantFlags"].get<int>();
    // Core 6 reports every drawable's blend mode (before moc3 version 6, from the flags).
    const int mode = d.contains("blendMode") && !d["blendMode"].is_null() ? d["blendMode"].get<int>()
                                                                         : ((flags & 1) ? 1 : (flags & 2) ? 2 : 0);
    const bool differs = d["id"].get<std::string>() != mesh.id || masks != mesh.mask_meshes ||
                         (mode & 0xff) != mesh.blend || ((mode >> 8) & 0xff) != mesh.alpha_blend ||
                         ((flags & 4) == 0) != mesh.culling || ((flags & 8) != 0) != mesh.invert_mask ||
                         d["texture"].get<int>() != mesh.texture_page;
    if (differs && constants++ < 3) std::printf("  constant data differs: drawable %u (%s)\n", m, mesh.id.c_str());
  }

  if (offscreen_parts.size() != no) {
    std::printf("  constant data differs: the Core has %zu offscreens, the import %zu isolated parts\n", no, offscreen_parts.size());
    ++constants;
  }
  for (std::size_t k = 0; k < no && k < offscreen_parts.size(); ++k) {
    const auto& o = core["offscreens"][k];
    const p2l::Part& part = rig.parts[offscreen_parts[k]];
    const p2l::Composite& c = made.model->part_group_composite(offscreen_parts[k]);
    std::vector<std::uint32_t> masks;
    for (const auto& m : o["masks"])
      if (m.get<int>() >= 0) masks.push_back(m.get<std::uint32_t>());
    std::vector<std::uint32_t> ours(c.mask_meshes.begin(), c.mask_meshes.end());
    const int mode = o["blendMode"].get<int>(), flags = o["constantFlags"].get<int>();
    if ((o["owner"].get<std::uint32_t>() != offscreen_parts[k] || (mode & 0xff) != c.blend ||
         ((mode >> 8) & 0xff) != c.alpha_blend || masks != ours || ((flags & 8) != 0) != c.invert_mask) &&
        constants++ < 3)
      std::printf("  constant data differs: offscreen %zu (part %s)\n", k, part.id.c_str());
  }

  Worst vertex, opacity, color, offscreen_opacity, offscreen_color;
  std::size_t offscreens_shown = 0, places = 0;
  First first_vertex, first_opacity, first_offscreen;
  std::size_t visibility = 0, draw_order = 0, render_order = 0, poses = 0, shown = 0, hidden = 0, floats_total = 0, floats_exact = 0;
  const auto& core_poses = core["poses"];
  // The Core's poses one after another on one model, as a host plays them, or (core_dump.js
  // --fresh) each the first update of a model of its own.
  const bool fresh = core.contains("fresh") && core["fresh"].get<bool>();
  for (std::size_t k = 0; k < core_poses.size(); ++k) {
    const auto& pose = core_poses[k];
    if (fresh && k > 0) in = p2l::Instance(made.model);
    const float* at = floats.data() + k * per_pose;
    for (std::size_t i = 0; i < np; ++i) in.parameters()[i] = pose["values"][i].get<float>();
    if (pose.contains("partOpacities"))
      for (std::uint32_t i = 0; i < nparts; ++i) in.set_part_opacity(i, pose["partOpacities"][i].get<float>());
    else  // where the Core's start (a part saved hidden starts at 0; the format's rules hide it anyway)
      for (std::uint32_t i = 0; i < nparts; ++i)
        in.set_part_opacity(i, original ? 1.0f : core["parts"][i]["opacity"].get<float>());
    in.evaluate();
    const float* core_opacity = at + vertex_floats;
    const float* core_multiply = core_opacity + nd;
    const float* core_screen = core_multiply + 4 * nd;
    std::vector<std::pair<int, std::uint32_t>> theirs;
    std::vector<std::uint32_t> ours_visible;
    for (std::uint32_t m = 0; m < nd; ++m) {
      const auto v = in.vertices(m);
      const bool visible = (pose["dynamicFlags"][m].get<int>() & 1) != 0;
      const bool ours = (in.changes(m) & p2l::kMeshVisible) != 0;
      if (visible) {
        ++shown;
        const auto units = in.model_vertices(m);  // Cubism's rules: the Core's own numbers
        for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
          const double x = units.empty() ? (double(v[i]) - ox) / ppu : units[i];
          const double y = units.empty() ? -(double(v[i + 1]) - oy) / ppu : units[i + 1];
          const double error = std::max(std::fabs(x - at[i]), std::fabs(y - at[i + 1]));
          vertex.see(error, k, m);
          first_vertex.see(!(error <= vertex_bound), k, m, i / 2, x, y, at[i], at[i + 1]);
          floats_total += 2;
          floats_exact += (x == at[i]) + (y == at[i + 1]);
        }
        const double core_value = original ? std::min<double>(core_opacity[m], 1.0) : core_opacity[m];
        opacity.see(std::fabs(double(in.opacity(m)) - core_value), k, m);
        first_opacity.see(!(std::fabs(double(in.opacity(m)) - core_value) <= opacity_bound), k, m, 0, in.opacity(m), 0,
                          core_value, 0);
        for (int c = 0; c < 3; ++c) {
          color.see(std::fabs(double(in.multiply(m)[c]) - core_multiply[4 * m + c]), k, m);
          color.see(std::fabs(double(in.screen(m)[c]) - core_screen[4 * m + c]), k, m);
        }
        const int our_order = static_cast<int>(std::floor(in.draw_order(m) + 0.001f));
        if (our_order != pose["drawOrder"][m].get<int>() && draw_order++ < 3)
          std::printf("  draw order differs: pose %zu, drawable %s: p2lrt %d (%.9g), the Core %d\n", k,
                      rig.meshes[m].id.c_str(), our_order, double(in.draw_order(m)), pose["drawOrder"][m].get<int>());
        theirs.push_back({pose["renderOrder"][m].get<int>(), m});
      }
      else if (!original) {
        // A hidden drawable's arrays are the Core's buffers as earlier updates left them.
        const auto units = in.model_vertices(m);
        double error = 0;
        for (std::size_t i = 0; i < units.size(); ++i) error = std::max(error, std::fabs(double(units[i]) - at[i]));
        double colour_error = 0;
        for (int c = 0; c < 3; ++c) {
          colour_error = std::max(colour_error, std::fabs(double(in.multiply(m)[c]) - core_multiply[4 * m + c]));
          colour_error = std::max(colour_error, std::fabs(double(in.screen(m)[c]) - core_screen[4 * m + c]));
        }
        const double opacity_error = std::fabs(double(in.opacity(m)) - core_opacity[m]);
        const bool order_differs = static_cast<int>(in.draw_order(m)) != pose["drawOrder"][m].get<int>();
        if (!(error <= vertex_bound) || !(opacity_error <= opacity_bound) || !(colour_error <= color_bound) || order_differs) {
          if (hidden++ < 3)
            std::printf("  hidden drawable differs: pose %zu, %s: vertices %.3g, opacity %.3g (p2lrt %.9g, the Core %.9g), "
                        "colours %.3g, draw order p2lrt %d, the Core %d\n",
                        k, rig.meshes[m].id.c_str(), error, opacity_error, double(in.opacity(m)), double(core_opacity[m]),
                        colour_error, static_cast<int>(in.draw_order(m)), pose["drawOrder"][m].get<int>());
        }
      }
      at += v.size();
      if (ours != visible && visibility++ < 3)
        std::printf("  visibility differs: pose %zu, drawable %s: the Core %s it, p2lrt %s it (opacity %g, the Core's %g)\n",
                    k, rig.meshes[m].id.c_str(), visible ? "shows" : "hides", ours ? "shows" : "hides",
                    double(in.opacity(m)), double(core_opacity[m]));
    }
    // Offscreens: opacity (0 while hidden, as in the Core) and colours at every pose, and
    // every render place.
    const float* core_off = at + nd * 9 + np + nparts;  // [at] has passed the vertices
    for (std::size_t o = 0; o < no && o < offscreen_parts.size(); ++o) {
      const std::uint32_t part = offscreen_parts[o];
      offscreens_shown += in.state().cubism.part_on[part];
      const p2l::GroupComposite& g = in.part_composite(part);
      offscreen_opacity.see(std::fabs(double(g.opacity) - core_off[o]), k, static_cast<std::uint32_t>(o));
      first_offscreen.see(!(std::fabs(double(g.opacity) - core_off[o]) <= opacity_bound), k, static_cast<std::uint32_t>(o), 0,
                          g.opacity, 0, core_off[o], 0);
      // Colours too while the offscreen is hidden: the Core's buffers as earlier updates left them.
      for (int c = 0; c < 3; ++c) {
        offscreen_color.see(std::fabs(double(g.multiply[c]) - core_off[no + 4 * o + c]), k, static_cast<std::uint32_t>(o));
        offscreen_color.see(std::fabs(double(g.screen[c]) - core_off[5 * no + 4 * o + c]), k, static_cast<std::uint32_t>(o));
      }
    }
    if (no > 0) {
      const auto orders = in.cubism_render_orders();
      bool same = orders.size() == pose["renderOrder"].size();
      for (std::size_t i = 0; same && i < orders.size(); ++i) same = orders[i] == pose["renderOrder"][i].get<int>();
      if (!same && places++ < 3) std::printf("  render places differ: pose %zu\n", k);
    }
    std::sort(theirs.begin(), theirs.end());
    for (std::uint32_t m : in.render_order())
      if ((in.changes(m) & p2l::kMeshVisible) != 0) ours_visible.push_back(m);
    std::vector<std::uint32_t> core_visible;
    for (const auto& t : theirs) core_visible.push_back(t.second);
    if (ours_visible != core_visible) ++render_order;
    ++poses;
  }
  const auto& ids = drawables;
  auto where = [&](const Worst& w) {
    return w.value > 0 ? " (pose " + std::to_string(w.pose) + ", " + ids[w.drawable]["id"].get<std::string>() + ")"
                       : std::string();
  };
  const bool ok = vertex.value <= vertex_bound && opacity.value <= opacity_bound && color.value <= color_bound &&
                  visibility == 0 && draw_order == 0 && render_order == 0 && constants == 0 && hidden == 0 && poses > 0 &&
                  offscreen_opacity.value <= opacity_bound && offscreen_color.value <= color_bound && places == 0;
  std::printf("%s: %zu poses x %zu drawables against Cubism Core %s (moc3 version %d)\n", name.c_str(), poses, nd,
              core["core"].get<std::string>().c_str(), core["mocVersion"].get<int>());
  std::printf("  vertex   %.3g units%s; bound %.3g; %.4f%% of the coordinates equal to the bit\n", vertex.value,
              where(vertex).c_str(), vertex_bound, floats_total ? 100.0 * double(floats_exact) / double(floats_total) : 0.0);
  std::printf("  opacity  %.3g%s; bound %.3g\n", opacity.value, where(opacity).c_str(), opacity_bound);
  std::printf("  colours  %.3g%s; bound %.3g\n", color.value, where(color).c_str(), color_bound);
  std::printf("  visibility %zu, draw order %zu (of %zu shown), render order %zu poses, constant data %zu, hidden drawables' "
              "arrays %zu\n",
              visibility, draw_order, shown, render_order, constants, hidden);
  if (no > 0)
    std::printf("  offscreens %zu: opacity %.3g (offscreen %u, pose %zu), colours %.3g (%zu of them shown); render places "
                "(drawables and offscreens) differ in %zu poses\n",
                no, offscreen_opacity.value, offscreen_opacity.drawable, offscreen_opacity.pose, offscreen_color.value,
                offscreens_shown, places);
  if (first_vertex.seen)
    std::printf("  first vertex past the bound: pose %zu, %s vertex %zu: p2lrt (%.9g, %.9g), the Core (%.9g, %.9g)\n",
                first_vertex.pose, ids[first_vertex.drawable]["id"].get<std::string>().c_str(), first_vertex.vertex,
                first_vertex.ours[0], first_vertex.ours[1], first_vertex.core[0], first_vertex.core[1]);
  if (first_opacity.seen)
    std::printf("  first opacity past the bound: pose %zu, %s: p2lrt %.9g, the Core %.9g\n", first_opacity.pose,
                ids[first_opacity.drawable]["id"].get<std::string>().c_str(), first_opacity.ours[0], first_opacity.core[0]);
  if (first_offscreen.seen)
    std::printf("  first offscreen opacity past the bound: pose %zu, offscreen %u (part %s): p2lrt %.9g, the Core %.9g\n",
                first_offscreen.pose, first_offscreen.drawable, rig.parts[offscreen_parts[first_offscreen.drawable]].id.c_str(),
                first_offscreen.ours[0], first_offscreen.core[0]);
  std::printf("  %s\n", ok ? "PASS" : "FAIL");
  if (row)
    std::printf("| %s | %d | %zu | %.2g | %.4f%% | %.2g | %.2g | %zu | %zu | %zu | %zu | %zu | %s |\n", name.c_str(),
                core["mocVersion"].get<int>(), poses, vertex.value,
                floats_total ? 100.0 * double(floats_exact) / double(floats_total) : 0.0, opacity.value, color.value,
                visibility, draw_order, render_order, constants, hidden, ok ? "pass" : "FAIL");
  return ok ? 0 : 1;
}
