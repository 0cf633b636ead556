// compare_dumps: two dumps of the same moc3 and poses (tests/cubism/core_dump.js on an official
// Core, tests/csm/csm_dump.c on a C Cubism Core) compared value for value:
//
//   p2l_csm_compare_dumps REFERENCE_PREFIX CANDIDATE_PREFIX [--tolerance T] [--enabled-only]
//                         [--change-bits-where-values-agree]
//
// Exact: every constant (ids, counts, flags, textures, parents, masks, blend modes, parameter
// ranges, types, repeats and keys, parts, offscreens, canvas), and per pose the draw orders,
// render orders and dynamic flags (the reference's dump reads them after the update, before the
// reset, as csm_dump does). Within T (1e-5 by default): vertices (model units), opacities,
// colours, parameter values and part opacities read back. When both have a .const.bin, UVs and
// triangle indices are compared exactly too. Prints the worst difference of each kind and exits
// 1 when anything is out of bounds.
//
// --enabled-only: the values, draw and render orders and value change bits of drawables the
// reference's Core has disabled (outside their keys, under a disabled part or deformer: after
// the first pose, those without the vertex bit) are left out, in that pose and the next, for
// comparing Cores whose hidden buffers may follow other rules (p2lrt's equal Core 6.0.1's:
// docs/CUBISM_CORE.md). The visible, visibility and vertex bits are still compared everywhere.
// --change-bits-where-values-agree: an opacity or colour change bit is compared only where the
// two dumps hold the same opacity (colours) in that pose and the one before, for a reference
// Core that rounds some of them apart (Core 4.2.2 against 6.0.1: up to 3.6e-7).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

std::vector<char> read(const std::string& path, bool* found = nullptr) {
  std::ifstream in(path, std::ios::binary);
  if (found) *found = static_cast<bool>(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Worst {
  double value = 0;
  std::string where;
  void see(double d, const std::string& at) {
    if (!(d <= value)) {  // NaN counts as worst
      value = std::isnan(d) ? INFINITY : d;
      where = at;
    }
  }
};

int failures = 0;
void mismatch(const std::string& what) {
  if (failures++ < 12) std::printf("  differs: %s\n", what.c_str());
}

// Compares [key] of two JSON objects when the reference has it.
void same(const nlohmann::json& a, const nlohmann::json& b, const char* key, const std::string& who) {
  if (!a.contains(key) || a[key].is_null()) return;
  if (!b.contains(key)) return mismatch(who + "." + key + ": missing");
  if (a[key] != b[key]) mismatch(who + "." + key + ": " + a[key].dump() + " vs " + b[key].dump());
}

// Floats compared as float32 (the dumps write them at least to that precision).
void same_floats(const nlohmann::json& a, const nlohmann::json& b, const char* key, const std::string& who) {
  if (!a.contains(key) || a[key].is_null()) return;
  if (!b.contains(key)) return mismatch(who + "." + key + ": missing");
  const auto& x = a[key];
  const auto& y = b[key];
  if (x.is_array() != y.is_array() || (x.is_array() && x.size() != y.size()))
    return mismatch(who + "." + key + ": " + x.dump() + " vs " + y.dump());
  auto f = [](const nlohmann::json& v) { return v.is_null() ? NAN : static_cast<float>(v.get<double>()); };
  if (x.is_array()) {
    for (std::size_t i = 0; i < x.size(); ++i)
      if (f(x[i]) != f(y[i]) && !(std::isnan(f(x[i])) && std::isnan(f(y[i]))))
        return mismatch(who + "." + key + ": " + x.dump() + " vs " + y.dump());
  } else if (f(x) != f(y)) {
    mismatch(who + "." + key + ": " + x.dump() + " vs " + y.dump());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: p2l_csm_compare_dumps REFERENCE_PREFIX CANDIDATE_PREFIX [--tolerance T]\n");
    return 2;
  }
  const std::string ra = argv[1], rb = argv[2];
  double tolerance = 1e-5;
  bool enabled_only = false, loose_change_bits = false;
  for (int i = 3; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--tolerance") && i + 1 < argc) tolerance = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--enabled-only")) enabled_only = true;
    else if (!std::strcmp(argv[i], "--change-bits-where-values-agree")) loose_change_bits = true;
    else {
      std::fprintf(stderr, "compare_dumps: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  nlohmann::json a, b;
  try {
    const auto ta = read(ra + ".json"), tb = read(rb + ".json");
    a = nlohmann::json::parse(ta.begin(), ta.end());
    b = nlohmann::json::parse(tb.begin(), tb.end());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_dumps: %s\n", e.what());
    return 2;
  }
  std::printf("reference: Core %s, candidate: Core %s\n", a["core"].get<std::string>().c_str(),
              b["core"].get<std::string>().c_str());
  same(a, b, "mocVersion", "moc");
  for (const char* k : {"width", "height", "originX", "originY", "pixelsPerUnit"}) same_floats(a["canvas"], b["canvas"], k, "canvas");

  const auto &pa = a["parameters"], &pb = b["parameters"];
  const auto &parts_a = a["parts"], &parts_b = b["parts"];
  const auto &da = a["drawables"], &db = b["drawables"];
  if (pa.size() != pb.size() || parts_a.size() != parts_b.size() || da.size() != db.size()) {
    std::printf("  counts differ: parameters %zu/%zu, parts %zu/%zu, drawables %zu/%zu\n", pa.size(), pb.size(),
                parts_a.size(), parts_b.size(), da.size(), db.size());
    return 1;
  }
  for (std::size_t i = 0; i < pa.size(); ++i) {
    const std::string who = "parameter " + std::to_string(i);
    same(pa[i], pb[i], "id", who);
    for (const char* k : {"min", "max", "default", "keys"}) same_floats(pa[i], pb[i], k, who);
    same(pa[i], pb[i], "type", who);
    same(pa[i], pb[i], "repeat", who);
  }
  for (std::size_t i = 0; i < parts_a.size(); ++i) {
    const std::string who = "part " + std::to_string(i);
    for (const char* k : {"id", "parent", "offscreen"}) same(parts_a[i], parts_b[i], k, who);
    same_floats(parts_a[i], parts_b[i], "opacity", who);
  }
  std::size_t vertex_floats = 0;
  for (std::size_t i = 0; i < da.size(); ++i) {
    const std::string who = "drawable " + std::to_string(i);
    for (const char* k : {"id", "vertexCount", "indexCount", "constantFlags", "texture", "parentPart", "masks", "blendMode"})
      same(da[i], db[i], k, who);
    vertex_floats += 2 * da[i]["vertexCount"].get<std::size_t>();
  }
  const std::size_t no = a.contains("offscreens") ? a["offscreens"].size() : 0;
  if (no != (b.contains("offscreens") ? b["offscreens"].size() : 0)) mismatch("offscreen counts");
  for (std::size_t i = 0; i < no && b.contains("offscreens") && i < b["offscreens"].size(); ++i)
    for (const char* k : {"owner", "blendMode", "constantFlags", "masks"})
      same(a["offscreens"][i], b["offscreens"][i], k, "offscreen " + std::to_string(i));
  const int constant_failures = failures;

  bool have_a = false, have_b = false;
  const auto ca = read(ra + ".const.bin", &have_a), cb = read(rb + ".const.bin", &have_b);
  if (have_a && have_b && ca != cb) mismatch("UVs or triangle indices (.const.bin)");

  const std::size_t nd = da.size(), np = pa.size(), nparts = parts_a.size();
  const std::size_t per_pose = vertex_floats + nd * 9 + np + nparts + no * 9;
  const auto bin_a = read(ra + ".bin"), bin_b = read(rb + ".bin");
  const auto &poses_a = a["poses"], &poses_b = b["poses"];
  if (poses_a.size() != poses_b.size() || bin_a.size() != poses_a.size() * per_pose * 4 || bin_b.size() != bin_a.size()) {
    std::printf("  pose data differ in size: %zu/%zu poses, %zu/%zu bytes (expected %zu)\n", poses_a.size(),
                poses_b.size(), bin_a.size(), bin_b.size(), poses_a.size() * per_pose * 4);
    return 1;
  }
  Worst vertex, opacity, color, parameter, part, offscreen;
  std::size_t orders = 0, flags = 0, values_set = 0, left_out = 0;
  // Per drawable: enabled in the reference at this pose and the one before.
  std::vector<char> enabled(nd, 1), enabled_before(nd, 1);
  auto floats_at = [&](const std::vector<char>& bin, std::size_t k) {
    return reinterpret_cast<const float*>(bin.data()) + k * per_pose;
  };
  for (std::size_t k = 0; k < poses_a.size(); ++k) {
    const auto &x = poses_a[k], &y = poses_b[k];
    for (std::size_t i = 0; i < nd; ++i) {
      enabled_before[i] = k == 0 ? 1 : enabled[i];
      const int f = x["dynamicFlags"][i].get<int>();
      enabled[i] = !enabled_only || (k == 0 ? (f & 1) != 0 : (f & 32) != 0);
    }
    auto counted = [&](std::size_t i) { return enabled[i] && enabled_before[i]; };
    if (x["values"].size() != y["values"].size()) ++values_set;
    for (std::size_t i = 0; i < x["values"].size() && i < y["values"].size(); ++i)
      if (static_cast<float>(x["values"][i].get<double>()) != static_cast<float>(y["values"][i].get<double>())) {
        ++values_set;
        break;
      }
    bool same_orders = x["renderOrder"].size() == y["renderOrder"].size();
    for (std::size_t i = 0; same_orders && i < nd; ++i)
      if (counted(i) && (x["drawOrder"][i] != y["drawOrder"][i] || x["renderOrder"][i] != y["renderOrder"][i])) same_orders = false;
    for (std::size_t i = nd; same_orders && i < x["renderOrder"].size(); ++i) same_orders = x["renderOrder"][i] == y["renderOrder"][i];
    if (!same_orders && orders++ < 3) mismatch("pose " + std::to_string(k) + ": draw or render orders");
    const float* fa = floats_at(bin_a, k);
    const float* fb = floats_at(bin_b, k);
    const float* fa0 = k ? floats_at(bin_a, k - 1) : fa;
    const float* fb0 = k ? floats_at(bin_b, k - 1) : fb;
    std::string first_flag;
    for (std::size_t i = 0; i < nd; ++i) {
      int mask = 0x7f;
      if (!counted(i)) mask = 1 | 2 | 32;
      if (loose_change_bits && k > 0) {
        const std::size_t o = vertex_floats + i, c = vertex_floats + nd + 4 * i;
        if (fa[o] != fb[o] || fa0[o] != fb0[o]) mask &= ~4;
        for (std::size_t j = 0; j < 4; ++j)
          if (fa[c + j] != fb[c + j] || fa0[c + j] != fb0[c + j] || fa[c + 4 * nd + j] != fb[c + 4 * nd + j] ||
              fa0[c + 4 * nd + j] != fb0[c + 4 * nd + j])
            mask &= ~64;
      }
      const int fx = x["dynamicFlags"][i].get<int>() & mask, fy = y["dynamicFlags"][i].get<int>() & mask;
      if (fx != fy && first_flag.empty())
        first_flag = "drawable " + std::to_string(i) + ": " + std::to_string(fx) + " vs " + std::to_string(fy);
    }
    if (!first_flag.empty() && flags++ < 3) mismatch("pose " + std::to_string(k) + ": dynamic flags, first at " + first_flag);
    std::size_t at = 0;
    auto run = [&](std::size_t n, std::size_t width, Worst& w, const char* what) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < width; ++j, ++at) {
          if (!counted(i)) {
            ++left_out;
            continue;
          }
          w.see(std::fabs(double(fa[at]) - double(fb[at])),
                "pose " + std::to_string(k) + " " + what + " of drawable " + std::to_string(i));
        }
    };
    for (std::size_t i = 0; i < nd; ++i) {
      const std::size_t n = 2 * da[i]["vertexCount"].get<std::size_t>();
      for (std::size_t j = 0; j < n; ++j, ++at) {
        if (!counted(i)) {
          ++left_out;
          continue;
        }
        vertex.see(std::fabs(double(fa[at]) - double(fb[at])), "pose " + std::to_string(k) + " vertex of drawable " + std::to_string(i));
      }
    }
    run(nd, 1, opacity, "opacity");
    run(nd, 4, color, "multiply colour");
    run(nd, 4, color, "screen colour");
    for (std::size_t i = 0; i < np; ++i, ++at) {
      const double range = pa[i]["max"].get<double>() - pa[i]["min"].get<double>();
      parameter.see(std::fabs(double(fa[at]) - double(fb[at])) / (range > 0 ? range : 1),
                    "pose " + std::to_string(k) + " parameter " + pa[i]["id"].get<std::string>());
    }
    for (std::size_t i = 0; i < nparts; ++i, ++at) part.see(std::fabs(double(fa[at]) - double(fb[at])), "pose " + std::to_string(k) + " part " + std::to_string(i));
    for (std::size_t i = 0; i < 9 * no; ++i, ++at) offscreen.see(std::fabs(double(fa[at]) - double(fb[at])), "pose " + std::to_string(k) + " offscreen float " + std::to_string(i));
  }
  if (enabled_only) std::printf("  %zu values of disabled drawables left out\n", left_out);
  if (values_set) mismatch(std::to_string(values_set) + " poses set other parameter values: the dumps ran different poses");
  auto report = [&](const char* name, const Worst& w) {
    std::printf("  %-22s worst %.3g%s%s\n", name, w.value, w.where.empty() ? "" : " at ", w.where.c_str());
    if (!(w.value <= tolerance)) mismatch(std::string(name) + " beyond " + std::to_string(tolerance));
  };
  std::printf("  %zu poses; constants %s; orders differ in %zu poses, dynamic flags in %zu\n", poses_a.size(),
              constant_failures ? "DIFFER" : "equal", orders, flags);
  report("vertices (model units)", vertex);
  report("opacities", opacity);
  report("colours", color);
  report("parameters (of range)", parameter);
  report("part opacities", part);
  report("offscreens", offscreen);
  std::printf("%s\n", failures ? "DIFFERENT" : "same");
  return failures ? 1 : 0;
}
