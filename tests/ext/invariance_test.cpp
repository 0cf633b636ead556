// Same file, two modes: over the random-rig generator's rigs with extension chunks, advanced
// mode off is the Cubism-equivalent evaluation bit for bit, with or without the chunks;
// switching features on and off again leaves nothing behind; and the extensions never touch
// the core content they ride on.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <map>
#include <memory>

#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "random_rig.hpp"

namespace {

p2l_test::RandomRigOptions with_extensions() {
  p2l_test::RandomRigOptions o;
  o.extensions = true;
  o.non_core = true;
  return o;
}

std::shared_ptr<const p2l::Model> model_of(p2l::Rig r) {
  auto m = p2l::Model::create(std::make_shared<const p2l::Rig>(std::move(r)));
  EXPECT_TRUE(m) << m.error.to_string();
  return m.model;
}

// Every output an evaluation gives, as bits.
std::vector<std::uint32_t> outputs(const p2l::Instance& in) {
  std::vector<std::uint32_t> out;
  auto add = [&](float v) { out.push_back(std::bit_cast<std::uint32_t>(v)); };
  const p2l::Rig& rig = in.model().rig();
  for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
    for (float v : in.vertices(m)) add(v);
    add(in.opacity(m));
    add(in.draw_order(m));
    for (float c : in.multiply(m)) add(c);
    for (float c : in.screen(m)) add(c);
  }
  for (std::uint32_t m : in.render_order()) out.push_back(m);
  return out;
}

// Poses from the seed, beyond the ranges too.
std::vector<float> pose(const p2l::Rig& rig, std::uint64_t seed, int k) {
  p2l_test::SplitMix64 random(seed * 131 + static_cast<std::uint64_t>(k));
  std::vector<float> v;
  for (const p2l::Parameter& p : rig.parameters) {
    const double u = static_cast<double>(random.next() >> 11) / 9007199254740992.0;
    v.push_back(static_cast<float>(p.min - 0.2 * (p.max - p.min) + u * 1.4 * (p.max - p.min)));
  }
  return v;
}

constexpr int kSeeds = 200;

TEST(ExtensionInvariance, OffIsTheCoreEvaluationWithOrWithoutTheChunks) {
  int with_chunks = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    const p2l::Rig rig = p2l_test::make_random_rig(seed, with_extensions());
    if (!rig.bones && !rig.skins && !rig.colliders && !rig.simulations) continue;
    ++with_chunks;
    p2l::Instance a(model_of(rig)), b(model_of(p2l_test::without_extensions(rig)));
    p2l::Animator aa(a.model_ptr()), ab(b.model_ptr());
    for (int k = 0; k < 6; ++k) {
      const auto values = pose(rig, seed, k);
      std::copy(values.begin(), values.end(), a.parameters().begin());
      std::copy(values.begin(), values.end(), b.parameters().begin());
      aa.update(a, 1.0f / 60.0f);
      ab.update(b, 1.0f / 60.0f);
      ASSERT_EQ(outputs(a), outputs(b)) << "seed " << seed << " pose " << k;
    }
  }
  EXPECT_GE(with_chunks, kSeeds / 2);
}

TEST(ExtensionInvariance, SwitchingOnAndOffLeavesNoResidue) {
  int switched = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    const p2l::Rig rig = p2l_test::make_random_rig(seed, with_extensions());
    const auto model = model_of(rig);
    p2l::Instance never(model), toggled(model);
    const std::uint32_t available = toggled.advanced_available();
    if (!available) continue;
    const auto values = pose(rig, seed, 0);
    std::copy(values.begin(), values.end(), toggled.parameters().begin());
    std::copy(values.begin(), values.end(), never.parameters().begin());
    if (toggled.set_advanced(available)) ++switched;
    // Run a while with everything on: skins corrected, simulations stepped.
    for (int k = 0; k < 5; ++k) toggled.evaluate_values(toggled.parameters(), 1.0f / 30.0f);
    EXPECT_EQ(toggled.set_advanced(0), 0u);
    toggled.evaluate();
    never.evaluate();
    ASSERT_EQ(outputs(toggled), outputs(never)) << "seed " << seed;
  }
  EXPECT_GE(switched, kSeeds / 4);
}

TEST(ExtensionInvariance, AdvancedDataNeverChangesTheCoreChunks) {
  // Written with and without the extension chunks, every core chunk reads back the same
  // (the string table differs by the extensions' ids only, so the comparison is of content).
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const p2l::Rig rig = p2l_test::make_random_rig(seed, with_extensions());
    const auto a = p2l::write(rig), b = p2l::write(p2l_test::without_extensions(rig));
    ASSERT_TRUE(a) << a.error.to_string();
    ASSERT_TRUE(b) << b.error.to_string();
    const auto la = p2l::load(a.bytes), lb = p2l::load(b.bytes);
    ASSERT_TRUE(la && lb);
    EXPECT_TRUE(p2l_test::without_extensions(*la.rig) == *lb.rig) << "seed " << seed;
    // And evaluating with them on never writes into the rig: it is shared and immutable.
    auto model = model_of(rig);
    p2l::Instance in(model);
    in.set_advanced(in.advanced_available());
    in.evaluate_values(pose(rig, seed, 1), 1.0f / 60.0f);
    EXPECT_TRUE(model->rig() == rig);
  }
}

}  // namespace
