// The Cubism Core C API on eight threads: one revived csmMoc shared by every model, each
// csmModel made, posed, updated, read and released by one thread (include/Live2DCubismCore.h
// "Threads", docs/RUNTIME.md "Threads"). For ThreadSanitizer (scripts/tsan.sh), and a quick
// check in the AddressSanitizer suite.
//
// A model runs a script: its poses come from a std::mt19937 seeded by the script's number.
// Every script runs on two threads; both runs must read back the same bits, and the same as
// the script run alone before the threads start. The log function switches while they run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../cubism/synth_model.hpp"
#include "Live2DCubismCore.h"
#include "p2l/csm_release.h"

namespace {

constexpr int kThreads = 8;
constexpr int kScripts = 250;  // 500 models in all
constexpr int kUpdates = 12;   // a script's updates

struct Result {
  std::uint64_t hash = 14695981039346656037ull;
  std::string problem;  // the first thing found wrong, "" if none
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) hash = (hash ^ b[i]) * 1099511628211ull;
  }
};

// One model of [moc] through script [script], on the calling thread.
Result run_script(const csmMoc* moc, int script) {
  Result r;
  std::mt19937 rng(0xC5A0000u + static_cast<std::uint32_t>(script));
  const unsigned size = csmGetSizeofModel(moc);
  void* memory = std::aligned_alloc(csmAlignofModel, (size / csmAlignofModel + 1) * csmAlignofModel);
  csmModel* model = csmInitializeModelInPlace(moc, memory, size);
  if (model == nullptr) {
    r.problem = "csmInitializeModelInPlace refused a model of a valid moc";
    std::free(memory);
    return r;
  }
  const int parameters = csmGetParameterCount(model), drawables = csmGetDrawableCount(model);
  float* values = csmGetParameterValues(model);
  const float* lo = csmGetParameterMinimumValues(model);
  const float* hi = csmGetParameterMaximumValues(model);
  for (int u = 0; u < kUpdates; ++u) {
    for (int i = 0; i < parameters; ++i) {
      const std::uint32_t draw = static_cast<std::uint32_t>(rng());
      // Mostly inside the range, sometimes far outside it or not a number at all.
      const float t = static_cast<float>(draw >> 8) * (1.0f / 16777216.0f);
      values[i] = draw % 29 == 0   ? std::numeric_limits<float>::quiet_NaN()
                  : draw % 31 == 0 ? 1e30f
                                   : lo[i] + (hi[i] - lo[i]) * (t * 1.4f - 0.2f);
    }
    csmUpdateModel(model);
    const int* counts = csmGetDrawableVertexCounts(model);
    const csmVector2* const* positions = csmGetDrawableVertexPositions(model);
    for (int d = 0; d < drawables; ++d) {
      for (int v = 0; v < counts[d]; ++v)
        if (r.problem.empty() && !(std::isfinite(positions[d][v].X) && std::isfinite(positions[d][v].Y)))
          r.problem = "a vertex position is not finite";
      r.bytes(positions[d], sizeof(csmVector2) * static_cast<std::size_t>(counts[d]));
    }
    r.bytes(csmGetDrawableOpacities(model), sizeof(float) * static_cast<std::size_t>(drawables));
    r.bytes(csmGetDrawableRenderOrders(model), sizeof(int) * static_cast<std::size_t>(drawables));
    r.bytes(csmGetDrawableDynamicFlags(model), static_cast<std::size_t>(drawables));
    csmResetDrawableDynamicFlags(model);
  }
  if (p2lcsm_release_model(model) == 0 && r.problem.empty()) r.problem = "p2lcsm_release_model refused the model";
  std::free(memory);
  return r;
}

std::atomic<int> g_logged{0};
void count_log(const char*) { g_logged.fetch_add(1); }

TEST(CsmThreads, ModelsOfOneMocOnEightThreads) {
  p2l_test::synth::Features features;
  const auto made = p2l_test::synth::generate_moc3(148, 6, features);
  ASSERT_TRUE(made.error.empty()) << made.error;
  const std::size_t block_size = (made.bytes.size() / csmAlignofMoc + 1) * csmAlignofMoc;
  void* block = std::aligned_alloc(csmAlignofMoc, block_size);
  std::memcpy(block, made.bytes.data(), made.bytes.size());
  csmMoc* moc = csmReviveMocInPlace(block, static_cast<unsigned>(made.bytes.size()));
  ASSERT_NE(moc, nullptr);

  std::vector<Result> reference;
  for (int s = 0; s < kScripts; s += 50) reference.push_back(run_script(moc, s));

  std::vector<std::vector<Result>> runs(2, std::vector<Result>(kScripts));
  std::atomic<bool> done{false};
  std::thread switcher([&] {  // csmSetLogFunction may be called from any thread at any time
    for (int i = 0; !done.load(); ++i) {
      csmSetLogFunction(i % 2 == 0 ? &count_log : nullptr);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // Copy 0 of script s on thread s % 8, copy 1 on (s + 3) % 8, in opposite orders.
      for (int s = 0; s < kScripts; ++s)
        if (s % kThreads == t) runs[0][static_cast<std::size_t>(s)] = run_script(moc, s);
      for (int s = kScripts - 1; s >= 0; --s)
        if ((s + 3) % kThreads == t) runs[1][static_cast<std::size_t>(s)] = run_script(moc, s);
    });
  for (auto& th : threads) th.join();
  done.store(true);
  switcher.join();
  csmSetLogFunction(nullptr);

  int mismatches = 0;
  for (std::size_t s = 0; s < kScripts; ++s) {
    for (const auto& copy : runs) EXPECT_EQ(copy[s].problem, "") << "script " << s;
    if (runs[0][s].hash != runs[1][s].hash && ++mismatches <= 5) ADD_FAILURE() << "script " << s << ": runs differ";
  }
  EXPECT_EQ(mismatches, 0);
  for (std::size_t k = 0; k < reference.size(); ++k)
    EXPECT_EQ(runs[0][k * 50].hash, reference[k].hash) << "script " << k * 50 << " alone and on a thread";
  EXPECT_NE(p2lcsm_release_moc(moc), 0);
  std::free(block);
}

}  // namespace
