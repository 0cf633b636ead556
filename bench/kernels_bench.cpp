// The evaluation's two arithmetic kernels alone, on data that stays in the first-level cache:
// what a point costs through a Cubism warp (cubism_map_points: AVX2 where the processor has
// it) and a float through the keyform blend (blend_rows). docs/PERFORMANCE.md's floor for
// Haru multiplies these by Haru's counts. Items: points mapped, floats blended.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "eval/blend.hpp"
#include "eval/cubism_frames.hpp"

namespace {

// A 6 x 6-cell lattice, gently bent, and [n] points inside its unit square.
struct Warp {
  std::vector<float> lattice, in, out;
  p2l::eval::CubismFrame frame;
  explicit Warp(std::size_t n) : in(n * 2), out(n * 2) {
    const std::uint32_t cells = 6;
    for (std::uint32_t r = 0; r <= cells; ++r)
      for (std::uint32_t c = 0; c <= cells; ++c) {
        lattice.push_back(static_cast<float>(c) * 10.0f + std::sin(static_cast<float>(r)) * 0.7f);
        lattice.push_back(static_cast<float>(r) * 10.0f + std::cos(static_cast<float>(c)) * 0.7f);
      }
    frame.columns = frame.rows = cells;
    frame.points = lattice.data();
    p2l::eval::cubism_finish_warp(frame);
    for (std::size_t i = 0; i < n; ++i) {
      in[2 * i] = std::fmod(static_cast<float>(i) * 0.6180339f, 1.0f);
      in[2 * i + 1] = std::fmod(static_cast<float>(i) * 0.4142135f, 1.0f);
    }
  }
};

void BM_CubismWarpMapping(benchmark::State& state) {
  Warp w(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    p2l::eval::cubism_map_points(w.frame, w.in.data(), w.out.data(), w.in.size());
    benchmark::DoNotOptimize(w.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
// Haru's meshes map 39 points on average; its warps' lattices 25-49.
BENCHMARK(BM_CubismWarpMapping)->Arg(40)->Arg(400);

void BM_KeyformBlend(benchmark::State& state) {
  const std::size_t rows = static_cast<std::size_t>(state.range(0)), n = static_cast<std::size_t>(state.range(1));
  std::vector<std::vector<float>> forms(rows, std::vector<float>(n, 0.5f));
  std::vector<const float*> pointers;
  std::vector<float> weights(rows, 1.0f / static_cast<float>(rows)), out(n);
  for (const auto& f : forms) pointers.push_back(f.data());
  for (auto _ : state) {
    p2l::eval::blend_rows(nullptr, pointers.data(), weights.data(), rows, out.data(), n);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rows * n));
}
// Two and four forms (one and two parameters), a mesh's 78 floats and a lattice's 98.
BENCHMARK(BM_KeyformBlend)->Args({2, 78})->Args({4, 78})->Args({4, 98});

}  // namespace
