// Per-pixel arithmetic of the software renderer: texture sampling, the W3C blend functions
// and the compositing of a premultiplied source into a premultiplied destination by a colour
// blend mode and an alpha blend mode (docs/RUNTIME.md, "Rendering"). Everything is float
// and NaN-safe: every value written back to a surface is clamped to 0..1, a NaN becoming 0.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "p2l/render.hpp"

namespace p2l::render {

// Colour blend modes, numbered as P2L_BLEND_*.
enum BlendMode : std::uint8_t {
  kBlendNormal = 0,
  kBlendCubismAdd = 1,
  kBlendCubismMultiply = 2,
  kBlendAdd = 3,
  kBlendAddGlow = 4,
  kBlendDarken = 5,
  kBlendMultiply = 6,
  kBlendColorBurn = 7,
  kBlendLinearBurn = 8,
  kBlendLighten = 9,
  kBlendScreen = 10,
  kBlendColorDodge = 11,
  kBlendOverlay = 12,
  kBlendSoftLight = 13,
  kBlendHardLight = 14,
  kBlendLinearLight = 15,
  kBlendHue = 16,
  kBlendColor = 17,
};

// Alpha blend modes, numbered as P2L_ALPHA_*.
enum AlphaMode : std::uint8_t {
  kAlphaOver = 0,
  kAlphaAtop = 1,
  kAlphaOut = 2,
  kAlphaConjointOver = 3,
  kAlphaDisjointOver = 4,
};

// [v] limited to 0..1; NaN gives 0.
inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }
inline float min_f(float a, float b) { return b < a ? b : a; }
inline float max_f(float a, float b) { return a < b ? b : a; }

// n / 255 for every byte value, as the division gives it.
inline constexpr std::array<float, 256> kByteToUnit = [] {
  std::array<float, 256> t{};
  for (int i = 0; i < 256; ++i) t[static_cast<std::size_t>(i)] = static_cast<float>(i) / 255.0f;
  return t;
}();

// Where a texture coordinate falls between texel centres along an axis of [size] texels:
// the lower texel, the upper one (the edge texel repeats) and the weight of the upper one.
struct Tap {
  std::uint32_t lo, hi;
  float t;
};
inline Tap tap(float coordinate, std::uint32_t size) {
  const float last = static_cast<float>(size - 1);
  float f = coordinate * static_cast<float>(size) - 0.5f;
  f = f > 0.0f ? f : 0.0f;  // NaN gives 0
  f = f < last ? f : last;
  const auto lo = static_cast<std::uint32_t>(static_cast<std::int32_t>(f));  // f < 2^28
  return {lo, lo + 1 < size ? lo + 1 : lo, f - static_cast<float>(lo)};
}

// The texture bilinearly at (u, v) as premultiplied 0..1 floats into [out]: texel centres at
// +0.5, the coordinates clamped to the centres of the edge texels. [t] is non-empty. Returns
// whether the alpha is above 0; [out] holds the colour only then.
inline bool sample(const Image& t, float u, float v, float out[4]) {
  const Tap x = tap(u, t.width), y = tap(v, t.height);
  const std::uint8_t* base = t.rgba.data();
  const std::size_t w = t.width;
  const std::uint8_t* p00 = base + (y.lo * w + x.lo) * 4;
  const std::uint8_t* p10 = base + (y.lo * w + x.hi) * 4;
  const std::uint8_t* p01 = base + (y.hi * w + x.lo) * 4;
  const std::uint8_t* p11 = base + (y.hi * w + x.hi) * 4;
  const float a00 = kByteToUnit[p00[3]], a10 = kByteToUnit[p10[3]];
  const float a01 = kByteToUnit[p01[3]], a11 = kByteToUnit[p11[3]];
  const float ty = 1.0f - y.t;
  out[3] = (a00 + (a10 - a00) * x.t) * ty + (a01 + (a11 - a01) * x.t) * y.t;
  if (!(out[3] > 0.0f)) return false;
  for (int c = 0; c < 3; ++c) {
    const float c00 = kByteToUnit[p00[c]] * a00, c10 = kByteToUnit[p10[c]] * a10;
    const float c01 = kByteToUnit[p01[c]] * a01, c11 = kByteToUnit[p11[c]] * a11;
    out[c] = (c00 + (c10 - c00) * x.t) * ty + (c01 + (c11 - c01) * x.t) * y.t;
  }
  return true;
}

// The alpha channel of sample(): what a mask covers.
inline float sample_alpha(const Image& t, float u, float v) {
  const Tap x = tap(u, t.width), y = tap(v, t.height);
  const std::uint8_t* base = t.rgba.data();
  const std::size_t w = t.width;
  const float a00 = kByteToUnit[base[(y.lo * w + x.lo) * 4 + 3]], a10 = kByteToUnit[base[(y.lo * w + x.hi) * 4 + 3]];
  const float a01 = kByteToUnit[base[(y.hi * w + x.lo) * 4 + 3]], a11 = kByteToUnit[base[(y.hi * w + x.hi) * 4 + 3]];
  return (a00 + (a10 - a00) * x.t) * (1.0f - y.t) + (a01 + (a11 - a01) * x.t) * y.t;
}

// The W3C hard-light function of source [s] over backdrop [b]; overlay swaps the roles.
inline float hard_light(float s, float b) {
  if (s <= 0.5f) return b * 2.0f * s;
  const float t = 2.0f * s - 1.0f;
  return b + t - b * t;
}

// B(Cb, Cs) for a separable mode, source [s] over backdrop [b], both unpremultiplied 0..1.
inline float blend_channel(std::uint8_t mode, float s, float b) {
  switch (mode) {
    case kBlendCubismAdd:
    case kBlendAdd:
    case kBlendAddGlow:
      return min_f(s + b, 1.0f);
    case kBlendCubismMultiply:
    case kBlendMultiply:
      return s * b;
    case kBlendScreen:
      return s + b - s * b;
    case kBlendDarken:
      return min_f(s, b);
    case kBlendLighten:
      return max_f(s, b);
    case kBlendOverlay:
      return hard_light(b, s);
    case kBlendHardLight:
      return hard_light(s, b);
    case kBlendColorDodge:
      if (b == 0.0f) return 0.0f;
      if (s >= 1.0f) return 1.0f;
      return min_f(b / (1.0f - s), 1.0f);
    case kBlendColorBurn:
      if (b >= 1.0f) return 1.0f;
      if (s <= 0.0f) return 0.0f;
      return 1.0f - min_f((1.0f - b) / s, 1.0f);
    case kBlendLinearBurn:
      return max_f(s + b - 1.0f, 0.0f);
    case kBlendLinearLight:
      return clamp01(b + 2.0f * s - 1.0f);
    case kBlendSoftLight: {
      if (s <= 0.5f) return b - (1.0f - 2.0f * s) * b * (1.0f - b);
      const float d = b <= 0.25f ? ((16.0f * b - 12.0f) * b + 4.0f) * b : std::sqrt(b);
      return b + (2.0f * s - 1.0f) * (d - b);
    }
    default:  // normal, and numbers past the known modes
      return s;
  }
}

// The non-separable helpers of the W3C specification (luminosity 0.3, 0.59, 0.11).
inline float luminosity(const float c[3]) { return 0.3f * c[0] + 0.59f * c[1] + 0.11f * c[2]; }

inline void clip_color(float c[3]) {
  const float l = luminosity(c);
  const float lo = min_f(min_f(c[0], c[1]), c[2]), hi = max_f(max_f(c[0], c[1]), c[2]);
  if (lo < 0.0f)
    for (int i = 0; i < 3; ++i) c[i] = l + (c[i] - l) * l / (l - lo);
  if (hi > 1.0f)
    for (int i = 0; i < 3; ++i) c[i] = l + (c[i] - l) * (1.0f - l) / (hi - l);
}

inline void set_luminosity(float c[3], float l) {
  const float d = l - luminosity(c);
  for (int i = 0; i < 3; ++i) c[i] += d;
  clip_color(c);
}

inline float saturation(const float c[3]) {
  return max_f(max_f(c[0], c[1]), c[2]) - min_f(min_f(c[0], c[1]), c[2]);
}

// [c] with saturation [s], keeping its hue: the channels ordered by value (equal values keep
// channel order), the smallest to 0, the largest to s, the middle one scaled between.
inline void set_saturation(float c[3], float s) {
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && c[order[j]] < c[order[j - 1]]; --j) {
      const int k = order[j];
      order[j] = order[j - 1];
      order[j - 1] = k;
    }
  const int lo = order[0], mid = order[1], hi = order[2];
  float out[3] = {0.0f, 0.0f, 0.0f};
  if (c[hi] > c[lo]) {
    out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo]);
    out[hi] = s;
  }
  for (int i = 0; i < 3; ++i) c[i] = out[i];
}

// B(Cb, Cs) for every mode into [out]: [cs] the source colour, [cb] the backdrop's.
inline void blend_color(std::uint8_t mode, const float cs[3], const float cb[3], float out[3]) {
  if (mode == kBlendHue) {
    for (int i = 0; i < 3; ++i) out[i] = cs[i];
    set_saturation(out, saturation(cb));
    set_luminosity(out, luminosity(cb));
  } else if (mode == kBlendColor) {
    for (int i = 0; i < 3; ++i) out[i] = cs[i];
    set_luminosity(out, luminosity(cb));
  } else {
    for (int i = 0; i < 3; ++i) out[i] = blend_channel(mode, cs[i], cb[i]);
  }
}

// Composites the premultiplied source (sr, sg, sb, sa) into the premultiplied pixel [d].
inline void composite(std::uint8_t mode, std::uint8_t alpha, float* d, float sr, float sg, float sb, float sa) {
  if (mode == kBlendCubismAdd) {  // any alpha mode; the destination keeps its alpha
    d[0] = clamp01(sr + d[0]);
    d[1] = clamp01(sg + d[1]);
    d[2] = clamp01(sb + d[2]);
    return;
  }
  if (mode == kBlendCubismMultiply) {
    const float keep = 1.0f - sa;
    d[0] = clamp01(sr * d[0] + d[0] * keep);
    d[1] = clamp01(sg * d[1] + d[1] * keep);
    d[2] = clamp01(sb * d[2] + d[2] * keep);
    return;
  }
  if (mode == kBlendNormal && alpha == kAlphaOver) {
    const float keep = 1.0f - sa;
    d[0] = clamp01(sr + d[0] * keep);
    d[1] = clamp01(sg + d[1] * keep);
    d[2] = clamp01(sb + d[2] * keep);
    d[3] = clamp01(sa + d[3] * keep);
    return;
  }
  const float da = d[3];
  float cs[3] = {0.0f, 0.0f, 0.0f}, cb[3] = {0.0f, 0.0f, 0.0f};
  if (sa > 0.0f) {
    cs[0] = clamp01(sr / sa);
    cs[1] = clamp01(sg / sa);
    cs[2] = clamp01(sb / sa);
  }
  if (da > 0.0f) {
    cb[0] = clamp01(d[0] / da);
    cb[1] = clamp01(d[1] / da);
    cb[2] = clamp01(d[2] / da);
  }
  float mixed[3];
  blend_color(mode, cs, cb, mixed);
  float overlap;
  float fa = 1.0f, fb = 1.0f - sa;
  switch (alpha) {
    case kAlphaAtop:
      overlap = sa * da;
      fa = da;
      break;
    case kAlphaOut:
      overlap = sa * da;
      fa = 0.0f;
      break;
    case kAlphaConjointOver:
      overlap = min_f(sa, da);
      fb = (da <= 0.0f || sa >= da) ? 0.0f : 1.0f - sa / da;
      break;
    case kAlphaDisjointOver:
      overlap = max_f(sa + da - 1.0f, 0.0f);
      fb = da <= 0.0f ? 0.0f : min_f((1.0f - sa) / da, 1.0f);
      break;
    default:  // over, and numbers past the known modes
      overlap = sa * da;
      break;
  }
  const float w = sa > 0.0f ? overlap / sa : 0.0f;
  const float s = sa * fa, b = da * fb;
  for (int i = 0; i < 3; ++i) d[i] = clamp01(s * ((1.0f - w) * cs[i] + w * mixed[i]) + b * cb[i]);
  d[3] = clamp01(s + b);
}

}  // namespace p2l::render
