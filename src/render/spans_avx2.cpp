// The renderer's spans eight pixels at a time with AVX2 (spans.hpp). Lane by lane the same
// operations as the scalar code, in the same order and precision; nothing is contracted
// (-ffp-contract=off, and no FMA is enabled here).
//
// Lane order: a chunk of eight pixels x..x+7 is held as x + {0, 4, 2, 6, 1, 5, 3, 7}. That is
// the order in which two rounds of unpacks turn the surface's RGBA pixels (interleaved, two
// pixels per register) into one register per channel and back, so the pixels are never
// shuffled into place; the coverage and the edge functions are computed in that order too.
#include "render/spans.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define P2L_SPANS_AVX2 1
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <span>

namespace p2l::render {

#if P2L_SPANS_AVX2

namespace {

bool processor_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

std::atomic<bool> g_turned_off{false};

// b / 255 for a byte b is one float division below, as blend.hpp's kByteToUnit is made,
// without a table gather per texel channel. (An earlier form, (float)(b * (1.0 / 255.0)),
// gives the same floats, as this checks; its conversions and multiplications through double
// cost more than a division of eight lanes.)
constexpr bool unit_by_division_is_exact() {
  for (int b = 0; b < 256; ++b)
    if (static_cast<float>(b * (1.0 / 255.0)) != static_cast<float>(b) / 255.0f) return false;
  return true;
}
static_assert(unit_by_division_is_exact());

#define P2L_AVX2 gnu::target("avx2"), gnu::always_inline

constexpr std::array<int, 8> kOrder = {0, 4, 2, 6, 1, 5, 3, 7};

// kInSpan[n]: the lanes whose pixel is among the chunk's first n.
constexpr std::array<unsigned, 9> kInSpan = [] {
  std::array<unsigned, 9> in{};
  for (int n = 0; n <= 8; ++n)
    for (int lane = 0; lane < 8; ++lane)
      if (kOrder[static_cast<std::size_t>(lane)] < n) in[static_cast<std::size_t>(n)] |= 1u << lane;
  return in;
}();

// Lanes as a register mask: lane i all ones when bit i of [bits] is set.
[[P2L_AVX2]] inline __m256 lanes(unsigned bits) {
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits)), bit), bit));
}

// An edge's terms on the current row (detail::Edge), broadcast.
struct EdgeTerms {
  __m256d base_x, dy, row, sign;
  bool tie;
};

[[P2L_AVX2]] inline EdgeTerms terms(const detail::Edge& e) {
  return {_mm256_set1_pd(e.base_x()), _mm256_set1_pd(e.dy()), _mm256_set1_pd(e.row()), _mm256_set1_pd(e.sign()), e.tie()};
}

// Edge::at and Edge::covers on four pixel centres: the value in [w], the covered lanes as bits.
[[P2L_AVX2]] inline unsigned covers(const EdgeTerms& e, __m256d px, __m256d& w) {
  w = _mm256_mul_pd(e.sign, _mm256_sub_pd(e.row, _mm256_mul_pd(e.dy, _mm256_sub_pd(px, e.base_x))));
  const __m256d zero = _mm256_setzero_pd();
  __m256d in = _mm256_cmp_pd(w, zero, _CMP_GT_OQ);
  if (e.tie) in = _mm256_or_pd(in, _mm256_cmp_pd(w, zero, _CMP_EQ_OQ));
  return static_cast<unsigned>(_mm256_movemask_pd(in));
}

// A triangle on the current row, broadcast for Triangle::at on eight pixels.
struct Setup {
  EdgeTerms e0, e1, e2;
  __m256d inverse, au, bu, cu, av, bv, cv;

  Setup() = default;
  [[P2L_AVX2]] explicit Setup(const Triangle& t)
      : e0(terms(t.e0)), e1(terms(t.e1)), e2(terms(t.e2)), inverse(_mm256_set1_pd(t.inverse)),
        au(_mm256_set1_pd(t.a.u)), bu(_mm256_set1_pd(t.b.u)), cu(_mm256_set1_pd(t.c.u)),
        av(_mm256_set1_pd(t.a.v)), bv(_mm256_set1_pd(t.b.v)), cv(_mm256_set1_pd(t.c.v)) {}
  // The same triangle on its next row: only the edges' row terms change.
  [[P2L_AVX2]] void row(const Triangle& t) {
    e0.row = _mm256_set1_pd(t.e0.row());
    e1.row = _mm256_set1_pd(t.e1.row());
    e2.row = _mm256_set1_pd(t.e2.row());
  }

  // Four pixel centres [px]: the covered lanes as bits, the texture coordinates.
  [[P2L_AVX2]] unsigned at(__m256d px, __m128& u, __m128& v) const {
    __m256d w0, w1, w2;
    const unsigned in = covers(e0, px, w0) & covers(e1, px, w1) & covers(e2, px, w2);
    const __m256d ka = _mm256_mul_pd(w0, inverse), kb = _mm256_mul_pd(w1, inverse);
    const __m256d kc = _mm256_sub_pd(_mm256_sub_pd(_mm256_set1_pd(1.0), ka), kb);
    u = _mm256_cvtpd_ps(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ka, au), _mm256_mul_pd(kb, bu)), _mm256_mul_pd(kc, cu)));
    v = _mm256_cvtpd_ps(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ka, av), _mm256_mul_pd(kb, bv)), _mm256_mul_pd(kc, cv)));
    return in;
  }

};

// A page axis of [size] texels for tap().
struct Axis {
  __m256 size, last;
  __m256i top;
  [[P2L_AVX2]] explicit Axis(std::uint32_t n)
      : size(_mm256_set1_ps(static_cast<float>(n))), last(_mm256_set1_ps(static_cast<float>(n - 1))),
        top(_mm256_set1_epi32(static_cast<int>(n - 1))) {}
};

// blend.hpp's tap() on eight coordinates.
[[P2L_AVX2]] inline void tap(__m256 coordinate, const Axis& axis, __m256i& lo, __m256i& hi, __m256& t) {
  __m256 f = _mm256_sub_ps(_mm256_mul_ps(coordinate, axis.size), _mm256_set1_ps(0.5f));
  f = _mm256_max_ps(f, _mm256_setzero_ps());  // f > 0 ? f : 0, so NaN gives 0
  f = _mm256_min_ps(f, axis.last);            // f < last ? f : last
  lo = _mm256_cvttps_epi32(f);
  hi = _mm256_min_epi32(_mm256_add_epi32(lo, _mm256_set1_epi32(1)), axis.top);
  t = _mm256_sub_ps(f, _mm256_cvtepi32_ps(lo));
}

// kByteToUnit of eight bytes (held in the low byte of each lane).
[[P2L_AVX2]] inline __m256 unit(__m256i bytes) {
  return _mm256_div_ps(_mm256_cvtepi32_ps(bytes), _mm256_set1_ps(255.0f));
}

[[P2L_AVX2]] inline __m256 channel(__m256i texels, int shift) {
  return unit(_mm256_and_si256(_mm256_srli_epi32(texels, shift), _mm256_set1_epi32(0xff)));
}

// One bilinear step of sample(): (t00 + (t10 − t00)·tx)·(1 − ty) + (t01 + (t11 − t01)·tx)·ty.
[[P2L_AVX2]] inline __m256 bilinear(__m256 t00, __m256 t10, __m256 t01, __m256 t11, __m256 tx, __m256 ty) {
  const __m256 top = _mm256_add_ps(t00, _mm256_mul_ps(_mm256_sub_ps(t10, t00), tx));
  const __m256 bottom = _mm256_add_ps(t01, _mm256_mul_ps(_mm256_sub_ps(t11, t01), tx));
  return _mm256_add_ps(_mm256_mul_ps(top, _mm256_sub_ps(_mm256_set1_ps(1.0f), ty)), _mm256_mul_ps(bottom, ty));
}

// The four texels around eight sample points, and where the points fall between them.
struct Quad {
  __m256i t00, t10, t01, t11;
  __m256 tx, ty;
};

// Texel indices stay below 2^28 (pages hold at most 2^28 pixels), so they fit the gathers'
// signed 32-bit indices.
[[P2L_AVX2]] inline Quad gather(const Image& page, const Axis& ax, const Axis& ay, __m256 u, __m256 v) {
  Quad q;
  __m256i x0, x1, y0, y1;
  tap(u, ax, x0, x1, q.tx);
  tap(v, ay, y0, y1, q.ty);
  const __m256i width = _mm256_set1_epi32(static_cast<int>(page.width));
  const __m256i r0 = _mm256_mullo_epi32(y0, width), r1 = _mm256_mullo_epi32(y1, width);
  const auto* texels = reinterpret_cast<const int*>(page.rgba.data());
  q.t00 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r0, x0), 4);
  q.t10 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r0, x1), 4);
  q.t01 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r1, x0), 4);
  q.t11 = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r1, x1), 4);
  return q;
}

struct Alphas {
  __m256 a00, a10, a01, a11;
};

[[P2L_AVX2]] inline Alphas alphas(const Quad& q) {
  return {channel(q.t00, 24), channel(q.t10, 24), channel(q.t01, 24), channel(q.t11, 24)};
}

// Channel [shift] of the quad, premultiplied by the texels' alphas, then filtered.
[[P2L_AVX2]] inline __m256 premultiplied(const Quad& q, const Alphas& a, int shift) {
  return bilinear(_mm256_mul_ps(channel(q.t00, shift), a.a00), _mm256_mul_ps(channel(q.t10, shift), a.a10),
                  _mm256_mul_ps(channel(q.t01, shift), a.a01), _mm256_mul_ps(channel(q.t11, shift), a.a11), q.tx, q.ty);
}

// clamp01: v > 0 ? (v < 1 ? v : 1) : 0, NaN giving 0.
[[P2L_AVX2]] inline __m256 clamp01(__m256 v) {
  return _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}

// Eight RGBA pixels as four registers, one per channel, in lane order.
struct Pixels {
  __m256 r, g, b, a;
};

// The pixels one triangle covers, gathered row by row and shaded eight at a time: a
// triangle of a few dozen pixels covers a handful of pixels per row, so shading row by row
// would leave most lanes empty. A triangle covers each pixel once, so the pixels of one batch
// are distinct and their order does not matter; the batch is shaded before the next
// triangle, which may cover the same pixels.
class Batch {
 public:
  static constexpr int kCapacity = 256;

  // Whether four more pixels may not fit: then the batch is shaded first.
  bool full() const { return count_ > kCapacity - 4; }

  // Appends the covered pixels of columns [x, min(x + 3, last)] of the row starting at pixel
  // [row]; the batch must not be full().
  [[P2L_AVX2]] void add(const Setup& setup, std::size_t row, std::int32_t x, std::int32_t last) {
    const int n = static_cast<int>(std::min<std::int32_t>(4, last - x + 1));
    const __m256d centre = _mm256_add_pd(_mm256_set1_pd(static_cast<double>(x) + 0.5), _mm256_setr_pd(0.0, 1.0, 2.0, 3.0));
    __m128 u, v;
    const unsigned live = setup.at(centre, u, v) & ((1u << n) - 1u);
    if (live == 0) return;
    // The live lanes moved to the front, stored at the end of the batch.
    const __m128i to_front = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kToFront[live].data()));
    const __m128i pixel =
        _mm_add_epi32(_mm_set1_epi32(static_cast<int>(row + static_cast<std::size_t>(x))), _mm_setr_epi32(0, 1, 2, 3));
    _mm_storeu_ps(u_ + count_, _mm_permutevar_ps(u, to_front));
    _mm_storeu_ps(v_ + count_, _mm_permutevar_ps(v, to_front));
    _mm_storeu_ps(reinterpret_cast<float*>(pixel_ + count_), _mm_permutevar_ps(_mm_castsi128_ps(pixel), to_front));
    count_ += __builtin_popcount(live);
  }

  // The texture is larger than the caches and each row of a triangle reads other texel rows:
  // asks for the two texel rows under the last pixel added, so that they are on their way
  // while the rest of the triangle is rasterized and the triangle before is shaded. Once a
  // row: the row's other pixels read the same texel rows or their neighbours.
  void prefetch(const Image& page) const {
    if (count_ == 0) return;
    const float fu = std::max(u_[count_ - 1] * static_cast<float>(page.width), 0.0f);
    const float fv = std::max(v_[count_ - 1] * static_cast<float>(page.height), 0.0f);
    const std::size_t tx = std::min(static_cast<std::size_t>(std::min(fu, 1e9f)), std::size_t{page.width} - 1);
    const std::size_t ty = std::min(static_cast<std::size_t>(std::min(fv, 1e9f)), std::size_t{page.height} - 1);
    const std::uint8_t* texel = page.rgba.data() + (ty * page.width + tx) * 4;
    _mm_prefetch(reinterpret_cast<const char*>(texel), _MM_HINT_T0);
    if (ty + 1 < page.height) _mm_prefetch(reinterpret_cast<const char*>(texel + std::size_t{page.width} * 4), _MM_HINT_T0);
  }

  int count() const { return count_; }
  void clear() { count_ = 0; }
  // Eight entries from [i] (past the count: whatever is there, kept in bounds by the caller).
  [[P2L_AVX2]] __m256 u(int i) const { return _mm256_loadu_ps(u_ + i); }
  [[P2L_AVX2]] __m256 v(int i) const { return _mm256_loadu_ps(v_ + i); }
  [[P2L_AVX2]] __m256i pixels(int i) const { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pixel_ + i)); }
  std::int32_t pixel(int i) const { return pixel_[i]; }

 private:
  // kToFront[bits]: lane indices putting the lanes set in [bits] first, in order.
  static constexpr std::array<std::array<std::int32_t, 4>, 16> kToFront = [] {
    std::array<std::array<std::int32_t, 4>, 16> table{};
    for (unsigned bits = 0; bits < 16; ++bits) {
      std::size_t k = 0;
      for (std::int32_t lane = 0; lane < 4; ++lane)
        if ((bits >> lane & 1u) != 0) table[bits][k++] = lane;
    }
    return table;
  }();

  int count_ = 0;
  // Room for a last group of four past kCapacity - 4 and for eight-lane reads past the count.
  alignas(32) float u_[kCapacity + 8] = {};
  alignas(32) float v_[kCapacity + 8] = {};
  alignas(32) std::int32_t pixel_[kCapacity + 8] = {};
};

// Batch entries [i, i + n) in lane order: entry i + kOrder[lane] in each lane; entries past n
// repeat entry i, so that every lane addresses a pixel of the image.
[[P2L_AVX2]] inline void entries(const Batch& b, int i, int n, __m256& u, __m256& v, __m256i& pixels) {
  const __m256i order = _mm256_setr_epi32(0, 4, 2, 6, 1, 5, 3, 7);
  const __m256 in = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  const __m256 first_u = _mm256_set1_ps(b.u(i)[0]), first_v = _mm256_set1_ps(b.v(i)[0]);
  u = _mm256_permutevar8x32_ps(_mm256_blendv_ps(first_u, b.u(i), in), order);
  v = _mm256_permutevar8x32_ps(_mm256_blendv_ps(first_v, b.v(i), in), order);
  const __m256 first_pixel = _mm256_castsi256_ps(_mm256_set1_epi32(b.pixel(i)));
  pixels = _mm256_permutevar8x32_epi32(
      _mm256_castps_si256(_mm256_blendv_ps(first_pixel, _mm256_castsi256_ps(b.pixels(i)), in)), order);
}

// The RGBA pixels of batch entries [i, i + n) as one register per channel, in lane order
// (entries past n read entry i).
[[P2L_AVX2]] inline Pixels load_pixels(const float* target, const Batch& b, int i, int n) {
  auto at = [&](int k) { return _mm_loadu_ps(target + static_cast<std::size_t>(b.pixel(i + (k < n ? k : 0))) * 4); };
  const __m256 q0 = _mm256_set_m128(at(1), at(0)), q1 = _mm256_set_m128(at(3), at(2));
  const __m256 q2 = _mm256_set_m128(at(5), at(4)), q3 = _mm256_set_m128(at(7), at(6));
  const __m256 t0 = _mm256_unpacklo_ps(q0, q1), t1 = _mm256_unpackhi_ps(q0, q1);
  const __m256 t2 = _mm256_unpacklo_ps(q2, q3), t3 = _mm256_unpackhi_ps(q2, q3);
  return {_mm256_unpacklo_ps(t0, t2), _mm256_unpackhi_ps(t0, t2), _mm256_unpacklo_ps(t1, t3), _mm256_unpackhi_ps(t1, t3)};
}

[[P2L_AVX2]] inline void store_pixels(float* target, const Batch& b, int i, int n, const Pixels& px) {
  const __m256 t0 = _mm256_unpacklo_ps(px.r, px.g), t1 = _mm256_unpackhi_ps(px.r, px.g);
  const __m256 t2 = _mm256_unpacklo_ps(px.b, px.a), t3 = _mm256_unpackhi_ps(px.b, px.a);
  const __m256 q[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t0, t2, 0xee),
                       _mm256_shuffle_ps(t1, t3, 0xee)};
  for (int k = 0; k < n; ++k) {
    const __m128 pixel = (k & 1) == 0 ? _mm256_castps256_ps128(q[k / 2]) : _mm256_extractf128_ps(q[k / 2], 1);
    _mm_storeu_ps(target + static_cast<std::size_t>(b.pixel(i + k)) * 4, pixel);
  }
}

// The surface's pixel where [live], else [old].
[[P2L_AVX2]] inline __m256 keep_unless(__m256 live, __m256 old, __m256 changed) { return _mm256_blendv_ps(old, changed, live); }

// Cubism's multiply of one channel: p·m·d + d·keep.
[[P2L_AVX2]] inline __m256 multiplied(__m256 p, __m256 m, __m256 d, __m256 keep) {
  return clamp01(_mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(p, m), d), _mm256_mul_ps(d, keep)));
}

// Composites the batch's fragments by the fixed-function blend [kMode] and empties it.
template <bool kMasked, Fixed kMode>
[[P2L_AVX2]] inline void shade(Batch& b, const OverSpan& s, const Axis& ax, const Axis& ay) {
  const Image& page = *s.texture;
  const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps(), opacity = _mm256_set1_ps(s.opacity);
  for (int i = 0; i < b.count(); i += 8) {
    const int n = std::min(8, b.count() - i);
    __m256 u, v;
    __m256i pixels;
    entries(b, i, n, u, v, pixels);
    unsigned live = kInSpan[static_cast<std::size_t>(n)];
    __m256 k = one;
    if constexpr (kMasked) {
      k = _mm256_i32gather_ps(s.coverage, pixels, 4);
      if (s.invert) k = _mm256_sub_ps(one, k);
      live &= static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(k, zero, _CMP_GT_OQ)));
      if (live == 0) continue;
    }
    const Quad q = gather(page, ax, ay, u, v);
    const Alphas a = alphas(q);
    const __m256 alpha = bilinear(a.a00, a.a10, a.a01, a.a11, q.tx, q.ty);
    live &= static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(alpha, zero, _CMP_GT_OQ)));
    if (live == 0) continue;
    // The fragment: multiply, screen scaled by the alpha, times the opacity; then over.
    __m256 c[3];
    for (int j = 0; j < 3; ++j) {
      const __m256 texel = premultiplied(q, a, 8 * j);
      const __m256 multiply = _mm256_set1_ps(s.multiply[j]), screen = _mm256_set1_ps(s.screen[j]);
      __m256 p = _mm256_mul_ps(texel, multiply);
      p = _mm256_sub_ps(_mm256_add_ps(p, _mm256_mul_ps(screen, alpha)), _mm256_mul_ps(p, screen));
      c[j] = _mm256_mul_ps(p, opacity);
    }
    // blend.hpp's composite() for the three fixed-function pairs, operation for operation.
    const __m256 sa = _mm256_mul_ps(_mm256_mul_ps(alpha, opacity), k), keep = _mm256_sub_ps(one, sa);
    const Pixels d = load_pixels(s.target, b, i, n);
    const __m256 mask = lanes(live);
    Pixels out;
    if constexpr (kMode == Fixed::Over) {
      out = {keep_unless(mask, d.r, clamp01(_mm256_add_ps(_mm256_mul_ps(c[0], k), _mm256_mul_ps(d.r, keep)))),
             keep_unless(mask, d.g, clamp01(_mm256_add_ps(_mm256_mul_ps(c[1], k), _mm256_mul_ps(d.g, keep)))),
             keep_unless(mask, d.b, clamp01(_mm256_add_ps(_mm256_mul_ps(c[2], k), _mm256_mul_ps(d.b, keep)))),
             keep_unless(mask, d.a, clamp01(_mm256_add_ps(sa, _mm256_mul_ps(d.a, keep))))};
    } else if constexpr (kMode == Fixed::Add) {  // the destination keeps its alpha
      out = {keep_unless(mask, d.r, clamp01(_mm256_add_ps(_mm256_mul_ps(c[0], k), d.r))),
             keep_unless(mask, d.g, clamp01(_mm256_add_ps(_mm256_mul_ps(c[1], k), d.g))),
             keep_unless(mask, d.b, clamp01(_mm256_add_ps(_mm256_mul_ps(c[2], k), d.b))), d.a};
    } else {  // Multiply: p·m·d + d·(1 − a·m); the destination keeps its alpha
      out = {keep_unless(mask, d.r, multiplied(c[0], k, d.r, keep)), keep_unless(mask, d.g, multiplied(c[1], k, d.g, keep)),
             keep_unless(mask, d.b, multiplied(c[2], k, d.b, keep)), d.a};
    }
    store_pixels(s.target, b, i, n, out);
  }
  b.clear();
}

// coverage = 1 - (1 - coverage)(1 - a) at the batch's pixels; empties it.
[[P2L_AVX2]] inline void shade_mask(Batch& b, const Image& page, const Axis& ax, const Axis& ay, float* coverage) {
  const __m256 one = _mm256_set1_ps(1.0f);
  for (int i = 0; i < b.count(); i += 8) {
    const int n = std::min(8, b.count() - i);
    __m256 u, v;
    __m256i pixels;
    entries(b, i, n, u, v, pixels);
    const Quad q = gather(page, ax, ay, u, v);
    const Alphas a = alphas(q);
    const __m256 alpha = bilinear(a.a00, a.a10, a.a01, a.a11, q.tx, q.ty);
    const __m256 old = _mm256_i32gather_ps(coverage, pixels, 4);
    alignas(32) float now[8];
    _mm256_store_ps(now, _mm256_sub_ps(one, _mm256_mul_ps(_mm256_sub_ps(one, old), _mm256_sub_ps(one, alpha))));
    for (std::size_t lane = 0; lane < 8; ++lane)
      if (kOrder[lane] < n) coverage[b.pixel(i + kOrder[lane])] = now[lane];
  }
  b.clear();
}

// raster_rows()'s row callback, shading the triangles of a mesh through two batches: the
// pixels of triangle n + 1 are gathered (and their texels asked for) before those of triangle
// n are shaded, which still happens in triangle order. A function object rather than a
// lambda, so that its call operator can be built for AVX2 (a lambda's is built for the
// baseline).
template <class Shade>
struct Rows {
  Shade shade;  // shade(batch): composites the batch and empties it
  const Image& page;
  Batch batches[2];
  int current = 0;
  Setup setup;         // the current triangle's, on its current row
  bool fresh = true;   // the next row is a new triangle's first

  [[gnu::target("avx2")]] void operator()(const Triangle& t, std::size_t row, std::int32_t first, std::int32_t last) {
    if (fresh) {
      setup = Setup(t);
      fresh = false;
    } else {
      setup.row(t);
    }
    for (std::int32_t x = first; x <= last; x += 4) {
      if (batches[current].full()) {
        shade(batches[1 - current]);  // the earlier triangle first
        shade(batches[current]);
      }
      batches[current].add(setup, row, x, last);
    }
    batches[current].prefetch(page);
  }
  // After each triangle: shades the one before and keeps this one waiting.
  [[gnu::target("avx2")]] void next() {
    current = 1 - current;
    shade(batches[current]);
    fresh = true;
  }
  [[gnu::target("avx2")]] void finish() {
    shade(batches[1 - current]);
    shade(batches[current]);
  }
};

template <bool kMasked, Fixed kMode>
struct ShadeOver {
  const OverSpan& s;
  Axis ax, ay;
  [[gnu::target("avx2")]] void operator()(Batch& b) const { shade<kMasked, kMode>(b, s, ax, ay); }
};

struct ShadeMask {
  const Image& page;
  float* coverage;
  Axis ax, ay;
  [[gnu::target("avx2")]] void operator()(Batch& b) const { shade_mask(b, page, ax, ay, coverage); }
};

template <class Shade>
[[gnu::target("avx2")]] void mesh(std::span<const Corner> corners, const Band& band, Cull cull, Rect* touched,
                                  Rows<Shade>& rows) {
  for (std::size_t i = 0; i + 2 < corners.size(); i += 3) {
    raster_rows(corners[i], corners[i + 1], corners[i + 2], band, cull, touched, rows);
    rows.next();
  }
  rows.finish();
}

// Eight pixels' RGBA8 from [in] (two pixels a register), rounded as renderer.cpp's
// to_rgba8: a = clamp01(alpha), channels clamp01(v or v / a)·255 + 0.5 truncated, all 0
// where a ≤ 0.
[[P2L_AVX2]] inline __m256i bytes_of(__m256 v, bool straight) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 a = clamp01(_mm256_shuffle_ps(v, v, 0xff));
  const __m256 alpha_lane = _mm256_castsi256_ps(_mm256_setr_epi32(0, 0, 0, -1, 0, 0, 0, -1));
  // The alpha channel itself is byte(clamp01(alpha)) either way.
  const __m256 x = straight ? _mm256_blendv_ps(_mm256_div_ps(v, a), v, alpha_lane) : v;
  const __m256 scaled = _mm256_add_ps(_mm256_mul_ps(clamp01(x), _mm256_set1_ps(255.0f)), _mm256_set1_ps(0.5f));
  const __m256 drawn = _mm256_cmp_ps(a, zero, _CMP_GT_OQ);
  return _mm256_and_si256(_mm256_cvttps_epi32(scaled), _mm256_castps_si256(drawn));
}

[[gnu::target("avx2")]] std::size_t rgba8_chunks(const float* in, std::size_t pixels, bool straight, std::uint8_t* out) {
  std::size_t i = 0;
  for (; i + 8 <= pixels; i += 8, in += 32, out += 32) {
    const __m256i b0 = bytes_of(_mm256_loadu_ps(in), straight), b1 = bytes_of(_mm256_loadu_ps(in + 8), straight);
    const __m256i b2 = bytes_of(_mm256_loadu_ps(in + 16), straight), b3 = bytes_of(_mm256_loadu_ps(in + 24), straight);
    // Packs work within each half: pixels 0 2 4 6 | 1 3 5 7 come out, put back in order.
    const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(b0, b1), _mm256_packus_epi32(b2, b3));
    const __m256i ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), ordered);
  }
  return i;
}

template <bool kMasked, Fixed kMode>
[[gnu::target("avx2")]] void fixed_mesh(std::span<const Corner> corners, const Band& band, Cull cull, Rect* touched,
                                        const OverSpan& s) {
  Rows<ShadeOver<kMasked, kMode>> rows{{s, Axis(s.texture->width), Axis(s.texture->height)}, *s.texture, {}, 0, {}, true};
  mesh(corners, band, cull, touched, rows);
}

[[gnu::target("avx2")]] void over_mesh_avx2(std::span<const Corner> corners, const Band& band, Cull cull, Rect* touched,
                                            const OverSpan& s) {
  const bool masked = s.coverage != nullptr;
  switch (s.mode) {
    case Fixed::Over:
      return masked ? fixed_mesh<true, Fixed::Over>(corners, band, cull, touched, s)
                    : fixed_mesh<false, Fixed::Over>(corners, band, cull, touched, s);
    case Fixed::Add:
      return masked ? fixed_mesh<true, Fixed::Add>(corners, band, cull, touched, s)
                    : fixed_mesh<false, Fixed::Add>(corners, band, cull, touched, s);
    case Fixed::Multiply:
      return masked ? fixed_mesh<true, Fixed::Multiply>(corners, band, cull, touched, s)
                    : fixed_mesh<false, Fixed::Multiply>(corners, band, cull, touched, s);
  }
}

[[gnu::target("avx2")]] void mask_mesh_avx2(std::span<const Corner> corners, const Band& band, Rect* touched,
                                            const Image& texture, float* coverage) {
  Rows<ShadeMask> rows{{texture, coverage, Axis(texture.width), Axis(texture.height)}, texture, {}, 0, {}, true};
  mesh(corners, band, Cull::None, touched, rows);
}

}  // namespace

bool vector_spans() {
  static const bool has = processor_has_avx2();
  return has && !g_turned_off.load(std::memory_order_relaxed);
}

void set_vector_spans(bool on) { g_turned_off.store(!on, std::memory_order_relaxed); }

void over_mesh(std::span<const Corner> corners, const Band& band, Cull cull, Rect* touched, const OverSpan& s) {
  over_mesh_avx2(corners, band, cull, touched, s);
}

void mask_mesh(std::span<const Corner> corners, const Band& band, Rect* touched, const Image& texture, float* coverage) {
  mask_mesh_avx2(corners, band, touched, texture, coverage);
}

std::size_t to_rgba8_span(const float* in, std::size_t pixels, bool straight, std::uint8_t* out) {
  return rgba8_chunks(in, pixels, straight, out);
}

#else  // no AVX2 kernels: the scalar code draws everything

bool vector_spans() { return false; }
void set_vector_spans(bool) {}
void over_mesh(std::span<const Corner>, const Band&, Cull, Rect*, const OverSpan&) {}
void mask_mesh(std::span<const Corner>, const Band&, Rect*, const Image&, float*) {}
std::size_t to_rgba8_span(const float*, std::size_t, bool, std::uint8_t*) { return 0; }

#endif

}  // namespace p2l::render
