// The Cubism 2 framework's pose (POSE flags bit 1) against Cubism 3's (bit 0 alone), on a rig of
// two groups: [A B C] and [D E]. The numbers are the framework's L2DPose rules worked by hand;
// scripts/cubism2_motion.sh holds p2lrt to the framework itself on the npm models.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "anim/pose.hpp"
#include "p2l/rig.hpp"

namespace {

constexpr float kNone = std::numeric_limits<float>::quiet_NaN();
enum : std::uint32_t { A, B, C, D, E };

p2l::Rig two_groups(bool cubism2) {
  p2l::Rig rig;
  for (const char* id : {"A", "B", "C", "D", "E"}) rig.parts.push_back(p2l::Part{id, id});
  p2l::Pose pose;
  pose.fade_in = 0.5f;
  pose.cubism_playback = true;
  pose.cubism2 = cubism2;
  pose.groups = {p2l::PoseGroup{{{A, {}}, {B, {}}, {C, {}}}}, p2l::PoseGroup{{{D, {}}, {E, {}}}}};
  rig.pose = pose;
  return rig;
}

// A clip's PartOpacity values for one update (NaN: not written).
std::vector<float> written(std::initializer_list<std::pair<std::uint32_t, float>> values) {
  std::vector<float> v(5, kNone);
  for (const auto& [part, value] : values) v[part] = value;
  return v;
}

TEST(Cubism2Pose, AnEntryNoMotionWritesStaysShownAndTheFirstUpdateIsNoReset) {
  const p2l::Rig rig = two_groups(true);
  p2l::anim::PosePlayer pose(rig, true);
  // The motion hides A and B on its first update; C was never written: its value is still the
  // 1 the load gave it, so C fades in from this update on.
  pose.steer(written({{A, 0.0f}, {B, 0.0f}}));
  pose.update(1.0f / 60);
  const float n = 1.0f / 60 / 0.5f;  // C's opacity after one update
  EXPECT_FLOAT_EQ(pose.part_opacity()[C], n);
  EXPECT_FLOAT_EQ(pose.part_opacity()[A], 1.0f - n);  // the back part's cap below phi: n(phi-1)/phi + 1
  EXPECT_FLOAT_EQ(pose.part_opacity()[B], 0.0f);
  EXPECT_FLOAT_EQ(pose.part_opacity()[D], 1.0f);
  EXPECT_FLOAT_EQ(pose.part_opacity()[E], 0.0f);

  // Cubism 3's rules reset the values on the first update: A stays.
  const p2l::Rig rig3 = two_groups(false);
  p2l::anim::PosePlayer pose3(rig3, true);
  pose3.steer(written({{A, 0.0f}, {B, 0.0f}}));
  pose3.update(1.0f / 60);
  EXPECT_FLOAT_EQ(pose3.part_opacity()[A], 1.0f);
  EXPECT_FLOAT_EQ(pose3.part_opacity()[C], 0.0f);
}

TEST(Cubism2Pose, AnyValueButZeroShowsAndEveryGroupFallsBackToItsFirstEntry) {
  for (const bool cubism2 : {true, false}) {
    const p2l::Rig rig = two_groups(cubism2);
    p2l::anim::PosePlayer pose(rig, true);
    pose.update(1.0f / 60);
    // E shown in the second group; a negative value counts as shown under Cubism 2's rules.
    for (int k = 0; k < 60; ++k) {
      pose.steer(written({{D, 0.0f}, {E, cubism2 ? -0.5f : 1.0f}}));
      pose.update(1.0f / 60);
    }
    ASSERT_FLOAT_EQ(pose.part_opacity()[E], 1.0f) << cubism2;
    ASSERT_FLOAT_EQ(pose.part_opacity()[D], 0.0f) << cubism2;
    // Both hidden: Cubism 2 shows the group's first entry at once; Cubism 3 falls back to the
    // absolute entry 0, which only the first group has, and this group fades out.
    pose.steer(written({{D, 0.0f}, {E, 0.0f}}));
    pose.update(1.0f / 60);
    EXPECT_FLOAT_EQ(pose.part_opacity()[D], cubism2 ? 1.0f : 0.0f) << cubism2;
    EXPECT_FLOAT_EQ(pose.part_opacity()[E], 0.0f) << cubism2;
  }
}

}  // namespace
