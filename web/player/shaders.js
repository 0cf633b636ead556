// GLSL sources of the WebGL2 renderer. Each program is a "source" (what one fragment adds:
// a mesh's textured colour, or an isolated group's layer) combined with a "write": either the
// source goes to fixed-function blending (the Cubism 5 R5 Framework's GL blend path, which
// blend_modes.js maps), or the shader reads the destination from a copy (the backdrop
// texture) and computes the Framework's blend-shader composite (docs/RUNTIME.md
// "Compositing") itself, the same arithmetic as src/render/blend.hpp, writing the result with
// blending off.
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

// A mesh's fragment: premultiplied texel, multiply colour, screen colour scaled by the texel's
// alpha, then the opacity on all four channels (the mask is the stencil test). Texels with no
// alpha draw nothing, as in the software renderer.
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

// An isolated group's (Cubism offscreen's) layer pixel, recoloured and faded by the group as
// the Cubism 5 R5 Framework composites an offscreen (docs/RUNTIME.md, "Isolated groups"):
// the premultiplied pixel times the multiply colour, the screen colour scaled by its alpha,
// then the opacity on all four channels.
const LAYER_SOURCE = `
uniform sampler2D uLayer;
uniform vec3 uMultiply;
uniform vec3 uScreen;
uniform float uOpacity;
vec4 source() {
  vec4 l = texelFetch(uLayer, ivec2(gl_FragCoord.xy), 0);
  if (!(l.a > 0.0)) discard;
  vec3 t = l.rgb * uMultiply;
  t = t + uScreen * l.a - t * uScreen;
  return vec4(t, l.a) * uOpacity;
}
`;

// The composite of a fragment (premultiplied, its mask being the stencil test) into a
// premultiplied destination by colour blend uBlend (P2L_BLEND_*) and alpha blend uAlphaBlend
// (P2L_ALPHA_*), for the pairs of the Cubism 5 R5 Framework's blend-shader path: both made
// straight (0 below an alpha of 1e-5), ColorBlend(Cs, Cd), then AlphaBlend's weights
// (docs/RUNTIME.md, "Compositing"); the same arithmetic as src/render/blend.hpp.
const COMPOSITE = `
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

vec4 composite(vec4 d, vec4 s) {
  vec3 cs = straight(s), cd = straight(d);
  float sA = s.a, dA = d.a;
  vec3 w = vec3(sA * dA, sA * (1.0 - dA), dA * (1.0 - sA));            // over
  if (uAlphaBlend == 1) w = vec3(sA * dA, 0.0, dA * (1.0 - sA));       // atop
  else if (uAlphaBlend == 2) w = vec3(0.0, 0.0, dA * (1.0 - sA));      // out
  else if (uAlphaBlend == 3) w = vec3(min(sA, dA), max(sA - dA, 0.0), max(dA - sA, 0.0));
  else if (uAlphaBlend == 4) w = vec3(max(sA + dA - 1.0, 0.0), min(sA, 1.0 - dA), min(dA, 1.0 - sA));
  vec3 b = colorBlend(uBlend, cs, cd);
  return clamp(vec4(b * w.x + cs * w.y + cd * w.z, w.x + w.y + w.z), 0.0, 1.0);
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
