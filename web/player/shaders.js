// GLSL sources of the WebGL2 renderer. Each program is a "source" (what one fragment adds:
// a mesh's textured colour, or an isolated group's layer) combined with a "write": either the
// source goes to fixed-function blending (the modes blend_modes.js maps exactly), or the
// shader reads the destination from a copy (the backdrop texture) and computes the composite
// of include/p2l/p2l.h / docs/RUNTIME.md "Compositing" itself, the same arithmetic as
// src/render/blend.hpp, writing the result with blending off.
//
// Colours are premultiplied throughout, surfaces are RGBA8 (so every write is clamped to 0..1
// as the software renderer clamps every value it writes back).

const HEADER = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
`;

// Canvas pixels (y down) through the affine [a b tx; c d ty] to surface pixels, then to clip
// space with the drawing's top row at -1: surfaces hold the drawing top row first, so that GL's
// window y is the drawing's y. That is what makes the GPU's fill rule the software
// renderer's: rasterizers resolve pixel centres exactly on an edge by the top-left rule in
// their own y-down framebuffer coordinates, which WebGL implementations (ANGLE over Vulkan,
// D3D or Metal) map to GL's window y; drawn the other way up, a horizontal edge through a
// row of pixel centres would give that row to the triangle on the other side. Every surface
// shares this orientation, so a fragment's gl_FragCoord addresses the same pixel in each; the
// frame is flipped once, when it is copied to the canvas.
const VERTEX = `${HEADER}
in vec2 aPosition;
in vec2 aUv;
uniform vec3 uRow0;
uniform vec3 uRow1;
uniform vec2 uSize;
out vec2 vUv;
void main() {
  vec3 p = vec3(aPosition, 1.0);
  vec2 image = vec2(dot(uRow0, p), dot(uRow1, p));
  vUv = aUv;
  gl_Position = vec4(image.x / uSize.x * 2.0 - 1.0, image.y / uSize.y * 2.0 - 1.0, 0.0, 1.0);
}
`;

// The page holds straight RGBA8 texels. Bilinear filtering is done here rather than by the
// sampler because the rule premultiplies each texel before interpolating (a filtering unit
// interpolates straight colour, which bleeds the colour of transparent texels into edges), and
// clamps coordinates to the edge texels' centres as CLAMP_TO_EDGE does.
const PAGE_SAMPLING = `
uniform sampler2D uPage;
in vec2 vUv;
vec4 texel(ivec2 at) {
  vec4 t = texelFetch(uPage, at, 0);
  return vec4(t.rgb * t.a, t.a);
}
vec4 samplePage(vec2 uv) {
  ivec2 size = textureSize(uPage, 0);
  vec2 f = clamp(uv * vec2(size) - 0.5, vec2(0.0), vec2(size - 1));
  ivec2 lo = ivec2(f);
  ivec2 hi = min(lo + 1, size - 1);
  vec2 t = f - vec2(lo);
  vec4 top = mix(texel(lo), texel(ivec2(hi.x, lo.y)), t.x);
  vec4 bottom = mix(texel(ivec2(lo.x, hi.y)), texel(hi), t.x);
  return mix(top, bottom, t.y);
}
`;

// A mesh's fragment: texel, multiply colour, screen colour, opacity (the mask coverage is the
// stencil test). Texels with no alpha draw nothing, as in the software renderer.
const MESH_SOURCE = `${PAGE_SAMPLING}
uniform vec3 uMultiply;
uniform vec3 uScreen;
uniform float uOpacity;
vec4 source() {
  vec4 c = samplePage(vUv);
  if (!(c.a > 0.0)) discard;
  vec3 rgb = c.rgb * uMultiply;
  rgb = rgb + uScreen * c.a - rgb * uScreen;
  return vec4(rgb, c.a) * uOpacity;
}
`;

// An isolated group's layer pixel, recoloured and faded by the group (docs/RUNTIME.md,
// "Isolated groups"): the colours apply to unpremultiplied colour.
const LAYER_SOURCE = `
uniform sampler2D uLayer;
uniform vec3 uMultiply;
uniform vec3 uScreen;
uniform float uOpacity;
vec4 source() {
  vec4 l = texelFetch(uLayer, ivec2(gl_FragCoord.xy), 0);
  if (!(l.a > 0.0)) discard;
  float a = l.a * uOpacity;
  if (!(a > 0.0)) discard;
  vec3 c = clamp(l.rgb / l.a, 0.0, 1.0) * uMultiply;
  c = c + uScreen - c * uScreen;
  return vec4(c * a, a);
}
`;

// The composite of a premultiplied source into a premultiplied destination by colour blend
// uBlend (P2L_BLEND_*) and alpha blend uAlphaBlend (P2L_ALPHA_*): src/render/blend.hpp's
// composite(), line for line.
const COMPOSITE = `
uniform int uBlend;
uniform int uAlphaBlend;
uniform sampler2D uBackdrop;

float hardLight(float s, float b) {
  if (s <= 0.5) return b * 2.0 * s;
  float t = 2.0 * s - 1.0;
  return b + t - b * t;
}

float blendChannel(int mode, float s, float b) {
  switch (mode) {
    case 1: case 3: case 4: return min(s + b, 1.0);
    case 2: case 6: return s * b;
    case 10: return s + b - s * b;
    case 5: return min(s, b);
    case 9: return max(s, b);
    case 12: return hardLight(b, s);
    case 14: return hardLight(s, b);
    case 11:
      if (b == 0.0) return 0.0;
      if (s >= 1.0) return 1.0;
      return min(b / (1.0 - s), 1.0);
    case 7:
      if (b >= 1.0) return 1.0;
      if (s <= 0.0) return 0.0;
      return 1.0 - min((1.0 - b) / s, 1.0);
    case 8: return max(s + b - 1.0, 0.0);
    case 15: return clamp(b + 2.0 * s - 1.0, 0.0, 1.0);
    case 13: {
      if (s <= 0.5) return b - (1.0 - 2.0 * s) * b * (1.0 - b);
      float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
      return b + (2.0 * s - 1.0) * (d - b);
    }
    default: return s;
  }
}

float luminosity(vec3 c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }

vec3 clipColor(vec3 c) {
  float l = luminosity(c);
  float lo = min(min(c.r, c.g), c.b);
  float hi = max(max(c.r, c.g), c.b);
  if (lo < 0.0) c = l + (c - l) * l / (l - lo);
  if (hi > 1.0) c = l + (c - l) * (1.0 - l) / (hi - l);
  return c;
}

vec3 setLuminosity(vec3 c, float l) { return clipColor(c + (l - luminosity(c))); }

float saturation(vec3 c) { return max(max(c.r, c.g), c.b) - min(min(c.r, c.g), c.b); }

// The channels ordered by value (equal values keep channel order), the smallest set to 0, the
// largest to s and the middle one scaled between.
vec3 setSaturation(vec3 c, float s) {
  float v[3] = float[3](c.r, c.g, c.b);
  int lo = 0, mid = 1, hi = 2, k;
  if (v[mid] < v[lo]) { k = lo; lo = mid; mid = k; }
  if (v[hi] < v[mid]) {
    k = mid; mid = hi; hi = k;
    if (v[mid] < v[lo]) { k = lo; lo = mid; mid = k; }
  }
  float o[3] = float[3](0.0, 0.0, 0.0);
  if (v[hi] > v[lo]) {
    o[mid] = (v[mid] - v[lo]) * s / (v[hi] - v[lo]);
    o[hi] = s;
  }
  return vec3(o[0], o[1], o[2]);
}

vec3 blendColor(int mode, vec3 cs, vec3 cb) {
  if (mode == 16) return setLuminosity(setSaturation(cs, saturation(cb)), luminosity(cb));
  if (mode == 17) return setLuminosity(cs, luminosity(cb));
  return vec3(blendChannel(mode, cs.r, cb.r), blendChannel(mode, cs.g, cb.g), blendChannel(mode, cs.b, cb.b));
}

vec4 composite(vec4 d, vec4 s) {
  if (uBlend == 1) return vec4(clamp(s.rgb + d.rgb, 0.0, 1.0), d.a);
  if (uBlend == 2) return vec4(clamp(s.rgb * d.rgb + d.rgb * (1.0 - s.a), 0.0, 1.0), d.a);
  if (uBlend == 0 && uAlphaBlend == 0) return clamp(s + d * (1.0 - s.a), 0.0, 1.0);
  float sa = s.a, da = d.a;
  vec3 cs = sa > 0.0 ? clamp(s.rgb / sa, 0.0, 1.0) : vec3(0.0);
  vec3 cb = da > 0.0 ? clamp(d.rgb / da, 0.0, 1.0) : vec3(0.0);
  vec3 mixed = blendColor(uBlend, cs, cb);
  float overlap = sa * da, fa = 1.0, fb = 1.0 - sa;
  if (uAlphaBlend == 1) {
    fa = da;
  } else if (uAlphaBlend == 2) {
    fa = 0.0;
  } else if (uAlphaBlend == 3) {
    overlap = min(sa, da);
    fb = (da <= 0.0 || sa >= da) ? 0.0 : 1.0 - sa / da;
  } else if (uAlphaBlend == 4) {
    overlap = max(sa + da - 1.0, 0.0);
    fb = da <= 0.0 ? 0.0 : min((1.0 - sa) / da, 1.0);
  }
  float w = sa > 0.0 ? overlap / sa : 0.0;
  float a = sa * fa, b = da * fb;
  return clamp(vec4(a * ((1.0 - w) * cs + w * mixed) + b * cb, a + b), 0.0, 1.0);
}
`;

const FIXED_WRITE = `
out vec4 fragColor;
void main() { fragColor = source(); }
`;

const BACKDROP_WRITE = `
out vec4 fragColor;
void main() {
  vec4 s = source();
  fragColor = composite(texelFetch(uBackdrop, ivec2(gl_FragCoord.xy), 0), s);
}
`;

// Mask meshes write the stencil where their texture is at least half opaque.
const MASK = `${HEADER}${PAGE_SAMPLING}
out vec4 fragColor;
void main() {
  if (!(samplePage(vUv).a >= 0.5)) discard;
  fragColor = vec4(0.0);
}
`;

/** Fragment and vertex sources of every program the renderer uses, by name. */
export const programSources = {
  meshFixed: { vertex: VERTEX, fragment: `${HEADER}${MESH_SOURCE}${FIXED_WRITE}` },
  meshBackdrop: { vertex: VERTEX, fragment: `${HEADER}${MESH_SOURCE}${COMPOSITE}${BACKDROP_WRITE}` },
  layerFixed: { vertex: VERTEX, fragment: `${HEADER}${LAYER_SOURCE}${FIXED_WRITE}` },
  layerBackdrop: { vertex: VERTEX, fragment: `${HEADER}${LAYER_SOURCE}${COMPOSITE}${BACKDROP_WRITE}` },
  mask: { vertex: VERTEX, fragment: MASK },
};
