// The page holds straight RGBA8 texels. Bilinear filtering is done here rather than by the
// sampler because the rule premultiplies each texel before interpolating (a filtering unit
// interpolates straight colour, which bleeds the colour of transparent texels into edges), and
// clamps coordinates to the edge texels' centres as CLAMP_TO_EDGE does.
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
