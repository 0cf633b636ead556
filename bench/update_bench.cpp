// p2l_update(1/60) per frame: the whole pipeline (clip, expression, blink, breath, physics,
// deformation) through the C API as a host drives it, on the Cubism sample Haru (imported
// from the npm package scripts/fetch_cubism_core.sh caches) and on the original's extras
// vector. The Time column is the cost of one frame.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "p2l/cubism.hpp"
#include "p2l/format.hpp"
#include "p2l/p2l.h"

namespace {

// This Haru comes without exp3 files: a smile in the manner of Cubism's samples (one value
// of each blend) gives the expression stage something to do.
void add_expression(p2l::Rig& rig) {
  if (!rig.expressions.empty()) return;
  p2l::Expression smile;
  smile.id = smile.name = "bench_smile";
  smile.fade_in = smile.fade_out = 0.5f;
  const std::pair<const char*, p2l::ExpressionBlend> values[] = {{"ParamMouthForm", p2l::ExpressionBlend::Overwrite},
                                                                 {"ParamEyeLSmile", p2l::ExpressionBlend::Add},
                                                                 {"ParamEyeLOpen", p2l::ExpressionBlend::Multiply}};
  for (const auto& [id, blend] : values) {
    const std::int32_t p = rig.find_parameter(id);
    if (p >= 0) smile.values.push_back({static_cast<std::uint32_t>(p), blend, blend == p2l::ExpressionBlend::Multiply ? 0.5f : 1.0f});
  }
  if (!smile.values.empty()) rig.expressions.push_back(std::move(smile));
}

std::vector<std::uint8_t> haru_bytes() {
  static const std::vector<std::uint8_t> bytes = [] {
    const char* home = std::getenv("HOME");
    const std::string path = std::string(home ? home : "") +
                             "/.cache/p2lrt/live2dcubismcore-1.0.2/package/characters/haru_greeter_pro_jp/runtime/"
                             "haru_greeter_t03.model3.json";
    if (!std::filesystem::exists(path)) return std::vector<std::uint8_t>{};
    p2l::ImportResult imported = p2l::import_cubism(path);
    if (!imported) return std::vector<std::uint8_t>{};
    add_expression(imported.rig);
    p2l::WriteResult written = p2l::write(imported.rig);
    return written ? std::move(written.bytes) : std::vector<std::uint8_t>{};
  }();
  return bytes;
}

std::vector<std::uint8_t> vector_bytes(const char* name) {
  std::ifstream in(std::string(P2L_VECTORS_DIR) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// [animate]: the whole update; else p2l_evaluate alone, at a pose that no longer changes:
// what change tracking leaves of an evaluation (channel values, draw order, host layer,
// change flags), against the full deformation a changed pose costs (Eval/haru/evaluate).
void run(benchmark::State& state, const std::vector<std::uint8_t>& bytes, bool animate) {
  if (bytes.empty()) {
    state.SkipWithError("model not available (run scripts/fetch_cubism_core.sh; vectors in ../shared)");
    return;
  }
  char error[256];
  P2lRig* rig = p2l_rig_load(bytes.data(), bytes.size(), error, sizeof error);
  if (rig == nullptr) {
    state.SkipWithError(error);
    return;
  }
  p2l_behaviors(rig, P2L_BLINK | P2L_BREATH);
  p2l_behavior_seed(rig, 1);
  if (p2l_clip_count(rig) > 0) p2l_play(rig, 0);
  if (p2l_expression_count(rig) > 0) p2l_expression(rig, 0);
  state.counters["expressions"] = static_cast<double>(p2l_expression_count(rig));
  for (int i = 0; i < 60; ++i) p2l_update(rig, 1.0f / 60);  // past the fades, physics running
  for (auto _ : state) {
    if (animate)
      p2l_update(rig, 1.0f / 60);
    else
      p2l_evaluate(rig);
    benchmark::DoNotOptimize(p2l_mesh_vertices(rig, 0));
  }
  p2l_rig_free(rig);
}

void BM_UpdateHaru(benchmark::State& state) { run(state, haru_bytes(), true); }
void BM_EvaluateHaru(benchmark::State& state) { run(state, haru_bytes(), false); }
void BM_UpdateExtras(benchmark::State& state) { run(state, vector_bytes("extras.p2lrt"), true); }

BENCHMARK(BM_UpdateHaru)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EvaluateHaru)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UpdateExtras)->Unit(benchmark::kMicrosecond);

}  // namespace
