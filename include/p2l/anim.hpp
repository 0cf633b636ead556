// Animation: what makes a rig alive over the host's pose. A p2l::Animator holds one
// character's clip layers, expressions, part poses, pendulum physics, procedural behaviors
// and the host's parameter overrides, and advances them over a p2l::Instance:
//
//   p2l::Instance character(model);
//   p2l::Animator animator(model);
//   animator.evaluate(character);                   // the pose opacities from the start
//   animator.play(clip);
//   every frame:  animator.update(character, dt);   // allocates nothing
//                 character.vertices(mesh) ...
//
// update() runs clips -> expressions -> host overrides -> behaviors -> poses -> physics ->
// deformation, always starting again from the instance's parameters() (the host's pose;
// parameters Cubism-playback clips wrote start from what those left), so additive layers
// never pile up there; Instance::current() gives the values used.
// docs/RUNTIME.md states every rule. Nothing here throws on purpose.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "p2l/eval.hpp"

namespace p2l {

namespace anim {
class ClipLayers;
class Expressions;
class PosePlayer;
class Physics;
class HairPhysics;
class Behaviors;
struct ClipEffects;
}  // namespace anim

// Stages of an update (p2l_update_stages), always run in this order.
inline constexpr std::uint32_t kStageClips = 1, kStageExpressions = 2, kStageBehaviors = 4, kStagePoses = 8,
                               kStagePhysics = 16, kStageSim = 32, kStageAll = 63;
// Behaviors (p2l_behaviors).
inline constexpr std::uint32_t kBehaviorBlink = 1, kBehaviorBreath = 2, kBehaviorLook = 4, kBehaviorLipSync = 8;
inline constexpr std::uint32_t kMaxClipLayers = 16;

class Speech;
// The mouth's slots (Animator::bind_mouth): the opening (the LipSync role), the form (the
// MouthForm role) and the vowel parameters (roles VowelA..VowelO).
enum class MouthSlot : std::uint32_t { Open = 0, Form = 1, A = 2, I = 3, U = 4, E = 5, O = 6 };
inline constexpr std::size_t kMouthSlots = 7;
// How lip sync's opening meets the value already there (docs/RUNTIME.md "Lip sync and vowels").
enum class LipMix : std::uint32_t {
  Floor = 0,  // max(value, opening): the original runtime's rule, the default for p2lrt's own rigs
  Add = 1,    // value + 0.8 x opening: Cubism's Framework, the default for rigs it plays
  Set = 2,    // the opening alone: speech decides, whatever clips did
};

struct ClipLayerState {
  std::int32_t clip = -1;  // -1: nothing plays
  float time = 0;          // wrapped for a loop, held at the end for a one-shot
  std::uint32_t priority = 0;
  bool finished = true;
};

struct AnimatorOptions {
  // Clips, poses (and whatever else the file marks for it) play as Cubism's Framework plays
  // them where the file says so (CEXT and POSE version 2 flags; docs/RUNTIME.md "Cubism
  // playback"). False: p2lrt's own rules for everything, whatever the file says.
  bool cubism_playback = true;
  // What the parameters Cubism-playback clips wrote show once no clip plays or fades. True:
  // the last values the clips left stay (for good, until a clip moves them), as Cubism's
  // sample loop keeps them (it reloads the model's saved parameters at every frame). False:
  // the host's pose shows again (p2lrt's rest state). Clips played by p2lrt's own rules
  // always start from the host's pose.
  bool keep_clip_values = true;
};

// An event (CEXT) the last update passed.
struct FiredClipEvent {
  std::uint32_t layer = 0, clip = 0;
  float time = 0;                     // the event's time in the clip
  const std::string* text = nullptr;  // the event's value, owned by the rig
  std::uint32_t record = 0, event = 0;  // where it is: Rig::clip_extensions[record].events[event]
};

class Animator {
 public:
  explicit Animator(std::shared_ptr<const Model> model, const AnimatorOptions& options = {});
  ~Animator();
  Animator(Animator&&) noexcept;
  Animator& operator=(Animator&&) noexcept;

  const Model& model() const { return *model_; }

  // Advances the stages in [stages] by [dt] seconds (negative or NaN: 0) over the host's
  // pose and evaluates [instance] (which must be on the same model). Stages left out
  // neither advance nor apply. Allocates nothing.
  void update(Instance& instance, float dt, std::uint32_t stages = kStageAll);
  // Evaluates the host's pose alone: no clip, expression, behavior or physics values, no
  // clip opacities; the part poses' opacities still apply (they are state, not a layer).
  void evaluate(Instance& instance);
  // Cubism's physics stabilization at the values of the last evaluation, then evaluates.
  // Cubism 2's hair (HAIR) has no stabilization: it is left as it is.
  void stabilize_physics(Instance& instance);
  // Both kinds of pendulums back at rest (the hair's clock at 0).
  void reset_physics();
  void set_physics_wind(float x, float y);  // non-finite values are ignored

  // The host's layer after clips and expressions: the parameter moves toward [value] by
  // [weight] (clamped to 0..1; 0 takes it off). False for a bad index or a non-finite value.
  bool set_override(std::uint32_t parameter, float value, float weight);
  void clear_overrides();

  // Clips. play() drives layer 0: starts [clip] (fading out what played) or stops (-1).
  void play(std::int32_t clip);
  bool play_layer(std::uint32_t layer, std::int32_t clip, std::uint32_t priority);
  bool set_layer_weight(std::uint32_t layer, float weight);
  ClipLayerState layer_state(std::uint32_t layer) const;
  void seek(std::uint32_t layer, float time);
  // A clip's looping as this animator plays it (the file's flag, except that a clip with
  // Cubism playback loops only when set, as Cubism ignores motion3 Meta.Loop). False for no
  // such clip; set_clip_looping applies from the next update on.
  bool clip_looping(std::uint32_t clip) const;
  bool set_clip_looping(std::uint32_t clip, bool looping);
  // Whether the clip plays by Cubism's rules here (its file flag and this animator's option).
  bool clip_cubism_playback(std::uint32_t clip) const;
  bool clip_unrestricted_beziers(std::uint32_t clip) const;  // CEXT flag bit 1
  // Switches Cubism playback on or off (AnimatorOptions): every clip, expression and pose
  // starts again from nothing. Allocates.
  void set_cubism_playback(bool on);
  bool cubism_playback() const { return options_.cubism_playback; }
  // AnimatorOptions::keep_clip_values, from the next update on.
  void set_keep_clip_values(bool on);
  bool keep_clip_values() const { return options_.keep_clip_values; }
  // The events the last update passed, in order.
  std::size_t event_count() const;
  FiredClipEvent event(std::size_t index) const;

  // Expressions.
  void expression(std::int32_t index);
  bool expression_add(std::uint32_t index);
  bool expression_remove(std::uint32_t index);
  std::uint32_t expressions_playing(std::span<std::uint32_t> out) const;

  // Part poses.
  bool pose_show(std::uint32_t group, std::uint32_t entry);
  std::int32_t pose_shown(std::uint32_t group) const;
  // Off: the pose neither updates nor applies (its parts at opacity 1, and PartOpacity
  // curves on its parts do nothing), as in Cubism without a pose3. On again: it starts over.
  void set_pose_enabled(bool on);
  bool pose_enabled() const { return pose_enabled_; }

  // The opacity poses and clips gave [part] at the last evaluation (what multiplies the
  // meshes under it, besides the host's part opacity); 1 where they give none, NaN for no
  // such part. For Cubism models this is Cubism's part opacity.
  float part_animation_opacity(std::uint32_t part) const;

  // Behaviors.
  void set_behaviors(std::uint32_t flags);
  std::uint32_t behaviors() const;
  void behavior_seed(std::uint32_t seed);
  bool blink_settings(float interval_min, float interval_max, float closing, float closed, float opening);
  bool behavior_strength(float sway, float look, float look_speed);
  void look_at(float x, float y);
  void lip_sync(float level);
  float lip_sync_samples(std::span<const float> samples, float gain);
  // Speech (p2l/audio.hpp) drives the mouth from the next update on (with kBehaviorLipSync):
  // its level opens it and, when it estimates them, its vowels shape it.
  void speak(const Speech& speech);
  // Binds [parameter] to a mouth slot in place of its role's parameters (-1: the role again);
  // false, changing nothing, for no such parameter or slot.
  bool bind_mouth(MouthSlot slot, std::int32_t parameter);
  std::span<const std::uint32_t> mouth_parameters(MouthSlot slot) const;
  void set_lip_mix(LipMix mix);
  LipMix lip_mix() const;

 private:
  // Puts the layer's opacities (part poses, clip part and rig opacities) on [instance] and
  // evaluates it at values_.
  void evaluate_values(Instance& instance, float sim_dt = 0.0f);  // sim_dt > 0 steps the simulations
  void clear_clip_effects();

  std::shared_ptr<const Model> model_;
  std::unique_ptr<anim::ClipLayers> clips_;
  std::unique_ptr<anim::ClipEffects> effects_;
  std::unique_ptr<anim::Expressions> expressions_;
  std::unique_ptr<anim::PosePlayer> poses_;
  std::unique_ptr<anim::Physics> physics_;
  std::unique_ptr<anim::HairPhysics> hair_;  // Cubism 2's (HAIR)
  std::unique_ptr<anim::Behaviors> behaviors_;
  std::vector<float> values_;                  // the working copy an update builds
  std::vector<float> override_value_, override_weight_;
  bool any_override_ = false;
  std::vector<float> part_factor_;             // per part: pose x clip part opacity
  std::vector<std::uint8_t> part_in_pose_;     // per part: listed in some pose group
  std::vector<std::int32_t> extension_of_clip_;  // per clip: its CEXT record, or -1
  bool events_valid_ = false;                     // the last update ran the clips
  AnimatorOptions options_;
  bool pose_enabled_ = true;
};

}  // namespace p2l
