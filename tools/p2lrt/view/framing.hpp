// Where the character sits in the window: a rectangle of the canvas (what the character draws at
// its first pose, with a margin) fitted to the window with its aspect kept, zoomed and panned by the user. Fixed once taken,
// so the picture does not breathe with the character's own bounds from frame to frame.
#pragma once

#include <array>

#include "p2l/p2l.h"

namespace p2lrt::viewer {

struct Framing {
  float center_x = 0, center_y = 0;  // canvas pixels at the window's centre (before panning)
  float extent_x = 1, extent_y = 1;  // the rectangle's size in canvas pixels, fitted at zoom 1
  float zoom = 1;
  float pan_x = 0, pan_y = 0;        // window pixels
  float left = 0;                    // window pixels on the left kept for the panel

  // What [rig] draws at its last evaluation (meshes with some opacity), with a margin of 4% of the
  // larger side (`p2lrt render --fit`'s).
  static Framing of(const P2lRig* rig);

  // Canvas pixels to window pixels (y down), six floats as p2l_gl_draw takes them.
  std::array<float, 6> transform(float width, float height) const;
  // Window pixels to canvas pixels.
  void to_canvas(float width, float height, float x, float y, float& cx, float& cy) const;
  // Zooms by [factor] about window point (x, y), which stays where it is.
  void zoom_about(float width, float height, float x, float y, float factor);
};

}  // namespace p2lrt::viewer
