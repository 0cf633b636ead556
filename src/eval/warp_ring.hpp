// Where a Cubism warp places a point outside its lattice's unit square: a ring of virtual
// cells two units wide around the lattice, made from an affine frame A(u, v) = origin + u·eu +
// v·ev fitted to the four corners, and the affine frame alone beyond the ring (-2 < u, v < 3).
// The Cubism Core (moc3, single precision: cubism_frames.cpp) and the Cubism 2.1 runtime
// (double precision: cubism2_frames.cpp) place points by the same scheme; this is its one
// copy, in the order of operations the Core's bits were measured with (changing it changes
// them: tests/cubism/fixtures).
#pragma once

#include <cstdint>

namespace p2l::eval {

template <class T>
struct RingPoint {
  T x, y;
};

// The affine frame of a lattice from its corners c00 (u = v = 0), c10, c01 and c11.
template <class T>
struct RingFrame {
  T origin_x = 0, origin_y = 0, eu_x = 0, eu_y = 0, ev_x = 0, ev_y = 0;

  RingPoint<T> at(T u, T v) const { return {origin_x + u * eu_x + v * ev_x, origin_y + u * eu_y + v * ev_y}; }
};

template <class T>
RingFrame<T> ring_frame(RingPoint<T> c00, RingPoint<T> c10, RingPoint<T> c01, RingPoint<T> c11) {
  RingFrame<T> f;
  const T d1x = c11.x - c00.x, d1y = c11.y - c00.y, d2x = c10.x - c01.x, d2y = c10.y - c01.y;
  const T half = static_cast<T>(0.5), quarter = static_cast<T>(0.25);
  f.eu_x = (d1x + d2x) * half;
  f.eu_y = (d1y + d2y) * half;
  f.ev_x = (d1x - d2x) * half;
  f.ev_y = (d1y - d2y) * half;
  f.origin_x = (c00.x + c10.x + c01.x + c11.x) * quarter - d1x * half;
  f.origin_y = (c00.y + c10.y + c01.y + c11.y) * quarter - d1y * half;
  return f;
}

// The lattice cell a coordinate in (0, 1) falls in along an axis of n cells, and where in it.
template <class T>
void ring_cell_of(T w, std::uint32_t n, std::uint32_t& cell, T& frac) {
  const T g = w * static_cast<T>(n);
  cell = static_cast<std::uint32_t>(g);
  if (cell >= n) cell = n - 1;
  frac = g - static_cast<T>(cell);
}

// The ring's cells blend their triangles by edges from a corner, unlike the lattice's own
// cells, which weigh their corners.
template <class T>
RingPoint<T> ring_triangle(RingPoint<T> p00, RingPoint<T> p10, RingPoint<T> p01, RingPoint<T> p11, T fu, T fv) {
  const T one = 1;
  if (fu + fv <= one)
    return {p00.x + (p10.x - p00.x) * fu + (p01.x - p00.x) * fv, p00.y + (p10.y - p00.y) * fu + (p01.y - p00.y) * fv};
  return {p11.x + (p01.x - p11.x) * (one - fu) + (p10.x - p11.x) * (one - fv),
          p11.y + (p01.y - p11.y) * (one - fu) + (p10.y - p11.y) * (one - fv)};
}

// A point (u, v) outside the unit square of a lattice of [cols] x [rows] cells; lattice(c, r)
// gives its point (c, r) as a RingPoint<T>.
template <class T, class Lattice>
RingPoint<T> ring_point(const RingFrame<T>& f, Lattice lattice, std::uint32_t cols, std::uint32_t rows, T u, T v) {
  const T two = 2, three = 3, zero = 0, one = 1;
  if (u <= -two || u >= three || v <= -two || v >= three) return f.at(u, v);
  const T fc = static_cast<T>(cols), fr = static_cast<T>(rows);
  RingPoint<T> p00, p10, p01, p11;
  T fu, fv;
  std::uint32_t cu = 0, cv = 0;
  if (u <= zero) {
    fu = (u + two) / two;
    if (v <= zero) {
      fv = (v + two) / two;
      p00 = f.at(-two, -two), p10 = f.at(zero, -two), p01 = f.at(-two, zero), p11 = lattice(0, 0);
    } else if (v < one) {
      ring_cell_of(v, rows, cv, fv);
      p00 = f.at(-two, static_cast<T>(cv) / fr), p10 = lattice(0, cv);
      p01 = f.at(-two, static_cast<T>(cv + 1) / fr), p11 = lattice(0, cv + 1);
    } else {
      fv = (v - one) / two;
      p00 = f.at(-two, one), p10 = lattice(0, rows), p01 = f.at(-two, three), p11 = f.at(zero, three);
    }
  } else if (u < one) {
    ring_cell_of(u, cols, cu, fu);
    if (v <= zero) {
      fv = (v + two) / two;
      p00 = f.at(static_cast<T>(cu) / fc, -two), p10 = f.at(static_cast<T>(cu + 1) / fc, -two);
      p01 = lattice(cu, 0), p11 = lattice(cu + 1, 0);
    } else {
      fv = (v - one) / two;
      p00 = lattice(cu, rows), p10 = lattice(cu + 1, rows);
      p01 = f.at(static_cast<T>(cu) / fc, three), p11 = f.at(static_cast<T>(cu + 1) / fc, three);
    }
  } else {
    fu = (u - one) / two;
    if (v <= zero) {
      fv = (v + two) / two;
      p00 = f.at(one, -two), p10 = f.at(three, -two), p01 = lattice(cols, 0), p11 = f.at(three, zero);
    } else if (v < one) {
      ring_cell_of(v, rows, cv, fv);
      p00 = lattice(cols, cv), p10 = f.at(three, static_cast<T>(cv) / fr);
      p01 = lattice(cols, cv + 1), p11 = f.at(three, static_cast<T>(cv + 1) / fr);
    } else {
      fv = (v - one) / two;
      p00 = lattice(cols, rows), p10 = f.at(three, one), p01 = f.at(one, three), p11 = f.at(three, three);
    }
  }
  return ring_triangle(p00, p10, p01, p11, fu, fv);
}

}  // namespace p2l::eval
