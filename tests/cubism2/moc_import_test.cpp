// The Cubism 2 importer (src/import/cubism2/moc_import.hpp) on the synthetic model: what the
// rig holds, that it evaluates under Cubism's rules as the model's structure says, and what
// the report names.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cubism2/moc_writer.hpp"
#include "cubism2/synth_moc.hpp"
#include "import/cubism2/moc_import.hpp"
#include "p2l/eval.hpp"

namespace {

using namespace p2l::cubism2;
using p2l_test::cubism2::synth_moc;
using p2l_test::cubism2::write_moc;

bool reports(const p2l::ImportResult& r, const std::string& text) {
  return std::any_of(r.report.dropped.begin(), r.report.dropped.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

TEST(MocImport, TheSyntheticModel) {
  const p2l::ImportResult r = import_moc(write_moc(synth_moc(11)));
  ASSERT_TRUE(r) << r.error.to_string();
  const p2l::Rig& rig = r.rig;
  EXPECT_EQ(rig.rules, p2l::CoreRules::Cubism2);
  EXPECT_EQ(rig.canvas.width, 800.0f);
  EXPECT_EQ(rig.canvas.pixels_per_unit, 1.0f);
  ASSERT_EQ(rig.parameters.size(), 3u);
  EXPECT_EQ(rig.parameters[1].decimals, 4);
  ASSERT_EQ(rig.deformers.size(), 3u);
  EXPECT_EQ(rig.deformers[1].kind, p2l::DeformerKind::Rotation);
  EXPECT_EQ(rig.deformers[2].parent, 1);  // D_FACE under D_HEAD_ROT
  ASSERT_EQ(rig.meshes.size(), 5u);
  const p2l::Mesh& iris = rig.meshes[3];
  EXPECT_EQ(iris.id, "D_EYE_L.01");
  EXPECT_EQ(iris.blend, 2);  // MULTIPLY_COMPATIBLE
  EXPECT_EQ(iris.mask_meshes, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(rig.meshes[4].mask_meshes, (std::vector<std::uint32_t>{2, 0}));
  EXPECT_EQ(rig.meshes[4].blend, 1);  // ADD_COMPATIBLE
  EXPECT_FALSE(rig.meshes[1].culling);
  EXPECT_FALSE(rig.parts[2].visible);
  ASSERT_TRUE(iris.keyforms);
  EXPECT_EQ(iris.keyforms->axes.size(), 3u);
  EXPECT_EQ(iris.keyforms->cell_count(), 2u * 3u * 2u);
  // The first axis varies fastest: cell 1 is the eye's second key at the first angle key.
  EXPECT_EQ(iris.keyforms->coords[3], 1);
  EXPECT_EQ(iris.keyforms->coords[4], 0);
  EXPECT_TRUE(r.report.dropped.empty()) << r.report.dropped.front();

  // A root mesh with one keyform lands where its keyform says, in canvas pixels.
  auto model = p2l::Model::create(std::make_shared<const p2l::Rig>(rig));
  ASSERT_TRUE(model) << model.error.to_string();
  p2l::Instance instance(model.model);
  instance.evaluate();
  const auto back = instance.vertices(1);
  ASSERT_EQ(back.size(), 8u);
  EXPECT_FLOAT_EQ(back[0], 50.0f);
  EXPECT_FLOAT_EQ(back[1], 60.0f);
  EXPECT_FLOAT_EQ(back[6], 250.0f);
  EXPECT_FLOAT_EQ(back[7], 260.0f);
}

TEST(MocImport, WhatCannotBeCarriedOverIsReported) {
  Moc moc = synth_moc(11);
  moc.parts[0].meshes[0].axes[0].parameter = "PARAM_NOT_DEFINED";      // the runtime makes it
  moc.parts[1].meshes[2].clip_ids.push_back("D_NO_SUCH_MESH");          // a mask that is not there
  moc.parts[0].deformers[2].parent = "D_NO_SUCH_DEFORMER";              // cannot be placed
  moc.parts[1].meshes[0].id = "D_BODY.00";                              // an id used twice
  moc.parts[0].deformers[1].affines[1].reflect_y = true;                // reflections that differ
  const p2l::ImportResult r = import_moc(write_moc(moc));
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(reports(r, "parameter PARAM_NOT_DEFINED is keyed on but not defined"));
  EXPECT_TRUE(reports(r, "D_NO_SUCH_MESH, which is not a mesh"));
  EXPECT_TRUE(reports(r, "deformer D_FACE's parent D_NO_SUCH_DEFORMER"));
  EXPECT_TRUE(reports(r, "mesh id D_BODY.00 is used twice"));
  // Reflections that differ between keyforms become a flag channel: the runtime takes the
  // keyform at every lower key.
  const p2l::Channels& channels = r.rig.deformers[1].channels;
  const auto flip = std::find_if(channels.begin(), channels.end(), [](const p2l::Channel& c) { return c.type == p2l::ChannelType::FlipY; });
  ASSERT_NE(flip, channels.end());
  EXPECT_EQ(flip->kind, p2l::ChannelKind::Flag);
  EXPECT_EQ(flip->grid.forms[0][0], 0.0f);
  EXPECT_EQ(flip->grid.forms[1][0], 1.0f);
  // (synth_moc reflects x at the third keyform already.)
  const auto flip_x = std::find_if(channels.begin(), channels.end(), [](const p2l::Channel& c) { return c.type == p2l::ChannelType::FlipX; });
  ASSERT_NE(flip_x, channels.end());
  EXPECT_EQ(flip_x->grid.forms[1][0], 0.0f);
  EXPECT_EQ(flip_x->grid.forms[2][0], 1.0f);
  const auto& created = r.rig.parameters.back();
  EXPECT_EQ(created.id, "PARAM_NOT_DEFINED");
  EXPECT_EQ(created.min, -1e6f);
  EXPECT_FALSE(r.rig.deformers.back().enabled);
}

TEST(MocImport, EveryVersionImportsAndEvaluates) {
  for (int version = kFirstVersion; version <= kLastVersion; ++version) {
    const p2l::ImportResult r = import_moc(write_moc(synth_moc(version)));
    ASSERT_TRUE(r) << version << ": " << r.error.to_string();
    auto model = p2l::Model::create(std::make_shared<const p2l::Rig>(r.rig));
    ASSERT_TRUE(model) << version;
    p2l::Instance instance(model.model);
    for (float angle : {-30.0f, -12.5f, 0.0f, 30.0f}) {
      instance.parameters()[0] = angle;
      instance.evaluate();
      for (std::uint32_t m = 0; m < 5; ++m)
        for (const float v : instance.vertices(m)) ASSERT_TRUE(std::isfinite(v)) << version << " mesh " << m;
    }
  }
}

}  // namespace

// Five axes between keys at once: the runtime's tables are defective there (NaN positions,
// wrong weights); p2lrt interpolates as meant. A mesh whose keyform at corner bits b is
// base + sum_j b_j * offset_j (and opacity 0.5 + sum_j b_j * 0.1) must land, at t_j, on
// base + sum_j t_j * offset_j (opacity 0.5 + sum_j t_j * 0.1): multilinear interpolation of
// a linear function gives the function back.
TEST(MocImport, FiveAxesInterpolateAsMeant) {
  Moc moc;
  moc.version = 11;
  moc.canvas_width = 1000;
  moc.canvas_height = 1000;
  Mesh mesh;
  mesh.id = "D_FIVE";
  mesh.parent = p2l::cubism2::kRootId;
  const float offsets[5][2] = {{10, 0}, {0, 20}, {-30, 5}, {7, -40}, {50, 50}};
  for (int j = 0; j < 5; ++j) {
    const std::string id = "PARAM_" + std::to_string(j);
    moc.parameters.push_back({id, 0, 1, 0});
    mesh.axes.push_back({id, {0, 1}});
  }
  mesh.vertex_count = 3;
  mesh.indices = {0, 1, 2};
  mesh.uvs = {0, 0, 1, 0, 0, 1};
  for (std::uint32_t k = 0; k < 32; ++k) {
    std::vector<float> p = {100, 100, 300, 100, 100, 300};
    float opacity = 0.5f;
    for (int j = 0; j < 5; ++j)
      if ((k >> j) & 1) {
        for (int v = 0; v < 3; ++v) p[2 * v] += offsets[j][0], p[2 * v + 1] += offsets[j][1];
        opacity += 0.1f;
      }
    mesh.positions.push_back(p);
    mesh.opacities.push_back(opacity);
    mesh.draw_orders.push_back(500);
  }
  Part part;
  part.id = "PARTS_01";
  part.meshes.push_back(mesh);
  moc.parts.push_back(part);
  const p2l::ImportResult r = import_moc(write_moc(moc));
  ASSERT_TRUE(r) << r.error.to_string();
  auto model = p2l::Model::create(std::make_shared<const p2l::Rig>(r.rig));
  ASSERT_TRUE(model) << model.error.to_string();
  p2l::Instance instance(model.model);
  const float t[5] = {0.25f, 0.5f, 0.75f, 0.125f, 0.625f};
  auto values = instance.parameters();
  for (int j = 0; j < 5; ++j) values[static_cast<std::size_t>(j)] = t[j];
  instance.evaluate();
  double x = 100, y = 100, opacity = 0.5;
  for (int j = 0; j < 5; ++j) x += t[j] * offsets[j][0], y += t[j] * offsets[j][1], opacity += t[j] * 0.1;
  const auto v = instance.vertices(0);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_NEAR(v[0], x, 1e-4);
  EXPECT_NEAR(v[1], y, 1e-4);
  EXPECT_NEAR(instance.opacity(0), opacity, 1e-6);
}
