// The viewer's panel (Dear ImGui): what plays, the frame time, the behaviours, and a slider for
// every parameter, grouped as the model's panel tree (PGUI; an imported model's cdi3 groups) has
// them. A slider that is moved holds its parameter through the host's override layer until it is
// let go (its "x" button, or "Let go of every slider").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace p2lrt::viewer {

class Character;

struct PanelState {
  bool shown = true;
  bool blink = true, breath = true, look = true, physics = true, paused = false;
  bool wide_glyphs = false;     // the font has Japanese and Chinese glyphs; else non-ASCII names show ids
  std::string title;            // the model's file name
  std::string last_tap;         // what the last click hit and played
  float update_ms = 0, draw_ms = 0, fps = 0;
  std::vector<std::uint8_t> held;  // per parameter: a slider holds it
  std::vector<float> value;        // the held values
  bool open_first_group = false;   // the model marks no group open: its first one opens
};

// Draws the panel on the window's left, [height] pixels tall; returns its width (0 when hidden).
float draw_panel(Character& character, PanelState& state, float height);

// Applies the behaviour switches to the rig (after they change).
void apply_behaviors(Character& character, const PanelState& state);

}  // namespace p2lrt::viewer
