// A mask mesh's contribution to a mask buffer: its texture's alpha in every channel, which the
// blending (ZERO, ONE_MINUS_SRC_COLOR) turns into buffer * (1 - a).
out vec4 fragColor;
void main() {
  fragColor = vec4(samplePage(vUv).a);
}
