// Part poses (POSE) as Cubism's pose3: in each group one part shows, fading in over the
// pose's fade time while the others fade out by Cubism's rule (phi = 0.5, back-opacity
// threshold 0.15); linked parts copy their part. The result is an opacity per part that
// multiplies every mesh under the part. docs/RUNTIME.md "Poses" states the rules.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::anim {

class PosePlayer {
 public:
  // Each group showing its first entry at full opacity, the others at 0 (Cubism's reset).
  // With [cubism_playback] and a pose that asks for it (POSE version 2), Cubism's rules:
  // see steer() and update().
  explicit PosePlayer(const Rig& rig, bool cubism_playback = true);
  // Back to the state at construction.
  void restart();

  std::uint32_t group_count() const;
  std::uint32_t group_size(std::uint32_t group) const;
  // Shows [entry] of [group] from the next update on; false for a bad group or entry.
  bool show(std::uint32_t group, std::uint32_t entry);
  std::int32_t shown(std::uint32_t group) const;  // -1 for a bad group

  // Clip PartOpacity curves steer poses as Cubism's do: [part_values] holds, per part, the
  // value a clip wrote this update or NaN. In a group where some listed part got a value,
  // the first entry whose value is above 0.001 is shown (as show() would). Cubism's rules:
  // each entry keeps the last value written (Cubism's pose parameter), the pose's first
  // update overwrites what was written before it, and the shown entry is chosen in update().
  void steer(std::span<const float> part_values);
  // Fades by [dt] seconds (negative or NaN: 0). Cubism's rules: the first update resets the
  // values (the first entry of each group 1, the others 0); every update shows the first
  // entry whose value is above 0.001, or, when there is none, the pose's very first entry
  // (in the first group; in any other group none, and all of it fades out). Cubism 2's rules
  // (POSE flags bit 1): no reset on the first update (the values start at 1 for every entry),
  // an entry shows when its value is not 0, and every group falls back to its first entry.
  void update(float dt);
  // Per part: its pose opacity (1 for parts in no group).
  std::span<const float> part_opacity() const { return opacity_; }

 private:
  // The implementation owns its other members.
  struct Entry {
    std::uint32_t part;
    std::uint32_t first_link, link_count;  // into links_
  };
  struct Group {
    std::uint32_t first, count;  // into entries_
    std::int32_t shown;          // -1: none (Cubism's rules only)
    bool fallback = false;       // Cubism's rules: no value above 0.001, the front at 1 at once
  };
  void set(std::uint32_t part, float value);
  float get(std::uint32_t part) const;
  void reset_opacities();
  // Cubism's rules: the shown entry of each group from the entries' values (-1: none).
  void choose_from_values();

  std::vector<float> opacity_;
  std::vector<Group> groups_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> links_;
  float fade_ = 0.5f;
  bool cubism_ = false, cubism2_ = false, started_ = false;
  std::vector<float> value_;  // Cubism's rules: per entry, its pose parameter
};

}  // namespace p2l::anim
