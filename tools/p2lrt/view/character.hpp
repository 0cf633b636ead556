// The viewer's character: a rig played the way Cubism's samples play one. An idle clip runs
// whenever nothing else does; a click on a hit area plays a clip of that area's tap group; keys
// step through clips and expressions. Everything goes through the C API (p2l.h, p2l_cubism.h),
// as any host's would. No window or GL here, so it can be tested alone.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "p2l/p2l.h"

namespace p2lrt::viewer {

class Character {
 public:
  // A .p2lrt file, a .model3.json (with its files) or a bare .moc3. Null with [error] set when
  // it cannot be read; [notes] gets a line per thing an import did not carry over exactly.
  static std::unique_ptr<Character> open(const std::string& path, std::uint32_t seed, std::string& error,
                                         std::string& notes);
  ~Character();

  // Hands the texture pages stored as files next to the rig ([path]'s folder) to the renderers;
  // returns a line per page that will draw transparent, and one when the rig has no pages at all
  // (a bare .moc3).
  std::vector<std::string> load_page_files(const std::string& path);
  Character(const Character&) = delete;
  Character& operator=(const Character&) = delete;

  P2lRig* rig() const { return rig_; }

  // Advances by [dt] seconds through p2l_update_stages' [stages]: an idle clip starts first when
  // layer 0 is empty or has finished a one-shot.
  void update(float dt, std::uint32_t stages);

  // The hit area at canvas point (x, y), or -1. A hit starts a clip of the area's tap group (chosen
  // at random among the group's, as Cubism's samples do); a model without that group (many have
  // only "Idle" and a group of their own) plays one of its clips outside "Idle" instead, also at
  // random. [played] receives the clip, or -1 when there is none to play; [tap_group] whether it
  // came from the tap group.
  std::int32_t tap(float x, float y, std::int32_t& played, bool& tap_group);

  // A canvas point inside hit area [area] at the last evaluation (the centroid of its triangle
  // nearest the middle of its bounds), for scripts that click it; false when it draws nothing.
  bool hit_area_point(std::uint32_t area, float& x, float& y) const;

  // The next (+1) or previous (-1) clip in file order, and the same for expressions (the step after
  // the last one turns expressions off).
  void step_clip(int step);
  void step_expression(int step);
  void play(std::int32_t clip);
  void set_expression(std::int32_t expression);
  std::int32_t expression() const { return expression_; }

  // "Group/name" of a clip ("name" without a group), and an expression's name.
  std::string clip_label(std::int32_t clip) const;
  std::string expression_label(std::int32_t expression) const;

  // The clips of [group] (case-insensitive), in file order, written to [out] (up to [capacity]);
  // returns how many there are.
  std::uint32_t clips_in_group(const std::string& group, std::int32_t* out, std::uint32_t capacity) const;

 private:
  explicit Character(P2lRig* rig, std::uint32_t seed);
  std::int32_t pick(const std::string& group);
  std::int32_t pick_outside_idle();

  P2lRig* rig_;
  std::mt19937 random_;
  std::int32_t expression_ = -1;
  bool has_idle_ = false;
};

// The tap group Cubism's samples give a hit area: "Tap" + its name ("Head" -> "TapHead"), or
// "Tap" + its id without the "HitArea" prefix ("HitAreaBody" -> "TapBody").
bool is_tap_group(const std::string& group, const std::string& area_id, const std::string& area_name);

}  // namespace p2lrt::viewer
