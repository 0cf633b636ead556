// The GL blend path: the source goes to fixed-function blending (the pairs blend_modes.js and
// src/gl/ map to glBlendFuncSeparate).
// The mask scales the whole premultiplied source.
out vec4 fragColor;
void main() {
  float m = maskValue();
  if (!(m > 0.0)) discard;
  fragColor = source() * m;
}
