// How each colour blend × alpha blend pair of include/p2l/p2l.h is drawn with WebGL2, as the
// Cubism 5 R5 Framework draws it (docs/RUNTIME.md, "Compositing").
//
// The Framework's GL blend path, fixed-function blending on the premultiplied source:
//   NORMAL + OVER                rgb, a = s + d·(1 − s.a)         ONE, ONE_MINUS_SRC_ALPHA
//   ADD_COMPATIBLE + any         rgb = s + d, a = d.a              ONE, ONE  /  ZERO, ONE
//   MULTIPLY_COMPATIBLE + any    rgb = s·d + d·(1 − s.a), a = d.a  DST_COLOR, ONE_MINUS_SRC_ALPHA  /  ZERO, ONE
// (the RGBA8 surface clamps to 0..1 as the rule does).
//
// Every other pair takes the Framework's blend-shader path: the destination is copied under
// the drawing's bounding box into a backdrop texture, and the fragment shader makes source
// and destination straight, applies ColorBlend and AlphaBlend (shaders.js) and replaces the
// pixel.

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
