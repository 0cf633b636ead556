// The viewer's pieces that need no window: which clip group a hit area's tap plays, and the
// framing that maps the window to the canvas and back.
#include <gtest/gtest.h>

#include "p2lrt/view/character.hpp"
#include "p2lrt/view/framing.hpp"

namespace {

using p2lrt::viewer::Framing;
using p2lrt::viewer::is_tap_group;

TEST(ViewerTaps, TheGroupIsTapAndTheAreasNameOrItsIdWithoutHitArea) {
  EXPECT_TRUE(is_tap_group("TapHead", "HitAreaHead", ""));
  EXPECT_TRUE(is_tap_group("TapBody", "HitArea2", "Body"));
  EXPECT_TRUE(is_tap_group("tapbody", "Body", "Body")) << "Cubism's samples compare without case";
  EXPECT_FALSE(is_tap_group("TapHead", "HitArea2", "Body"));
  EXPECT_FALSE(is_tap_group("Idle", "HitAreaHead", "Head"));
  EXPECT_FALSE(is_tap_group("Tap", "HitArea", "")) << "an id that is only the prefix names no group";
  EXPECT_FALSE(is_tap_group("", "HitAreaHead", "Head"));
}

TEST(ViewerFraming, TheRectangleFitsTheWindowBesideThePanelWithItsAspect) {
  Framing f;
  f.center_x = 500, f.center_y = 1000, f.extent_x = 400, f.extent_y = 800;
  f.left = 200;
  // 1000 x 800 with 200 for the panel: the 800-high rectangle fits the height, scale 1, centred
  // in the 800 pixels right of the panel.
  const auto t = f.transform(1000, 800);
  EXPECT_FLOAT_EQ(t[0], 1);
  EXPECT_FLOAT_EQ(t[3], 1);
  EXPECT_FLOAT_EQ(t[0] * 500 + t[4], 600) << "the centre lands mid-way across what the panel leaves";
  EXPECT_FLOAT_EQ(t[3] * 1000 + t[5], 400);
  float cx = 0, cy = 0;
  f.to_canvas(1000, 800, 600, 400, cx, cy);
  EXPECT_FLOAT_EQ(cx, 500);
  EXPECT_FLOAT_EQ(cy, 1000);
}

TEST(ViewerFraming, ZoomKeepsThePointUnderThePointerWhereItIs) {
  Framing f;
  f.center_x = 500, f.center_y = 1000, f.extent_x = 400, f.extent_y = 800;
  float before_x = 0, before_y = 0, after_x = 0, after_y = 0;
  f.to_canvas(640, 480, 100, 50, before_x, before_y);
  f.zoom_about(640, 480, 100, 50, 1.5f);
  EXPECT_FLOAT_EQ(f.zoom, 1.5f);
  f.to_canvas(640, 480, 100, 50, after_x, after_y);
  EXPECT_NEAR(after_x, before_x, 1e-3);
  EXPECT_NEAR(after_y, before_y, 1e-3);
}

}  // namespace
