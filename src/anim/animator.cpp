// Animator: the update pipeline. Every update copies the host's pose, runs the stages over
// the copy in a fixed order and evaluates the instance at the result; the copy, like every
// other buffer here, is sized when the animator is made.
#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/behaviors.hpp"
#include "anim/clip_layers.hpp"
#include "anim/expressions.hpp"
#include "anim/frame_time.hpp"
#include "anim/hair.hpp"
#include "anim/physics.hpp"
#include "anim/pose.hpp"
#include "p2l/audio.hpp"
#include "p2l/anim.hpp"

namespace p2l {
namespace {

float finite_or_zero(float dt) { return std::isfinite(dt) && dt > 0.0f ? dt : 0.0f; }

// Index of the CEXT record of each clip, -1 for none (the file has at most one per clip).
std::vector<std::int32_t> extensions_by_clip(const Rig& rig) {
  std::vector<std::int32_t> out(rig.clips.size(), -1);
  for (std::size_t e = 0; e < rig.clip_extensions.size(); ++e) {
    const std::uint32_t clip = rig.clip_extensions[e].clip;
    if (clip < out.size() && out[clip] < 0) out[clip] = static_cast<std::int32_t>(e);
  }
  return out;
}

}  // namespace

Animator::Animator(std::shared_ptr<const Model> model, const AnimatorOptions& options)
    : model_(std::move(model)), options_(options) {
  const Rig& rig = model_->rig();
  effects_ = std::make_unique<anim::ClipEffects>();
  effects_->part_values.assign(rig.parts.size(), std::numeric_limits<float>::quiet_NaN());
  effects_->part_cubism.assign(rig.parts.size(), 0);
  set_cubism_playback(options_.cubism_playback);
  physics_ = std::make_unique<anim::Physics>(rig);
  hair_ = std::make_unique<anim::HairPhysics>(rig);
  behaviors_ = std::make_unique<anim::Behaviors>(rig);
  // Lip sync mixes as Cubism's Framework mixes it when the rig plays by its rules.
  bool cubism_rig = rig.pose && rig.pose->cubism_playback;
  for (const Expression& e : rig.expressions) cubism_rig |= e.cubism_playback;
  for (const ClipExtension& c : rig.clip_extensions) cubism_rig |= c.cubism_playback;
  behaviors_->mouth().set_mix(options_.cubism_playback && cubism_rig ? LipMix::Add : LipMix::Floor);
  values_.resize(rig.parameters.size());
  override_value_.assign(rig.parameters.size(), 0.0f);
  override_weight_.assign(rig.parameters.size(), 0.0f);
  part_factor_.assign(rig.parts.size(), 1.0f);
  part_in_pose_.assign(rig.parts.size(), 0);
  if (rig.pose)
    for (const PoseGroup& g : rig.pose->groups)
      for (const PoseEntry& e : g.entries) {
        if (e.part < part_in_pose_.size()) part_in_pose_[e.part] = 1;
        for (std::uint32_t linked : e.linked)
          if (linked < part_in_pose_.size()) part_in_pose_[linked] = 1;
      }
  extension_of_clip_ = extensions_by_clip(rig);
}

void Animator::set_cubism_playback(bool on) {
  const Rig& rig = model_->rig();
  options_.cubism_playback = on;
  clips_ = std::make_unique<anim::ClipLayers>(rig, on);
  clips_->set_keep_values(options_.keep_clip_values);
  expressions_ = std::make_unique<anim::Expressions>(rig, on);
  poses_ = std::make_unique<anim::PosePlayer>(rig, on);
  clear_clip_effects();
}

void Animator::set_keep_clip_values(bool on) {
  options_.keep_clip_values = on;
  clips_->set_keep_values(on);
}

Animator::~Animator() = default;
Animator::Animator(Animator&&) noexcept = default;
Animator& Animator::operator=(Animator&&) noexcept = default;

void Animator::update(Instance& instance, float dt, std::uint32_t stages) {
  const float step = finite_or_zero(dt);
  const auto host = instance.parameters();
  std::copy(host.begin(), host.end(), values_.begin());

  events_valid_ = (stages & kStageClips) != 0;
  if (stages & kStageClips) {
    clips_->update(step, anim::frame_seconds(dt), values_, *effects_);
    if (pose_enabled_) poses_->steer(effects_->part_values);
  } else {
    clear_clip_effects();
  }
  if (stages & kStageExpressions) expressions_->update(step, values_);
  if (any_override_)
    for (std::size_t p = 0; p < values_.size(); ++p)
      if (override_weight_[p] > 0.0f) values_[p] += (override_value_[p] - values_[p]) * override_weight_[p];
  // Cubism's sample blinks only in an update where no motion played.
  if (stages & kStageBehaviors) behaviors_->update(step, values_, effects_->cubism_updated);
  if ((stages & kStagePoses) && pose_enabled_) poses_->update(step);
  // Pendulums a vertex simulation replaces (advanced mode's H1) are skipped.
  if (stages & kStagePhysics) {
    physics_->step(step, values_, instance.skipped_physics());
    hair_->step(step, values_);
  }
  // The vertex simulations step inside the evaluation (H6), after deformation.
  evaluate_values(instance, (stages & kStageSim) ? step : 0.0f);
}

void Animator::evaluate(Instance& instance) {
  const auto host = instance.parameters();
  std::copy(host.begin(), host.end(), values_.begin());
  clear_clip_effects();
  events_valid_ = false;
  evaluate_values(instance);
}

void Animator::stabilize_physics(Instance& instance) {
  const auto used = instance.current();
  std::copy(used.begin(), used.end(), values_.begin());
  physics_->stabilize(values_);
  evaluate_values(instance);
}

void Animator::clear_clip_effects() {
  effects_->model_opacity = 1.0f;
  effects_->cubism_updated = false;
  std::fill(effects_->part_values.begin(), effects_->part_values.end(), std::numeric_limits<float>::quiet_NaN());
  std::fill(effects_->part_cubism.begin(), effects_->part_cubism.end(), std::uint8_t{0});
}

void Animator::evaluate_values(Instance& instance, float sim_dt) {
  // A part's opacity from this layer: its pose opacity; a part in no pose group takes the
  // value a clip's PartOpacity curve set, as the spec's CEXT says (in a pose group that value
  // chose the part to show instead, as Cubism's pose reads it). A Cubism clip's value only
  // ever steers a pose: Cubism writes it into the pose's parameter, which nothing else reads.
  const auto pose = poses_->part_opacity();
  for (std::size_t p = 0; p < part_factor_.size(); ++p) {
    float factor = pose_enabled_ && p < pose.size() ? pose[p] : 1.0f;
    const float clip = effects_->part_values[p];
    if (!part_in_pose_[p] && !std::isnan(clip) && !effects_->part_cubism[p]) factor *= std::clamp(clip, 0.0f, 1.0f);
    part_factor_[p] = factor;
  }
  instance.set_animation_opacity(effects_->model_opacity, part_factor_);
  instance.evaluate_values(values_, sim_dt);
}

void Animator::reset_physics() {
  physics_->reset();
  hair_->reset();
}

void Animator::set_physics_wind(float x, float y) {
  if (std::isfinite(x) && std::isfinite(y)) physics_->set_wind(x, y);
}

bool Animator::set_override(std::uint32_t parameter, float value, float weight) {
  if (parameter >= override_value_.size() || !std::isfinite(value)) return false;
  override_value_[parameter] = value;
  override_weight_[parameter] = std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f;
  any_override_ = std::any_of(override_weight_.begin(), override_weight_.end(), [](float w) { return w > 0.0f; });
  return true;
}

void Animator::clear_overrides() {
  std::fill(override_weight_.begin(), override_weight_.end(), 0.0f);
  any_override_ = false;
}

void Animator::play(std::int32_t clip) { clips_->play_base(clip); }

bool Animator::play_layer(std::uint32_t layer, std::int32_t clip, std::uint32_t priority) {
  return clips_->play(layer, clip, priority);
}

bool Animator::set_layer_weight(std::uint32_t layer, float weight) { return clips_->set_weight(layer, weight); }

ClipLayerState Animator::layer_state(std::uint32_t layer) const {
  const anim::LayerState s = clips_->state(layer);
  return {s.clip, s.time, s.priority, s.finished};
}

void Animator::seek(std::uint32_t layer, float time) { clips_->seek(layer, time); }

std::size_t Animator::event_count() const { return events_valid_ ? clips_->events().size() : 0; }

FiredClipEvent Animator::event(std::size_t index) const {
  if (index >= event_count()) return {};
  const anim::FiredEvent& e = clips_->events()[index];
  const Rig& rig = model_->rig();
  const std::int32_t ext = e.clip < extension_of_clip_.size() ? extension_of_clip_[e.clip] : -1;
  if (ext < 0 || e.event >= rig.clip_extensions[static_cast<std::size_t>(ext)].events.size()) return {};
  const ClipEvent& source = rig.clip_extensions[static_cast<std::size_t>(ext)].events[e.event];
  return {e.layer, e.clip, source.time, &source.value, static_cast<std::uint32_t>(ext), e.event};
}

void Animator::expression(std::int32_t index) { expressions_->play(index); }
bool Animator::expression_add(std::uint32_t index) { return expressions_->add(index); }
bool Animator::expression_remove(std::uint32_t index) { return expressions_->remove(index); }
std::uint32_t Animator::expressions_playing(std::span<std::uint32_t> out) const { return expressions_->playing(out); }

bool Animator::pose_show(std::uint32_t group, std::uint32_t entry) { return poses_->show(group, entry); }

void Animator::set_pose_enabled(bool on) {
  if (on && !pose_enabled_) poses_->restart();
  pose_enabled_ = on;
}

float Animator::part_animation_opacity(std::uint32_t part) const {
  return part < part_factor_.size() ? part_factor_[part] : std::numeric_limits<float>::quiet_NaN();
}

bool Animator::clip_looping(std::uint32_t clip) const { return clips_->looping(clip); }
bool Animator::set_clip_looping(std::uint32_t clip, bool looping) { return clips_->set_looping(clip, looping); }
bool Animator::clip_cubism_playback(std::uint32_t clip) const { return clips_->cubism(clip); }
bool Animator::clip_unrestricted_beziers(std::uint32_t clip) const { return clips_->unrestricted(clip); }
std::int32_t Animator::pose_shown(std::uint32_t group) const { return poses_->shown(group); }

void Animator::set_behaviors(std::uint32_t flags) { behaviors_->set_enabled(flags); }
std::uint32_t Animator::behaviors() const { return behaviors_->enabled(); }
void Animator::behavior_seed(std::uint32_t seed) { behaviors_->seed(seed); }

bool Animator::blink_settings(float interval_min, float interval_max, float closing, float closed, float opening) {
  return behaviors_->set_blink({interval_min, interval_max, closing, closed, opening});
}

bool Animator::behavior_strength(float sway, float look, float look_speed) {
  return behaviors_->set_strength(sway, look, look_speed);
}

void Animator::look_at(float x, float y) { behaviors_->look_at(x, y); }
void Animator::lip_sync(float level) { behaviors_->lip_sync(level); }
float Animator::lip_sync_samples(std::span<const float> samples, float gain) {
  return behaviors_->lip_sync_samples(samples, gain);
}

void Animator::speak(const Speech& speech) {
  behaviors_->mouth().set_level(speech.level());
  behaviors_->mouth().set_vowels(speech.options().vowels ? &speech.vowels() : nullptr);
}
bool Animator::bind_mouth(MouthSlot slot, std::int32_t parameter) { return behaviors_->mouth().bind(slot, parameter); }
std::span<const std::uint32_t> Animator::mouth_parameters(MouthSlot slot) const { return behaviors_->mouth().parameters(slot); }
void Animator::set_lip_mix(LipMix mix) {
  if (static_cast<std::uint32_t>(mix) <= static_cast<std::uint32_t>(LipMix::Set)) behaviors_->mouth().set_mix(mix);
}
LipMix Animator::lip_mix() const { return behaviors_->mouth().mix(); }

}  // namespace p2l
