// A fragment's mask value (docs/RUNTIME.md, "Masks"): the mask buffer holds prod(1 - a) over
// the mask meshes' texture alphas, as the Framework accumulates it (cleared to 1, each mask mesh
// multiplying it by 1 - a), so m = 1 - buffer, inverted m = buffer. uMaskMode 0: no masks.
uniform sampler2D uMask;
uniform int uMaskMode;
float maskValue() {
  if (uMaskMode == 0) return 1.0;
  float rest = texelFetch(uMask, ivec2(gl_FragCoord.xy), 0).r;
  return uMaskMode == 2 ? rest : 1.0 - rest;
}
