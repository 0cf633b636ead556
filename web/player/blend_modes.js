// How each colour blend × alpha blend pair of include/p2l/p2l.h is drawn with WebGL2.
//
// Fixed-function blending computes src·F + dst·G per channel. Three rows of the compositing
// table are exactly of that form, for every source and destination value an RGBA8 surface can
// hold:
//   NORMAL + OVER           rgb, a = s + d·(1 − s.a)         ONE, ONE_MINUS_SRC_ALPHA
//   CUBISM_ADD + any        rgb = s + d, a = d.a              ONE, ONE  /  ZERO, ONE
//   CUBISM_MULTIPLY + any   rgb = s·d + d·(1 − s.a), a = d.a  DST_COLOR, ONE_MINUS_SRC_ALPHA  /  ZERO, ONE
// (the surface clamps to 0..1 as the rule does; the fragment's own clamp before blending only
// matters for negative colours, which no evaluation produces.)
//
// Every other pair goes through the general rule, whose terms are not of that form: the blend
// functions B(Cb, Cs) are non-linear (min, max, divisions, square roots, the hue/colour
// helpers) and work on unpremultiplied colours clamped to 0..1, the overlap of CONJOINT and
// DISJOINT is a min/max of the alphas. Even the pairs that reduce to fixed-function factors on
// paper (NORMAL + ATOP or OUT, SCREEN + OVER) differ where the destination's colour exceeds its
// alpha, which the additive modes produce and the rule's clamp of Cb = d.rgb / d.a removes.
// Those pairs are drawn by copying the destination under the mesh's bounding box into a
// backdrop texture and computing the whole composite in the fragment shader (shaders.js).

const GL_ZERO = 0;
const GL_ONE = 1;
const GL_ONE_MINUS_SRC_ALPHA = 0x0303;
const GL_DST_COLOR = 0x0306;

/** Colour modes past the known 0..17 blend as NORMAL, alpha modes past 0..4 act as OVER. */
export function normalizeModes(blend, alphaBlend) {
  return {
    blend: blend >= 0 && blend <= 17 ? blend : 0,
    alphaBlend: alphaBlend >= 0 && alphaBlend <= 4 ? alphaBlend : 0,
  };
}

/** The blendFuncSeparate factors [srcRgb, dstRgb, srcAlpha, dstAlpha] that draw the pair
 *  exactly, or null when the pair needs the destination in the shader. */
export function fixedFunctionFactors(blend, alphaBlend) {
  if (blend === 1) return [GL_ONE, GL_ONE, GL_ZERO, GL_ONE];
  if (blend === 2) return [GL_DST_COLOR, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE];
  if (blend === 0 && alphaBlend === 0) return [GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA];
  return null;
}
