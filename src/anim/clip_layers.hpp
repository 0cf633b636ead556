// Clip layers, as Cubism's motion managers: each of up to 16 layers plays one clip at a
// time over the layers below it, cross-fading from the clips it replaced. Part-opacity,
// model-opacity, EyeBlink and LipSync curves and events come from the clip's CEXT record.
// A clip whose record says "Cubism playback" follows the Framework's motion queue instead of
// p2lrt's clip rules (docs/RUNTIME.md "Cubism playback"): it starts at time 0 with weight 0,
// fades out over its last fade-out seconds and is dropped, blends from what the clips left at
// the last update (which stays once it is dropped), and its Beziers may be unrestricted.
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
  // Per part: 1 where that value came from a clip with Cubism playback (it then only steers
  // poses, as Cubism's PartOpacity curves only write the pose's parameter).
  std::vector<std::uint8_t> part_cubism;
  // A clip with Cubism playback was applied (Cubism's "motion updated": no eye blink then).
  bool cubism_updated = false;
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
  // [cubism_playback] false plays every clip by p2lrt's rules, whatever its record says.
  explicit ClipLayers(const Rig& rig, bool cubism_playback = true);

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

  // A clip's looping as this player plays it (the file's flag until set_looping; for Cubism
  // playback false until set, as Cubism ignores Meta.Loop). False for no such clip.
  bool looping(std::uint32_t clip) const;
  bool set_looping(std::uint32_t clip, bool looping);
  bool cubism(std::uint32_t clip) const { return clip < plans_.size() && plans_[clip].cubism; }
  bool unrestricted(std::uint32_t clip) const { return clip < plans_.size() && plans_[clip].unrestricted; }
  // What the parameters Cubism clips wrote show once no clip plays or fades: true (the
  // default), the last values the clips left, as Cubism's sample loop keeps them; false, the
  // host's pose again (from the next update on).
  void set_keep_values(bool keep) { keep_values_ = keep; }
  bool keep_values() const { return keep_values_; }

  // Advances every layer by [dt] seconds (negative or NaN: 0) and blends the clips into
  // [values] (one per parameter, raw), layer 0 first; fills [effects] (whose part lists the
  // caller sized to the part count) and the events this update passed. [clock_dt] is the same
  // step as Cubism's clock counts it (frame_seconds(dt)).
  void update(float dt, double clock_dt, std::span<float> values, ClipEffects& effects);
  void update(float dt, std::span<float> values, ClipEffects& effects) {
    update(dt, static_cast<double>(dt), values, effects);
  }
  std::span<const FiredEvent> events() const { return events_; }

 private:
  struct Playing {
    std::uint32_t clip = 0;
    double time = 0;          // the clip's own time, which a seek moves
    double age = 0;           // seconds since it started: its fade-in
    double fading = -1;       // seconds since it started fading out, -1 when it is not
    double fired = 0;         // clip time up to which events fired (-infinity: none yet)
    // Cubism playback: the queue entry's times on the layers' clock (Cubism's user time).
    bool started = false;     // its first update set start, fade_in_start and end
    bool done = false;        // finished: applied once more this update, then dropped
    bool fade_pending = false;  // replaced: its end moves to now + fade-out after its next update
    double start = 0, fade_in_start = 0, end = -1;  // end -1: none (a loop)
    double offset = 0;        // a seek before the first update: the time to start at
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
    bool cubism = false;           // Cubism playback (CEXT flag bit 0)
    bool unrestricted = false;     // unrestricted Beziers (CEXT flag bit 1)
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
  // Cubism playback: the entry's first update, its fade terms and its end of update.
  void cubism_start(Playing& p) const;
  Terms cubism_terms(const Playing& p) const;
  void cubism_finish(Playing& p) const;
  // Cubism's per-curve fade rule, on the entry's fade-in start and end time.
  float cubism_weight(const Playing& p, const Terms& t, float own_in, float own_out) const;
  // Fade-in times fade-out of a curve with fades of its own (-1: the clip's), by Cubism's
  // per-curve rule.
  static float own_weight(const Terms& t, float own_in, float own_out);
  static void stop(Layer& layer);
  void apply(const Playing& p, float layer_weight, std::span<float> values, ClipEffects& effects);
  void fire(std::uint32_t layer, Playing& p);
  // Writes [v] blended by [w] into the parameter (clamped to its range for Cubism playback,
  // as Cubism's model clamps every write) and, for Cubism playback, carries it.
  void blend(std::span<float> values, std::uint32_t parameter, float v, float w, bool cubism);

  const Rig* rig_;
  std::vector<std::int32_t> extension_of_clip_;  // per clip: its ClipExtension, or -1
  std::vector<ClipPlan> plans_;                  // per clip
  std::vector<std::uint8_t> roles_;              // per parameter: bit 0 EyeBlink, bit 1 LipSync
  std::vector<Layer> layers_;
  std::vector<FiredEvent> events_;
  double clock_ = 0;  // Cubism's user time: the sum of the steps, in double
  // Cubism blends each motion from what the motions left at the last update (its model keeps
  // the values; the sample saves and reloads them around the other effects). Per parameter a
  // Cubism clip wrote: that value, used instead of the host's pose (for good, or while
  // anything plays when keep_values_ is false).
  std::vector<float> carry_;
  std::vector<std::uint8_t> carried_;
  bool any_carried_ = false;
  bool keep_values_ = true;
};

}  // namespace p2l::anim
