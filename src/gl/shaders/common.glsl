// The GLSL shared by every GPU path of p2lrt: the WebGL2 player (web/player/shaders.js is
// generated from these files by scripts/shaders.mjs) and p2l_gl (src/gl/, embedded at build
// time). GLSL ES 3.00, which GLSL 3.30 core also accepts: each host puts its own #version line
// first (programs.txt says which pieces make which program). Colours are premultiplied
// throughout, surfaces RGBA8, so every write is clamped to 0..1 as the software renderer
// clamps every value it writes back (docs/RUNTIME.md, "Rendering").
precision highp float;
precision highp int;
precision highp sampler2D;
