// The player's masks (for now): mask meshes write the stencil where their texture is at least
// half opaque.
out vec4 fragColor;
void main() {
  if (!(samplePage(vUv).a >= 0.5)) discard;
  fragColor = vec4(0.0);
}
