// Writes the cases the WebAssembly module is checked against (web/test/conformance.mjs):
// random rigs (every kind of content, extension chunks included) as .p2lrt files, and next to
// each what the native C API gives for it - poses set with p2l_set_parameter, evaluated in
// Cubism mode and with every advanced feature on, then a few p2l_update steps - with every
// float printed so that it reads back to the same bits.
//   p2l_make_wasm_cases OUT_DIR [COUNT]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/p2l.h"
#include "random_rig.hpp"

namespace {

void put_floats(std::ofstream& out, const float* v, std::size_t n) {
  out << "[";
  char text[32];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v[i]));
    out << (i ? "," : "") << text;
  }
  out << "]";
}

// Every mesh's vertices, opacity and draw order, and the render order, as one JSON object.
void put_state(std::ofstream& out, const P2lRig* rig) {
  const std::uint32_t meshes = p2l_mesh_count(rig);
  out << "{\"vertices\":[";
  for (std::uint32_t m = 0; m < meshes; ++m) {
    if (m) out << ",";
    put_floats(out, p2l_mesh_vertices(rig, m), std::size_t{p2l_mesh_vertex_count(rig, m)} * 2);
  }
  std::vector<float> opacity(meshes), order(meshes);
  for (std::uint32_t m = 0; m < meshes; ++m) {
    opacity[m] = p2l_mesh_opacity(rig, m);
    order[m] = p2l_mesh_draw_order(rig, m);
  }
  out << "],\"opacity\":";
  put_floats(out, opacity.data(), meshes);
  out << ",\"draw_order\":";
  put_floats(out, order.data(), meshes);
  std::vector<std::uint32_t> render(meshes);
  const std::uint32_t n = p2l_render_order(rig, render.data(), meshes);
  out << ",\"render_order\":[";
  for (std::uint32_t i = 0; i < n && i < meshes; ++i) out << (i ? "," : "") << render[i];
  out << "]}";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: p2l_make_wasm_cases OUT_DIR [COUNT]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const int count = argc > 2 ? std::atoi(argv[2]) : 100;
  std::filesystem::create_directories(dir);
  p2l_test::RandomRigOptions options;
  options.non_core = true;
  options.extensions = true;
  for (int seed = 1; seed <= count; ++seed) {
    const p2l::WriteResult written = p2l::write(p2l_test::make_random_rig(static_cast<std::uint64_t>(seed), options));
    if (!written) {
      std::fprintf(stderr, "seed %d does not write: %s\n", seed, written.error.to_string().c_str());
      return 1;
    }
    const std::string stem = "rig-" + std::to_string(seed);
    std::ofstream(dir / (stem + ".p2lrt"), std::ios::binary)
        .write(reinterpret_cast<const char*>(written.bytes.data()), static_cast<std::streamsize>(written.bytes.size()));
    char error[256];
    P2lRig* rig = p2l_rig_load(written.bytes.data(), written.bytes.size(), error, sizeof error);
    if (!rig) {
      std::fprintf(stderr, "seed %d does not load: %s\n", seed, error);
      return 1;
    }
    const std::uint32_t parameters = p2l_parameter_count(rig);
    p2l_test::SplitMix64 random(static_cast<std::uint64_t>(seed) * 7919);
    std::ofstream out(dir / (stem + ".json"));
    out << "{\"available\":" << p2l_advanced_available(rig) << ",\"runs\":[";
    bool first = true;
    // Cubism mode, each feature the file carries alone, then all of them: a difference then
    // names the feature it comes from.
    const std::uint32_t available = p2l_advanced_available(rig);
    std::vector<std::uint32_t> modes;
    for (const std::uint32_t bits : {0u, 1u, 2u, 4u, 12u, 15u})
      if (std::find(modes.begin(), modes.end(), bits & available) == modes.end()) modes.push_back(bits & available);
    for (const std::uint32_t advanced : modes) {
      p2l_set_advanced(rig, advanced);
      for (int k = 0; k < 4; ++k) {
        // A pose within and beyond each range, then an evaluation and two updates.
        std::vector<float> pose(parameters);
        for (std::uint32_t p = 0; p < parameters; ++p) {
          float lo = 0, hi = 0, def = 0;
          p2l_parameter_range(rig, p, &lo, &hi, &def);
          const double u = static_cast<double>(random.next() >> 11) / 9007199254740992.0;
          pose[p] = static_cast<float>(lo - 0.2 * (hi - lo) + u * 1.4 * (hi - lo));
          p2l_set_parameter(rig, p, pose[p]);
        }
        p2l_evaluate(rig);
        out << (first ? "" : ",") << "{\"advanced\":" << advanced << ",\"pose\":";
        first = false;
        put_floats(out, pose.data(), pose.size());
        out << ",\"evaluate\":";
        put_state(out, rig);
        p2l_update(rig, 1.0f / 60.0f);
        p2l_update(rig, 1.0f / 30.0f);
        out << ",\"update\":";
        put_state(out, rig);
        out << "}";
      }
    }
    out << "]}\n";
    p2l_rig_free(rig);
  }
  std::printf("wrote %d rigs with native results to %s\n", count, dir.c_str());
  return 0;
}
