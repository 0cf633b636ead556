// evaluate() per frame on a large generated rig and on the original's stress vector,
// whole and stage by stage. Poses move every frame (a sine sweep per parameter), so no
// stage can coast on an unchanged input. Counters: time per vertex of the whole frame.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "big_rig.hpp"
#include "eval/evaluate.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"

namespace {

std::shared_ptr<const p2l::Rig> big_rig() {
  static auto rig = std::make_shared<const p2l::Rig>(p2l_bench::make_big_rig());
  return rig;
}

std::shared_ptr<const p2l::Rig> file_rig(const std::string& path) {
  if (!std::filesystem::exists(path)) return nullptr;
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  return p2l::load(bytes).rig;
}

std::shared_ptr<const p2l::Rig> vector_rig(const char* name) {
  const std::string path = std::string(P2L_VECTORS_DIR) + "/" + name;
  return file_rig(path);
}

std::shared_ptr<const p2l::Rig> character_rig() {
  static auto rig = file_rig(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt");
  return rig;
}

// The Cubism sample Haru, imported from the npm cache scripts/fetch_cubism_core.sh fills
// (skipped when it is not there; never in the repository).
std::shared_ptr<const p2l::Rig> haru_rig() {
  static auto rig = []() -> std::shared_ptr<const p2l::Rig> {
    const char* home = std::getenv("HOME");
    const std::string path = std::string(home ? home : "") +
                             "/.cache/p2lrt/live2dcubismcore-1.0.2/package/characters/haru_greeter_pro_jp/runtime/"
                             "haru_greeter_t03.model3.json";
    if (!std::filesystem::exists(path)) return nullptr;
    p2l::ImportResult imported = p2l::import_cubism(path);
    return imported ? std::make_shared<const p2l::Rig>(std::move(imported.rig)) : nullptr;
  }();
  return rig;
}

std::size_t vertex_count(const p2l::Rig& rig) {
  std::size_t n = 0;
  for (const auto& m : rig.meshes) n += m.vertex_count();
  return n;
}

// Sets frame [f]'s pose: each parameter sweeps its range at its own rate.
void pose(p2l::Instance& in, std::size_t f) {
  const p2l::Rig& rig = in.model().rig();
  auto values = in.parameters();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto& p = rig.parameters[i];
    const float s = 0.5f + 0.5f * std::sin(static_cast<float>(f) * 0.05f * static_cast<float>(i % 7 + 1));
    values[i] = p.min + (p.max - p.min) * s;
  }
}

enum Stage { kAll, kParameters, kDeformers, kMeshes, kParts, kGlue, kDrawOrder };

void run(benchmark::State& state, const std::shared_ptr<const p2l::Rig>& rig, Stage stage) {
  if (!rig) {
    state.SkipWithError("rig not available (compatibility vectors, example or Cubism sample missing)");
    return;
  }
  auto model = p2l::Model::create(rig);
  if (!model) {
    state.SkipWithError(model.error.to_string().c_str());
    return;
  }
  p2l::Instance in(model.model);
  p2l::InstanceState& s = in.state();
  const auto& plan = model.model->plan();
  std::size_t f = 0;
  for (auto _ : state) {
    pose(in, ++f);
    if (stage == kAll) {
      in.evaluate();
      continue;
    }
    // A stage alone runs on the outputs of the stages before it from the previous frame,
    // which costs the same as in sequence. Every stage but the first also runs the first
    // (a fraction of a microsecond): it starts the evaluation (new weights, what changed).
    std::copy(s.values.begin(), s.values.end(), s.current.begin());
    if (stage != kParameters) p2l::eval::normalize_parameters(plan, s);
    switch (stage) {
      case kParameters: p2l::eval::normalize_parameters(plan, s); break;
      case kDeformers: p2l::eval::evaluate_deformers(*rig, plan, s); break;
      case kMeshes: p2l::eval::evaluate_meshes(*rig, plan, s); break;
      case kParts: p2l::eval::evaluate_parts(*rig, plan, s); break;
      case kGlue: p2l::eval::apply_glue(*rig, plan, s); break;
      case kDrawOrder: p2l::eval::build_render_order(*rig, plan, s); break;
      case kAll: break;
    }
    benchmark::ClobberMemory();
  }
  const double vertices = static_cast<double>(vertex_count(*rig));
  state.counters["vertices"] = vertices;
  // Seconds per vertex, printed with an SI prefix (12.0n = 12.0 ns).
  state.counters["per_vertex"] = benchmark::Counter(vertices, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_all() {
  struct Named {
    const char* name;
    std::shared_ptr<const p2l::Rig> (*get)();
  };
  static const Named rigs[] = {
      {"big", [] { return big_rig(); }},
      {"stress", [] { return vector_rig("stress.p2lrt"); }},
      {"chain", [] { return vector_rig("chain.p2lrt"); }},
      {"character", [] { return character_rig(); }},
      {"haru", [] { return haru_rig(); }},
  };
  static const std::pair<const char*, Stage> stages[] = {{"evaluate", kAll},    {"1_parameters", kParameters},
                                                         {"2_deformers", kDeformers}, {"3_meshes", kMeshes},
                                                         {"4_parts", kParts},   {"5_glue", kGlue},
                                                         {"6_draw_order", kDrawOrder}};
  for (const Named& r : rigs)
    for (const auto& [stage_name, stage] : stages) {
      const std::string name = std::string("Eval/") + r.name + "/" + stage_name;
      auto get = r.get;
      benchmark::RegisterBenchmark(name.c_str(), [get, stage = stage](benchmark::State& st) { run(st, get(), stage); })
          ->Unit(benchmark::kMicrosecond);
    }
}

const int registered = (register_all(), 0);

}  // namespace
