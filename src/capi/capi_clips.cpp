// Clips and their layers, clip events, expressions and part poses.
#include "capi/handle.hpp"

using namespace p2l::capi;

namespace {

bool layer_ok(std::uint32_t layer) { return layer < p2l::kMaxClipLayers; }

}  // namespace

extern "C" {

uint32_t p2l_clip_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().clips.size()); });
}

const char* p2l_clip_id(const P2lRig* rig, uint32_t index) { return model_string(rig, &ModelData::clip_ids, index); }
const char* p2l_clip_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::clip_names, index);
}
const char* p2l_clip_group(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::clip_groups, index);
}

bool p2l_clip_info(const P2lRig* rig, uint32_t index, float* duration, float* fps, bool* looping, float* fade_in,
                   float* fade_out) {
  return guarded(rig, false, [&](const P2lRig& r) {
    const auto& clips = r.rig().clips;
    if (index >= clips.size()) return false;
    const p2l::Clip& c = clips[index];
    put(duration, c.duration);
    put(fps, c.fps);
    put(looping, c.looping);
    // A negative fade in the file stands for the runtime's default, one second.
    put(fade_in, c.fade_in < 0 ? 1.0f : c.fade_in);
    put(fade_out, c.fade_out < 0 ? 1.0f : c.fade_out);
    return true;
  });
}

void p2l_play(P2lRig* rig, int32_t index) {
  guarded_void(rig, [&](P2lRig& r) {
    if (index < 0 || static_cast<std::size_t>(index) < r.rig().clips.size()) r.animator.play(index);
  });
}

int32_t p2l_clip_playing(const P2lRig* rig) {
  return guarded(rig, std::int32_t{-1}, [](const P2lRig& r) { return r.animator.layer_state(0).clip; });
}

float p2l_clip_time(const P2lRig* rig) {
  return guarded(rig, 0.0f, [](const P2lRig& r) { return r.animator.layer_state(0).time; });
}

void p2l_clip_seek(P2lRig* rig, float time) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.seek(0, time); });
}

bool p2l_clip_finished(const P2lRig* rig) {
  return guarded(rig, true, [](const P2lRig& r) { return r.animator.layer_state(0).finished; });
}

void p2l_set_cubism_playback(P2lRig* rig, bool on) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.set_cubism_playback(on); });
}

bool p2l_cubism_playback(const P2lRig* rig) {
  return guarded(rig, false, [](const P2lRig& r) { return r.animator.cubism_playback(); });
}

void p2l_set_keep_clip_values(P2lRig* rig, bool on) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.set_keep_clip_values(on); });
}

bool p2l_keep_clip_values(const P2lRig* rig) {
  return guarded(rig, false, [](const P2lRig& r) { return r.animator.keep_clip_values(); });
}

uint32_t p2l_clip_playback(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    if (index >= r.rig().clips.size()) return 0;
    return (r.animator.clip_cubism_playback(index) ? P2L_CLIP_CUBISM : 0u) |
           (r.animator.clip_unrestricted_beziers(index) ? P2L_CLIP_UNRESTRICTED : 0u) |
           (r.animator.clip_looping(index) ? P2L_CLIP_LOOPING : 0u);
  });
}

bool p2l_set_clip_looping(P2lRig* rig, uint32_t index, bool looping) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.set_clip_looping(index, looping); });
}

bool p2l_play_layer(P2lRig* rig, uint32_t layer, int32_t index, uint32_t priority) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.play_layer(layer, index, priority); });
}

bool p2l_set_layer_weight(P2lRig* rig, uint32_t layer, float weight) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.set_layer_weight(layer, weight); });
}

bool p2l_layer_state(const P2lRig* rig, uint32_t layer, int32_t* clip, float* time, uint32_t* priority,
                     bool* finished) {
  return guarded(rig, false, [&](const P2lRig& r) {
    if (!layer_ok(layer)) return false;
    const p2l::ClipLayerState s = r.animator.layer_state(layer);
    put(clip, s.clip);
    put(time, s.time);
    put(priority, s.priority);
    put(finished, s.finished);
    return true;
  });
}

void p2l_layer_seek(P2lRig* rig, uint32_t layer, float time) {
  guarded_void(rig, [&](P2lRig& r) {
    if (layer_ok(layer)) r.animator.seek(layer, time);
  });
}

uint32_t p2l_event_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.animator.event_count()); });
}

const char* p2l_event(const P2lRig* rig, uint32_t index, uint32_t* layer, int32_t* clip, float* time) {
  return guarded(rig, static_cast<const char*>(nullptr), [&](const P2lRig& r) -> const char* {
    if (index >= r.animator.event_count()) return nullptr;
    const p2l::FiredClipEvent e = r.animator.event(index);
    if (e.text == nullptr || e.record >= r.data->event_first.size()) return nullptr;
    put(layer, e.layer);
    put(clip, e.clip);
    put(time, e.time);
    return r.data->event_texts.at(r.data->event_first[e.record] + e.event);
  });
}

uint32_t p2l_expression_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().expressions.size()); });
}

const char* p2l_expression_id(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::expression_ids, index);
}
const char* p2l_expression_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::expression_names, index);
}

void p2l_expression(P2lRig* rig, int32_t index) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.expression(index); });
}

bool p2l_expression_add(P2lRig* rig, uint32_t index) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.expression_add(index); });
}

bool p2l_expression_remove(P2lRig* rig, uint32_t index) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.expression_remove(index); });
}

uint32_t p2l_expressions_playing(const P2lRig* rig, uint32_t* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) {
    return r.animator.expressions_playing(out == nullptr ? std::span<std::uint32_t>()
                                                         : std::span<std::uint32_t>(out, capacity));
  });
}

uint32_t p2l_pose_group_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0},
                 [](const P2lRig& r) { return r.rig().pose ? count_of(r.rig().pose->groups.size()) : 0u; });
}

uint32_t p2l_pose_group_size(const P2lRig* rig, uint32_t group) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const auto& pose = r.rig().pose;
    if (!pose || group >= pose->groups.size()) return 0;
    return count_of(pose->groups[group].entries.size());
  });
}

bool p2l_pose_show(P2lRig* rig, uint32_t group, uint32_t entry) {
  return guarded(rig, false, [&](P2lRig& r) { return r.animator.pose_show(group, entry); });
}

int32_t p2l_pose_shown(const P2lRig* rig, uint32_t group) {
  return guarded(rig, std::int32_t{-1}, [&](const P2lRig& r) { return r.animator.pose_shown(group); });
}

void p2l_set_pose_enabled(P2lRig* rig, bool on) {
  guarded_void(rig, [&](P2lRig& r) { r.animator.set_pose_enabled(on); });
}

bool p2l_pose_enabled(const P2lRig* rig) {
  return guarded(rig, false, [](const P2lRig& r) { return r.animator.pose_enabled(); });
}

}  // extern "C"
