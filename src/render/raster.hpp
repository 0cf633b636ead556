// Triangle rasterization of the software renderer: which image pixels a triangle covers and
// at which texture coordinates (docs/RUNTIME.md, "Rendering").
//
// A pixel (x, y) is covered when its centre (x + 0.5, y + 0.5) lies inside the triangle, or
// on one of its top or left edges (the top-left rule, decided after turning every triangle
// to one winding, so two triangles sharing an edge cover each pixel on it exactly once
// whatever their windings). Edge functions are evaluated in double precision, each edge from
// the same endpoint whichever way a triangle runs along it, so that the two triangles of a
// shared edge compute exactly opposite values: no pixel is lost or drawn twice.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace p2l::render {

// A pixel rectangle, [x0, x1) x [y0, y1).
struct Rect {
  std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x0 >= x1 || y0 >= y1; }
  void add(const Rect& r) {
    if (r.empty()) return;
    if (empty()) {
      *this = r;
      return;
    }
    if (r.x0 < x0) x0 = r.x0;
    if (r.y0 < y0) y0 = r.y0;
    if (r.x1 > x1) x1 = r.x1;
    if (r.y1 > y1) y1 = r.y1;
  }
};

// A triangle corner: image position and texture coordinates.
struct Corner {
  double x, y;
  float u, v;
};

// The rows of an image that one drawing holds: rows [y0, y1) of an image [width] pixels wide,
// kept from row y0 on (pixel (x, y) at index (y - y0) * width + x). A renderer drawing the
// image in horizontal bands on several threads hands each band its own; one band holds the
// whole image. The coverage rules are decided in the whole image's coordinates, so a band
// covers exactly the pixels the whole image would in its rows.
struct Band {
  std::uint32_t width = 0;
  std::int32_t y0 = 0, y1 = 0;
  std::uint32_t rows() const { return static_cast<std::uint32_t>(y1 - y0); }
};

// Which triangles culling drops, by the sign of their area in image coordinates.
enum class Cull { None, Positive, Negative };

namespace detail {

// The edge function of a directed edge P -> Q at point p, (Q - P) x (p - P), positive on the
// interior side once the triangle runs with positive area. It is computed from the edge's
// lower endpoint (by x, then y) whichever direction the edge runs, so the reversed edge gives
// exactly the negated value.
class Edge {
 public:
  Edge(const Corner& p, const Corner& q) {
    const bool forward = p.x < q.x || (p.x == q.x && p.y < q.y);
    const Corner& base = forward ? p : q;
    const Corner& tip = forward ? q : p;
    bx_ = base.x;
    by_ = base.y;
    dx_ = tip.x - base.x;
    dy_ = tip.y - base.y;
    sign_ = forward ? 1.0 : -1.0;
    // Top edge: runs right along a row (interior below); left edge: runs up (y down).
    tie_ = q.y < p.y || (q.y == p.y && q.x > p.x);
    // narrow()'s slope and its reciprocal, once per triangle rather than a division per row:
    // the bounds it gives are widened by a pixel, so the reciprocal's rounding cannot lose a
    // covered pixel (which pixels are covered is decided by at() alone).
    k_ = -sign_ * dy_;
    inverse_k_ = k_ != 0.0 ? 1.0 / k_ : 0.0;
  }
  void start_row(double py) { row_ = dx_ * (py - by_); }
  // The terms of at(): sign * (row - dy * (px - base_x)), for code that evaluates it on
  // several pixels at once with the same operations.
  double base_x() const { return bx_; }
  double dy() const { return dy_; }
  double row() const { return row_; }
  double sign() const { return sign_; }
  bool tie() const { return tie_; }
  double at(double px) const { return sign_ * (row_ - dy_ * (px - bx_)); }
  bool covers(double e) const { return e > 0.0 || (e == 0.0 && tie_); }
  // The pixel-centre x range this edge leaves open on the current row, widened by a pixel
  // each side for rounding: narrows [lo, hi] (pixel-centre coordinates).
  void narrow(double& lo, double& hi) const {
    const double c = sign_ * (row_ + dy_ * bx_);  // e = c + k px
    if (k_ > 0.0) {
      const double at = -c * inverse_k_ - 1.0;
      if (at > lo) lo = at;
    } else if (k_ < 0.0) {
      const double at = -c * inverse_k_ + 1.0;
      if (at < hi) hi = at;
    } else if (c < 0.0) {
      hi = lo - 1.0;
    }
  }

 private:
  double bx_, by_, dx_, dy_, sign_, k_, inverse_k_, row_ = 0.0;
  bool tie_;
};

inline bool finite(const Corner& c) { return std::isfinite(c.x) && std::isfinite(c.y); }

// std::fmin and std::fmax for values that are not NaN, which the compiler inlines (the std
// functions are library calls, for their NaN rules).
inline double lesser(double a, double b) { return b < a ? b : a; }
inline double greater(double a, double b) { return a < b ? b : a; }

}  // namespace detail

// A triangle set up for rasterization, its edges started on the current row: what
// raster_triangle() hands to its row callback.
struct Triangle {
  detail::Edge e0, e1, e2;  // opposite a, b and c
  double inverse;           // 1 / area
  Corner a, b, c;

  // Whether the pixel whose centre is at x = [px] on the current row is covered, and its
  // texture coordinates there.
  bool at(double px, float& u, float& v) const {
    const double w0 = e0.at(px);
    if (!e0.covers(w0)) return false;
    const double w1 = e1.at(px);
    if (!e1.covers(w1)) return false;
    const double w2 = e2.at(px);
    if (!e2.covers(w2)) return false;
    const double ka = w0 * inverse, kb = w1 * inverse, kc = 1.0 - ka - kb;
    u = static_cast<float>(ka * a.u + kb * b.u + kc * c.u);
    v = static_cast<float>(ka * a.v + kb * b.v + kc * c.v);
    return true;
  }
};

// Calls fragment(pixel, u, v) for every covered pixel of columns [first, last] of the row
// that starts at pixel [row] (pixel = row + x).
template <class Fragment>
inline void each_pixel(const Triangle& t, std::size_t row, std::int32_t first, std::int32_t last, Fragment&& fragment) {
  for (std::int32_t x = first; x <= last; ++x) {
    float u, v;
    if (t.at(static_cast<double>(x) + 0.5, u, v)) fragment(row + static_cast<std::size_t>(x), u, v);
  }
}

// Calls rows(triangle, row, first, last) for every row of [band] the triangle (a, b, c) may
// cover: columns [first, last] of the row starting at pixel [row] ((y - band.y0) * width)
// hold every pixel it covers there, each decided by Triangle::at. Skips triangles with a
// non-finite corner, an area under 1e-12 pixels or the culled sign. Adds the pixel rectangle
// it visits, in the band's rows, to [touched] when given.
template <class Rows>
void raster_rows(Corner a, Corner b, Corner c, const Band& band, Cull cull, Rect* touched, Rows&& rows) {
  if (!detail::finite(a) || !detail::finite(b) || !detail::finite(c)) return;
  double area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  if (!(std::fabs(area) >= 1e-12)) return;
  if ((cull == Cull::Positive && area > 0.0) || (cull == Cull::Negative && area < 0.0)) return;
  if (area < 0.0) {  // one winding for the edge rules
    std::swap(b, c);
    area = -area;
  }
  using detail::greater;
  using detail::lesser;
  // Corners are finite from here on, and so is every bound made of them.
  const double min_x = lesser(lesser(a.x, b.x), c.x), max_x = greater(greater(a.x, b.x), c.x);
  const double min_y = lesser(lesser(a.y, b.y), c.y), max_y = greater(greater(a.y, b.y), c.y);
  const double last_x = static_cast<double>(band.width) - 1.0, last_y = static_cast<double>(band.y1) - 1.0;
  const double fx0 = greater(std::floor(min_x - 0.5), 0.0), fx1 = lesser(std::ceil(max_x - 0.5), last_x);
  const double fy0 = greater(std::floor(min_y - 0.5), static_cast<double>(band.y0));
  const double fy1 = lesser(std::ceil(max_y - 0.5), last_y);
  if (!(fx0 <= fx1) || !(fy0 <= fy1)) return;
  const auto x0 = static_cast<std::int32_t>(fx0), x1 = static_cast<std::int32_t>(fx1);
  const auto y0 = static_cast<std::int32_t>(fy0), y1 = static_cast<std::int32_t>(fy1);
  if (touched != nullptr) touched->add(Rect{x0, y0 - band.y0, x1 + 1, y1 + 1 - band.y0});

  Triangle t{detail::Edge(b, c), detail::Edge(c, a), detail::Edge(a, b), 1.0 / area, a, b, c};
  // Row spans from the edges are exact enough while coordinates stay within 2^24 pixels;
  // beyond that every pixel of the box is tested.
  constexpr double kSpanLimit = 16777216.0;
  const bool spans =
      greater(greater(std::fabs(min_x), std::fabs(max_x)), greater(std::fabs(min_y), std::fabs(max_y))) < kSpanLimit;
  const std::size_t stride = band.width;
  for (std::int32_t y = y0; y <= y1; ++y) {
    const double py = static_cast<double>(y) + 0.5;
    t.e0.start_row(py);
    t.e1.start_row(py);
    t.e2.start_row(py);
    std::int32_t xs = x0, xe = x1;
    if (spans) {
      double lo = fx0 + 0.5, hi = fx1 + 0.5;
      t.e0.narrow(lo, hi);
      t.e1.narrow(lo, hi);
      t.e2.narrow(lo, hi);
      if (!(lo <= hi)) continue;
      // lo and hi are never NaN: narrow() moves them only on a true comparison.
      const double first = greater(std::ceil(lo - 0.5), fx0), last = lesser(std::floor(hi - 0.5), fx1);
      if (!(first <= last)) continue;
      xs = static_cast<std::int32_t>(first);
      xe = static_cast<std::int32_t>(last);
    }
    rows(static_cast<const Triangle&>(t), static_cast<std::size_t>(y - band.y0) * stride, xs, xe);
  }
}

// Calls fragment(pixel, u, v) for every pixel of [band] the triangle (a, b, c) covers,
// pixel = (y - band.y0) * width + x, with (u, v) interpolated at the pixel centre:
// raster_rows() pixel by pixel.
template <class Fragment>
void raster_triangle(Corner a, Corner b, Corner c, const Band& band, Cull cull, Rect* touched, Fragment&& fragment) {
  raster_rows(a, b, c, band, cull, touched,
              [&](const Triangle& t, std::size_t row, std::int32_t first, std::int32_t last) {
                each_pixel(t, row, first, last, fragment);
              });
}

}  // namespace p2l::render
