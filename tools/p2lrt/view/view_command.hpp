// `p2lrt view`: a window that plays a character (GLFW, p2l_gl, a Dear ImGui panel), or, with
// --mascot, the character alone on the desktop: borderless, transparent, always on top, clicks
// passing through wherever it is transparent, dragged to move.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace p2lrt {

struct ViewOptions {
  std::string input;           // .p2lrt, .model3.json or .moc3
  bool mascot = false;
  std::string size;            // WxH; empty: 1100x800, or the character's shape in mascot mode
  std::uint32_t seed = 1;      // blinks and the choice among a group's clips
  bool no_panel = false;
  bool trace = false;          // print the pointer, the gaze and what plays twice a second

  void add_to(CLI::App* command);
};

// Runs the viewer until its window closes; the process exit code (0 closed, 1 failed, 2 bad
// arguments).
int view(const ViewOptions& options);

}  // namespace p2lrt
