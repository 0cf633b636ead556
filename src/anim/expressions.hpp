// Expressions (EXPR) as Cubism's exp3: Add, Multiply and Overwrite values faded in and out
// with sine easing, one at a time (p2l_expression) or several at once
// (p2l_expression_add / _remove). docs/RUNTIME.md "Expressions" states the rules.
// update() allocates nothing; starting expressions may grow the list of playing ones.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::anim {

class Expressions {
 public:
  // [cubism_playback]: expressions the file marks for it (EXPR version 2) start and fade out
  // as Cubism's Framework's do: the first update after play() weighs them at 0, a fade-out
  // starts at the end of the update after the call, with the entry's own fade-out time, and
  // what they write is stored in the parameter's range. [rig] outlives the player.
  explicit Expressions(const Rig& rig, bool cubism_playback = true);

  // Fades [index] in and every other one out; -1 (or an index past the end) fades all out.
  void play(std::int32_t index);
  // Fades [index] in over those playing; false when there is no such expression or it
  // already plays (and is not fading out).
  bool add(std::uint32_t index);
  // Fades [index] out, leaving the others; false when it is not playing.
  bool remove(std::uint32_t index);
  // The expressions playing and not fading out, oldest first; returns how many there are
  // and writes up to out.size() of them.
  std::uint32_t playing(std::span<std::uint32_t> out) const;

  // Advances by [dt] seconds (negative or NaN: 0) and applies to [values] (raw). A parameter
  // an expression with Cubism playback wrote is stored in its range, as Cubism's model
  // stores it (clamped; wrapped for a repeat parameter); the others are left raw.
  void update(float dt, std::span<float> values);

 private:
  // The implementation owns its members.
  struct Value {
    std::uint32_t parameter;
    ExpressionBlend blend;
    float value;
  };
  struct Info {
    float fade_in, fade_out;
    std::uint32_t first, count;  // into values_
    bool cubism;
  };
  enum class Fade : std::uint8_t { None, Removed, Replaced };
  // One start of an expression. A fading entry's fade-out term is 1 - ease(out_time /
  // out_fade): out_fade is its own fade-out time when it was removed, the replacing entry's
  // fade-in time when play() replaced it (both started at 0 together, so this is 1 minus the
  // replacing entry's fade-in term).
  struct Entry {
    std::uint32_t expression = 0;
    Fade fade = Fade::None;
    float out_fade = 0;
    double age = 0, out_time = 0, weight = 0;
    bool fresh = true;        // not updated yet (Cubism: its first update samples age 0)
    bool out_pending = false;  // Cubism: its fade-out starts after its next update
  };
  // Starts entry [e] fading out [as] removed or replaced by an entry of [by].
  void fade_out(Entry& e, Fade as, std::uint32_t by);
  void push(std::uint32_t index);

  std::span<const Parameter> parameters_;  // the rig's, for their ranges
  std::vector<Info> infos_;
  std::vector<Value> values_;
  std::vector<Entry> entries_;  // start order
  // Per parameter accumulators of one update, and which parameters they hold.
  std::vector<double> add_, mul_, over_;
  std::vector<std::uint8_t> touched_;
  std::vector<std::uint32_t> touched_list_;
};

}  // namespace p2l::anim
