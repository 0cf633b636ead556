// The original runtime's evaluation outputs (../shared/vectors/original/expected) as
// facts to match: each run loads a vector file, sets the run's parameters, evaluates and
// compares every mesh, the render order and commands and, for the C runs, the change
// flags and part composites.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "test_util.hpp"

namespace {

using nlohmann::json;

// p2lrt reproduces the original's results bit for bit (same operation order, lattices in
// double precision, no floating-point contraction); the JSON holds each f32 as the
// shortest decimal that round-trips, so equality is exact. A tolerance would hide a rule
// applied in a different order.
constexpr float kVertexTolerance = 0.0f;
constexpr float kValueTolerance = 0.0f;

struct VectorRun {
  std::string expected;  // file in expected/
  bool c_api;
  friend void PrintTo(const VectorRun& r, std::ostream* os) { *os << r.expected; }
};

std::vector<VectorRun> runs() {
  return {{"chain.default.c.json", true},      {"chain.default.rust.json", false},   {"chain.a.c.json", true},
          {"chain.a.rust.json", false},        {"chain.b.c.json", true},             {"chain.b.rust.json", false},
          {"extras.default.rust.json", false}, {"min_core.default.c.json", true},    {"min_core.default.rust.json", false},
          {"min_half_floats.default.c.json", true}, {"min_unorm16.default.c.json", true},
          {"min_textures.default.c.json", true},    {"min_unknown_optional_chunk.default.c.json", true},
          {"skin_arc.default.c.json", true},   {"skin_arc.default.rust.json", false}, {"skin_arc.a.adv0.json", true},
          {"skin_arc.a.adv3.json", true},      {"skin_arc.a.adv3.rust.json", false},
          {"stress.default.c.json", true},     {"stress.default.rust.json", false},  {"stress.a.c.json", true},
          {"stress.a.rust.json", false}};
}

class EvalVectors : public ::testing::TestWithParam<VectorRun> {};

TEST_P(EvalVectors, MatchesTheOriginalRuntime) {
  P2L_REQUIRE_VECTORS();
  const VectorRun run = GetParam();
  std::ifstream in(p2l_test::vectors_dir() + "/expected/" + run.expected);
  ASSERT_TRUE(in) << run.expected;
  const json expected = json::parse(in);
  const std::string file = std::filesystem::path(expected["file"].get<std::string>()).filename().string();
  auto bytes = p2l_test::vector_file(file);
  auto loaded = p2l::load(bytes);
  ASSERT_TRUE(loaded) << loaded.error.to_string();
  auto model = p2l::Model::create(loaded.rig);
  ASSERT_TRUE(model) << model.error.to_string();
  p2l::Instance instance(model.model);
  const p2l::Rig& rig = *loaded.rig;
  for (const json& p : expected["parameters"]) {
    const std::int32_t index = rig.find_parameter(p["id"].get<std::string>());
    ASSERT_GE(index, 0) << p["id"];
    instance.parameters()[static_cast<std::size_t>(index)] = p["value"].get<float>();
  }
  // Advanced mode as the run had it (skin_arc.a.adv3: skinning with fitted weights, exact links).
  const std::uint32_t advanced = expected.value("advanced", 0u);
  ASSERT_EQ(instance.set_advanced(advanced), advanced);
  if (expected.contains("advanced_available")) EXPECT_EQ(instance.advanced_available(), expected["advanced_available"].get<std::uint32_t>());
  instance.evaluate();

  const json& meshes = expected["meshes"];
  ASSERT_EQ(meshes.size(), rig.meshes.size());
  std::vector<std::int32_t> place(rig.meshes.size(), -1);
  for (std::size_t k = 0; k < instance.render_order().size(); ++k) place[instance.render_order()[k]] = static_cast<std::int32_t>(k);
  for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
    const json& e = meshes[m];
    SCOPED_TRACE(run.expected + " mesh " + e["id"].get<std::string>());
    ASSERT_EQ(e["id"].get<std::string>(), rig.meshes[m].id);
    const auto vertices = instance.vertices(m);
    const auto want = e["vertices"].get<std::vector<float>>();
    ASSERT_EQ(vertices.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_NEAR(vertices[i], want[i], kVertexTolerance * std::max(1.0f, std::fabs(want[i]) / 100.0f)) << "coordinate " << i;
    EXPECT_NEAR(instance.opacity(m), e["opacity"].get<float>(), kValueTolerance);
    EXPECT_EQ(instance.draw_order(m), e["draw_order"].get<float>());
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(instance.multiply(m)[k], e["multiply"][k].get<float>(), kValueTolerance);
      EXPECT_NEAR(instance.screen(m)[k], e["screen"][k].get<float>(), kValueTolerance);
    }
    EXPECT_EQ(place[m], e["render_place"].get<std::int32_t>());
    if (run.c_api) {
      EXPECT_EQ(instance.changes(m), e["changes"].get<std::uint32_t>());
    }
  }
  const auto order = expected["render_order"].get<std::vector<std::uint32_t>>();
  EXPECT_EQ(std::vector<std::uint32_t>(instance.render_order().begin(), instance.render_order().end()), order);
  const auto commands = expected["render_commands"].get<std::vector<std::int32_t>>();
  EXPECT_EQ(std::vector<std::int32_t>(instance.render_commands().begin(), instance.render_commands().end()), commands);
  if (run.c_api && expected.contains("parts")) {
    for (const json& e : expected["parts"]) {
      const std::uint32_t p = e["index"].get<std::uint32_t>();
      SCOPED_TRACE(run.expected + " part " + e["id"].get<std::string>());
      ASSERT_LT(p, rig.parts.size());
      EXPECT_EQ(static_cast<int>(rig.parts[p].group_mode), e["group"].get<int>());
      const p2l::GroupComposite& c = instance.part_composite(p);
      EXPECT_NEAR(c.opacity, e["composite_opacity"].get<float>(), kValueTolerance);
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(c.multiply[k], e["composite_multiply"][k].get<float>(), kValueTolerance);
        EXPECT_NEAR(c.screen[k], e["composite_screen"][k].get<float>(), kValueTolerance);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Original, EvalVectors, ::testing::ValuesIn(runs()), [](const auto& info) {
  std::string name = info.param.expected.substr(0, info.param.expected.size() - 5);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

}  // namespace
