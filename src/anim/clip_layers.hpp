// Clip layers, as Cubism's motion managers: each of up to 16 layers plays one clip at a
// time over the layers below it, cross-fading from the clips it replaced. Part-opacity,
// model-opacity, EyeBlink and LipSync curves and events come from the clip's CEXT record.
//
// Everything is sized when the layers are made; update() allocates nothing, except that a
// host switching clips faster than they fade out may grow the list of fading clips once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::anim {

inline constexpr std::uint32_t kMaxLayers = 16;

// What clips set beyond parameter values in one update.
struct ClipEffects {
  // The rig's opacity a ModelOpacity curve set (the last layer that has one), else 1.
  float model_opacity = 1;
  // Per part: the value a PartOpacity curve wrote, NaN where none did.
  std::vector<float> part_values;
};

struct FiredEvent {
  std::uint32_t layer = 0;
  std::uint32_t clip = 0;
  std::uint32_t event = 0;  // index into the clip's ClipExtension::events
};

struct LayerState {
  std::int32_t clip = -1;  // -1: nothing plays
  float time = 0;          // the clip's time, wrapped for a loop, held at the end for a one-shot
  std::uint32_t priority = 0;
  bool finished = true;    // a one-shot past its end, or nothing playing
};

class ClipLayers {
 public:
  explicit ClipLayers(const Rig& rig);

  // Starts [clip] on [layer] when [priority] is at least that of the clip playing there
  // (0 once it finished or stopped); -1 stops the layer. False for a layer >= kMaxLayers,
  // a clip past the end, or a lower priority.
  bool play(std::uint32_t layer, std::int32_t clip, std::uint32_t priority);
  // Layer 0 as p2l_play drives it: always starts (or stops, for -1), priority 0.
  void play_base(std::int32_t clip);
  bool set_weight(std::uint32_t layer, float weight);  // 0..1; false for a bad layer or NaN
  LayerState state(std::uint32_t layer) const;
  // Moves the clip [layer] plays to [time] seconds (>= 0); its fade-in goes on as it was and
  // the events it jumps over do not fire.
  void seek(std::uint32_t layer, float time);

  // Advances every layer by [dt] seconds (negative or NaN: 0) and blends the clips into
  // [values] (one per parameter, raw), layer 0 first; fills [effects] (whose part_values
  // the caller sized to the part count) and the events this update passed.
  void update(float dt, std::span<float> values, ClipEffects& effects);
  std::span<const FiredEvent> events() const { return events_; }

 private:
  struct Playing {
    std::uint32_t clip = 0;
    double time = 0;          // the clip's own time, which a seek moves
    double age = 0;           // seconds since it started: its fade-in
    double fading = -1;       // seconds since it started fading out, -1 when it is not
    double fired = 0;         // clip time up to which events fired (-infinity: none yet)
  };
  struct Layer {
    bool has_current = false;
    Playing current;
    std::vector<Playing> fading_out;  // replaced clips, oldest first
    std::uint32_t priority = 0;
    float weight = 1;
  };
  // What update() needs of a clip, worked out once.
  struct ClipPlan {
    double duration = 0;           // seconds, >= 0 (negative or NaN: 0)
    bool looping = false;          // the clip's flag (it wraps only with a finite duration > 0)
    float fade_in = 1, fade_out = 1;  // seconds, >= 0 (negative or NaN: the 1 s default)
    // Per parameter curve, its own fade-in and fade-out (-1: the clip's); empty when no
    // curve of the clip has its own.
    std::vector<float> curve_fade_in, curve_fade_out;
    std::int32_t eye_curve = -1, lip_curve = -1;  // the CEXT curve driving them (the last)
    float eye_fade_in = -1, eye_fade_out = -1;    // that curve's own fades (-1: the clip's)
    float lip_fade_in = -1, lip_fade_out = -1;
    // EyeBlink / LipSync role parameters the clip has no curve for.
    std::vector<std::uint32_t> eye_free, lip_free;
  };
  // The fade terms of one playing clip at this update.
  struct Terms {
    double age = 0, elapsed = -1;  // elapsed < 0: not fading out
    float clip_in = 1, clip_out = 1;
    float fade_out = 1;            // the clip's fade-out seconds
  };

  bool finished(const Playing& p) const;
  double local_time(const Playing& p) const;
  Terms terms(const Playing& p) const;
  // Fade-in times fade-out of a curve with fades of its own (-1: the clip's), by Cubism's
  // per-curve rule.
  static float own_weight(const Terms& t, float own_in, float own_out);
  static void stop(Layer& layer);
  void apply(const Playing& p, float layer_weight, std::span<float> values, ClipEffects& effects) const;
  void fire(std::uint32_t layer, Playing& p);

  const Rig* rig_;
  std::vector<std::int32_t> extension_of_clip_;  // per clip: its ClipExtension, or -1
  std::vector<ClipPlan> plans_;                  // per clip
  std::vector<std::uint8_t> roles_;              // per parameter: bit 0 EyeBlink, bit 1 LipSync
  std::vector<Layer> layers_;
  std::vector<FiredEvent> events_;
};

}  // namespace p2l::anim
