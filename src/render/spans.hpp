// The software renderer's hot loops eight pixels at a time with AVX2 (x86-64 processors from
// 2013 on, chosen at run time; spans_avx2.cpp). Each lane does what the scalar code does for
// one pixel (raster.hpp's Triangle::at, blend.hpp's sample() and the normal-over composite of
// renderer.cpp): the same single- and double-precision operations in the same order, so the
// two give the same bits (tests/render/render_spans_test.cpp draws scenes both ways).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "p2l/render.hpp"
#include "render/raster.hpp"

namespace p2l::render {

// The fixed-function pairs the kernels composite (blend.hpp's composite()): NORMAL with OVER,
// and Cubism's ADD_COMPATIBLE and MULTIPLY_COMPATIBLE (any alpha mode).
enum class Fixed : std::uint8_t { Over, Add, Multiply };

// What a mesh's fragment reads besides its pixel: the page, the mesh's colours and opacity,
// the mask coverage (null: unmasked; else 1 - coverage when inverted), the premultiplied RGBA
// surface it composites into and how.
struct OverSpan {
  const Image* texture = nullptr;
  Fixed mode = Fixed::Over;
  float multiply[3] = {1.0f, 1.0f, 1.0f}, screen[3] = {0.0f, 0.0f, 0.0f};
  float opacity = 1.0f;
  const float* coverage = nullptr;
  bool invert = false;
  float* target = nullptr;
};

// Whether the kernels below may run: the processor has AVX2 and set_vector_spans has not
// turned them off. False where they are not built (other processors, WebAssembly).
bool vector_spans();
// Turns the kernels off (false) or back on where the processor allows: for tests comparing
// the two paths. Not thread-safe against rendering.
void set_vector_spans(bool on);

// Composites a mesh's fragment (by s.mode) at every pixel of [band] its triangles cover,
// triangle after triangle, as raster_rows() rasterizes them: [corners] holds three
// image-space corners per triangle.
void over_mesh(std::span<const Corner> corners, const Band& band, Cull cull, Rect* touched, const OverSpan& s);
// coverage = 1 - (1 - coverage)(1 - a) at every pixel of [band] the triangles cover, a the
// page's alpha there.
void mask_mesh(std::span<const Corner> corners, const Band& band, Rect* touched, const Image& texture, float* coverage);
// The renderer's premultiplied float pixels to RGBA8 (straight or premultiplied), rounded to
// nearest as renderer.cpp's scalar conversion does, eight at a time: returns how many it
// converted (a multiple of eight), the caller converts the rest.
std::size_t to_rgba8_span(const float* in, std::size_t pixels, bool straight, std::uint8_t* out);

}  // namespace p2l::render
