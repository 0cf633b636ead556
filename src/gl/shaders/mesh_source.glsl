// A mesh's fragment (docs/RUNTIME.md, "A mesh's fragment"): premultiplied texel, multiply
// colour, screen colour scaled by the texel's alpha, then the opacity on all four channels.
// Texels with no alpha draw nothing, as in the software renderer.
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
