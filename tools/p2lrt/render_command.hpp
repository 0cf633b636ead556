// `p2lrt render`: a pose or an animation of a rig drawn into a PNG, a folder of PNG frames, or a
// video (MP4, WebM, GIF; src/video/, docs/VIDEO.md), with a voice's audio muxed in and moving the
// mouth.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "p2l/rig.hpp"

namespace CLI {
class App;
}

namespace p2lrt {

struct RenderOptions {
  std::string input;                 // a .p2lrt, or a Cubism .model3.json imported on the fly
  std::string output;                // a PNG (one pose), a folder (PNG frames), .mp4, .webm or .gif
  std::vector<std::string> params;   // ID=VALUE
  std::string size;                  // WxH; empty: the canvas, at most 1024 on its longer side
  bool fit = false;                  // frame what is drawn instead of the whole canvas
  std::string region;                // X,Y,W,H in canvas pixels: frame that instead
  std::string gain = "1";            // with --audio: a number, or auto
  std::string background = "transparent";
  // Animation.
  std::string clip;                  // id or index; empty: one pose
  float seconds = -1, fps = 30;    // seconds -1: not given (3, or the audio's length)
  std::vector<std::string> expressions;
  std::string behaviors = "blink,breath";  // any of blink, breath, look, lipsync; "none"
  bool no_physics = false;
  std::uint32_t seed = 1;
  // Advanced mode (the rig's extension chunks): the features to turn on, a bit sum or names
  // (empty: none, Cubism mode), and whether to draw Cubism mode and advanced mode side by side.
  std::string advanced;
  bool compare_advanced = false;
  bool sheet = false;
  std::uint32_t sheet_columns = 0;   // 0: about square
  bool quiet = false;
  // Audio: muxed into a video, and the lip sync driven by it; the animation lasts as long.
  std::string audio;
  std::string mouth = "rms";         // rms: the level alone; vowels: the mouth's shape too
  std::uint32_t threads = 0;         // drawing threads; 0: every core

  void add_to(CLI::App* command);
};

// Runs the command; returns the process exit code (0 done, 1 failed, 2 bad arguments).
int render(const RenderOptions& options);

}  // namespace p2lrt
