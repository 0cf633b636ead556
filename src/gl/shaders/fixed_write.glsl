// The GL blend path: the source goes to fixed-function blending (the pairs blend_modes.js and
// src/gl/ map to glBlendFuncSeparate).
out vec4 fragColor;
void main() { fragColor = source(); }
