// Change tracking: an evaluation that skips the deformers and meshes its parameter changes do
// not reach gives what a full evaluation gives, bit for bit, change flags included.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "eval/state.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "random_rig.hpp"
#include "test_util.hpp"

namespace {

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// [tracked] evaluates as hosts do; [full] forgets its last evaluation first, so it evaluates
// everything. Every output must agree.
void expect_same(const p2l::Rig& rig, const p2l::Instance& tracked, const p2l::Instance& full, const std::string& where) {
  for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
    const auto a = tracked.vertices(m), b = full.vertices(m);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_TRUE(a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0) << where << ": vertices of mesh " << m;
    ASSERT_TRUE(same_bits(tracked.opacity(m), full.opacity(m))) << where << ": opacity of mesh " << m;
    ASSERT_TRUE(same_bits(tracked.draw_order(m), full.draw_order(m))) << where << ": draw order of mesh " << m;
    ASSERT_TRUE(same_bits(tracked.multiply(m), full.multiply(m))) << where << ": multiply colour of mesh " << m;
    ASSERT_TRUE(same_bits(tracked.screen(m), full.screen(m))) << where << ": screen colour of mesh " << m;
    ASSERT_EQ(tracked.changes(m), full.changes(m)) << where << ": change flags of mesh " << m;
  }
  for (std::uint32_t p = 0; p < rig.parts.size(); ++p) {
    ASSERT_TRUE(same_bits(tracked.part_draw_order(p), full.part_draw_order(p))) << where << ": part " << p;
    const auto &a = tracked.part_composite(p), &b = full.part_composite(p);
    ASSERT_TRUE(same_bits(a.opacity, b.opacity) && same_bits(a.multiply, b.multiply) && same_bits(a.screen, b.screen))
        << where << ": composite of part " << p;
  }
  ASSERT_TRUE(std::equal(tracked.render_order().begin(), tracked.render_order().end(), full.render_order().begin(),
                         full.render_order().end()))
      << where << ": render order";
  ASSERT_TRUE(std::equal(tracked.render_commands().begin(), tracked.render_commands().end(), full.render_commands().begin(),
                         full.render_commands().end()))
      << where << ": render commands";
}

// Poses that change no parameter, one, a few or all of them, sometimes to the value they had.
void walk(const std::shared_ptr<const p2l::Rig>& rig, std::uint64_t seed, std::size_t* skipped) {
  auto model = p2l::Model::create(rig);
  ASSERT_TRUE(model) << model.error.to_string();
  p2l::Instance tracked(model.model), full(model.model);
  p2l_test::SplitMix64 random(seed);
  const std::size_t n = rig->parameters.size();
  for (int step = 0; step < 60; ++step) {
    const std::uint64_t kind = random.next() % 4;
    for (std::size_t p = 0; p < n; ++p) {
      const bool change = kind == 3 || (kind == 1 && p == random.next() % n) || (kind == 2 && random.next() % 3 == 0);
      if (!change) continue;
      const p2l::Parameter& q = rig->parameters[p];
      const float t = static_cast<float>(random.next() % 9) / 8.0f;  // keys are often at such fractions
      tracked.parameters()[p] = q.min + (q.max - q.min) * t;
    }
    std::copy(tracked.parameters().begin(), tracked.parameters().end(), full.parameters().begin());
    tracked.evaluate();
    const p2l::InstanceState& s = tracked.state();
    if (s.tracking)
      for (std::uint8_t d : s.deformer_dirty) *skipped += d ? 0 : 1;
    full.state().evaluated_valid = false;
    full.evaluate();
    ASSERT_FALSE(full.state().tracking);
    expect_same(*rig, tracked, full, "seed " + std::to_string(seed) + ", step " + std::to_string(step));
  }
}

TEST(EvalTracking, SkippingUnchangedObjectsChangesNoOutputOnRandomRigs) {
  std::size_t skipped = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    walk(std::make_shared<const p2l::Rig>(p2l_test::make_random_rig(seed)), seed, &skipped);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(skipped, 1000u);  // the walks did skip deformers
}

TEST(EvalTracking, SkippingUnchangedObjectsChangesNoOutputOnTheExampleCharacter) {
  auto loaded = p2l::load(p2l_test::read_bytes(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt"));
  ASSERT_TRUE(loaded.rig) << loaded.error.to_string();
  std::size_t skipped = 0;
  walk(loaded.rig, 7, &skipped);
  EXPECT_GT(skipped, 0u);
}

}  // namespace
