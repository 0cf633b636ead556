// Part poses (docs/RUNTIME.md "Poses"): Cubism's pose3 fade with phi = 0.5 and the 0.15
// back-opacity threshold. Bad part indices (validation rejects them) are skipped: a part
// past the end reads as opacity 1 and is never written.
#include "anim/pose.hpp"

#include <algorithm>
#include <cmath>

#include "base/sized.hpp"

namespace p2l::anim {
namespace {

constexpr float kPhi = 0.5f;
constexpr float kBackOpacityThreshold = 0.15f;
constexpr float kShownAbove = 0.001f;

}  // namespace

PosePlayer::PosePlayer(const Rig& rig, bool cubism_playback) {
  opacity_.assign(rig.parts.size(), 1.0f);
  if (!rig.pose) return;
  fade_ = rig.pose->fade_in;
  cubism_ = cubism_playback && rig.pose->cubism_playback;
  cubism2_ = cubism_ && rig.pose->cubism2;
  // Each list sized from its count, then filled in place (src/base/sized.hpp says why).
  std::size_t entry_count = 0, link_count = 0;
  for (const PoseGroup& g : rig.pose->groups)
    for (const PoseEntry& e : g.entries) {
      ++entry_count;
      link_count += e.linked.size();
    }
  sized(groups_, rig.pose->groups.size());
  sized(entries_, entry_count);
  sized(links_, link_count);
  std::uint32_t entries = 0, links = 0;
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const PoseGroup& g = rig.pose->groups[k];
    groups_[k] = {entries, static_cast<std::uint32_t>(g.entries.size()), 0};
    for (const PoseEntry& e : g.entries) {
      entries_[entries++] = {e.part, links, static_cast<std::uint32_t>(e.linked.size())};
      for (const std::uint32_t linked : e.linked) links_[links++] = linked;
    }
  }
  value_.assign(entry_count, 0.0f);
  restart();
}

void PosePlayer::restart() {
  // Cubism 2's framework updates the pose as the model loads: every entry's value (its
  // VISIBLE: parameter) made at 1, and no reset on the first update after.
  started_ = cubism2_;
  for (Group& g : groups_) {
    g.shown = 0;
    for (std::uint32_t k = 0; k < g.count; ++k) value_[g.first + k] = k == 0 || cubism2_ ? 1.0f : 0.0f;
  }
  reset_opacities();
}

// Cubism's reset: the first entry of each group (and its linked parts) at 1, the others 0.
void PosePlayer::reset_opacities() {
  for (const Group& g : groups_)
    for (std::uint32_t k = 0; k < g.count; ++k) {
      const Entry& e = entries_[g.first + k];
      const float o = k == 0 ? 1.0f : 0.0f;
      set(e.part, o);
      for (std::uint32_t l = 0; l < e.link_count; ++l) set(links_[e.first_link + l], o);
    }
}

void PosePlayer::choose_from_values() {
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    Group& g = groups_[k];
    g.shown = -1;
    g.fallback = false;
    // Cubism 2 shows an entry whose value is not 0 (a negative one too).
    for (std::uint32_t e = 0; e < g.count; ++e)
      if (cubism2_ ? value_[g.first + e] != 0.0f : value_[g.first + e] > kShownAbove) {
        g.shown = static_cast<std::int32_t>(e);
        break;
      }
    // Cubism falls back to its entry index 0, which counts across all groups: only the
    // first group has it (a quirk kept with these rules). Cubism 2 falls back to the group's
    // own first entry.
    if (g.shown < 0) {
      g.fallback = true;
      if (k == 0 || cubism2_) g.shown = 0;
    }
  }
}

void PosePlayer::set(std::uint32_t part, float value) {
  if (part < opacity_.size()) opacity_[part] = value;
}

float PosePlayer::get(std::uint32_t part) const { return part < opacity_.size() ? opacity_[part] : 1.0f; }

std::uint32_t PosePlayer::group_count() const { return static_cast<std::uint32_t>(groups_.size()); }

std::uint32_t PosePlayer::group_size(std::uint32_t group) const {
  return group < groups_.size() ? groups_[group].count : 0;
}

bool PosePlayer::show(std::uint32_t group, std::uint32_t entry) {
  if (group >= groups_.size() || entry >= groups_[group].count) return false;
  Group& g = groups_[group];
  g.shown = static_cast<std::int32_t>(entry);
  // Cubism's rules choose by the values: the entry's is 1, the others' 0.
  for (std::uint32_t k = 0; k < g.count; ++k) value_[g.first + k] = k == entry ? 1.0f : 0.0f;
  return true;
}

std::int32_t PosePlayer::shown(std::uint32_t group) const {
  return group < groups_.size() ? groups_[group].shown : -1;
}

void PosePlayer::steer(std::span<const float> part_values) {
  if (cubism_) {
    // Kept as Cubism's pose parameters; the pose's first update resets them (update()).
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      const std::uint32_t part = entries_[k].part;
      if (part < part_values.size() && !std::isnan(part_values[part])) value_[k] = part_values[part];
    }
    return;
  }
  for (Group& g : groups_) {
    bool any = false;
    std::int32_t first_above = -1;
    for (std::uint32_t k = 0; k < g.count; ++k) {
      const std::uint32_t part = entries_[g.first + k].part;
      if (part >= part_values.size()) continue;
      const float v = part_values[part];
      if (std::isnan(v)) continue;
      any = true;
      if (first_above < 0 && v > kShownAbove) first_above = static_cast<std::int32_t>(k);
    }
    // Nothing above 0.001 keeps the entry shown (Cubism would fall back to the absolute
    // index 0, which is in no group but the first: a quirk not reproduced).
    if (any && first_above >= 0) g.shown = first_above;
  }
}

void PosePlayer::update(float dt) {
  const bool advance = dt > 0.0f;  // negative or NaN: 0, which leaves the shown opacity
  if (cubism_) {
    if (!started_) {
      // Cubism's first update: the values back to the reset, whatever clips wrote.
      restart();
      started_ = true;
    }
    choose_from_values();
  }
  for (const Group& g : groups_) {
    if (g.shown >= static_cast<std::int32_t>(g.count)) continue;
    // No entry shown, or Cubism's fallback: the front at 1 at once (and the rest as under it).
    float n = 1.0f;
    if (g.shown >= 0 && !g.fallback) {
      n = get(entries_[g.first + static_cast<std::uint32_t>(g.shown)].part);
      if (!(fade_ > 0.0f)) {
        if (advance || cubism_) n = 1.0f;  // Cubism's step is 1 at once, even for dt 0
      } else if (advance) {
        n = std::min(1.0f, n + dt / fade_);
      }
    }
    // How much of the back parts may still show while the front one is at n.
    float a = n < kPhi ? n * (kPhi - 1.0f) / kPhi + 1.0f : (1.0f - n) * kPhi / (1.0f - kPhi);
    if ((1.0f - a) * (1.0f - n) > kBackOpacityThreshold) a = 1.0f - kBackOpacityThreshold / (1.0f - n);
    a = std::max(a, 0.0f);
    for (std::uint32_t k = 0; k < g.count; ++k) {
      const Entry& e = entries_[g.first + k];
      const float o = static_cast<std::int32_t>(k) == g.shown ? n : std::min(get(e.part), a);
      set(e.part, o);
      for (std::uint32_t l = 0; l < e.link_count; ++l) set(links_[e.first_link + l], o);
    }
  }
}

}  // namespace p2l::anim
