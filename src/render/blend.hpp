// Per-pixel arithmetic of the software renderer: texture sampling, and the compositing of a
// fragment into a premultiplied destination by a colour blend mode and an alpha blend mode,
// by the formulas of the Cubism 5 R5 Framework's blend shaders (docs/RUNTIME.md, "Rendering",
// "Compositing"; written from the formulas, not from its code). Everything is float and
// NaN-safe: every value written back to a surface is clamped to 0..1, a NaN becoming 0.
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

// The colour blend functions B(Cs, Cd) of the Cubism 5 R5 Framework (its colour-blend
// shader, FragShaderSrcColorBlend.frag), source [s] and destination [d] straight colour
// channels, not clamped. Modes 1 and 2 (and 0 with OVER) never get here: they composite by
// fixed-function blending (composite() below).
inline float blend_channel(std::uint8_t mode, float s, float d) {
  switch (mode) {
    case kBlendAdd:
      return min_f(s + d, 1.0f);
    case kBlendAddGlow:
      return s + d;
    case kBlendDarken:
      return min_f(s, d);
    case kBlendMultiply:
      return s * d;
    case kBlendColorBurn:
      if (std::fabs(d - 1.0f) < 0.000001f) return 1.0f;
      if (std::fabs(s) < 0.000001f) return 0.0f;
      return 1.0f - min_f(1.0f, (1.0f - d) / s);
    case kBlendLinearBurn:
      return max_f(0.0f, s + d - 1.0f);
    case kBlendLighten:
      return max_f(s, d);
    case kBlendScreen:
      return s + d - s * d;
    case kBlendColorDodge:
      if (d <= 0.0f) return 0.0f;
      if (s == 1.0f) return 1.0f;
      return min_f(1.0f, d / (1.0f - s));
    case kBlendOverlay:
      return d < 0.5f ? 2.0f * s * d : 1.0f - 2.0f * (1.0f - s) * (1.0f - d);
    case kBlendSoftLight:
      if (s <= 0.5f) return d - (1.0f - 2.0f * s) * d * (1.0f - d);
      if (d <= 0.25f) return d + (2.0f * s - 1.0f) * d * ((16.0f * d - 12.0f) * d + 3.0f);
      return d + (2.0f * s - 1.0f) * (std::sqrt(d) - d);
    case kBlendHardLight:
      return s < 0.5f ? 2.0f * s * d : 1.0f - 2.0f * (1.0f - s) * (1.0f - d);
    case kBlendLinearLight:
      return s < 0.5f ? max_f(0.0f, 2.0f * s + d - 1.0f) : min_f(1.0f, 2.0f * (s - 0.5f) + d);
    default:  // normal, and numbers past the known modes
      return s;
  }
}

// The non-separable helpers of the same shader (luma 0.30, 0.59, 0.11).
inline float luma(const float c[3]) { return 0.3f * c[0] + 0.59f * c[1] + 0.11f * c[2]; }
inline float max3(const float c[3]) { return max_f(c[0], max_f(c[1], c[2])); }
inline float min3(const float c[3]) { return min_f(c[0], min_f(c[1], c[2])); }

// ClipColor: luma, smallest and largest channel taken once, before either step.
inline void clip_color(float c[3]) {
  const float l = luma(c), lo = min3(c), hi = max3(c);
  if (lo < 0.0f)
    for (int i = 0; i < 3; ++i) c[i] = l + (c[i] - l) * l / (l - lo);
  if (hi > 1.0f)
    for (int i = 0; i < 3; ++i) c[i] = l + (c[i] - l) * (1.0f - l) / (hi - l);
}

inline void set_luma(float c[3], float l) {
  const float d = l - luma(c);
  for (int i = 0; i < 3; ++i) c[i] += d;
  clip_color(c);
}

// SetSaturation: the largest channel to [s], the middle one scaled, the smallest to 0 (all 0
// when the channels are equal), which channel is which decided by the shader's comparisons.
inline void set_saturation(float c[3], float s) {
  const float hi = max3(c), lo = min3(c);
  const float mid = c[0] + c[1] + c[2] - hi - lo;
  const float out_hi = lo < hi ? s : 0.0f;
  const float out_mid = lo < hi ? (mid - lo) * s / (hi - lo) : 0.0f;
  const float out_lo = 0.0f;
  float r, g, b;
  if (c[0] == hi) {
    r = out_hi;
    if (c[2] < c[1]) g = out_mid, b = out_lo;
    else g = out_lo, b = out_mid;
  } else if (c[1] == hi) {
    g = out_hi;
    if (c[0] < c[2]) r = out_lo, b = out_mid;
    else r = out_mid, b = out_lo;
  } else {
    b = out_hi;
    if (c[1] < c[0]) r = out_mid, g = out_lo;
    else r = out_lo, g = out_mid;
  }
  c[0] = r;
  c[1] = g;
  c[2] = b;
}

// B(Cs, Cd) for every mode into [out]: [cs] the source's straight colour, [cd] the
// destination's.
inline void blend_color(std::uint8_t mode, const float cs[3], const float cd[3], float out[3]) {
  if (mode == kBlendHue) {
    for (int i = 0; i < 3; ++i) out[i] = cs[i];
    set_saturation(out, max3(cd) - min3(cd));
    set_luma(out, luma(cd));
  } else if (mode == kBlendColor) {
    for (int i = 0; i < 3; ++i) out[i] = cs[i];
    set_luma(out, luma(cd));
  } else {
    for (int i = 0; i < 3; ++i) out[i] = blend_channel(mode, cs[i], cd[i]);
  }
}

// Whether the pair composites by the Framework's fixed-function (GL blend) path: NORMAL with
// OVER, and ADD_COMPATIBLE and MULTIPLY_COMPATIBLE with any alpha mode.
inline bool fixed_function(std::uint8_t mode, std::uint8_t alpha) {
  return mode == kBlendCubismAdd || mode == kBlendCubismMultiply ||
         ((mode == kBlendNormal || mode > kBlendColor) && (alpha == kAlphaOver || alpha > kAlphaDisjointOver));
}

// The threshold of the Framework's premultiplied-to-straight conversion.
inline constexpr float kStraightAlphaMin = 0.00001f;

// Composites a fragment into the premultiplied pixel [d]: [p] its premultiplied colour and [a]
// its alpha (texel or layer pixel, recoloured, times opacity), [m] the mask value (1 without
// masks). By the Cubism 5 R5 Framework:
//  - fixed-function pairs: the source is (p·m, a·m), then GL's blend equation;
//  - every other pair (its blend shader): Cs = p / a (0 when a < 1e-5), As = a·m, the
//    destination made straight the same way, then AlphaBlend(ColorBlend(Cs, Cd)).
// Every value written is clamped to 0..1 (a NaN becomes 0), as an RGBA8 target clamps.
inline void composite(std::uint8_t mode, std::uint8_t alpha, float* d, const float p[3], float a, float m) {
  if (mode == kBlendCubismAdd) {  // ONE, ONE / ZERO, ONE: the destination keeps its alpha
    for (int i = 0; i < 3; ++i) d[i] = clamp01(p[i] * m + d[i]);
    return;
  }
  if (mode == kBlendCubismMultiply) {  // DST_COLOR, ONE_MINUS_SRC_ALPHA / ZERO, ONE
    const float keep = 1.0f - a * m;
    for (int i = 0; i < 3; ++i) d[i] = clamp01(p[i] * m * d[i] + d[i] * keep);
    return;
  }
  if (fixed_function(mode, alpha)) {  // ONE, ONE_MINUS_SRC_ALPHA for colour and alpha
    const float sa = a * m, keep = 1.0f - sa;
    for (int i = 0; i < 3; ++i) d[i] = clamp01(p[i] * m + d[i] * keep);
    d[3] = clamp01(sa + d[3] * keep);
    return;
  }
  float cs[3] = {0.0f, 0.0f, 0.0f}, cd[3] = {0.0f, 0.0f, 0.0f};
  if (!(std::fabs(a) < kStraightAlphaMin))
    for (int i = 0; i < 3; ++i) cs[i] = p[i] / a;
  const float sa = a * m, da = d[3];
  if (!(std::fabs(da) < kStraightAlphaMin))
    for (int i = 0; i < 3; ++i) cd[i] = d[i] / da;
  float mixed[3];
  blend_color(mode, cs, cd, mixed);
  // AlphaBlend's weights of the blended colour, the source's and the destination's.
  float both, src, dst;
  switch (alpha) {
    case kAlphaAtop:
      both = sa * da, src = 0.0f, dst = da * (1.0f - sa);
      break;
    case kAlphaOut:
      both = 0.0f, src = 0.0f, dst = da * (1.0f - sa);
      break;
    case kAlphaConjointOver:
      both = min_f(sa, da), src = max_f(sa - da, 0.0f), dst = max_f(da - sa, 0.0f);
      break;
    case kAlphaDisjointOver:
      both = max_f(sa + da - 1.0f, 0.0f), src = min_f(sa, 1.0f - da), dst = min_f(da, 1.0f - sa);
      break;
    default:  // over, and numbers past the known modes
      both = sa * da, src = sa * (1.0f - da), dst = da * (1.0f - sa);
      break;
  }
  for (int i = 0; i < 3; ++i) d[i] = clamp01(mixed[i] * both + cs[i] * src + cd[i] * dst);
  d[3] = clamp01(both + src + dst);
}

}  // namespace p2l::render
