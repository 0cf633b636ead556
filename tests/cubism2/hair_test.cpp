// Cubism 2's hair physics (HAIR) against what the Cubism 2.1 runtime's PhysicsHair computed
// for the same hairs, model and updates (tests/cubism2/fixtures/hair.json, recorded by
// scripts/cubism2_fixtures.sh from hair.physics.json and hair.frames.json on the "rotations"
// fixture model). The fixture covers both points' swing, x, y and gravity-angle inputs, angle
// and angular-velocity outputs with weights, a hair reading another's output, the first
// update that only starts the clock, an update with no time, and steps longer and shorter
// than the runtime's shortest integration step.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cubism2/fixture_mocs.hpp"
#include "cubism2/moc_writer.hpp"
#include "import/cubism/document.hpp"
#include "import/cubism/side_files.hpp"
#include "import/cubism2/moc_import.hpp"
#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"

namespace {

std::string fixture_path(const char* name) { return std::string(P2L_CUBISM2_FIXTURES) + "/" + name; }

std::vector<std::uint8_t> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json json_of(const char* name) {
  std::ifstream in(fixture_path(name));
  return in ? nlohmann::json::parse(in) : nlohmann::json();
}

// The rotations fixture model with the hairs of hair.physics.json, as the model.json import
// reads them.
p2l::Rig hair_rig(p2l::ImportReport& report) {
  const p2l_test::cubism2::Fixture* rotations = nullptr;
  static const auto fixtures = p2l_test::cubism2::cubism2_fixtures();
  for (const auto& f : fixtures)
    if (f.name == "rotations") rotations = &f;
  if (!rotations) return {};
  p2l::ImportResult imported = p2l::cubism2::import_moc(p2l_test::cubism2::write_moc(rotations->moc));
  if (!imported) return {};
  const p2l::cubism::Document doc = p2l::cubism::parse_document("hair.physics.json", bytes_of(fixture_path("hair.physics.json")));
  p2l::cubism::read_physics2(p2l::cubism::Node(doc), imported.rig, report);
  return std::move(imported.rig);
}

TEST(Cubism2Hair, SwingsAsTheRuntimeRecorded) {
  const nlohmann::json truth = json_of("hair.json"), frames = json_of("hair.frames.json");
  ASSERT_FALSE(truth.is_null() || frames.is_null()) << "no hair fixture: run scripts/cubism2_fixtures.sh";
  p2l::ImportReport report;
  p2l::Rig rig = hair_rig(report);
  ASSERT_EQ(rig.hairs.size(), 2u);
  EXPECT_TRUE(report.dropped.empty()) << report.dropped.front();
  // Through the file: what the writer is given, the reader gives back.
  const auto written = p2l::write(rig);
  ASSERT_TRUE(written) << written.error.to_string();
  auto loaded = p2l::load(written.bytes);
  ASSERT_TRUE(loaded) << loaded.error.to_string();
  ASSERT_EQ(loaded.rig->hairs, rig.hairs);

  auto made = p2l::Model::create(std::shared_ptr<const p2l::Rig>(std::move(loaded.rig)));
  ASSERT_TRUE(made) << made.error.to_string();
  p2l::Instance instance(made.model);
  p2l::Animator animator(made.model);
  const p2l::Rig& r = made.model->rig();
  std::vector<std::int32_t> column;
  for (const auto& id : truth["parameters"]) column.push_back(r.find_parameter(id.get<std::string>()));

  std::size_t update = 0;
  double worst = 0;
  std::string worst_at;
  for (const auto& segment : frames["segments"]) {
    for (int k = 0; k < segment["updates"].get<int>(); ++k, ++update) {
      ASSERT_LT(update, truth["updates"].size()) << "the frames changed: record the fixture again";
      for (std::size_t p = 0; p < r.parameters.size(); ++p)
        instance.parameters()[p] = segment["pose"].value(r.parameters[p].id, r.parameters[p].default_value);
      animator.update(instance, segment["step"].get<float>(), p2l::kStagePhysics);
      const auto current = instance.current();
      for (std::size_t c = 0; c < column.size(); ++c) {
        ASSERT_GE(column[c], 0);
        const p2l::Parameter& range = r.parameters[static_cast<std::size_t>(column[c])];
        const double theirs = truth["updates"][update][c].get<double>();
        const double e = std::fabs(current[static_cast<std::size_t>(column[c])] - theirs) / (range.max - range.min);
        if (e > worst) {
          worst = e;
          worst_at = "update " + std::to_string(update + 1) + ", " + range.id + ": p2lrt " +
                     std::to_string(current[static_cast<std::size_t>(column[c])]) + ", runtime " + std::to_string(theirs);
        }
      }
    }
  }
  EXPECT_EQ(update, truth["updates"].size());
  // Both compute in double and store floats: what differs is the last bits of sin, cos and
  // atan2, which a swinging pendulum carries along (4.8e-8 of a range measured).
  EXPECT_LT(worst, 1e-6) << worst_at;
}

TEST(Cubism2Hair, BadSetupsAreLeftOutWithAReason) {
  p2l::Rig rig;
  rig.parameters.push_back({"PARAM_X", "", -30, 30, 0, false, false});
  const std::string text = R"({"physics_hair": [
    {"setup": {"length": 0, "regist": 0.5, "mass": 0.1}, "src": [], "targets": []},
    {"setup": {"length": 0.2, "regist": 0.5}, "src": [], "targets": []},
    {"setup": {"length": 0.2, "regist": 0.5, "mass": 0.1},
     "src": [{"id": "PARAM_NONE", "ptype": "x", "scale": 1, "weight": 1},
             {"id": "PARAM_X", "ptype": "spin", "scale": 1, "weight": 1},
             {"id": "PARAM_X", "ptype": "x", "weight": 1}],
     "targets": [{"id": "PARAM_X", "ptype": "angle_w", "scale": 0.1, "weight": 1}]}]})";
  const p2l::cubism::Document doc =
      p2l::cubism::parse_document("p.physics.json", std::vector<std::uint8_t>(text.begin(), text.end()));
  p2l::ImportReport report;
  p2l::cubism::read_physics2(p2l::cubism::Node(doc), rig, report);
  ASSERT_EQ(rig.hairs.size(), 1u);
  // The parameter the model lacks is made, as the runtime makes it on lookup (an input on it
  // pulls toward 0; an output on it is another hair's input); the unknown ptype is read as x.
  ASSERT_EQ(rig.hairs[0].inputs.size(), 2u);
  ASSERT_EQ(rig.parameters.size(), 2u);
  EXPECT_EQ(rig.parameters[1].id, "PARAM_NONE");
  EXPECT_EQ(rig.parameters[1].min, -1e6f);
  EXPECT_EQ(rig.parameters[1].max, 1e6f);
  EXPECT_EQ(rig.hairs[0].inputs[0].parameter, 1u);
  EXPECT_EQ(rig.hairs[0].inputs[1].source, p2l::HairSource::X);
  ASSERT_EQ(rig.hairs[0].outputs.size(), 1u);
  EXPECT_EQ(rig.hairs[0].outputs[0].value, p2l::HairValue::Angle);
  std::string all;
  for (const std::string& line : report.dropped) all += line + "\n";
  for (const char* expected : {"physics_hair[0].setup: a length and a mass above 0", "physics_hair[1].setup.mass: missing",
                               "no parameter \"PARAM_NONE\" in the model: made", "unknown ptype \"spin\", read as x",
                               "src[2].scale: missing", "unknown ptype \"angle_w\", read as angle"})
    EXPECT_NE(all.find(expected), std::string::npos) << expected << " not in:\n" << all;
}

TEST(Cubism2Hair, AFileRefusesWhatCannotSwing) {
  p2l::ImportReport report;
  p2l::Rig rig = hair_rig(report);
  ASSERT_EQ(rig.hairs.size(), 2u);
  rig.hairs[1].mass = 0;
  const p2l::Error error = p2l::validate(rig);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.chunk, "HAIR");
  EXPECT_NE(error.message.find("hair 1"), std::string::npos) << error.to_string();
  EXPECT_NE(error.message.find("a length and a mass above 0"), std::string::npos) << error.to_string();
  EXPECT_FALSE(p2l::write(rig)) << "the writer writes what the reader refuses";
  rig.hairs[1].mass = 0.3f;
  rig.hairs[1].outputs.push_back({static_cast<std::uint32_t>(rig.parameters.size()), p2l::HairValue::Angle, 1, 1});
  EXPECT_EQ(p2l::validate(rig).code, p2l::ErrorCode::BadReference);
}

}  // namespace
