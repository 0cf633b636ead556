// p2l::Affine: a 2D affine map x' = a x + b y + tx, y' = c x + d y + ty. The renderer takes
// one (canvas pixels to image pixels); bones give one (p2l_bone_transform: a bone's local
// space to canvas pixels).
#pragma once

namespace p2l {

struct Affine {
  float a = 1, b = 0, c = 0, d = 1, tx = 0, ty = 0;
};

// [outer] after [inner]: the map that applies inner first.
inline Affine compose(const Affine& outer, const Affine& inner) {
  return {outer.a * inner.a + outer.b * inner.c, outer.a * inner.b + outer.b * inner.d,
          outer.c * inner.a + outer.d * inner.c, outer.c * inner.b + outer.d * inner.d,
          outer.a * inner.tx + outer.b * inner.ty + outer.tx, outer.c * inner.tx + outer.d * inner.ty + outer.ty};
}

// The inverse map; a singular one (|det| <= 1e-12) collapses to its translation's negation.
inline Affine inverse(const Affine& m) {
  const float det = m.a * m.d - m.b * m.c;
  const float inv = (det > 1e-12f || det < -1e-12f) ? 1.0f / det : 0.0f;
  const float a = m.d * inv, b = -m.b * inv, c = -m.c * inv, d = m.a * inv;
  return {a, b, c, d, -(a * m.tx + b * m.ty), -(c * m.tx + d * m.ty)};
}

inline void apply(const Affine& m, float x, float y, float& ox, float& oy) {
  ox = m.a * x + m.b * y + m.tx;
  oy = m.c * x + m.d * y + m.ty;
}

}  // namespace p2l
