// Point-in-mesh tests for hit areas (p2l_hit_test).
#pragma once

#include <cstdint>
#include <span>

namespace p2l {

// Whether canvas point (x, y) lies in one of the triangles [indices] (three per triangle)
// makes of [vertices] (x, y per vertex). A point on an edge or a corner counts; triangles
// may wind either way. Triangles that reference a missing vertex or have a non-finite
// corner are skipped, and a non-finite point is never inside.
bool mesh_contains(std::span<const float> vertices, std::span<const std::uint32_t> indices, float x, float y);

}  // namespace p2l
