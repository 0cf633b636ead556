// The finished frame (premultiplied, top row first) onto the host's framebuffer, whose row 0 is
// at the bottom: flipped, and composited over what is there (ONE, ONE_MINUS_SRC_ALPHA). As
// p2l_render's output, a pixel without alpha is nothing (the additive modes can leave colour
// there: docs/RUNTIME.md, "Output").
uniform sampler2D uFrame;
out vec4 fragColor;
void main() {
  ivec2 size = textureSize(uFrame, 0);
  ivec2 at = ivec2(gl_FragCoord.xy);
  vec4 f = texelFetch(uFrame, ivec2(at.x, size.y - 1 - at.y), 0);
  fragColor = f.a > 0.0 ? f : vec4(0.0);
}
