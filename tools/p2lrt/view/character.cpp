#include "p2lrt/view/character.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "p2l/p2l_cubism.h"
#include "p2lrt/page_files.hpp"

namespace p2lrt::viewer {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool equal_folded(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool is_tap_group(const std::string& group, const std::string& area_id, const std::string& area_name) {
  if (group.empty()) return false;
  const std::string prefix = "HitArea";
  const std::string bare = area_id.compare(0, prefix.size(), prefix) == 0 ? area_id.substr(prefix.size()) : area_id;
  return (!area_name.empty() && equal_folded(group, "Tap" + area_name)) || (!bare.empty() && equal_folded(group, "Tap" + bare));
}

std::unique_ptr<Character> Character::open(const std::string& path, std::uint32_t seed, std::string& error,
                                           std::string& notes) {
  char message[1024] = "";
  P2lRig* rig = nullptr;
  if (ends_with(path, ".model3.json") || ends_with(path, ".moc3") || ends_with(path, ".model.json") || ends_with(path, ".moc")) {
    rig = p2l_rig_import_cubism(path.c_str(), 0, message, sizeof message);
    if (rig) {
      const std::uint32_t n = p2l_import_report_count(rig);
      for (std::uint32_t i = 0; i < n; ++i) notes += std::string(p2l_import_report_line(rig, i)) + "\n";
    }
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      error = path + ": cannot be opened";
      return nullptr;
    }
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
    rig = p2l_rig_load(bytes.data(), bytes.size(), message, sizeof message);
  }
  if (!rig) {
    // The importer's messages name the file already; the loader's say what is wrong inside it.
    const bool imported = ends_with(path, ".model3.json") || ends_with(path, ".moc3") || ends_with(path, ".model.json") || ends_with(path, ".moc");
    error = !message[0] ? path + ": cannot be read" : imported ? std::string(message) : path + ": " + message;
    return nullptr;
  }
  return std::unique_ptr<Character>(new Character(rig, seed));
}

Character::Character(P2lRig* rig, std::uint32_t seed) : rig_(rig), random_(seed) {
  p2l_behavior_seed(rig_, seed);
  p2l_behaviors(rig_, P2L_BLINK | P2L_BREATH | P2L_LOOK);
  std::int32_t idle = -1;
  has_idle_ = clips_in_group("Idle", &idle, 1) > 0;
  // A model without an idle group still moves: its first clip loops, as `p2lrt render` plays it.
  if (!has_idle_ && p2l_clip_count(rig_) > 0) {
    p2l_set_clip_looping(rig_, 0, true);
    p2l_play(rig_, 0);
  }
}

Character::~Character() { p2l_rig_free(rig_); }

std::vector<std::string> Character::load_page_files(const std::string& path) {
  const std::uint32_t count = p2l_texture_count(rig_);
  if (count == 0)
    return {"the model has no textures (a .moc3 alone carries none: open the .model3.json that names them)"};
  std::vector<PageRef> pages;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::int32_t kind = 0;
    std::uint32_t width = 0, height = 0;
    const std::uint8_t* data = nullptr;
    std::size_t len = 0;
    const char* uri = p2l_texture_info(rig_, i, &kind, &width, &height, &data, &len);
    pages.push_back({static_cast<p2l::TextureKind>(kind), uri ? uri : ""});
  }
  return p2lrt::load_page_files(pages, std::filesystem::path(path).parent_path(), [&](std::uint32_t page, const p2l::Image& image) {
    return p2l_render_texture(rig_, page, image.rgba.data(), image.width, image.height);
  });
}

std::uint32_t Character::clips_in_group(const std::string& group, std::int32_t* out, std::uint32_t capacity) const {
  std::uint32_t found = 0;
  const std::uint32_t n = p2l_clip_count(rig_);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!equal_folded(p2l_clip_group(rig_, i), group)) continue;
    if (found < capacity) out[found] = static_cast<std::int32_t>(i);
    ++found;
  }
  return found;
}

std::int32_t Character::pick(const std::string& group) {
  const std::uint32_t n = clips_in_group(group, nullptr, 0);
  if (n == 0) return -1;
  std::vector<std::int32_t> clips(n);  // only on a new clip, never per frame
  clips_in_group(group, clips.data(), n);
  return clips[std::uniform_int_distribution<std::uint32_t>(0, n - 1)(random_)];
}

void Character::update(float dt, std::uint32_t stages) {
  if (has_idle_ && (p2l_clip_playing(rig_) < 0 || p2l_clip_finished(rig_))) p2l_play(rig_, pick("Idle"));
  p2l_update_stages(rig_, dt, stages);
}

std::int32_t Character::tap(float x, float y, std::int32_t& played, bool& tap_group) {
  played = -1;
  tap_group = false;
  const std::int32_t area = p2l_hit_test(rig_, x, y);
  if (area < 0) return -1;
  const std::string id = p2l_hit_area_id(rig_, static_cast<std::uint32_t>(area));
  const std::string name = p2l_hit_area_name(rig_, static_cast<std::uint32_t>(area));
  const std::uint32_t n = p2l_clip_count(rig_);
  for (std::uint32_t i = 0; i < n && played < 0; ++i)
    if (is_tap_group(p2l_clip_group(rig_, i), id, name)) played = pick(p2l_clip_group(rig_, i));
  tap_group = played >= 0;
  if (played < 0) played = pick_outside_idle();
  if (played >= 0) p2l_play(rig_, played);
  return area;
}

std::int32_t Character::pick_outside_idle() {
  std::vector<std::int32_t> clips;  // only on a click, never per frame
  for (std::uint32_t i = 0; i < p2l_clip_count(rig_); ++i)
    if (!equal_folded(p2l_clip_group(rig_, i), "Idle")) clips.push_back(static_cast<std::int32_t>(i));
  if (clips.empty()) return -1;
  return clips[std::uniform_int_distribution<std::size_t>(0, clips.size() - 1)(random_)];
}

bool Character::hit_area_point(std::uint32_t area, float& x, float& y) const {
  std::uint32_t meshes[8];
  const std::uint32_t n = std::min<std::uint32_t>(p2l_hit_area_meshes(rig_, area, meshes, 8), 8);
  float lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
  for (std::uint32_t i = 0; i < n; ++i) {
    const float* xy = p2l_mesh_vertices(rig_, meshes[i]);
    for (std::uint32_t v = 0; xy && v < p2l_mesh_vertex_count(rig_, meshes[i]); ++v) {
      lo_x = std::min(lo_x, xy[2 * v]), hi_x = std::max(hi_x, xy[2 * v]);
      lo_y = std::min(lo_y, xy[2 * v + 1]), hi_y = std::max(hi_y, xy[2 * v + 1]);
    }
  }
  const float mid_x = (lo_x + hi_x) / 2, mid_y = (lo_y + hi_y) / 2;
  float best = INFINITY;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t count = 0;
    const std::uint32_t* index = p2l_mesh_indices(rig_, meshes[i], &count);
    const float* xy = p2l_mesh_vertices(rig_, meshes[i]);
    for (std::uint32_t t = 0; index && xy && t + 2 < count; t += 3) {
      const float cx = (xy[2 * index[t]] + xy[2 * index[t + 1]] + xy[2 * index[t + 2]]) / 3;
      const float cy = (xy[2 * index[t] + 1] + xy[2 * index[t + 1] + 1] + xy[2 * index[t + 2] + 1]) / 3;
      const float d = (cx - mid_x) * (cx - mid_x) + (cy - mid_y) * (cy - mid_y);
      if (d < best) best = d, x = cx, y = cy;
    }
  }
  return std::isfinite(best);
}

void Character::play(std::int32_t clip) {
  if (clip >= 0 && static_cast<std::uint32_t>(clip) < p2l_clip_count(rig_)) p2l_play(rig_, clip);
}

void Character::step_clip(int step) {
  const auto n = static_cast<std::int32_t>(p2l_clip_count(rig_));
  if (n == 0) return;
  const std::int32_t now = p2l_clip_playing(rig_);
  const std::int32_t from = now < 0 ? (step > 0 ? -1 : 0) : now;
  play(((from + step) % n + n) % n);
}

void Character::set_expression(std::int32_t expression) {
  const auto n = static_cast<std::int32_t>(p2l_expression_count(rig_));
  expression_ = expression >= 0 && expression < n ? expression : -1;
  p2l_expression(rig_, expression_);
}

void Character::step_expression(int step) {
  // The cycle runs through every expression and "none" (-1), in file order.
  const auto n = static_cast<std::int32_t>(p2l_expression_count(rig_));
  if (n == 0) return;
  const std::int32_t slot = ((expression_ + 1 + step) % (n + 1) + (n + 1)) % (n + 1);
  set_expression(slot - 1);
}

std::string Character::clip_label(std::int32_t clip) const {
  if (clip < 0 || static_cast<std::uint32_t>(clip) >= p2l_clip_count(rig_)) return "none";
  const auto index = static_cast<std::uint32_t>(clip);
  const std::string group = p2l_clip_group(rig_, index);
  const char* name = p2l_clip_name(rig_, index);
  const std::string shown = name && *name ? name : p2l_clip_id(rig_, index);
  return group.empty() ? shown : group + "/" + shown;
}

std::string Character::expression_label(std::int32_t expression) const {
  if (expression < 0 || static_cast<std::uint32_t>(expression) >= p2l_expression_count(rig_)) return "none";
  const char* name = p2l_expression_name(rig_, static_cast<std::uint32_t>(expression));
  return name && *name ? name : p2l_expression_id(rig_, static_cast<std::uint32_t>(expression));
}

}  // namespace p2lrt::viewer
