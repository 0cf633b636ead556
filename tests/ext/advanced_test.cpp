// Advanced mode on small rigs whose exact answers are known: a forearm (and a hand) baked
// rigidly at 30-degree keys, a link keyed along a circle, the hooks each chunk's header
// declares, and a triangle of cloth hanging by two corners over a collider.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "ext/state.hpp"
#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "rig_builder.hpp"

namespace {

using namespace p2l_test;

constexpr float kPi = std::numbers::pi_v<float>;
const std::vector<float> kKeys{-90, -60, -30, 0, 30, 60, 90};
constexpr float kElbowX = 0, kElbowY = 100;

void rotate(float x, float y, float degrees, float& ox, float& oy) {
  const float r = degrees * kPi / 180.0f;
  ox = x * std::cos(r) - y * std::sin(r);
  oy = x * std::sin(r) + y * std::cos(r);
}

p2l::ExtensionHeader header(std::uint16_t feature, std::uint16_t hooks) {
  p2l::ExtensionHeader h;
  h.feature = feature;
  h.hooks = hooks;
  return h;
}

// The forearm's points relative to the elbow; the first two sit on the upper arm.
const std::vector<float> kForearm{10, 40, -10, 80, 0, 60, 20, 120, -15, 160};

// An upper arm (the mesh's home, at the origin) and a forearm turning about the elbow on
// parameter 0. The mesh hangs from the upper arm, baked rigidly at every key, so between
// keys its forearm vertices cut the chords.
p2l::Rig arm() {
  std::vector<float> rest;
  for (std::size_t v = 0; v < kForearm.size() / 2; ++v) {
    rest.push_back(kForearm[v * 2] + (v < 2 ? 0 : kElbowX));
    rest.push_back(kForearm[v * 2 + 1] + (v < 2 ? 0 : kElbowY));
  }
  std::vector<p2l::Array<float>> offsets;
  std::vector<p2l::Pivot> pivots;
  for (float k : kKeys) {
    std::vector<float> d(rest.size(), 0.0f);
    for (std::size_t v = 2; v < kForearm.size() / 2; ++v) {
      float x, y;
      rotate(kForearm[v * 2], kForearm[v * 2 + 1], k, x, y);
      d[v * 2] = x - kForearm[v * 2];
      d[v * 2 + 1] = y - kForearm[v * 2 + 1];
    }
    offsets.emplace_back(d);
    pivots.push_back({kElbowX, kElbowY, k, 1});
  }
  p2l::Mesh m = mesh("arm", 0, rest);
  m.geometry->uvs = p2l::Array<float>(std::vector<float>(rest.size(), 0.0f));
  m.geometry->indices = p2l::IndexArray{0, 1, 2, 2, 3, 4};
  m.keyforms = keyed(0, kKeys, offsets);
  p2l::Rig r = rig({param("Elbow", -90, 90, 0)},
                   {rotation("upper", -1, 0, single(p2l::Pivot{0, 0, 0, 1})), rotation("forearm", 0, 0, keyed(0, kKeys, pivots))},
                   {m});
  p2l::SkinChunk skins;
  skins.header = header(1, p2l::kHookH4);
  p2l::Skin s;
  s.mesh = 0;
  s.axes.push_back({0, p2l::Array<float>(kKeys)});
  s.bones = {0, 1};
  skins.skins.push_back(s);
  r.skins = skins;
  return r;
}

// Where the forearm's vertices truly are at [angle]: turned rigidly about the elbow.
std::vector<float> exact(float angle) {
  std::vector<float> out;
  for (std::size_t v = 0; v < kForearm.size() / 2; ++v) {
    float x = kForearm[v * 2], y = kForearm[v * 2 + 1];
    if (v >= 2) {
      rotate(x, y, angle, x, y);
      x += kElbowX;
      y += kElbowY;
    }
    out.push_back(x);
    out.push_back(y);
  }
  return out;
}

float worst(std::span<const float> a, const std::vector<float>& b) {
  float w = 0;
  for (std::size_t i = 0; i < b.size(); ++i) w = std::max(w, std::fabs(a[i] - b[i]));
  return w;
}

std::vector<float> at(p2l::Instance& in, std::vector<float> values, std::uint32_t mesh = 0) {
  set(in, std::move(values));
  auto v = in.vertices(mesh);
  return {v.begin(), v.end()};
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(Skinning, FollowsTheArcBetweenKeysAndIsTheBakeAtEveryKey) {
  p2l::Instance core = instance_of(arm()), skinned = instance_of(arm());
  ASSERT_EQ(skinned.advanced_available(), p2l::kAdvancedSkin);
  ASSERT_EQ(skinned.set_advanced(p2l::kAdvancedSkin | p2l::kAdvancedExactLinks), p2l::kAdvancedSkin);
  for (float angle : {-90.0f, -75.0f, -44.0f, -30.0f, 0.0f, 7.5f, 15.0f, 30.0f, 51.0f, 90.0f}) {
    SCOPED_TRACE(angle);
    const auto baked = at(core, {angle}), live = at(skinned, {angle});
    EXPECT_LT(worst(live, exact(angle)), 1e-3f);
    const bool key = std::find(kKeys.begin(), kKeys.end(), angle) != kKeys.end();
    if (key) {
      // The correction is exactly zero on a key: advanced mode is Cubism mode there.
      EXPECT_TRUE(same_bits(live, baked));
    } else if (angle != 7.5f && angle != 51.0f) {
      // Halfway between keys the outermost vertex's chord falls short by r (1 - cos 15°).
      EXPECT_GT(worst(baked, exact(angle)), 0.5f);
    }
  }
}

TEST(Skinning, FittedWeightsPutEachVertexRigidlyOnItsBone) {
  p2l::Instance in = instance_of(arm());
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSkin), p2l::kAdvancedSkin);
  const auto& run = in.state().advanced->skins.at(0);
  // The upper arm's two vertices tie between "bone 0 alone" and any pair at weight 0: the
  // single bone wins. The forearm's follow bone 1 alone.
  EXPECT_EQ(run.from(), (std::vector<std::uint32_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(run.to(), (std::vector<std::uint32_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(run.weight(), (std::vector<float>(5, 0.0f)));
}

TEST(Skinning, GivenWeightsAreUsedAsGiven) {
  p2l::Rig r = arm();
  // Wrong on purpose: everything on the upper arm. The forearm then stays where the bake's
  // difference from a rigid upper arm puts it - not on the arc.
  r.skins->skins[0].from = p2l::IndexArray{0, 0, 0, 0, 0};
  r.skins->skins[0].to = p2l::IndexArray{0, 0, 0, 0, 0};
  r.skins->skins[0].weight = p2l::Array<float>(std::vector<float>(5, 0.0f));
  p2l::Instance wrong = instance_of(r), core = instance_of(arm());
  wrong.set_advanced(p2l::kAdvancedSkin);
  EXPECT_TRUE(same_bits(at(wrong, {45}), at(core, {45})));  // home-only weights correct nothing
  r.skins->skins[0].from = p2l::IndexArray{0, 0, 1, 1, 1};
  r.skins->skins[0].to = p2l::IndexArray{0, 0, 1, 1, 1};
  p2l::Instance right = instance_of(r);
  right.set_advanced(p2l::kAdvancedSkin);
  EXPECT_LT(worst(at(right, {45}), exact(45)), 1e-3f);
}

TEST(Skinning, AVirtualBoneSkinsAsTheRigsOwnRotationWould) {
  // The forearm folded away as a skeleton bake leaves it: only BONE knows it, as deformer 1.
  p2l::Rig r = arm();
  p2l::BoneChunk bones;
  bones.header = header(2, p2l::kHookH2 | p2l::kHookH3);
  bones.virtual_bones.push_back(r.deformers.back());
  bones.bones.push_back({1, "forearm_bone"});
  r.deformers.pop_back();
  r.bones = bones;
  r.skins->header.depends_on = {"BONE"};
  p2l::Instance in = instance_of(r);
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSkin), p2l::kAdvancedSkin);
  for (float angle : {-77.0f, -30.0f, 12.0f, 45.0f, 88.0f}) EXPECT_LT(worst(at(in, {angle}), exact(angle)), 1e-3f) << angle;
  // Hosts can read its frame, on or off: the elbow, turned by 45 degrees.
  set(in, {45});
  for (std::uint32_t features : {p2l::kAdvancedSkin, 0u}) {
    in.set_advanced(features);
    in.evaluate();
    const auto frame = in.bone_transform(0);
    ASSERT_TRUE(frame);
    EXPECT_NEAR(frame->tx, kElbowX, 1e-4f);
    EXPECT_NEAR(frame->ty, kElbowY, 1e-4f);
    EXPECT_NEAR(frame->c, std::sin(45.0f * kPi / 180.0f), 1e-5f);
    EXPECT_NEAR(frame->a, std::cos(45.0f * kPi / 180.0f), 1e-5f);
  }
  EXPECT_FALSE(in.bone_transform(1));
  // A later evaluation at another pose moves the virtual bone too (nothing stale).
  in.set_advanced(0);
  set(in, {-30});
  ASSERT_TRUE(in.bone_transform(0));
  EXPECT_NEAR(in.bone_transform(0)->c, std::sin(-30.0f * kPi / 180.0f), 1e-5f);
  // Without BONE the skin that depends on it turns itself off, and says so.
  r.bones.reset();
  r.skins->skins[0].bones = {0};
  r.skins->skins[0].mesh = 0;
  p2l::Instance orphan = instance_of(r);
  std::vector<std::string> notes;
  EXPECT_EQ(orphan.set_advanced(p2l::kAdvancedSkin, &notes), 0u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("depends on BONE"), std::string::npos) << notes[0];
}

// Two axes: the elbow (parameter 0) and a wrist (parameter 1) below it. The hand's vertices
// are baked rigidly at every key combination.
p2l::Rig arm_and_hand(const std::vector<float>& wrist_keys) {
  p2l::Rig r = arm();
  r.parameters.push_back(param("Wrist", -60, 60, 0));
  const float wx = 0, wy = 60;  // the wrist in the forearm's space
  std::vector<p2l::Pivot> pivots;
  for (float k : wrist_keys) pivots.push_back({wx, wy, k, 1});
  r.deformers.push_back(rotation("hand", 1, 0, keyed(1, wrist_keys, pivots)));
  // Mesh vertices: two on the upper arm, two on the forearm, two on the hand.
  const std::vector<float> upper{10, 40, -10, 80}, fore{0, 30, 15, 50}, hand{5, 75, -5, 90};
  std::vector<float> rest = upper;
  for (std::size_t i = 0; i < 4; i += 2) {
    rest.push_back(fore[i] + kElbowX);
    rest.push_back(fore[i + 1] + kElbowY);
  }
  for (std::size_t i = 0; i < 4; i += 2) {
    rest.push_back(hand[i] + kElbowX);
    rest.push_back(hand[i + 1] + kElbowY);
  }
  p2l::Grid<p2l::Array<float>> g;
  g.axes.push_back({0, p2l::Array<float>(kKeys)});
  g.axes.push_back({1, p2l::Array<float>(wrist_keys)});
  for (std::size_t j = 0; j < wrist_keys.size(); ++j)
    for (std::size_t i = 0; i < kKeys.size(); ++i) {
      std::vector<float> d(rest.size(), 0.0f);
      for (std::size_t v = 2; v < 6; ++v) {
        // Relative to the elbow: a hand vertex turns about the wrist, then everything about the elbow.
        float x = rest[v * 2] - kElbowX, y = rest[v * 2 + 1] - kElbowY;
        if (v >= 4) {
          rotate(x - wx, y - wy, wrist_keys[j], x, y);
          x += wx;
          y += wy;
        }
        rotate(x, y, kKeys[i], x, y);
        d[v * 2] = x + kElbowX - rest[v * 2];
        d[v * 2 + 1] = y + kElbowY - rest[v * 2 + 1];
      }
      g.coords.push_back(static_cast<std::uint16_t>(i));
      g.coords.push_back(static_cast<std::uint16_t>(j));
      g.forms.emplace_back(d);
    }
  r.meshes[0].geometry->positions = p2l::Array<float>(rest);
  r.meshes[0].geometry->uvs = p2l::Array<float>(std::vector<float>(rest.size(), 0.0f));
  r.meshes[0].geometry->indices = p2l::IndexArray{0, 1, 2, 2, 3, 4, 3, 4, 5};
  r.meshes[0].keyforms = g;
  p2l::Skin& s = r.skins->skins[0];
  s.axes.push_back({1, p2l::Array<float>(wrist_keys)});
  s.bones = {0, 1, 2};
  return r;
}

TEST(Skinning, TheCorrectionIsZeroAtEveryKeyCombination) {
  const std::vector<float> wrist{-60, -30, 0, 30, 60};  // the default on a key, as the writer keys
  p2l::Instance core = instance_of(arm_and_hand(wrist)), skinned = instance_of(arm_and_hand(wrist));
  ASSERT_EQ(skinned.set_advanced(p2l::kAdvancedSkin), p2l::kAdvancedSkin);
  for (float e : kKeys)
    for (float w : wrist) EXPECT_TRUE(same_bits(at(skinned, {e, w}), at(core, {e, w}))) << e << " " << w;
  // Between keys on both axes the hand bends along its arcs: far closer to the rigid truth
  // than the bake's chords.
  for (auto [e, w] : {std::pair{15.0f, 10.0f}, {-45.0f, 40.0f}, {75.0f, -50.0f}}) {
    const auto live = at(skinned, {e, w}), baked = at(core, {e, w});
    float chord_error = 0, arc_error = 0;
    for (std::size_t v = 4; v < 6; ++v) {
      // Hand vertex v's true place: about the wrist (0, 60) by w, then about the elbow by e.
      const float hx = v == 4 ? 5.0f : -5.0f, hy = v == 4 ? 75.0f : 90.0f;
      float tx, ty;
      rotate(hx, hy - 60, w, tx, ty);
      rotate(tx, ty + 60, e, tx, ty);
      tx += kElbowX;
      ty += kElbowY;
      chord_error = std::max(chord_error, std::hypot(baked[v * 2] - tx, baked[v * 2 + 1] - ty));
      arc_error = std::max(arc_error, std::hypot(live[v * 2] - tx, live[v * 2 + 1] - ty));
    }
    EXPECT_LT(arc_error, 1e-2f) << e << " " << w;
    EXPECT_GT(chord_error, 0.3f) << e << " " << w;
  }
}

// A child whose pivot is keyed every 60 degrees on a circle of radius 50 about (20, 30).
p2l::Rig link(bool declared) {
  const std::vector<float> keys{-60, 0, 60};
  std::vector<p2l::Pivot> pivots;
  for (float k : keys) {
    float x, y;
    rotate(0, 50, k, x, y);
    pivots.push_back({20 + x, 30 + y, k, 1});
  }
  p2l::Rig r = rig({param("Link", -60, 60, 0)},
                   {rotation("host", -1, 0, single(p2l::Pivot{100, 100, 0, 1})), rotation("child", 0, 0, keyed(0, keys, pivots))},
                   {mesh("m", 1, {0, 0, 10, 0, 0, 10})});
  p2l::BoneChunk bones;
  bones.header = header(2, p2l::kHookH2 | p2l::kHookH3);
  if (declared) bones.header.deformers = {1};
  bones.arcs.push_back({1, 0, 20, 30});
  r.bones = bones;
  return r;
}

TEST(ExactLinks, APivotKeyedAlongACircleInterpolatesOnIt) {
  p2l::Instance core = instance_of(link(true)), exact_links = instance_of(link(true));
  ASSERT_EQ(exact_links.advanced_available(), p2l::kAdvancedExactLinks);
  ASSERT_EQ(exact_links.set_advanced(p2l::kAdvancedExactLinks), p2l::kAdvancedExactLinks);
  for (float angle : {-45.0f, -20.0f, 10.0f, 30.0f, 59.0f}) {
    float x, y;
    rotate(0, 50, angle, x, y);
    // The child's origin is the mesh's first vertex; the host adds (100, 100).
    const auto live = at(exact_links, {angle}), chord = at(core, {angle});
    EXPECT_NEAR(live[0], 120 + x, 1e-3f) << angle;
    EXPECT_NEAR(live[1], 130 + y, 1e-3f) << angle;
    EXPECT_LT(std::hypot(chord[0] - 120, chord[1] - 130), 50.0f - 1e-2f) << angle;
  }
  // On a key both agree exactly.
  EXPECT_TRUE(same_bits(at(exact_links, {60}), at(core, {60})));
}

TEST(ExactLinks, OnlyDeformersTheHeaderDeclaresAreReplaced) {
  p2l::Instance core = instance_of(link(false)), undeclared = instance_of(link(false));
  std::vector<std::string> notes;
  EXPECT_EQ(undeclared.set_advanced(p2l::kAdvancedExactLinks, &notes), 0u);  // nothing it could change
  EXPECT_EQ(notes.size(), 1u);
  EXPECT_TRUE(same_bits(at(undeclared, {30}), at(core, {30})));
}

}  // namespace

namespace {

// A triangle hanging from its two top corners (world y up: canvas y down), its free corner
// over a circle collider; the simulation holds parameter 0 and skips pendulum group 0.
p2l::Rig hanging(bool with_collider = true) {
  p2l::Mesh cloth = mesh("cloth", -1, {0, 0, 20, 0, 10, 30});
  p2l::Rig r = rig({param("ParamSim", -1, 1, 0), param("Other", 0, 1, 0)}, {}, {cloth});
  p2l::Simulation s;
  s.id = "cloth";
  s.fps = 60;
  s.substeps = 8;
  s.gravity_y = -980;
  s.pin_compliance = 1e-4f;
  s.targets.push_back({0, 3});
  s.inv_mass = p2l::Array<float>(std::vector<float>{1, 1, 1});
  s.damping = p2l::Array<float>(std::vector<float>{1, 1, 1});
  s.wind_factor = p2l::Array<float>(std::vector<float>{1, 1, 1});
  s.pin_weight = p2l::Array<float>(std::vector<float>{1, 1, 0});
  s.goal_compliance = p2l::Array<float>(std::vector<float>{-1, -1, -1});
  s.goal_offset_x = p2l::Array<float>(std::vector<float>{0, 0, 0});
  s.goal_offset_y = p2l::Array<float>(std::vector<float>{0, 0, 0});
  s.anchor_mesh = p2l::IndexArray{0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
  s.anchor_vertex = p2l::IndexArray{0, 0, 0};
  s.stretch_a = p2l::IndexArray{0, 1};
  s.stretch_b = p2l::IndexArray{2, 2};
  s.stretch_rest = p2l::Array<float>(std::vector<float>{31.6f, 31.6f});
  s.stretch_compliance = p2l::Array<float>(std::vector<float>{1e-8f, 1e-8f});
  s.compression_compliance = p2l::Array<float>(std::vector<float>{1e-3f, 1e-3f});
  s.parameters = {0};
  p2l::SimulationChunk sims;
  sims.header = header(4, p2l::kHookH1 | p2l::kHookH4 | p2l::kHookH6);
  sims.header.parameters = {0};
  if (with_collider) {
    s.colliders = {0};
    p2l::ColliderChunk coll;
    coll.header = header(8, p2l::kHookH6);
    coll.header.depends_on = {"SIMS"};
    // A circle of radius 8 just left of where the free corner hangs (canvas pixels).
    p2l::Collider c;
    c.id = "ball";
    c.ax = c.bx = 4;
    c.ay = c.by = 36;
    c.radius_a = c.radius_b = 8;
    coll.colliders.push_back(c);
    r.colliders = coll;
  }
  sims.simulations.push_back(s);
  r.simulations = sims;
  return r;
}

TEST(Simulation, ACorneredClothHangsAndKeepsOutOfItsCollider) {
  p2l::Instance in = instance_of(hanging());
  ASSERT_EQ(in.advanced_available(), p2l::kAdvancedSim | p2l::kAdvancedCollision);
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSim | p2l::kAdvancedCollision), p2l::kAdvancedSim | p2l::kAdvancedCollision);
  const std::vector<float> pose{0, 0};
  float fx = 0, fy = 0;
  for (int frame = 0; frame < 240; ++frame) {
    in.evaluate_values(pose, 1.0f / 60.0f);
    const auto v = in.vertices(0);
    // The pinned corners stay put; the free one never enters the ball.
    ASSERT_EQ(v[0], 0.0f);
    ASSERT_EQ(v[1], 0.0f);
    ASSERT_EQ(v[2], 20.0f);
    ASSERT_EQ(v[3], 0.0f);
    fx = v[4];
    fy = v[5];
    ASSERT_TRUE(std::isfinite(fx) && std::isfinite(fy));
    ASSERT_GE(std::hypot(fx - 4, fy - 36), 8.0f - 1e-3f) << "frame " << frame;
  }
  // At rest it hangs below its pins, pushed off the ball to the right, kept at its length.
  EXPECT_GT(fx, 10.0f);
  EXPECT_GT(fy, 25.0f);
  EXPECT_LT(std::hypot(fx, fy), 31.6f * 1.05f);
  const auto placed = in.simulation_colliders();
  ASSERT_EQ(placed.size(), 6u);
  EXPECT_EQ(std::vector<float>(placed.begin(), placed.end()), (std::vector<float>{4, 36, 4, 36, 8, 8}));
  // Without collision it swings back to where it was drawn, straight under its pins.
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSim), p2l::kAdvancedSim);
  for (int frame = 0; frame < 240; ++frame) in.evaluate_values(pose, 1.0f / 60.0f);
  EXPECT_NEAR(in.vertices(0)[4], 10.0f, 1.0f);
  EXPECT_TRUE(in.simulation_colliders().empty());
}

TEST(Simulation, StartsAtRestStepsAtItsOwnRateAndDrawsBetweenSteps) {
  p2l::Instance in = instance_of(hanging(false));
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSim), p2l::kAdvancedSim);
  const std::vector<float> pose{0, 0};
  // Never stepped: an evaluation shows the targets.
  in.evaluate_values(pose);
  EXPECT_EQ(in.vertices(0)[5], 30.0f);
  // The first update starts at rest on the pose: nothing moves yet.
  in.evaluate_values(pose, 1.0f / 60.0f);
  EXPECT_EQ(in.vertices(0)[5], 30.0f);
  const auto& run = in.state().advanced->sims.at(0);
  ASSERT_TRUE(run.started());
  // Half a step: no step yet; the drawing is half way from the last step to... the same.
  in.evaluate_values(pose, 0.5f / 60.0f);
  EXPECT_EQ(run.solver().y()[2], -30.0f);
  // Another half: one step (gravity against the stretch constraints moves the free corner).
  in.evaluate_values(pose, 0.5f / 60.0f);
  EXPECT_NE(run.solver().y()[2], -30.0f);
  // A long frame runs at most 4 steps and drops the rest: 10 frames' time, 4 steps.
  p2l::Instance a = instance_of(hanging(false)), b = instance_of(hanging(false));
  a.set_advanced(p2l::kAdvancedSim);
  b.set_advanced(p2l::kAdvancedSim);
  a.evaluate_values(pose, 1.0f / 60.0f);
  b.evaluate_values(pose, 1.0f / 60.0f);
  a.evaluate_values(pose, 10.0f / 60.0f);
  for (int k = 0; k < 4; ++k) b.evaluate_values(pose, 1.0f / 60.0f);
  const auto& ra = a.state().advanced->sims[0].solver();
  const auto& rb = b.state().advanced->sims[0].solver();
  EXPECT_EQ(std::memcmp(ra.y().data(), rb.y().data(), 3 * sizeof(float)), 0);
  // Between steps the drawing interpolates: a quarter step after a step, a quarter of the way.
  p2l::Instance c = instance_of(hanging(false));
  c.set_advanced(p2l::kAdvancedSim);
  c.evaluate_values(pose, 1.0f / 60.0f);
  c.evaluate_values(pose, 1.0f / 60.0f);  // one step: from rest to the first step
  const float first = c.state().advanced->sims[0].solver().y()[2];
  c.evaluate_values(pose, 1.25f / 60.0f);  // the second step, a quarter left over
  const float second = c.state().advanced->sims[0].solver().y()[2];
  EXPECT_NEAR(c.vertices(0)[5], -(first + (second - first) * 0.25f), 1e-4f);
  // An evaluation without time draws the last step.
  c.evaluate_values(pose);
  EXPECT_EQ(c.vertices(0)[5], -second);
  // A reset starts again at rest on the next update.
  c.reset_simulations();
  c.evaluate_values(pose, 1.0f / 60.0f);
  EXPECT_EQ(c.vertices(0)[5], 30.0f);
}

TEST(Simulation, IsDeterministicAndFrameRateIndependent) {
  // A swinging, bouncing corner (no damping, soft links, a side wind). Updated at 30, 60 and
  // 144 Hz it steps at its own 60 Hz all the same, so at the shared times k/6 s the drawings
  // differ by no more than the interpolation between two steps: one step's motion.
  auto run = [](float hz, std::vector<std::vector<float>>& samples, float& step_motion) {
    p2l::Rig r = hanging(false);
    auto& sim = r.simulations->simulations[0];
    sim.wind_x = 2000;
    sim.damping = p2l::Array<float>(std::vector<float>{0, 0, 0});
    sim.stretch_compliance = p2l::Array<float>(std::vector<float>{1e-4f, 1e-4f});
    p2l::Instance in = instance_of(r);
    in.set_advanced(p2l::kAdvancedSim);
    const std::vector<float> pose{0, 0};
    const int per_sample = static_cast<int>(std::lround(hz / 6));
    in.evaluate_values(pose, 1.0f / hz);  // starts at rest
    step_motion = 0;
    float last_x = 10, last_y = -30;
    samples.clear();
    for (int k = 1; k <= 9; ++k) {
      for (int f = 0; f < per_sample; ++f) in.evaluate_values(pose, 1.0f / hz);
      const auto v = in.vertices(0);
      samples.emplace_back(v.begin(), v.end());
      const auto& solver = in.state().advanced->sims[0].solver();
      step_motion = std::max(step_motion, std::hypot(solver.x()[2] - last_x, solver.y()[2] - last_y) / (60.0f / 6));
      last_x = solver.x()[2];
      last_y = solver.y()[2];
    }
  };
  std::vector<std::vector<float>> a, b, at30, at144;
  float motion = 0, unused = 0;
  run(60, a, motion);
  run(60, b, unused);
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(same_bits(a[k], b[k])) << k;  // deterministic
  run(30, at30, unused);
  run(144, at144, unused);
  ASSERT_GT(motion, 0.1f);  // it does move: a tenth of a pixel a step at least, on average between samples
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_LE(worst(at30[k], a[k]), motion) << "t = " << (k + 1) << "/6 s";
    EXPECT_LE(worst(at144[k], a[k]), motion) << "t = " << (k + 1) << "/6 s";
  }
}

TEST(Simulation, HoldsItsParametersAndTakesBackItsStatics) {
  // ParamSim moves the cloth's free corner (a baked swing); Other adds a static correction.
  p2l::Rig r = hanging(false);
  r.meshes[0].keyforms = keyed(0, {-1, 1}, std::vector<p2l::Array<float>>{p2l::Array<float>(std::vector<float>{0, 0, 0, 0, -5, 0}),
                                                                       p2l::Array<float>(std::vector<float>{0, 0, 0, 0, 5, 0})});
  p2l::SimStatic st;
  st.parameter = 1;
  st.keys = p2l::Array<float>(std::vector<float>{0, 1});
  st.meshes.push_back({0, {p2l::Array<float>(std::vector<float>(6, 0.0f)), p2l::Array<float>(std::vector<float>{0, 0, 0, 0, 0, 4})}});
  r.simulations->simulations[0].statics.push_back(st);
  p2l::Instance in = instance_of(r);
  in.set_advanced(p2l::kAdvancedSim);
  // Targets only (never stepped): ParamSim held at its default, half the static taken out.
  in.evaluate_values(std::vector<float>{1, 0.5f});
  EXPECT_EQ(in.vertices(0)[4], 10.0f);
  EXPECT_EQ(in.vertices(0)[5], 28.0f);
  // Off: the bake as it is.
  in.set_advanced(0);
  in.evaluate_values(std::vector<float>{1, 0.5f});
  EXPECT_EQ(in.vertices(0)[4], 15.0f);
  EXPECT_EQ(in.vertices(0)[5], 30.0f);
}

}  // namespace

#include "p2l/format.hpp"
#include "p2l/p2l.h"

namespace {

// The rig as a host gets it: written to bytes, loaded through the C API.
P2lRig* load_c(const p2l::Rig& r) {
  const auto written = p2l::write(r);
  EXPECT_TRUE(written.error.ok()) << written.error.to_string();
  char error[256] = {};
  P2lRig* rig = p2l_rig_load(written.bytes.data(), written.bytes.size(), error, sizeof error);
  EXPECT_NE(rig, nullptr) << error;
  return rig;
}

TEST(AdvancedCApi, SwitchesReportsAndDrivesTheSimulationsThroughUpdates) {
  P2lRig* rig = load_c(hanging());
  ASSERT_NE(rig, nullptr);

  EXPECT_EQ(p2l_advanced_available(rig), P2L_SIM | P2L_COLLISION);
  // Collision needs the simulation: asked alone, nothing turns on.
  EXPECT_EQ(p2l_set_advanced(rig, P2L_COLLISION), 0u);
  EXPECT_EQ(p2l_set_advanced(rig, P2L_SKIN | P2L_SIM | P2L_COLLISION), P2L_SIM | P2L_COLLISION);
  for (int i = 0; i < 60; ++i) p2l_update(rig, 1.0f / 60.0f);
  float placed[12] = {};
  EXPECT_EQ(p2l_sim_colliders(rig, placed, 2), 1u);
  EXPECT_EQ(placed[4], 8.0f);
  const float settled = p2l_mesh_vertices(rig, 0)[4];
  // Host wind to the right pushes the free corner right; updates without the SIM stage hold it.
  p2l_sim_wind(rig, 3000, 0);
  for (int i = 0; i < 30; ++i) p2l_update(rig, 1.0f / 60.0f);
  const float blown = p2l_mesh_vertices(rig, 0)[4];
  EXPECT_GT(blown, settled + 1.0f);
  // Updates without the SIM stage and evaluations draw the last step and step nothing.
  p2l_update_stages(rig, 1.0f / 60.0f, P2L_STAGE_ALL & ~P2L_STAGE_SIM);
  const float held = p2l_mesh_vertices(rig, 0)[4];
  EXPECT_GT(held, settled + 1.0f);
  p2l_update_stages(rig, 1.0f / 60.0f, P2L_STAGE_ALL & ~P2L_STAGE_SIM);
  EXPECT_EQ(p2l_mesh_vertices(rig, 0)[4], held);
  p2l_evaluate(rig);
  EXPECT_EQ(p2l_mesh_vertices(rig, 0)[4], held);
  p2l_sim_reset(rig);
  p2l_update(rig, 1.0f / 60.0f);
  EXPECT_EQ(p2l_mesh_vertices(rig, 0)[4], 10.0f);  // at rest on the pose again
  // Off: the targets as the core evaluates them, whatever the state was.
  EXPECT_EQ(p2l_set_advanced(rig, 0), 0u);
  p2l_update(rig, 1.0f / 60.0f);
  EXPECT_EQ(p2l_mesh_vertices(rig, 0)[5], 30.0f);
  EXPECT_EQ(p2l_sim_colliders(rig, nullptr, 0), 0u);
  // The host's wind stays across switches: on again, the corner blows right as before.
  EXPECT_EQ(p2l_set_advanced(rig, P2L_SIM), P2L_SIM);
  for (int i = 0; i < 31; ++i) p2l_update(rig, 1.0f / 60.0f);
  EXPECT_GT(p2l_mesh_vertices(rig, 0)[4], settled + 1.0f);
  p2l_rig_free(rig);
}

TEST(AdvancedCApi, BonesOfTheOriginalsSkinArcFile) {
  P2lRig* rig = load_c(arm());
  ASSERT_NE(rig, nullptr);
  EXPECT_EQ(p2l_bone_count(rig), 0u);  // arm() lists no attachable bones
  EXPECT_EQ(p2l_bone_id(rig, 0), nullptr);
  EXPECT_FALSE(p2l_bone_transform(rig, 0, nullptr));
  p2l_rig_free(rig);
  p2l::Rig r = arm();
  p2l::BoneChunk bones;
  bones.header = header(2, p2l::kHookH2 | p2l::kHookH3);
  bones.bones = {{0, "upper"}, {1, "forearm"}};
  r.bones = bones;
  rig = load_c(r);
  ASSERT_EQ(p2l_bone_count(rig), 2u);
  EXPECT_STREQ(p2l_bone_id(rig, 1), "forearm");
  p2l_set_parameter(rig, 0, 90);
  p2l_evaluate(rig);
  float m[6];
  ASSERT_TRUE(p2l_bone_transform(rig, 1, m));
  EXPECT_NEAR(m[0], 0.0f, 1e-6f);  // turned a quarter: x' = -y
  EXPECT_NEAR(m[1], -1.0f, 1e-6f);
  EXPECT_EQ(m[4], kElbowX);
  EXPECT_EQ(m[5], kElbowY);
  p2l_rig_free(rig);
}

}  // namespace

namespace {

TEST(Simulation, SkipsThePendulumsItReplaces) {
  // Parameter 2 swings on a pendulum driven by parameter 3; the simulation replaces the group.
  p2l::Rig r = hanging(false);
  r.parameters.push_back(param("Swing", -10, 10, 0));
  r.parameters.push_back(param("Drive", -10, 10, 0));
  p2l::PhysicsGroup g;
  g.inputs = {{3, 100, p2l::PhysicsSource::X, false}};
  g.segments = {{0, 1, 1, 1}, {1, 1, 1, 1}};
  g.outputs = {{2, 1, 1, 100, p2l::PhysicsSource::Angle, false}};
  g.normalization = {-10, 0, 10, -45, 0, 45};
  r.physics = {g};
  r.simulations->simulations[0].physics_groups = {0};
  r.simulations->header.physics_groups = {0};
  auto swing_after = [&](std::uint32_t features) {
    p2l::Instance in = instance_of(r);
    p2l::Animator animator(in.model_ptr());
    in.set_advanced(features);
    EXPECT_EQ(in.skipped_physics().size(), features ? 1u : 0u);
    in.parameters()[3] = 10;
    for (int k = 0; k < 30; ++k) animator.update(in, 1.0f / 60.0f);
    return in.current()[2];
  };
  EXPECT_NE(swing_after(0), 0.0f);                      // Cubism mode: the pendulum swings
  EXPECT_EQ(swing_after(p2l::kAdvancedSim), 0.0f);      // simulated: skipped, the host's value
}

}  // namespace

namespace {

TEST(Hooks, AHeadersH4EntryEvaluatesItsAxesAtTheirDefaults) {
  // The cloth's free corner is keyed on Other; SIMS' header declares that contribution replaced.
  p2l::Rig r = hanging(false);
  r.meshes[0].keyforms = keyed(1, {0, 1}, std::vector<p2l::Array<float>>{p2l::Array<float>(std::vector<float>(6, 0.0f)),
                                                                     p2l::Array<float>(std::vector<float>{0, 0, 0, 0, 8, 0})});
  r.simulations->header.meshes.push_back({0, {1}, {}});
  p2l::Instance in = instance_of(r);
  in.evaluate_values(std::vector<float>{0, 1});
  EXPECT_EQ(in.vertices(0)[4], 18.0f);  // Cubism mode: keyed
  in.set_advanced(p2l::kAdvancedSim);
  in.evaluate_values(std::vector<float>{0, 1});
  EXPECT_EQ(in.vertices(0)[4], 10.0f);  // replaced: the axis at its default
  // A header without H4 declares nothing.
  r.simulations->header.hooks = p2l::kHookH1 | p2l::kHookH6;
  p2l::Instance undeclared = instance_of(r);
  undeclared.set_advanced(p2l::kAdvancedSim);
  undeclared.evaluate_values(std::vector<float>{0, 1});
  EXPECT_EQ(undeclared.vertices(0)[4], 18.0f);
  // And a SIMS header without H6 keeps the whole chunk off, with a note.
  r.simulations->header.hooks = p2l::kHookH1 | p2l::kHookH4;
  p2l::Instance idle = instance_of(r);
  std::vector<std::string> notes;
  EXPECT_EQ(idle.set_advanced(p2l::kAdvancedSim, &notes), 0u);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("no H6"), std::string::npos) << notes[0];
}

}  // namespace

namespace {

TEST(Simulation, CollidersRideMeshVerticesAndDeformers) {
  p2l::Rig r = hanging();
  // A rotation at (50, 60) turned a quarter: its local (10, 0) is canvas (50, 70).
  r.deformers.push_back(rotation("turn", -1, 90, single(p2l::Pivot{50, 60, 0, 1})));
  p2l::Collider on_mesh;  // a capsule along the cloth's top edge
  on_mesh.id = "edge";
  on_mesh.capsule = true;
  on_mesh.mesh = 0;
  on_mesh.vertex_a = 0;
  on_mesh.vertex_b = 1;
  on_mesh.radius_a = 2;
  on_mesh.radius_b = 3;
  p2l::Collider on_deformer;  // a circle in the rotation's space (b is ignored: not a capsule)
  on_deformer.id = "hand";
  on_deformer.deformer = 0;
  on_deformer.ax = 10;
  on_deformer.bx = 99;
  on_deformer.radius_a = on_deformer.radius_b = 4;
  r.colliders->colliders.push_back(on_mesh);
  r.colliders->colliders.push_back(on_deformer);
  r.simulations->simulations[0].colliders = {0, 1, 2};
  p2l::Instance in = instance_of(r);
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSim | p2l::kAdvancedCollision), p2l::kAdvancedSim | p2l::kAdvancedCollision);
  in.evaluate_values(std::vector<float>{0, 0}, 1.0f / 60.0f);
  const auto placed = in.simulation_colliders();
  ASSERT_EQ(placed.size(), 18u);
  const std::vector<float> edge(placed.begin() + 6, placed.begin() + 12), hand(placed.begin() + 12, placed.end());
  EXPECT_EQ(edge, (std::vector<float>{0, 0, 20, 0, 2, 3}));
  EXPECT_NEAR(hand[0], 50.0f, 1e-4f);
  EXPECT_NEAR(hand[1], 70.0f, 1e-4f);
  EXPECT_EQ(hand[0], hand[2]);
  EXPECT_EQ(hand[1], hand[3]);
}

TEST(Skinning, PastA1024KeyCombinationsTheFitSamplesEachAxisAlone) {
  // Five more axes of four keys on parameters that move nothing: 7 x 4^5 = 7168 combinations.
  p2l::Rig r = arm();
  for (int i = 0; i < 5; ++i) {
    r.parameters.push_back(param("Idle" + std::to_string(i), 0, 3, 0));
    r.skins->skins[0].axes.push_back({static_cast<std::uint32_t>(1 + i), p2l::Array<float>(std::vector<float>{0, 1, 2, 3})});
  }
  p2l::Instance in = instance_of(r);
  ASSERT_EQ(in.set_advanced(p2l::kAdvancedSkin), p2l::kAdvancedSkin);
  const auto& run = in.state().advanced->skins.at(0);
  EXPECT_EQ(run.from(), (std::vector<std::uint32_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(run.to(), (std::vector<std::uint32_t>{0, 0, 1, 1, 1}));
  EXPECT_LT(worst(at(in, {45, 0, 0, 0, 0, 0}), exact(45)), 1e-3f);
}

}  // namespace
