#include "eval/hit_test.hpp"

#include <algorithm>
#include <cmath>

namespace p2l {
namespace {

struct Point {
  double x, y;
};

// Twice the signed area of (a, b, p): positive on one side of the line a-b, negative on the
// other, zero on it.
double side(Point a, Point b, Point p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); }

bool triangle_contains(Point a, Point b, Point c, Point p) {
  // The bounding box first: it rejects most triangles, and it keeps a point on the line of a
  // degenerate (zero-area) triangle but outside it from passing the side tests below.
  if (p.x < std::min({a.x, b.x, c.x}) || p.x > std::max({a.x, b.x, c.x})) return false;
  if (p.y < std::min({a.y, b.y, c.y}) || p.y > std::max({a.y, b.y, c.y})) return false;
  double s1 = side(a, b, p), s2 = side(b, c, p), s3 = side(c, a, p);
  bool negative = s1 < 0 || s2 < 0 || s3 < 0;
  bool positive = s1 > 0 || s2 > 0 || s3 > 0;
  return !(negative && positive);  // never on both sides: inside or on an edge, either winding
}

}  // namespace

bool mesh_contains(std::span<const float> vertices, std::span<const std::uint32_t> indices, float x, float y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  const std::size_t vertex_count = vertices.size() / 2;
  const Point p{x, y};
  auto corner = [&](std::uint32_t i, Point& out) {
    if (i >= vertex_count) return false;
    float cx = vertices[2 * std::size_t{i}], cy = vertices[2 * std::size_t{i} + 1];
    if (!std::isfinite(cx) || !std::isfinite(cy)) return false;
    out = {cx, cy};
    return true;
  };
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    Point a{}, b{}, c{};
    if (!corner(indices[t], a) || !corner(indices[t + 1], b) || !corner(indices[t + 2], c)) continue;
    if (triangle_contains(a, b, c, p)) return true;
  }
  return false;
}

}  // namespace p2l
