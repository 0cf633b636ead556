// Advanced mode's cost: p2l_update(1/60) with each feature on alone and all together, on the
// example character (examples/character: a skinned arm on a virtual bone, simulated hair
// with a collider) and on the original's skin_arc vector. The Time column is one frame;
// compare with features 0, the Cubism-equivalent update of the same file.
#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "p2l/p2l.h"

namespace {

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void run(benchmark::State& state, const std::vector<std::uint8_t>& bytes) {
  char error[256];
  P2lRig* rig = bytes.empty() ? nullptr : p2l_rig_load(bytes.data(), bytes.size(), error, sizeof error);
  if (rig == nullptr) {
    state.SkipWithError("file not available");
    return;
  }
  const auto wanted = static_cast<std::uint32_t>(state.range(0));
  const std::uint32_t on = p2l_set_advanced(rig, wanted);
  if (on != (wanted & p2l_advanced_available(rig))) {
    state.SkipWithError("features did not turn on");
    p2l_rig_free(rig);
    return;
  }
  state.counters["features_on"] = on;
  p2l_behaviors(rig, P2L_BLINK | P2L_BREATH);
  p2l_behavior_seed(rig, 1);
  if (p2l_clip_count(rig) > 0) p2l_play(rig, 0);
  for (int i = 0; i < 60; ++i) p2l_update(rig, 1.0f / 60);
  for (auto _ : state) {
    p2l_update(rig, 1.0f / 60);
    benchmark::DoNotOptimize(p2l_mesh_vertices(rig, 0));
  }
  p2l_rig_free(rig);
}

void BM_AdvancedCharacter(benchmark::State& state) {
  static const auto bytes = file_bytes(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt");
  run(state, bytes);
}
void BM_AdvancedSkinArc(benchmark::State& state) {
  static const auto bytes = file_bytes(std::string(P2L_VECTORS_DIR) + "/skin_arc.p2lrt");
  run(state, bytes);
}

// 0: Cubism mode; 1 skinning; 2 exact links; 4 simulation; 12 simulation + collision; 15 all.
BENCHMARK(BM_AdvancedCharacter)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(12)->Arg(15)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AdvancedSkinArc)->Arg(0)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMicrosecond);

}  // namespace
