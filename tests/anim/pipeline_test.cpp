// The update pipeline through the C API: the original runtime's update runs
// (../shared/vectors/original/expected/extras.*), the stage order, the host's pose left
// untouched, stage subsets, overrides, and what p2l_evaluate leaves out.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "p2l/p2l.h"
#include "test_util.hpp"

namespace {

using nlohmann::json;
using RigPtr = std::unique_ptr<P2lRig, decltype(&p2l_rig_free)>;

RigPtr load_vector(const std::string& name) {
  const auto bytes = p2l_test::vector_file(name);
  char error[256] = {};
  RigPtr rig(p2l_rig_load(bytes.data(), bytes.size(), error, sizeof error), &p2l_rig_free);
  EXPECT_NE(rig, nullptr) << error;
  return rig;
}

std::uint32_t parameter(const P2lRig* rig, const char* id) {
  const std::int32_t i = p2l_parameter_index(rig, id);
  EXPECT_GE(i, 0) << id;
  return static_cast<std::uint32_t>(i);
}

json expected_run(const std::string& name) {
  std::ifstream in(p2l_test::vectors_dir() + "/expected/" + name);
  EXPECT_TRUE(in) << name;
  return json::parse(in);
}

// The original runtime's pendulum reads the point before the one an output names (it hangs
// an extra root above the file's first point); p2lrt follows Cubism, where the file's points
// are the pendulum's, root first (docs/RUNTIME.md "Physics"). The physics outputs therefore
// differ by design: ParamSwing, the extras rig's one physics output.
bool physics_output(const std::string& id) { return id == "ParamSwing"; }

// Replays one of the original's update runs and compares every value the physics difference
// leaves alone: current parameter values, the rig's opacity, and every mesh evaluated at the
// original's values with this run's animation opacities (clip and pose).
void check_update_run(const std::string& expected_name, const char* clip, std::uint32_t behaviors,
                      std::uint32_t seed) {
  SCOPED_TRACE(expected_name);
  const json expected = expected_run(expected_name);
  RigPtr rig = load_vector("extras.p2lrt");
  ASSERT_NE(rig, nullptr);
  P2lRig* r = rig.get();
  for (const json& p : expected["parameters"]) p2l_set_parameter(r, parameter(r, p["id"].get<std::string>().c_str()), p["value"].get<float>());
  p2l_behaviors(r, behaviors);
  if (seed != 0) p2l_behavior_seed(r, seed);
  if (clip != nullptr) {
    std::int32_t index = -1;
    for (std::uint32_t c = 0; c < p2l_clip_count(r); ++c)
      if (std::string(p2l_clip_id(r, c)) == clip) index = static_cast<std::int32_t>(c);
    ASSERT_GE(index, 0) << clip;
    p2l_play(r, index);
  }
  const float dt = expected["dt"].get<float>();
  const int steps = expected["steps"].get<int>();
  for (int i = 0; i < steps; ++i) p2l_update(r, dt);

  // Time runs in double here and in float in the original: values agree to ~1e-5 relative.
  const float* current = p2l_parameter_current(r);
  for (const json& p : expected["parameters"]) {
    const std::string id = p["id"].get<std::string>();
    if (physics_output(id)) continue;
    const float want = p["current"].get<float>();
    EXPECT_NEAR(current[parameter(r, id.c_str())], want, 5e-5f * std::max(1.0f, std::fabs(want))) << id;
  }
  EXPECT_NEAR(p2l_opacity(r), expected["opacity"].get<float>(), 1e-6f);

  // Opacities from the run itself (they follow ParamB, within the time tolerance), and the
  // change flags of its last update.
  const json& meshes = expected["meshes"];
  ASSERT_EQ(meshes.size(), p2l_mesh_count(r));
  for (std::uint32_t m = 0; m < meshes.size(); ++m) {
    SCOPED_TRACE("mesh " + meshes[m]["id"].get<std::string>());
    EXPECT_NEAR(p2l_mesh_opacity(r, m), meshes[m]["opacity"].get<float>(), 5e-5f);
    EXPECT_EQ(p2l_mesh_changes(r, m), meshes[m]["changes"].get<std::uint32_t>());
  }

  // The geometry at the original's values: the core evaluation is bit-exact (eval vectors),
  // so what differs here could only come from the animation layer.
  float* values = p2l_parameter_values(r);
  for (const json& p : expected["parameters"]) values[parameter(r, p["id"].get<std::string>().c_str())] = p["current"].get<float>();
  p2l_update_stages(r, 0.0f, 0u);  // no stage: the host's pose as it is
  for (std::uint32_t m = 0; m < meshes.size(); ++m) {
    const json& e = meshes[m];
    SCOPED_TRACE("mesh " + e["id"].get<std::string>());
    const auto want = e["vertices"].get<std::vector<float>>();
    ASSERT_EQ(p2l_mesh_vertex_count(r, m) * 2, want.size());
    const float* v = p2l_mesh_vertices(r, m);
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(v[i], want[i]) << "coordinate " << i;
    EXPECT_EQ(p2l_mesh_draw_order(r, m), e["draw_order"].get<float>());
  }
  std::vector<std::uint32_t> order(16);
  order.resize(p2l_render_order(r, order.data(), 16));
  EXPECT_EQ(order, expected["render_order"].get<std::vector<std::uint32_t>>());
}

TEST(UpdateVectors, DefaultEvaluationAppliesThePoseFromTheStart) {
  P2L_REQUIRE_VECTORS();
  const json expected = expected_run("extras.default.c.json");
  RigPtr rig = load_vector("extras.p2lrt");
  ASSERT_NE(rig, nullptr);
  p2l_evaluate(rig.get());
  const json& meshes = expected["meshes"];
  for (std::uint32_t m = 0; m < meshes.size(); ++m) {
    SCOPED_TRACE(meshes[m]["id"].get<std::string>());
    EXPECT_EQ(p2l_mesh_opacity(rig.get(), m), meshes[m]["opacity"].get<float>());
    EXPECT_EQ(p2l_mesh_changes(rig.get(), m), meshes[m]["changes"].get<std::uint32_t>());
  }
  // Part "Back" is the second entry of the pose group: hidden from the first evaluation on.
  EXPECT_EQ(p2l_pose_shown(rig.get(), 0), 0);
}

TEST(UpdateVectors, IdleClipForNinetyFrames) {
  P2L_REQUIRE_VECTORS();
  check_update_run("extras.idle90.json", "idle", 0, 0);
}

TEST(UpdateVectors, OneShotWaveForThirtyFrames) {
  P2L_REQUIRE_VECTORS();
  check_update_run("extras.wave30.json", "wave", 0, 0);
}

TEST(UpdateVectors, BlinkAndBreathWithSeedOne) {
  P2L_REQUIRE_VECTORS();
  check_update_run("extras.behaviors120.json", nullptr, P2L_BLINK | P2L_BREATH, 1);
}

// --- the pipeline ---

TEST(Pipeline, HostPoseIsNeverWrittenAndLayersDoNotPileUp) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  p2l_behaviors(r, P2L_BREATH);
  p2l_expression(r, 0);  // smile: ParamB add 0.25, ParamSmile overwrite 1
  const std::uint32_t b = parameter(r, "ParamB");
  const float host_b = p2l_parameter_values(r)[b];
  for (int i = 0; i < 120; ++i) p2l_update(r, 1.0f / 60);
  EXPECT_EQ(p2l_parameter_values(r)[b], host_b);
  // The add applies once, over the host's value, however many updates ran.
  EXPECT_NEAR(p2l_parameter_current(r)[b], host_b + 0.25f, 1e-6f);
  EXPECT_NEAR(p2l_parameter_current(r)[parameter(r, "ParamSmile")], 1.0f, 1e-6f);
  // p2l_evaluate: the host's pose alone.
  p2l_evaluate(r);
  EXPECT_EQ(p2l_parameter_current(r)[b], host_b);
}

TEST(Pipeline, OverridesComeAfterClipsAndExpressionsAndBeforeBehaviors) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  const std::uint32_t angle = parameter(r, "ParamAngleX"), b = parameter(r, "ParamB");
  p2l_behaviors(r, 0);
  p2l_play(r, 0);  // idle drives ParamAngleX and ParamB
  p2l_expression(r, 0);
  ASSERT_TRUE(p2l_set_parameter_override(r, angle, 7.0f, 1.0f));
  ASSERT_TRUE(p2l_set_parameter_override(r, b, 0.5f, 0.5f));
  for (int i = 0; i < 90; ++i) p2l_update(r, 1.0f / 60);
  // Weight 1 replaces what the clip set; weight 0.5 goes half way from clip + expression.
  EXPECT_EQ(p2l_parameter_current(r)[angle], 7.0f);
  ASSERT_TRUE(p2l_set_parameter_override(r, b, 0.5f, 0.0f));
  p2l_update_stages(r, 0.0f, P2L_STAGE_CLIPS | P2L_STAGE_EXPRESSIONS);
  const float without = p2l_parameter_current(r)[b];
  ASSERT_TRUE(p2l_set_parameter_override(r, b, 0.5f, 0.5f));
  p2l_update_stages(r, 0.0f, P2L_STAGE_CLIPS | P2L_STAGE_EXPRESSIONS);
  EXPECT_NEAR(p2l_parameter_current(r)[b], without + (0.5f - without) * 0.5f, 1e-6f);
  // Behaviors come after: breathing sways AngleX (a role of the rig) on top of the override.
  p2l_behaviors(r, P2L_BREATH);
  p2l_update(r, 1.0f / 60);
  EXPECT_NE(p2l_parameter_current(r)[angle], 7.0f);
  p2l_clear_parameter_overrides(r);
  p2l_behaviors(r, 0);
  p2l_update(r, 0.0f);
  EXPECT_NE(p2l_parameter_current(r)[angle], 7.0f);
  EXPECT_FALSE(p2l_set_parameter_override(r, 999, 1.0f, 1.0f));
  EXPECT_FALSE(p2l_set_parameter_override(r, angle, NAN, 1.0f));
}

TEST(Pipeline, StagesLeftOutNeitherAdvanceNorApply) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  p2l_behaviors(r, 0);
  p2l_play(r, 0);
  for (int i = 0; i < 30; ++i) p2l_update_stages(r, 1.0f / 60, P2L_STAGE_PHYSICS);
  // The clip did not advance: its time is still 0, and the values are the host's.
  EXPECT_EQ(p2l_clip_time(r), 0.0f);
  EXPECT_EQ(p2l_parameter_current(r)[parameter(r, "ParamAngleX")], 0.0f);
  EXPECT_EQ(p2l_opacity(r), 1.0f);
  p2l_update_stages(r, 0.5f, P2L_STAGE_CLIPS);
  EXPECT_NEAR(p2l_clip_time(r), 0.5f, 1e-6f);
  // Physics alone moves the pendulum's output while nothing else runs.
  const std::uint32_t swing = parameter(r, "ParamSwing");
  p2l_set_parameter(r, parameter(r, "ParamAngleX"), 30.0f);
  p2l_update_stages(r, 1.0f / 30, P2L_STAGE_PHYSICS);
  p2l_update_stages(r, 1.0f / 30, P2L_STAGE_PHYSICS);
  EXPECT_NE(p2l_parameter_current(r)[swing], 0.0f);
}

TEST(Pipeline, PhysicsControlsThroughTheCApi) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  p2l_behaviors(r, 0);
  const std::uint32_t swing = parameter(r, "ParamSwing");
  p2l_set_parameter(r, parameter(r, "ParamAngleX"), 30.0f);
  // A long run settles the pendulum; stabilizing puts it there at once.
  for (int i = 0; i < 600; ++i) p2l_update(r, 1.0f / 60);
  const float settled = p2l_parameter_current(r)[swing];
  p2l_physics_reset(r);
  p2l_evaluate(r);
  EXPECT_EQ(p2l_parameter_current(r)[swing], 0.0f);  // the host's pose alone
  p2l_physics_stabilize(r);
  EXPECT_NEAR(p2l_parameter_current(r)[swing], settled, 1e-3f);
  // Wind moves the rest position; the same call with NaN is ignored.
  p2l_physics_wind(r, 5.0f, 0.0f);
  p2l_physics_wind(r, NAN, 0.0f);
  for (int i = 0; i < 600; ++i) p2l_update(r, 1.0f / 60);
  EXPECT_GT(std::fabs(p2l_parameter_current(r)[swing] - settled), 0.01f);
}

TEST(Pipeline, EventsReachTheHostOncePerPass) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  p2l_play(r, 0);
  std::vector<std::string> seen;
  for (int i = 0; i < 150; ++i) {  // 2.5 s of a 2 s loop: start, half, start, ...
    p2l_update(r, 1.0f / 60);
    for (std::uint32_t e = 0; e < p2l_event_count(r); ++e) {
      std::uint32_t layer = 99;
      std::int32_t clip = -2;
      float time = -1;
      const char* text = p2l_event(r, e, &layer, &clip, &time);
      ASSERT_NE(text, nullptr);
      EXPECT_EQ(layer, 0u);
      EXPECT_EQ(clip, 0);
      seen.push_back(text);
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"start", "half", "start"}));
  EXPECT_EQ(p2l_event(r, 99, nullptr, nullptr, nullptr), nullptr);
  p2l_evaluate(r);
  EXPECT_EQ(p2l_event_count(r), 0u);
}

TEST(Pipeline, ClipAndPoseQueries) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  ASSERT_EQ(p2l_clip_count(r), 2u);
  EXPECT_STREQ(p2l_clip_group(r, 1), "TapBody");
  float duration = 0, fps = 0, fade_in = 0, fade_out = 0;
  bool looping = true;
  ASSERT_TRUE(p2l_clip_info(r, 0, &duration, &fps, &looping, &fade_in, &fade_out));
  EXPECT_EQ(duration, 2.0f);
  EXPECT_TRUE(looping);
  EXPECT_EQ(fade_in, 0.5f);
  EXPECT_EQ(fade_out, 1.0f);  // the file gives none: the default
  EXPECT_FALSE(p2l_clip_info(r, 2, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(p2l_clip_playing(r), -1);
  EXPECT_TRUE(p2l_clip_finished(r));
  p2l_play(r, 1);
  for (int i = 0; i < 90; ++i) p2l_update(r, 1.0f / 60);
  EXPECT_EQ(p2l_clip_playing(r), 1);
  EXPECT_EQ(p2l_clip_time(r), 1.0f);  // a one-shot holds its end
  EXPECT_TRUE(p2l_clip_finished(r));
  std::int32_t clip = -2;
  float time = -1;
  std::uint32_t priority = 9;
  bool finished = false;
  EXPECT_TRUE(p2l_layer_state(r, 0, &clip, &time, &priority, &finished));
  EXPECT_EQ(clip, 1);
  EXPECT_TRUE(finished);
  EXPECT_FALSE(p2l_layer_state(r, P2L_MAX_LAYERS, &clip, &time, &priority, &finished));
  EXPECT_TRUE(p2l_play_layer(r, 3, 0, 2));
  EXPECT_FALSE(p2l_play_layer(r, 3, 1, 1));  // lower priority than what plays there
  EXPECT_FALSE(p2l_play_layer(r, P2L_MAX_LAYERS, 0, 5));
  EXPECT_FALSE(p2l_play_layer(r, 3, 7, 5));

  ASSERT_EQ(p2l_pose_group_count(r), 1u);
  EXPECT_EQ(p2l_pose_group_size(r, 0), 2u);
  EXPECT_EQ(p2l_pose_group_size(r, 1), 0u);
  EXPECT_FALSE(p2l_pose_show(r, 0, 2));
  ASSERT_TRUE(p2l_pose_show(r, 0, 1));
  EXPECT_EQ(p2l_pose_shown(r, 0), 1);
  EXPECT_EQ(p2l_pose_shown(r, 1), -1);
  // Mesh M5 is under part Back, the entry now shown: it fades in over the pose's 0.5 s
  // (poses alone run, so that the clips' ParamB, which M5's opacity is keyed on, stays put).
  p2l_update_stages(r, 0.25f, P2L_STAGE_POSES);
  const float half = p2l_mesh_opacity(r, 4);
  EXPECT_GT(half, 0.0f);
  p2l_update_stages(r, 0.5f, P2L_STAGE_POSES);
  EXPECT_NEAR(p2l_mesh_opacity(r, 4), 2 * half, 1e-6f);
  EXPECT_EQ(p2l_mesh_opacity(r, 2), 0.0f);  // Head, the entry before, faded out

  ASSERT_EQ(p2l_expression_count(r), 1u);
  EXPECT_STREQ(p2l_expression_id(r, 0), "smile");
  EXPECT_TRUE(p2l_expression_add(r, 0));
  EXPECT_FALSE(p2l_expression_add(r, 0));
  std::uint32_t playing[4] = {9, 9, 9, 9};
  EXPECT_EQ(p2l_expressions_playing(r, playing, 4), 1u);
  EXPECT_EQ(playing[0], 0u);
  EXPECT_TRUE(p2l_expression_remove(r, 0));
  EXPECT_EQ(p2l_expressions_playing(r, nullptr, 0), 0u);
}

TEST(Pipeline, NullHandlesAndBadArgumentsAreHarmless) {
  p2l_update(nullptr, 1.0f);
  p2l_update_stages(nullptr, 1.0f, P2L_STAGE_ALL);
  p2l_play(nullptr, 0);
  p2l_physics_stabilize(nullptr);
  EXPECT_EQ(p2l_clip_count(nullptr), 0u);
  EXPECT_EQ(p2l_clip_playing(nullptr), -1);
  EXPECT_TRUE(p2l_clip_finished(nullptr));
  EXPECT_EQ(p2l_event_count(nullptr), 0u);
  EXPECT_EQ(p2l_event(nullptr, 0, nullptr, nullptr, nullptr), nullptr);
  EXPECT_EQ(p2l_lip_sync_samples(nullptr, nullptr, 0, 1.0f), 0.0f);
  EXPECT_EQ(p2l_pose_shown(nullptr, 0), -1);
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_vector("extras.p2lrt");
  P2lRig* r = rig.get();
  p2l_update(r, NAN);
  p2l_update(r, -1.0f);
  p2l_update(r, INFINITY);
  p2l_play(r, 99);
  EXPECT_EQ(p2l_clip_playing(r), -1);
  EXPECT_EQ(p2l_lip_sync_samples(r, nullptr, 100, 1.0f), 0.0f);
  p2l_physics_wind(r, NAN, 1.0f);
  p2l_update(r, 1.0f / 60);
  for (std::uint32_t m = 0; m < p2l_mesh_count(r); ++m)
    for (std::uint32_t i = 0; i < p2l_mesh_vertex_count(r, m) * 2; ++i) ASSERT_TRUE(std::isfinite(p2l_mesh_vertices(r, m)[i]));
  EXPECT_EQ(p2l_rig_failure(r), nullptr);
}

}  // namespace
