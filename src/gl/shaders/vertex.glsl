// Canvas pixels (y down) through the affine [a b tx; c d ty] to surface pixels, then to clip
// space with the drawing's top row at -1: surfaces hold the drawing top row first, so that GL's
// window y is the drawing's y. That is what makes the GPU's fill rule the software
// renderer's: rasterizers resolve pixel centres exactly on an edge by the top-left rule in
// their own y-down framebuffer coordinates, which WebGL implementations (ANGLE over Vulkan,
// D3D or Metal) map to GL's window y; drawn the other way up, a horizontal edge through a
// row of pixel centres would give that row to the triangle on the other side. Every surface
// shares this orientation, so a fragment's gl_FragCoord addresses the same pixel in each; the
// frame is flipped once, when it is copied out.
in vec2 aPosition;
in vec2 aUv;
uniform vec3 uRow0;
uniform vec3 uRow1;
uniform vec2 uSize;
out vec2 vUv;
void main() {
  vec3 p = vec3(aPosition, 1.0);
  vec2 image = vec2(dot(uRow0, p), dot(uRow1, p));
  vUv = aUv;
  gl_Position = vec4(image.x / uSize.x * 2.0 - 1.0, image.y / uSize.y * 2.0 - 1.0, 0.0, 1.0);
}
