// An isolated group's (Cubism offscreen's) layer pixel, recoloured and faded by the group as
// the Cubism 5 R5 Framework composites an offscreen (docs/RUNTIME.md, "Isolated groups"):
// the premultiplied pixel times the multiply colour, the screen colour scaled by its alpha,
// then the opacity on all four channels.
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
