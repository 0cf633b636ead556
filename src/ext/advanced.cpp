#include "ext/advanced.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "base/libm.hpp"
#include "base/message.hpp"
#include "eval/evaluate.hpp"
#include "eval/grid.hpp"
#include "ext/bones.hpp"
#include "ext/state.hpp"
#include "p2l/eval.hpp"

namespace p2l::ext {

void AdvancedDeleter::operator()(AdvancedState* a) const noexcept { delete a; }

std::uint32_t carried_features(const Rig& rig) {
  std::uint32_t bits = 0;
  if (rig.skins && !rig.skins->skins.empty()) bits |= kSkin;
  if (rig.bones && !rig.bones->arcs.empty()) bits |= kExactLinks;
  if (rig.simulations && !rig.simulations->simulations.empty()) {
    bits |= kSim;
    if (rig.colliders)
      for (const Simulation& s : rig.simulations->simulations)
        if (!s.colliders.empty()) bits |= kCollision;
  }
  return bits;
}

std::uint32_t features_on(const AdvancedState& a) { return a.on; }

namespace {

enum Ext { kBone, kSkinChunk, kColl, kSims, kExtCount };
constexpr std::string_view kTags[kExtCount] = {"BONE", "SKIN", "COLL", "SIMS"};

const ExtensionHeader* header_of(const Rig& rig, int e) {
  switch (e) {
    case kBone: return rig.bones ? &rig.bones->header : nullptr;
    case kSkinChunk: return rig.skins ? &rig.skins->header : nullptr;
    case kColl: return rig.colliders ? &rig.colliders->header : nullptr;
    case kSims: return rig.simulations ? &rig.simulations->header : nullptr;
  }
  return nullptr;
}

// The feature bit the format gives each chunk (BONE's switches its arcs).
constexpr std::uint32_t kChunkFeature[kExtCount] = {kExactLinks, kSkin, kCollision, kSim};

// Which extension chunks are on: present, and switched on by their feature bit (BONE is also
// data - virtual bones, attachable bones - and counts as on whenever present, its bit
// switching only its arcs); every chunk a header depends on present and on. COLL also needs
// SIMS, whose simulations it serves.
std::array<bool, kExtCount> chunks_on(const Rig& rig, std::uint32_t requested, std::vector<std::string>& notes) {
  std::array<bool, kExtCount> on{};
  for (int e = 0; e < kExtCount; ++e) {
    const ExtensionHeader* h = header_of(rig, e);
    if (!h) continue;
    if (h->feature != kChunkFeature[e]) {
      if (requested & kChunkFeature[e])
        notes.push_back(message("{} is off: its header gives feature bit {}, the format's is {}", kTags[e], h->feature,
                                kChunkFeature[e]));
      continue;
    }
    on[e] = e == kBone || (requested & kChunkFeature[e]) != 0;
  }
  // Dependencies, to a fixed point (a chain turns off link by link).
  for (bool changed = true; changed;) {
    changed = false;
    for (int e = 0; e < kExtCount; ++e) {
      if (!on[e]) continue;
      for (const std::string& tag : header_of(rig, e)->depends_on) {
        const auto* it = std::find(std::begin(kTags), std::end(kTags), tag);
        const int d = static_cast<int>(it - std::begin(kTags));
        if (it != std::end(kTags) && on[d]) continue;
        on[e] = false;
        changed = true;
        const char* why = it == std::end(kTags) ? "is no extension this runtime runs"
                          : header_of(rig, d)   ? "is off"
                                                : "the file does not have";
        notes.push_back(message("{} is off: it depends on {}, which {}", kTags[e], tag, why));
        break;
      }
    }
  }
  if (on[kColl] && !on[kSims]) {
    on[kColl] = false;
    if (requested & kCollision) notes.push_back("COLL is off: collisions act only inside SIMS simulations, which are off");
  }
  return on;
}

bool hooks(const Rig& rig, int e, std::uint16_t hook) { return (header_of(rig, e)->hooks & hook) != 0; }

}  // namespace

std::unique_ptr<AdvancedState, AdvancedDeleter> make_advanced(const Model& model, InstanceState& s,
                                                              std::uint32_t requested, std::uint32_t& on,
                                                              std::vector<std::string>& notes) {
  const Rig& rig = model.rig();
  on = 0;
  requested &= carried_features(rig);
  if (!requested) return nullptr;
  const std::array<bool, kExtCount> chunk = chunks_on(rig, requested, notes);
  std::unique_ptr<AdvancedState, AdvancedDeleter> a(new AdvancedState());
  a->model = &model;

  // H2: the plan marks the arcs BONE's header declares (H2 hook, deformer listed); without
  // one, exact links would change nothing and stay off.
  if (chunk[kBone] && (requested & kExactLinks)) {
    const auto& arcs = model.plan().arcs;
    if (std::any_of(arcs.begin(), arcs.end(), [](const ArcPlan& arc) { return arc.declared; }))
      on |= kExactLinks;
    else
      notes.push_back("BONE's arcs are off: its header declares none of them (H2 hook and deformer list)");
  }

  const std::size_t meshes = rig.meshes.size();
  a->replacement_of.assign(meshes, -1);
  a->has_statics.assign(meshes, 0);
  a->skin_of.assign(meshes, -1);
  std::vector<std::uint8_t> held(rig.parameters.size(), 0), skipped(rig.physics.size(), 0);
  bool any_skipped = false;
  auto hold = [&](std::uint32_t p) { held[p] = 1; };
  auto skip = [&](std::uint32_t g) { skipped[g] = 1, any_skipped = true; };
  std::array<bool, kExtCount> runs{};  // the chunks whose work runs

  // SIMS: H1 from each simulation's own lists too (its header should give their union), H4
  // statics, H6 stepping; COLL rides along.
  if (chunk[kSims] && hooks(rig, kSims, kHookH6)) {
    on |= kSim;
    runs[kSims] = true;
    const bool collide = chunk[kColl] && hooks(rig, kColl, kHookH6) && (requested & kCollision);
    if (collide) on |= kCollision;
    runs[kColl] = collide;
    for (std::size_t i = 0; i < rig.simulations->simulations.size(); ++i) {
      const Simulation& sim = rig.simulations->simulations[i];
      if (hooks(rig, kSims, kHookH1)) {
        for (auto p : sim.parameters) hold(p);
        for (auto g : sim.physics_groups) skip(g);
      }
      if (hooks(rig, kSims, kHookH4))
        for (const SimStatic& st : sim.statics)
          for (const SimStaticMesh& m : st.meshes) a->has_statics[m.mesh] = 1;
      a->sims.emplace_back(model, i, collide);
    }
  } else if (chunk[kSims]) {
    notes.push_back("SIMS is off: its header declares no H6 hook");
  }
  std::size_t collider_floats = 0;
  for (const SimRun& run : a->sims) collider_floats += run.collider_capacity() * 6;
  a->placed.reserve(collider_floats);

  // SKIN (H4): each skin prepared (weights fitted when the file gives none) with the arcs as
  // they are now set, since they shape the bone frames.
  a->on = on;
  if (chunk[kSkinChunk] && hooks(rig, kSkinChunk, kHookH4)) {
    for (std::size_t i = 0; i < rig.skins->skins.size(); ++i) {
      SkinRun run;
      std::string note;
      if (run.prepare(model, s, i, on & kExactLinks, note)) {
        if (a->skin_of[run.mesh()] >= 0) continue;  // one skin a mesh: the first
        a->skin_of[run.mesh()] = static_cast<std::int32_t>(a->skins.size());
        a->skins.push_back(std::move(run));
      }
      if (!note.empty()) notes.push_back(note);
    }
    if (!a->skins.empty()) on |= kSkin;
    runs[kSkinChunk] = !a->skins.empty();
  } else if (chunk[kSkinChunk]) {
    notes.push_back("SKIN is off: its header declares no H4 hook");
  }
  // H1 and H4 as the headers of the chunks that run declare them. BONE acts through its arcs
  // and bones alone. SKIN's H4 list declares the meshes and axes its correction stands in
  // for and replaces nothing: the correction is what stands in for them.
  for (int e = 0; e < kExtCount; ++e) {
    if (!runs[e] || e == kBone) continue;
    const ExtensionHeader& h = *header_of(rig, e);
    if (h.hooks & kHookH1) {
      for (auto p : h.parameters) hold(p);
      for (auto g : h.physics_groups) skip(g);
    }
    if ((h.hooks & kHookH4) && e != kSkinChunk) {
      for (const MeshOverride& o : h.meshes) {
        if (a->replacement_of[o.mesh] >= 0) continue;
        MeshReplacement r;
        r.axes = o.axes;
        r.skip_binding.assign(rig.meshes[o.mesh].shapes.size(), 0);
        for (auto b : o.bindings)
          if (b < r.skip_binding.size()) r.skip_binding[b] = 1;
        a->replacement_of[o.mesh] = static_cast<std::int32_t>(a->replacements.size());
        a->replacements.push_back(std::move(r));
      }
    }
  }
  for (std::size_t p = 0; p < held.size(); ++p)
    if (held[p]) a->held.push_back(static_cast<std::uint32_t>(p));
  if (any_skipped) a->skip_physics = std::move(skipped);
  a->replaced_values.resize(rig.parameters.size());
  a->on = on;
  return a;
}

void hold_parameters(const AdvancedState& a, const ModelPlan& plan, InstanceState& s) {
  for (std::uint32_t p : a.held) s.normalized[p] = plan.default_values[p];
}

std::span<const std::uint8_t> skipped_physics(const AdvancedState& a) { return a.skip_physics; }

const ArcPlan* frame_arc(const AdvancedState& a, const ModelPlan& plan, std::size_t d) {
  return declared_arc(plan, d, (a.on & kExactLinks) != 0);
}

void along_arc(const ArcPlan& arc, const std::vector<Pivot>& forms, const float* values, Pivot& p) {
  const eval::Span s = eval::span_snapped(arc.keys, values[arc.parameter]);
  if (s.lo == s.hi || arc.key_cell[s.lo] < 0 || arc.key_cell[s.hi] < 0) return;
  const Pivot& a = forms[static_cast<std::size_t>(arc.key_cell[s.lo])];
  const Pivot& b = forms[static_cast<std::size_t>(arc.key_cell[s.hi])];
  constexpr float kPi = 3.14159265358979323846f, kTau = 6.28318530717958647692f;
  const float ra = libm::hypot(a.x - arc.cx, a.y - arc.cy), rb = libm::hypot(b.x - arc.cx, b.y - arc.cy);
  const float start = libm::atan2(a.y - arc.cy, a.x - arc.cx);
  float turn = libm::atan2(b.y - arc.cy, b.x - arc.cx) - start;
  // The short way round: the writer keeps every step under half a turn.
  if (turn > kPi)
    turn -= kTau;
  else if (turn < -kPi)
    turn += kTau;
  const float angle = start + turn * s.t, radius = ra + (rb - ra) * s.t;
  const float chord_x = a.x + (b.x - a.x) * s.t, chord_y = a.y + (b.y - a.y) * s.t;
  p.x += arc.cx + radius * libm::cos(angle) - chord_x;
  p.y += arc.cy + radius * libm::sin(angle) - chord_y;
}

ChannelState mesh_local_hooked(AdvancedState& a, InstanceState& s, std::size_t m, float* out) {
  const Model& model = *a.model;
  const Rig& rig = model.rig();
  const ModelPlan& plan = model.plan();
  const Mesh& mesh = rig.meshes[m];
  const float* values = s.normalized.data();
  ChannelState state;
  if (a.replacement_of[m] >= 0) {
    const MeshReplacement& r = a.replacements[static_cast<std::size_t>(a.replacement_of[m])];
    std::copy(s.normalized.begin(), s.normalized.end(), a.replaced_values.begin());
    for (std::uint32_t p : r.axes) a.replaced_values[p] = plan.default_values[p];
    state = eval::mesh_local(mesh, plan.meshes[m], {a.replaced_values.data(), s.cells.data()}, out, r.skip_binding.data());
  } else {
    state = eval::mesh_local(mesh, plan.meshes[m], {values, s.cells.data(), &s.weight_cache}, out);
  }
  if (a.has_statics[m]) subtract_statics(rig, static_cast<std::uint32_t>(m), values, out);
  if (a.skin_of[m] >= 0) a.skins[static_cast<std::size_t>(a.skin_of[m])].correct(model, s, a.on & kExactLinks, out);
  return state;
}

void advance_simulations(AdvancedState& a, InstanceState& s, float dt) {
  if (a.sims.empty()) return;
  if (dt > 0.0f) a.placed.clear();
  if (dt > 0.0f && (a.on & kCollision)) ensure_virtual_frames(*a.model, s, a.on & kExactLinks);
  for (SimRun& run : a.sims) run.advance(*a.model, s, dt, s.sim_wind_x, s.sim_wind_y, a.placed);
}

void reset_simulations(AdvancedState& a) {
  for (SimRun& run : a.sims) run.reset();
}

std::span<const float> placed_colliders(const AdvancedState& a) { return a.placed; }

}  // namespace p2l::ext
