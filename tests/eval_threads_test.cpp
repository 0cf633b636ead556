// One immutable model, many instances on many threads: every thread's results must be
// bit-identical to the same poses evaluated on one thread. Equal bits can hide a shared
// write; ThreadSanitizer finds those (the closing note of issue 3 has the command).
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "p2l/eval.hpp"
#include "random_rig.hpp"
#include "test_util.hpp"

namespace {

// Every output of one evaluation, as bytes.
std::vector<std::uint8_t> snapshot(const p2l::Instance& in) {
  std::vector<std::uint8_t> out;
  auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  const p2l::Rig& rig = in.model().rig();
  for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
    auto v = in.vertices(m);
    put(v.data(), v.size_bytes());
    const float o = in.opacity(m), d = in.draw_order(m);
    put(&o, 4);
    put(&d, 4);
    put(in.multiply(m).data(), 12);
    put(in.screen(m).data(), 12);
  }
  put(in.render_order().data(), in.render_order().size_bytes());
  put(in.render_commands().data(), in.render_commands().size_bytes());
  for (std::uint32_t p = 0; p < rig.parts.size(); ++p) put(&in.part_composite(p), sizeof(p2l::GroupComposite));
  return out;
}

// The poses of one character: thread [t] starts at a different place in the sequence.
std::vector<std::vector<std::uint8_t>> run(const std::shared_ptr<const p2l::Model>& model, std::size_t offset, std::size_t frames) {
  p2l::Instance in(model);
  const p2l::Rig& rig = model->rig();
  std::vector<std::vector<std::uint8_t>> results;
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t i = 0; i < rig.parameters.size(); ++i) {
      const p2l::Parameter& p = rig.parameters[i];
      const float phase = static_cast<float>((offset + f) * (i + 3) % 97) / 96.0f;
      in.parameters()[i] = p.min + (p.max - p.min) * phase;
    }
    in.evaluate();
    results.push_back(snapshot(in));
  }
  return results;
}

void check_threads(const std::shared_ptr<const p2l::Rig>& rig) {
  auto model = p2l::Model::create(rig);
  ASSERT_TRUE(model) << model.error.to_string();
  constexpr std::size_t kThreads = 4, kFrames = 60;
  std::vector<std::vector<std::vector<std::uint8_t>>> alone(kThreads), together(kThreads);
  for (std::size_t t = 0; t < kThreads; ++t) alone[t] = run(model.model, t * 13, kFrames);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { together[t] = run(model.model, t * 13, kFrames); });
  for (auto& th : threads) th.join();
  for (std::size_t t = 0; t < kThreads; ++t)
    for (std::size_t f = 0; f < kFrames; ++f) ASSERT_EQ(alone[t][f], together[t][f]) << "thread " << t << " frame " << f;
}

TEST(EvalThreads, InstancesOnSeveralThreadsMatchOneThread) {
  P2L_REQUIRE_VECTORS();
  for (const char* name : {"chain.p2lrt", "stress.p2lrt"}) {
    auto loaded = p2l::load(p2l_test::vector_file(name));
    ASSERT_TRUE(loaded) << loaded.error.to_string();
    check_threads(loaded.rig);
  }
}

TEST(EvalThreads, RandomRigsOnSeveralThreadsMatchOneThread) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) check_threads(std::make_shared<const p2l::Rig>(p2l_test::make_random_rig(seed)));
}

}  // namespace
