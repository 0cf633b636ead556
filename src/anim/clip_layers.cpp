// Clip layers: Cubism's motion-queue blending per layer, with the replaced clips fading out
// under the current one, the CEXT effects (EyeBlink, LipSync, ModelOpacity, PartOpacity),
// per-curve fades and events. docs/RUNTIME.md "Clips" states every rule, and "Cubism
// playback" the Framework's rules that clips flagged for it follow instead.
#include "anim/clip_layers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/cubism_store.hpp"
#include "anim/curve.hpp"
#include "base/sized.hpp"

namespace p2l::anim {
namespace {

constexpr double kNever = -std::numeric_limits<double>::infinity();
constexpr std::uint8_t kEyeBlink = 1, kLipSync = 2;
// Reserved per layer for replaced clips still fading out; more grows the list (in play()).
constexpr std::size_t kFadingReserve = 8;
// A looping clip fires the events of at most this many passes in one update (the last ones),
// so that an absurd dt over a short loop cannot run away.
constexpr double kMaxPasses = 1024;
// Where a Cubism loop's new lap counts its events from: just before 0, so events at 0 fire.
constexpr double kLapEpsilon = 1e-9;

// A clip's fade time: negative or NaN is the 1 s default.
float fade_seconds(float f) { return f >= 0.0f ? f : 1.0f; }
// A curve's own fade time: negative or NaN is "the clip's" (-1).
float own_seconds(float f) { return f >= 0.0f ? f : -1.0f; }

}  // namespace

ClipLayers::ClipLayers(const Rig& rig, bool cubism_playback) : rig_(&rig) {
  const std::size_t clip_count = rig.clips.size(), parameter_count = rig.parameters.size();
  extension_of_clip_.assign(clip_count, -1);
  for (std::size_t e = 0; e < rig.clip_extensions.size(); ++e) {
    const std::uint32_t c = rig.clip_extensions[e].clip;
    if (c < clip_count && extension_of_clip_[c] < 0) extension_of_clip_[c] = static_cast<std::int32_t>(e);
  }

  // Role parameters: every record with the name counts, each parameter once.
  roles_.assign(parameter_count, 0);
  std::vector<std::uint32_t> eye_parameters, lip_parameters;
  for (const Role& role : rig.roles) {
    const std::uint8_t bit = role.role == "EyeBlink" ? kEyeBlink : role.role == "LipSync" ? kLipSync : 0;
    if (!bit) continue;
    for (std::uint32_t p : role.parameters) {
      if (p >= parameter_count || (roles_[p] & bit)) continue;
      roles_[p] |= bit;
      (bit == kEyeBlink ? eye_parameters : lip_parameters).push_back(p);
    }
  }

  sized(plans_, clip_count);  // base/sized.hpp says why not resize()
  std::size_t event_total = 0;
  for (std::size_t c = 0; c < clip_count; ++c) {
    const Clip& clip = rig.clips[c];
    ClipPlan& plan = plans_[c];
    plan.duration = clip.duration > 0.0f ? static_cast<double>(clip.duration) : 0.0;
    plan.looping = clip.looping;
    plan.fade_in = fade_seconds(clip.fade_in);
    plan.fade_out = fade_seconds(clip.fade_out);
    if (extension_of_clip_[c] < 0) continue;
    const ClipExtension& ext = rig.clip_extensions[static_cast<std::size_t>(extension_of_clip_[c])];
    event_total += ext.events.size();
    plan.unrestricted = ext.unrestricted_beziers;
    // Cubism's Framework reads Meta.Loop but never applies it: only its API loops a motion.
    plan.cubism = cubism_playback && ext.cubism_playback;
    if (plan.cubism) plan.looping = false;
    if (!ext.fades.empty()) {
      plan.curve_fade_in.assign(clip.curves.size(), -1.0f);
      plan.curve_fade_out.assign(clip.curves.size(), -1.0f);
      for (const ClipCurveFade& f : ext.fades) {
        if (f.curve >= clip.curves.size()) continue;
        plan.curve_fade_in[f.curve] = own_seconds(f.fade_in);
        plan.curve_fade_out[f.curve] = own_seconds(f.fade_out);
      }
    }
    for (std::size_t k = 0; k < ext.curves.size(); ++k) {
      const ClipExtraCurve& x = ext.curves[k];
      if (x.target == ClipCurveTarget::EyeBlink) {
        plan.eye_curve = static_cast<std::int32_t>(k);
        plan.eye_fade_in = own_seconds(x.fade_in);
        plan.eye_fade_out = own_seconds(x.fade_out);
      } else if (x.target == ClipCurveTarget::LipSync) {
        plan.lip_curve = static_cast<std::int32_t>(k);
        plan.lip_fade_in = own_seconds(x.fade_in);
        plan.lip_fade_out = own_seconds(x.fade_out);
      }
    }
    auto has_curve = [&](std::uint32_t p) {
      return std::any_of(clip.curves.begin(), clip.curves.end(), [p](const Curve& k) { return k.parameter == p; });
    };
    if (plan.eye_curve >= 0)
      for (std::uint32_t p : eye_parameters)
        if (!has_curve(p)) plan.eye_free.push_back(p);
    if (plan.lip_curve >= 0)
      for (std::uint32_t p : lip_parameters)
        if (!has_curve(p)) plan.lip_free.push_back(p);
  }

  sized(layers_, kMaxLayers);
  for (Layer& layer : layers_) layer.fading_out.reserve(kFadingReserve);
  events_.reserve(std::max<std::size_t>(64, 4 * event_total));
  carry_.assign(parameter_count, 0.0f);
  carried_.assign(parameter_count, 0);
}

bool ClipLayers::looping(std::uint32_t clip) const { return clip < plans_.size() && plans_[clip].looping; }

bool ClipLayers::set_looping(std::uint32_t clip, bool looping) {
  if (clip >= plans_.size()) return false;
  plans_[clip].looping = looping;
  return true;
}

bool ClipLayers::finished(const Playing& p) const {
  if (plans_[p.clip].cubism) return p.done;
  return !plans_[p.clip].looping && p.time >= plans_[p.clip].duration;
}

double ClipLayers::local_time(const Playing& p) const {
  const ClipPlan& plan = plans_[p.clip];
  const double d = plan.duration;
  if (plan.cubism) {
    // Cubism samples the unwrapped time since the (lap's) start; a loop takes off whole
    // durations while the time exceeds one (so the end itself is sampled, not 0).
    double t = p.started ? std::max(clock_ - p.start, 0.0) : 0.0;
    if (plan.looping && d > 0.0)
      while (t > d) t -= d;
    return t;
  }
  if (plan.looping && d > 0.0 && std::isfinite(d)) return std::fmod(p.time, d);  // time is never negative
  return std::min(p.time, d);  // a one-shot holds its end; a duration of 0 stays at time 0
}

void ClipLayers::cubism_start(Playing& p) const {
  if (p.started) return;
  const ClipPlan& plan = plans_[p.clip];
  p.started = true;
  p.start = clock_ - p.offset;
  p.fade_in_start = clock_;
  // A loop has no end; a motion without a duration neither.
  if (p.end < 0.0) p.end = plan.looping || !(plan.duration > 0.0) ? -1.0 : p.start + plan.duration;
}

ClipLayers::Terms ClipLayers::cubism_terms(const Playing& p) const {
  const ClipPlan& plan = plans_[p.clip];
  Terms t;
  t.clip_in = plan.fade_in == 0.0f ? 1.0f : ease_sine(static_cast<float>((clock_ - p.fade_in_start) / plan.fade_in));
  t.clip_out = plan.fade_out == 0.0f || p.end < 0.0
                   ? 1.0f
                   : ease_sine(static_cast<float>((p.end - clock_) / plan.fade_out));
  return t;
}

float ClipLayers::cubism_weight(const Playing& p, const Terms& t, float own_in, float own_out) const {
  float fin = t.clip_in, fout = t.clip_out;
  if (own_in == 0.0f)
    fin = 1.0f;
  else if (own_in > 0.0f)
    fin = ease_sine(static_cast<float>((clock_ - p.fade_in_start) / own_in));
  if (own_out == 0.0f || (own_out > 0.0f && p.end < 0.0))
    fout = 1.0f;
  else if (own_out > 0.0f)
    fout = ease_sine(static_cast<float>((p.end - clock_) / own_out));
  return fin * fout;
}

void ClipLayers::cubism_finish(Playing& p) const {
  const ClipPlan& plan = plans_[p.clip];
  // The motion's end: a loop starts its next lap (with a new fade-in, Cubism's default), a
  // one-shot is done once its time reaches the duration or its end time has passed.
  if (clock_ - p.start >= plan.duration) {
    if (plan.looping) {
      p.start = clock_;
      p.fade_in_start = clock_;
      p.fired = -kLapEpsilon;  // the next lap fires its events from time 0 again
    } else {
      p.done = true;
    }
  }
  if (p.end > 0.0 && p.end < clock_) p.done = true;
  // A replaced motion fades out from the end of the update after the switch.
  if (!p.done && p.fade_pending) {
    const double end = clock_ + static_cast<double>(plan.fade_out);
    if (p.end < 0.0 || end < p.end) p.end = end;
  }
}

ClipLayers::Terms ClipLayers::terms(const Playing& p) const {
  const ClipPlan& plan = plans_[p.clip];
  Terms t;
  t.age = p.age;
  t.elapsed = p.fading;
  t.fade_out = plan.fade_out;
  t.clip_in = plan.fade_in == 0.0f ? 1.0f : ease_sine(static_cast<float>(p.age / plan.fade_in));
  if (p.fading >= 0.0)
    t.clip_out = plan.fade_out == 0.0f ? 0.0f : 1.0f - ease_sine(static_cast<float>(p.fading / plan.fade_out));
  return t;
}

float ClipLayers::own_weight(const Terms& t, float own_in, float own_out) {
  float fin = t.clip_in;
  if (own_in == 0.0f)
    fin = 1.0f;
  else if (own_in > 0.0f)
    fin = ease_sine(static_cast<float>(t.age / own_in));
  float fout = t.clip_out;
  if (own_out >= 0.0f) {
    // Cubism's per-curve fade-out runs up to the clip's own end (the start of its fade-out
    // plus the clip's fade-out time): the curve's last own_out seconds before it.
    if (t.elapsed < 0.0 || own_out == 0.0f)
      fout = 1.0f;
    else
      fout = ease_sine(static_cast<float>((t.fade_out - t.elapsed) / own_out));
  }
  return fin * fout;
}

void ClipLayers::blend(std::span<float> values, std::uint32_t parameter, float v, float w, bool cubism) {
  float& slot = values[parameter];
  slot += (v - slot) * w;
  if (!cubism) return;
  slot = cubism_store(rig_->parameters[parameter], slot);
  carried_[parameter] = 1;
  any_carried_ = true;
}

void ClipLayers::apply(const Playing& p, float layer_weight, std::span<float> values, ClipEffects& effects) {
  const Clip& clip = rig_->clips[p.clip];
  const ClipPlan& plan = plans_[p.clip];
  const bool cubism = plan.cubism;
  const double time = local_time(p);
  const BezierRule rule = plan.unrestricted ? BezierRule::Unrestricted : BezierRule::Restricted;
  const Terms t = cubism ? cubism_terms(p) : terms(p);
  const float weight = layer_weight * (t.clip_in * t.clip_out);
  if (cubism) effects.cubism_updated = true;

  const ClipExtension* ext = extension_of_clip_[p.clip] >= 0
                                 ? &rig_->clip_extensions[static_cast<std::size_t>(extension_of_clip_[p.clip])]
                                 : nullptr;
  float eye = 0.0f, lip = 0.0f;
  if (ext) {
    // Model and part curves: written directly, without any fade; the last written wins.
    for (const ClipExtraCurve& x : ext->curves) {
      const float v = curve_value(x.start_time, x.start_value, x.segments, time, rule);
      switch (x.target) {
        case ClipCurveTarget::ModelOpacity:
          if (std::isfinite(v)) effects.model_opacity = std::clamp(v, 0.0f, 1.0f);
          break;
        case ClipCurveTarget::PartOpacity:
          if (x.part >= 0 && static_cast<std::size_t>(x.part) < effects.part_values.size()) {
            effects.part_values[static_cast<std::size_t>(x.part)] = v;
            if (static_cast<std::size_t>(x.part) < effects.part_cubism.size())
              effects.part_cubism[static_cast<std::size_t>(x.part)] = cubism;
          }
          break;
        case ClipCurveTarget::EyeBlink: eye = v; break;
        case ClipCurveTarget::LipSync: lip = v; break;
      }
    }
  }
  const bool has_eye = plan.eye_curve >= 0, has_lip = plan.lip_curve >= 0;

  const bool own_fades = !plan.curve_fade_in.empty();
  for (std::size_t k = 0; k < clip.curves.size(); ++k) {
    const Curve& c = clip.curves[k];
    if (c.parameter >= values.size()) continue;
    float v = curve_value(c, time, rule);
    const std::uint8_t role = c.parameter < roles_.size() ? roles_[c.parameter] : 0;
    if (has_eye && (role & kEyeBlink)) v *= eye;
    if (has_lip && (role & kLipSync)) v += lip;
    float w = weight;
    if (own_fades) {
      const float own_in = plan.curve_fade_in[k], own_out = plan.curve_fade_out[k];
      w = layer_weight * (cubism ? cubism_weight(p, t, own_in, own_out) : own_weight(t, own_in, own_out));
    }
    blend(values, c.parameter, v, w, cubism);
  }
  // The role parameters the clip has no curve for move toward the effect's value (Cubism
  // weighs them by the motion's weight; p2lrt by the effect curve's own fades).
  if (has_eye) {
    const float w = cubism ? weight : layer_weight * own_weight(t, plan.eye_fade_in, plan.eye_fade_out);
    for (std::uint32_t p2 : plan.eye_free)
      if (p2 < values.size()) blend(values, p2, eye, w, cubism);
  }
  if (has_lip) {
    const float w = cubism ? weight : layer_weight * own_weight(t, plan.lip_fade_in, plan.lip_fade_out);
    for (std::uint32_t p2 : plan.lip_free)
      if (p2 < values.size()) blend(values, p2, lip, w, cubism);
  }
}

void ClipLayers::fire(std::uint32_t layer, Playing& p) {
  const double from = p.fired, to = p.time;
  p.fired = p.time;
  const std::int32_t e = extension_of_clip_[p.clip];
  if (e < 0 || !(to > from) || !std::isfinite(to)) return;
  const std::vector<ClipEvent>& events = rig_->clip_extensions[static_cast<std::size_t>(e)].events;
  const std::size_t n = events.size();
  auto push = [&](std::size_t i) { events_.push_back({layer, p.clip, static_cast<std::uint32_t>(i)}); };

  const ClipPlan& plan = plans_[p.clip];
  const double d = plan.duration;
  if (plan.looping && d > 0.0 && std::isfinite(d)) {
    // Events before 0 fire once, with the first update after play(); they come first.
    if (from == kNever)
      for (std::size_t i = 0; i < n && events[i].time < 0.0f; ++i) push(i);
    // Pass k covers clip times [k d, (k + 1) d]; the times are unwrapped, so an interval that
    // wraps fires the tail of one pass, then the head of the next, and so on.
    const double last = std::floor(to / d);
    if (!std::isfinite(last)) return;
    const double first = std::max(std::floor(std::max(from, 0.0) / d), last - (kMaxPasses - 1));
    const double passes = std::min(last - first + 1.0, kMaxPasses);
    for (int k = 0; k < static_cast<int>(passes); ++k) {
      const double base = (first + k) * d;
      for (std::size_t i = 0; i < n; ++i) {
        const double et = events[i].time;
        if (!(et >= 0.0 && et <= d)) continue;
        const double at = base + et;
        if (at > from && at <= to) push(i);
      }
    }
  } else {
    // A one-shot (or a loop without a usable duration) fires up to its end, once.
    const double upto = std::min(to, d);
    for (std::size_t i = 0; i < n; ++i) {
      const double et = events[i].time;
      if (et > from && et <= upto) push(i);
    }
  }
}

void ClipLayers::stop(Layer& layer) {
  if (!layer.has_current) return;
  layer.current.fading = 0.0;
  layer.current.fade_pending = true;  // Cubism playback: see cubism_finish()
  layer.fading_out.push_back(layer.current);  // grows past the reserve only for a host switching very fast
  layer.has_current = false;
}

bool ClipLayers::play(std::uint32_t layer, std::int32_t clip, std::uint32_t priority) {
  if (layer >= kMaxLayers) return false;
  Layer& l = layers_[layer];
  if (clip < 0) {
    stop(l);
    l.priority = 0;
    return true;
  }
  if (static_cast<std::size_t>(clip) >= rig_->clips.size()) return false;
  const std::uint32_t holding = l.has_current && !finished(l.current) ? l.priority : 0;
  if (priority < holding) return false;
  stop(l);
  l.current = Playing{static_cast<std::uint32_t>(clip), 0.0, 0.0, -1.0, kNever};
  l.has_current = true;
  l.priority = priority;
  return true;
}

void ClipLayers::play_base(std::int32_t clip) {
  Layer& l = layers_[0];
  if (clip >= 0 && static_cast<std::size_t>(clip) >= rig_->clips.size()) return;
  l.priority = 0;
  play(0, clip, 0);
}

bool ClipLayers::set_weight(std::uint32_t layer, float weight) {
  if (layer >= kMaxLayers || std::isnan(weight)) return false;
  layers_[layer].weight = std::clamp(weight, 0.0f, 1.0f);
  return true;
}

LayerState ClipLayers::state(std::uint32_t layer) const {
  if (layer >= kMaxLayers || !layers_[layer].has_current) return {};
  const Layer& l = layers_[layer];
  const bool done = finished(l.current);
  return {static_cast<std::int32_t>(l.current.clip), static_cast<float>(local_time(l.current)), done ? 0u : l.priority,
          done};
}

void ClipLayers::seek(std::uint32_t layer, float time) {
  if (layer >= kMaxLayers || !std::isfinite(time)) return;
  Layer& l = layers_[layer];
  if (!l.has_current) return;
  l.current.time = std::max(static_cast<double>(time), 0.0);
  l.current.fired = l.current.time;  // what the seek jumped over does not fire
  // Cubism playback: the start moves so that the clock is [time] into the motion (before the
  // first update, the start is that far back when it comes: Cubism's offset).
  if (l.current.started)
    l.current.start = clock_ - l.current.time;
  else
    l.current.offset = l.current.time;
}

void ClipLayers::update(float dt, double clock_dt, std::span<float> values, ClipEffects& effects) {
  const double step = std::isfinite(dt) && dt > 0.0f ? static_cast<double>(dt) : 0.0;
  events_.clear();
  effects.model_opacity = 1.0f;
  effects.cubism_updated = false;
  std::fill(effects.part_values.begin(), effects.part_values.end(), std::numeric_limits<float>::quiet_NaN());
  std::fill(effects.part_cubism.begin(), effects.part_cubism.end(), std::uint8_t{0});

  const bool anything = std::any_of(layers_.begin(), layers_.end(),
                                    [](const Layer& l) { return l.has_current || !l.fading_out.empty(); });
  // Cubism's clock is its motion manager's, which the sample updates only while a motion is
  // queued: it stands still while nothing plays, so that the next motion's times are the same
  // sums of steps as Cubism's (a time reaching a duration or a point is decided the same way).
  if (anything && std::isfinite(clock_dt) && clock_dt > 0.0) clock_ += clock_dt;
  // The carried values stand in for the host's pose: for good, as the sample reloads them at
  // every update whether a motion plays or not; or, when the host asked for its pose back
  // (keep_values_ false), only while some clip plays or fades.
  if (any_carried_ && !anything && !keep_values_) {
    std::fill(carried_.begin(), carried_.end(), std::uint8_t{0});
    any_carried_ = false;
  }
  if (any_carried_)
    for (std::size_t p = 0; p < values.size() && p < carried_.size(); ++p)
      if (carried_[p]) values[p] = carry_[p];

  auto advance = [&](Playing& p) {
    if (plans_[p.clip].cubism) {
      cubism_start(p);  // the first update samples time 0 at weight 0
      p.time = clock_ - p.start;
      return;
    }
    p.time += step;
    p.age += step;
    if (p.fading >= 0.0) p.fading += step;
  };
  // A p2lrt clip that was replaced goes once its fade-out is over (its weight is 0 for good);
  // a Cubism one once its last update marked it done.
  auto gone = [this](const Playing& p) {
    return plans_[p.clip].cubism ? p.done : p.fading >= plans_[p.clip].fade_out;
  };
  for (std::uint32_t index = 0; index < kMaxLayers; ++index) {
    Layer& l = layers_[index];
    if (!l.has_current && l.fading_out.empty()) continue;
    for (Playing& p : l.fading_out) advance(p);
    if (l.has_current) advance(l.current);
    std::erase_if(l.fading_out, [&](const Playing& p) { return !plans_[p.clip].cubism && gone(p); });
    for (Playing& p : l.fading_out) {
      apply(p, l.weight, values, effects);
      if (plans_[p.clip].cubism) cubism_finish(p);
    }
    std::erase_if(l.fading_out, [&](const Playing& p) { return plans_[p.clip].cubism && gone(p); });
    if (l.has_current) {
      apply(l.current, l.weight, values, effects);
      fire(index, l.current);
      if (plans_[l.current.clip].cubism) {
        cubism_finish(l.current);
        // Cubism drops a finished motion from its queue after this, its last, update.
        if (l.current.done) l.has_current = false;
      }
      if (!l.has_current || finished(l.current)) l.priority = 0;
    }
  }
  if (any_carried_)
    for (std::size_t p = 0; p < values.size() && p < carried_.size(); ++p)
      if (carried_[p]) carry_[p] = values[p];
}

}  // namespace p2l::anim
