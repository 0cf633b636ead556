// The blend-shader path: the destination comes from a copy of the target (the backdrop
// texture), the composite is written with blending off.
// The mask scales the source's alpha only, its straight colour staying as it is (the R5 fix of
// blends on semi-transparent objects).
out vec4 fragColor;
void main() {
  float m = maskValue();
  if (!(m > 0.0)) discard;
  vec4 s = source();
  fragColor = composite(texelFetch(uBackdrop, ivec2(gl_FragCoord.xy), 0), s, m);
}
