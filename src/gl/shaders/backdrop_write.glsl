// The blend-shader path: the destination comes from a copy of the target (the backdrop
// texture), the composite is written with blending off.
out vec4 fragColor;
void main() {
  vec4 s = source();
  fragColor = composite(texelFetch(uBackdrop, ivec2(gl_FragCoord.xy), 0), s);
}
