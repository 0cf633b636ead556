// The composite of a fragment into a premultiplied destination by colour blend uBlend
// (P2L_BLEND_*) and alpha blend uAlphaBlend (P2L_ALPHA_*), for the pairs of the Cubism 5 R5
// Framework's blend-shader path: both made straight (0 below an alpha of 1e-5),
// ColorBlend(Cs, Cd), then AlphaBlend's weights (docs/RUNTIME.md, "Compositing"); the same
// arithmetic as src/render/blend.hpp.
uniform int uBlend;
uniform int uAlphaBlend;
uniform sampler2D uBackdrop;

float blendChannel(int mode, float s, float d) {
  switch (mode) {
    case 3: return min(s + d, 1.0);
    case 4: return s + d;
    case 5: return min(s, d);
    case 6: return s * d;
    case 7:
      if (abs(d - 1.0) < 0.000001) return 1.0;
      if (abs(s) < 0.000001) return 0.0;
      return 1.0 - min(1.0, (1.0 - d) / s);
    case 8: return max(0.0, s + d - 1.0);
    case 9: return max(s, d);
    case 10: return s + d - s * d;
    case 11:
      if (d <= 0.0) return 0.0;
      if (s == 1.0) return 1.0;
      return min(1.0, d / (1.0 - s));
    case 12: return d < 0.5 ? 2.0 * s * d : 1.0 - 2.0 * (1.0 - s) * (1.0 - d);
    case 13:
      if (s <= 0.5) return d - (1.0 - 2.0 * s) * d * (1.0 - d);
      if (d <= 0.25) return d + (2.0 * s - 1.0) * d * ((16.0 * d - 12.0) * d + 3.0);
      return d + (2.0 * s - 1.0) * (sqrt(d) - d);
    case 14: return s < 0.5 ? 2.0 * s * d : 1.0 - 2.0 * (1.0 - s) * (1.0 - d);
    case 15: return s < 0.5 ? max(0.0, 2.0 * s + d - 1.0) : min(1.0, 2.0 * (s - 0.5) + d);
    default: return s;
  }
}

float luma(vec3 c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }
float max3(vec3 c) { return max(c.r, max(c.g, c.b)); }
float min3(vec3 c) { return min(c.r, min(c.g, c.b)); }

vec3 clipColor(vec3 c) {
  float l = luma(c), lo = min3(c), hi = max3(c);
  if (lo < 0.0) c = l + (c - l) * l / (l - lo);
  if (hi > 1.0) c = l + (c - l) * (1.0 - l) / (hi - l);
  return c;
}

vec3 setLuma(vec3 c, float l) { return clipColor(c + (l - luma(c))); }

// The largest channel to s, the middle one scaled, the smallest to 0, which is which decided
// by the Framework's comparisons (docs/RUNTIME.md, SetSaturation).
vec3 setSaturation(vec3 c, float s) {
  float hi = max3(c), lo = min3(c), mid = c.r + c.g + c.b - hi - lo;
  float oHi = lo < hi ? s : 0.0;
  float oMid = lo < hi ? (mid - lo) * s / (hi - lo) : 0.0;
  if (c.r == hi) return c.b < c.g ? vec3(oHi, oMid, 0.0) : vec3(oHi, 0.0, oMid);
  if (c.g == hi) return c.r < c.b ? vec3(0.0, oHi, oMid) : vec3(oMid, oHi, 0.0);
  return c.g < c.r ? vec3(oMid, 0.0, oHi) : vec3(0.0, oMid, oHi);
}

vec3 colorBlend(int mode, vec3 cs, vec3 cd) {
  if (mode == 16) return setLuma(setSaturation(cs, max3(cd) - min3(cd)), luma(cd));
  if (mode == 17) return setLuma(cs, luma(cd));
  return vec3(blendChannel(mode, cs.r, cd.r), blendChannel(mode, cs.g, cd.g), blendChannel(mode, cs.b, cd.b));
}

vec3 straight(vec4 c) { return abs(c.a) < 0.00001 ? vec3(0.0) : c.rgb / c.a; }

vec4 composite(vec4 d, vec4 s, float m) {
  vec3 cs = straight(s), cd = straight(d);
  float sA = s.a * m, dA = d.a;
  vec3 w = vec3(sA * dA, sA * (1.0 - dA), dA * (1.0 - sA));            // over
  if (uAlphaBlend == 1) w = vec3(sA * dA, 0.0, dA * (1.0 - sA));       // atop
  else if (uAlphaBlend == 2) w = vec3(0.0, 0.0, dA * (1.0 - sA));      // out
  else if (uAlphaBlend == 3) w = vec3(min(sA, dA), max(sA - dA, 0.0), max(dA - sA, 0.0));
  else if (uAlphaBlend == 4) w = vec3(max(sA + dA - 1.0, 0.0), min(sA, 1.0 - dA), min(dA, 1.0 - sA));
  vec3 b = colorBlend(uBlend, cs, cd);
  return clamp(vec4(b * w.x + cs * w.y + cd * w.z, w.x + w.y + w.z), 0.0, 1.0);
}
