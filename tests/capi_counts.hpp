// What a host may address on the rigs of one P2lModel, read once through the C API: the
// counts and ranges that random call sequences (tests/thread_stress_test.cpp, bench/soak.cpp)
// draw their indices and values from.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "p2l/p2l.h"

namespace p2l_test {

struct CapiCounts {
  std::uint32_t parameters = 0, meshes = 0, parts = 0, clips = 0, expressions = 0, pose_groups = 0, hit_areas = 0,
                bones = 0, advanced = 0;
  std::vector<std::uint32_t> pose_sizes;          // entries of each pose group
  std::vector<std::array<float, 2>> ranges;       // each parameter's minimum and maximum
  float width = 0, height = 0;                    // the canvas
};

// The counts of [rig] (any rig of the model: they are the model's).
inline CapiCounts read_capi_counts(const P2lRig* rig) {
  CapiCounts c;
  c.parameters = p2l_parameter_count(rig);
  c.meshes = p2l_mesh_count(rig);
  c.parts = p2l_part_count(rig);
  c.clips = p2l_clip_count(rig);
  c.expressions = p2l_expression_count(rig);
  c.pose_groups = p2l_pose_group_count(rig);
  c.hit_areas = p2l_hit_area_count(rig);
  c.bones = p2l_bone_count(rig);
  c.advanced = p2l_advanced_available(rig);
  for (std::uint32_t g = 0; g < c.pose_groups; ++g) c.pose_sizes.push_back(p2l_pose_group_size(rig, g));
  for (std::uint32_t i = 0; i < c.parameters; ++i) {
    float lo = 0, hi = 0, def = 0;
    p2l_parameter_range(rig, i, &lo, &hi, &def);
    c.ranges.push_back({lo, hi});
  }
  p2l_canvas(rig, &c.width, &c.height);
  return c;
}

}  // namespace p2l_test
