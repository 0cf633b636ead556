// The weight cache (eval/weights.hpp): which grids share a slot, and that sharing changes
// no result.
#include <gtest/gtest.h>

#include "eval/plan.hpp"
#include "rig_builder.hpp"

namespace {

using namespace p2l_test;

p2l::Grid<p2l::Array<float>> keyed_x(std::uint32_t parameter, std::vector<float> keys, float scale) {
  std::vector<p2l::Array<float>> forms;
  for (std::size_t i = 0; i < keys.size(); ++i) forms.push_back(p2l::Array<float>{scale * static_cast<float>(i + 1), 0, 0, 0, 0, 0});
  return keyed(parameter, std::move(keys), std::move(forms));
}

TEST(EvalWeights, GridsWithTheSameLookupShareASlotAndKeepTheirOwnForms) {
  std::vector<p2l::Mesh> meshes;
  auto add = [&](p2l::Grid<p2l::Array<float>> g) {
    p2l::Mesh m = mesh("m" + std::to_string(meshes.size()), -1, {0, 0, 0, 0, 0, 0});
    m.keyforms = std::move(g);
    meshes.push_back(std::move(m));
  };
  add(keyed_x(0, {0, 0.5f, 1}, 10));    // 0
  add(keyed_x(0, {0, 0.5f, 1}, 100));   // 1: the same lookup, other forms
  add(keyed_x(0, {0, 0.25f, 1}, 10));   // 2: other keys
  add(keyed_x(1, {0, 0.5f, 1}, 10));    // 3: another parameter
  p2l::Grid<p2l::Array<float>> sparse = keyed_x(0, {0, 0.5f, 1}, 10);  // 4: the middle cell missing
  sparse.coords = {0, 2};
  sparse.forms.erase(sparse.forms.begin() + 1);
  add(sparse);
  meshes[0].channels.push_back(scalar_channel(p2l::ChannelType::Opacity, 0, {0, 0.5f, 1}, {1, 0.5f, 0}));  // as 0

  auto model = p2l::Model::create(std::make_shared<const p2l::Rig>(rig({param("A", 0, 1, 0), param("B", 0, 1, 0)}, {}, meshes)));
  ASSERT_TRUE(model) << model.error.to_string();
  const auto& plan = model.model->plan();
  auto slot = [&](std::size_t m) { return plan.meshes[m].keyforms.slot(); };
  EXPECT_EQ(slot(0), slot(1));
  EXPECT_EQ(slot(0), plan.meshes[0].channels[0].grid.slot());
  EXPECT_NE(slot(0), slot(2));
  EXPECT_NE(slot(0), slot(3));
  EXPECT_NE(slot(0), slot(4));
  EXPECT_NE(slot(2), slot(3));
  ASSERT_EQ(plan.weight_offsets.size(), 4u + 1u);  // four different lookups

  // Between keys 0 and 0.5 (weights 0.4 and 0.6), then elsewhere: each mesh blends its own
  // forms with the shared weights, and a new pose is not served the last one's.
  p2l::Instance in(model.model);
  set(in, {0.3f, 0.0f});
  EXPECT_FLOAT_EQ(in.vertices(0)[0], 0.4f * 10 + 0.6f * 20);
  EXPECT_FLOAT_EQ(in.vertices(1)[0], 0.4f * 100 + 0.6f * 200);
  EXPECT_FLOAT_EQ(in.vertices(4)[0], 0.4f * 10);  // the missing cell counts as zero
  EXPECT_FLOAT_EQ(in.opacity(0), 0.4f * 1 + 0.6f * 0.5f);
  set(in, {1.0f, 0.0f});
  EXPECT_FLOAT_EQ(in.vertices(0)[0], 30);
  EXPECT_FLOAT_EQ(in.vertices(1)[0], 300);
  EXPECT_FLOAT_EQ(in.vertices(3)[0], 10);
}

// The comparison itself, apart from the hash that groups candidates for it. (A plan refers
// to its grid's keys: the grids outlive the plans.)
TEST(EvalWeights, TheSameLookupNeedsTheSameParametersKeysAndCells) {
  using p2l::eval::GridPlan;
  const auto base = keyed_x(0, {0, 0.5f, 1}, 10), other_forms = keyed_x(0, {0, 0.5f, 1}, 99);
  const auto other_keys = keyed_x(0, {0, 0.25f, 1}, 10), other_parameter = keyed_x(1, {0, 0.5f, 1}, 10);
  const auto fewer_keys = keyed_x(0, {0, 1}, 10);
  auto reordered = keyed_x(0, {0, 0.5f, 1}, 10);
  reordered.coords = {2, 1, 0};  // cell 0 at the last key
  const GridPlan a(base);
  EXPECT_TRUE(a.same_lookup(GridPlan(other_forms)));
  EXPECT_FALSE(a.same_lookup(GridPlan(other_keys)));
  EXPECT_FALSE(a.same_lookup(GridPlan(other_parameter)));
  EXPECT_FALSE(a.same_lookup(GridPlan(fewer_keys)));
  EXPECT_FALSE(a.same_lookup(GridPlan(reordered)));
}

}  // namespace
