// The Cubism 2.1 runtime's deformer arithmetic (cubism2_frames.hpp): doubles between float
// buffers. Where the arithmetic is the scheme the Cubism Core kept (the ring around a warp),
// the formula is warp_ring.hpp's.
#include "eval/cubism2_frames.hpp"

#include "base/libm.hpp"

namespace p2l::eval {
namespace {

constexpr double kPi = 3.141592653589793;

RingPoint<double> lattice(const Cubism2Frame& f, std::uint32_t c, std::uint32_t r) {
  const std::size_t i = (static_cast<std::size_t>(r) * (f.columns + 1) + c) * 2;
  return {f.points[i], f.points[i + 1]};
}

// A point in the lattice's unit square: the runtime splits each cell into two triangles, the
// first where fu + fv < 1 (strictly: the Core's moc3 rule takes the diagonal into it).
RingPoint<double> map_warp(const Cubism2Frame& f, double u, double v) {
  const double gu = u * f.columns, gv = v * f.rows;
  // (Written so that NaN goes outside, where no cell is looked up.)
  if (!(gu >= 0 && gv >= 0 && gu < f.columns && gv < f.rows))
    return ring_point(f.ring, [&](std::uint32_t c, std::uint32_t r) { return lattice(f, c, r); }, f.columns, f.rows, u, v);
  const auto cu = static_cast<std::uint32_t>(gu), cv = static_cast<std::uint32_t>(gv);
  const double fu = gu - cu, fv = gv - cv;
  const RingPoint<double> p00 = lattice(f, cu, cv), p10 = lattice(f, cu + 1, cv), p01 = lattice(f, cu, cv + 1);
  const RingPoint<double> p11 = lattice(f, cu + 1, cv + 1);
  // Both triangles, then a choice without a branch (which triangle a point falls in is as good
  // as random: a branch would be mispredicted half the time).
  const double w0 = 1 - fu - fv, w1 = fu - 1 + fv;
  const RingPoint<double> first{p00.x * w0 + p10.x * fu + p01.x * fv, p00.y * w0 + p10.y * fu + p01.y * fv};
  const RingPoint<double> second{p11.x * w1 + p01.x * (1 - fu) + p10.x * (1 - fv), p11.y * w1 + p01.y * (1 - fu) + p10.y * (1 - fv)};
  const bool lower = fu + fv < 1;
  return {lower ? first.x : second.x, lower ? first.y : second.y};
}

RingPoint<double> map(const Cubism2Frame& f, double x, double y) {
  if (f.warp) return map_warp(f, x, y);
  return {f.m00 * x + f.m01 * y + f.x, f.m10 * x + f.m11 * y + f.y};
}

// A point mapped and stored as the runtime stores it: in a float array.
void map_stored(const Cubism2Frame& f, float x, float y, float& out_x, float& out_y) {
  const RingPoint<double> p = map(f, x, y);
  out_x = static_cast<float>(p.x);
  out_y = static_cast<float>(p.y);
}

}  // namespace

Cubism2Frame cubism2_warp(const float* points, std::uint32_t columns, std::uint32_t rows) {
  Cubism2Frame f;
  f.warp = true;
  f.columns = columns;
  f.rows = rows;
  f.points = points;
  f.ring = ring_frame(lattice(f, 0, 0), lattice(f, columns, 0), lattice(f, 0, rows), lattice(f, columns, rows));
  return f;
}

Cubism2Frame cubism2_rotation(const Cubism2Rotation& in, const Cubism2Frame* parent, float last_direction[2]) {
  Cubism2Frame f;
  f.warp = false;
  double angle = in.angle;
  f.total_scale = in.scale;
  if (!parent) {
    f.x = in.x;
    f.y = in.y;
  } else {
    // The runtime's probe and its points live in float arrays.
    const float ox = static_cast<float>(in.x), oy = static_cast<float>(in.y);
    const float probe = parent->warp ? -0.1f : -10.0f;
    float tx, ty;
    map_stored(*parent, ox, oy, tx, ty);
    double k = 1;
    for (int tries = 0; tries < 10; ++tries, k *= 0.1) {
      float ax, ay;
      map_stored(*parent, ox, static_cast<float>(oy + k * probe), ax, ay);
      float dx = static_cast<float>(ax - static_cast<double>(tx)), dy = static_cast<float>(ay - static_cast<double>(ty));
      if (dx == 0 && dy == 0) {
        map_stored(*parent, ox, static_cast<float>(oy - k * probe), ax, ay);
        dx = static_cast<float>(ax - static_cast<double>(tx));
        dy = static_cast<float>(ay - static_cast<double>(ty));
      }
      if (dx != 0 || dy != 0) {
        last_direction[0] = dx;
        last_direction[1] = dy;
        break;
      }
    }
    double turn = libm::atan2(static_cast<double>(probe), 0.0) - libm::atan2(static_cast<double>(last_direction[1]),
                                                                               static_cast<double>(last_direction[0]));
    while (turn < -kPi) turn += 2 * kPi;
    while (turn > kPi) turn -= 2 * kPi;
    f.x = tx;
    f.y = ty;
    angle = in.angle - turn * (180 / kPi);
    f.total_scale = parent->total_scale * in.scale;
  }
  const double radians = kPi / 180 * angle;
  const double s = libm::sin(radians), c = libm::cos(radians), scale = f.total_scale;
  const double rx = in.reflect_x ? -1 : 1, ry = in.reflect_y ? -1 : 1;
  f.m00 = c * scale * rx;
  f.m01 = -s * scale * ry;
  f.m10 = s * scale * rx;
  f.m11 = c * scale * ry;
  return f;
}

void cubism2_map_points(const Cubism2Frame& f, const float* in, float* out, std::size_t n) {
  if (f.warp) {
    for (std::size_t j = 0; j + 1 < n; j += 2) {
      const RingPoint<double> p = map_warp(f, in[j], in[j + 1]);
      out[j] = static_cast<float>(p.x);
      out[j + 1] = static_cast<float>(p.y);
    }
    return;
  }
  for (std::size_t j = 0; j + 1 < n; j += 2) map_stored(f, in[j], in[j + 1], out[j], out[j + 1]);
}

}  // namespace p2l::eval
