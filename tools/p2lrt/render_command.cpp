#include "p2lrt/render_command.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <sstream>

#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"
#include "p2lrt/page_files.hpp"

namespace p2lrt {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kDefaultLongSide = 1024;
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 26;  // 8192 x 8192

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

bool parse_float(std::string_view text, float& out) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(out);
}

bool parse_uint(std::string_view text, std::uint32_t& out) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

// The rig: a .p2lrt file, or a Cubism model imported on the fly (its report is summarised).
std::shared_ptr<const p2l::Rig> load_rig(const std::string& path) {
  if (path.ends_with(".model3.json")) {
    p2l::ImportResult imported = p2l::import_cubism(path);
    if (!imported) {
      std::cerr << "p2lrt render: " << imported.error.to_string() << "\n";
      return nullptr;
    }
    if (!imported.report.dropped.empty())
      std::cerr << "p2lrt render: imported " << path << " (" << imported.report.dropped.size()
                << " things not carried over exactly; `p2lrt import` lists them)\n";
    return std::make_shared<const p2l::Rig>(std::move(imported.rig));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "p2lrt render: cannot open " << path << "\n";
    return nullptr;
  }
  std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  p2l::LoadResult loaded = p2l::load(bytes);
  if (!loaded) {
    std::cerr << path << ": " << loaded.error.to_string() << "\n";
    return nullptr;
  }
  return loaded.rig;
}

// "#rrggbb", "#rrggbbaa", "transparent", "white" or "black" as straight RGBA.
bool parse_color(const std::string& text, std::array<std::uint8_t, 4>& rgba) {
  if (text == "transparent") rgba = {0, 0, 0, 0};
  else if (text == "white") rgba = {255, 255, 255, 255};
  else if (text == "black") rgba = {0, 0, 0, 255};
  else {
    if (text.size() != 7 && text.size() != 9) return false;
    if (text[0] != '#') return false;
    rgba[3] = 255;
    for (std::size_t i = 0; 1 + 2 * i < text.size(); ++i) {
      const auto r = std::from_chars(text.data() + 1 + 2 * i, text.data() + 3 + 2 * i, rgba[i], 16);
      if (r.ec != std::errc() || r.ptr != text.data() + 3 + 2 * i) return false;
    }
  }
  return true;
}

// Index of the clip, expression, ... named by [key] (its id, or its index), or -1 with the
// choices printed.
template <class List, class Id>
std::int32_t find_by_key(const List& list, const std::string& key, const char* what, Id id) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (id(list[i]) == key) return static_cast<std::int32_t>(i);
  std::uint32_t index = 0;
  if (parse_uint(key, index) && index < list.size()) return static_cast<std::int32_t>(index);
  std::cerr << "p2lrt render: no " << what << " \"" << key << "\"";
  if (list.empty()) {
    std::cerr << " (the rig has none)\n";
  } else {
    std::cerr << "; the rig has:";
    for (std::size_t i = 0; i < list.size(); ++i) std::cerr << (i ? ", " : " ") << i << " " << id(list[i]);
    std::cerr << "\n";
  }
  return -1;
}

// A progress bar on a terminal, redrawn at most ten times a second; silent elsewhere.
class Progress {
 public:
  Progress(std::size_t total, bool enabled) : total_(total), enabled_(enabled && isatty(2)), start_(Clock::now()) {}
  void update(std::size_t done) {
    if (!enabled_ || seconds_since(start_) < 1.0) return;  // short work: no bar
    const auto now = Clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double elapsed = seconds_since(start_);
    const double eta = done > 0 ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0.0;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(total_, 1)));
    std::fprintf(stderr, "\r  [%s%s] %zu/%zu frames, %.1f s, %.1f s left ", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done, total_, elapsed, eta);
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::fprintf(stderr, "\n");
  }

 private:
  std::size_t total_;
  bool enabled_, drawn_ = false;
  Clock::time_point start_, last_{};
};

struct Frame {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // straight
};

bool write_png(const fs::path& path, const Frame& frame) {
  std::vector<std::uint8_t> png;
  std::string error;
  if (!p2l::encode_png(frame.rgba.data(), frame.width, frame.height, png, error)) {
    std::cerr << "p2lrt render: cannot encode " << path.string() << ": " << error << "\n";
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  if (!out) {
    std::cerr << "p2lrt render: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

// Frames tiled left to right, top to bottom, on the background.
Frame contact_sheet(const std::vector<Frame>& frames, std::uint32_t columns, const std::array<std::uint8_t, 4>& background) {
  Frame sheet;
  if (frames.empty()) return sheet;
  const std::uint32_t n = static_cast<std::uint32_t>(frames.size());
  if (columns == 0) columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  columns = std::min(columns, n);
  const std::uint32_t rows = (n + columns - 1) / columns;
  const std::uint32_t w = frames[0].width, h = frames[0].height;
  sheet.width = w * columns;
  sheet.height = h * rows;
  sheet.rgba.resize(std::size_t{sheet.width} * sheet.height * 4);
  for (std::size_t p = 0; p < sheet.rgba.size(); p += 4) std::copy(background.begin(), background.end(), sheet.rgba.begin() + static_cast<std::ptrdiff_t>(p));
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t ox = (i % columns) * w, oy = (i / columns) * h;
    for (std::uint32_t y = 0; y < h; ++y)
      std::copy_n(frames[i].rgba.begin() + static_cast<std::ptrdiff_t>(std::size_t{y} * w * 4), std::size_t{w} * 4,
                  sheet.rgba.begin() + static_cast<std::ptrdiff_t>((std::size_t{oy + y} * sheet.width + ox) * 4));
  }
  return sheet;
}

// The advanced-mode features: "15", "0x5", "skin,sim", "all" or "none".
constexpr std::array<std::pair<const char*, std::uint32_t>, 4> kFeatureNames{
    {{"skin", p2l::kAdvancedSkin}, {"links", p2l::kAdvancedExactLinks}, {"sim", p2l::kAdvancedSim}, {"collision", p2l::kAdvancedCollision}}};
constexpr std::uint32_t kAllFeatures = p2l::kAdvancedSkin | p2l::kAdvancedExactLinks | p2l::kAdvancedSim | p2l::kAdvancedCollision;

bool parse_features(const std::string& text, std::uint32_t& bits) {
  bits = 0;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    const auto r = std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
    return r.ec == std::errc() && r.ptr == text.data() + text.size() && text.size() > 2 && bits <= kAllFeatures;
  }
  if (parse_uint(text, bits)) return bits <= kAllFeatures;
  if (text == "none") return true;
  std::stringstream list(text);
  for (std::string name; std::getline(list, name, ',');) {
    if (name == "all") {
      bits |= kAllFeatures;
      continue;
    }
    const auto* it = std::find_if(kFeatureNames.begin(), kFeatureNames.end(), [&](const auto& f) { return name == f.first; });
    if (it == kFeatureNames.end()) return false;
    bits |= it->second;
  }
  return !text.empty();
}

// "13 (skin, sim, collision)", "0 (Cubism mode)".
std::string describe_features(std::uint32_t bits) {
  std::string out = std::to_string(bits) + " (";
  if (bits == 0) return out + "Cubism mode)";
  bool first = true;
  for (const auto& [name, bit] : kFeatureNames) {
    if (!(bits & bit)) continue;
    out += (first ? "" : ", ") + std::string(name);
    first = false;
  }
  return out + ")";
}

// Frames of the same size side by side, left to right, in one frame.
Frame side_by_side(const std::vector<Frame>& frames) {
  Frame out;
  if (frames.empty()) return out;
  const std::uint32_t w = frames[0].width, h = frames[0].height;
  out.width = w * static_cast<std::uint32_t>(frames.size());
  out.height = h;
  out.rgba.resize(std::size_t{out.width} * h * 4);
  for (std::size_t i = 0; i < frames.size(); ++i)
    for (std::uint32_t y = 0; y < h; ++y)
      std::copy_n(frames[i].rgba.begin() + static_cast<std::ptrdiff_t>(std::size_t{y} * w * 4), std::size_t{w} * 4,
                  out.rgba.begin() + static_cast<std::ptrdiff_t>((std::size_t{y} * out.width + i * w) * 4));
  return out;
}

}  // namespace

void RenderOptions::add_to(CLI::App* command) {
  command->add_option("FILE", input, "A .p2lrt file, or a Cubism .model3.json (imported on the fly)")->required();
  command->add_option("-o,--output", output, "A PNG for one pose; a folder for an animation")->required();
  command->add_option("--param", params, "PARAMETER_ID=VALUE (repeatable): the host's pose");
  command->add_option("--size", size, "Image size WxH (default: the canvas, at most 1024 on its longer side)");
  command->add_flag("--fit", fit, "Frame what is drawn (first frame) instead of the whole canvas");
  command->add_option("--background", background, "transparent (default), white, black, #rrggbb or #rrggbbaa");
  command->add_option("--clip", clip, "Play this clip (id or index) and write frames into the output folder");
  command->add_option("--seconds", seconds, "Animation length (default 3)");
  command->add_option("--fps", fps, "Frames per second of the animation (default 30)");
  command->add_option("--expression", expressions, "Expression to add (id or index; repeatable)");
  command->add_option("--behaviors", behaviors, "blink,breath,look,lipsync or none (default blink,breath)");
  command->add_flag("--no-physics", no_physics, "Run the animation without physics");
  command->add_option("--seed", seed, "Blink timing seed (default 1: the same frames every run)");
  command->add_option("--advanced", advanced,
                      "Advanced-mode features to turn on before drawing (default 0: Cubism mode): a bit sum, 1 skin, "
                      "2 exact links, 4 vertex simulation, 8 collision (15: all), or names: skin,links,sim,collision, "
                      "all, none. The features on and the runtime's notes go to stderr. Simulations step only in an "
                      "animation (--clip or --expression), at least every 4 of their steps (a longer frame takes "
                      "several updates); a single pose shows their targets");
  command->add_flag("--compare-advanced", compare_advanced,
                    "Draw every image twice, side by side: Cubism mode on the left, advanced mode on the right (the "
                    "--advanced features, else all the file carries); images and the sheet are twice as wide");
  command->add_flag("--sheet", sheet, "Also tile the frames into sheet.png in the output folder");
  command->add_option("--sheet-columns", sheet_columns, "Columns of the contact sheet (default: about square)");
  command->add_flag("-q,--quiet", quiet, "No progress bar or summary");
}

int render(const RenderOptions& o) {
  // Arguments first, so that a typo fails before any work.
  std::array<std::uint8_t, 4> background{};
  if (!parse_color(o.background, background)) {
    std::cerr << "p2lrt render: --background " << o.background << ": expected transparent, white, black, #rrggbb or #rrggbbaa\n";
    return 2;
  }
  const bool animate = !o.clip.empty() || !o.expressions.empty();
  if (animate && !(o.seconds > 0.0f && o.fps > 0.0f && o.seconds * o.fps <= 100000.0f)) {
    std::cerr << "p2lrt render: --seconds and --fps must be positive, at most 100000 frames in all\n";
    return 2;
  }
  std::uint32_t behaviors = 0;
  if (o.behaviors != "none") {
    std::stringstream list(o.behaviors);
    for (std::string name; std::getline(list, name, ',');) {
      if (name == "blink") behaviors |= p2l::kBehaviorBlink;
      else if (name == "breath") behaviors |= p2l::kBehaviorBreath;
      else if (name == "look") behaviors |= p2l::kBehaviorLook;
      else if (name == "lipsync") behaviors |= p2l::kBehaviorLipSync;
      else {
        std::cerr << "p2lrt render: --behaviors: unknown behavior \"" << name << "\" (blink, breath, look, lipsync or none)\n";
        return 2;
      }
    }
  }

  std::uint32_t requested = 0;
  if (!o.advanced.empty() && !parse_features(o.advanced, requested)) {
    std::cerr << "p2lrt render: --advanced " << o.advanced
              << ": expected a bit sum 0..15 (1 skin, 2 exact links, 4 simulation, 8 collision) or names "
                 "(skin,links,sim,collision, all, none)\n";
    return 2;
  }

  auto rig = load_rig(o.input);
  if (!rig) return 1;
  p2l::ModelResult compiled = p2l::Model::create(rig);
  if (!compiled) {
    std::cerr << o.input << ": " << compiled.error.to_string() << "\n";
    return 1;
  }
  auto model = compiled.model;
  // One lane draws the image; --compare-advanced adds a second, Cubism mode on the left and
  // advanced mode on the right, fed the same pose and animation.
  struct Lane {
    p2l::Instance instance;
    p2l::Animator animator;
  };
  std::vector<Lane> lanes;
  lanes.reserve(2);
  lanes.push_back({p2l::Instance(model), p2l::Animator(model)});
  if (o.compare_advanced) lanes.push_back({p2l::Instance(model), p2l::Animator(model)});
  p2l::Instance& instance = lanes[0].instance;
  for (const std::string& s : o.params) {
    const auto eq = s.find('=');
    const std::int32_t index = eq == std::string::npos ? -1 : rig->find_parameter(s.substr(0, eq));
    float value = 0;
    if (index < 0 || !parse_float(std::string_view(s).substr(eq + 1), value)) {
      std::cerr << "p2lrt render: --param " << s << ": expected PARAMETER_ID=NUMBER";
      if (index < 0 && eq != std::string::npos) std::cerr << " (the rig has no parameter \"" << s.substr(0, eq) << "\")";
      std::cerr << "\n";
      return 2;
    }
    for (Lane& lane : lanes) lane.instance.parameters()[static_cast<std::size_t>(index)] = value;
  }

  // Image size: given, or the canvas scaled to at most kDefaultLongSide.
  std::uint32_t width = 0, height = 0;
  if (!o.size.empty()) {
    const auto x = o.size.find('x');
    if (x == std::string::npos || !parse_uint(std::string_view(o.size).substr(0, x), width) ||
        !parse_uint(std::string_view(o.size).substr(x + 1), height) || width == 0 || height == 0 ||
        std::uint64_t{width} * height > kMaxPixels) {
      std::cerr << "p2lrt render: --size " << o.size << ": expected WxH, e.g. 512x512 (at most 8192x8192)\n";
      return 2;
    }
  } else {
    const float long_side = std::max(rig->canvas.width, rig->canvas.height);
    const float scale = long_side > static_cast<float>(kDefaultLongSide) ? static_cast<float>(kDefaultLongSide) / long_side : 1.0f;
    width = std::max(1u, static_cast<std::uint32_t>(std::lround(rig->canvas.width * scale)));
    height = std::max(1u, static_cast<std::uint32_t>(std::lround(rig->canvas.height * scale)));
  }

  std::int32_t clip = -1;
  if (!o.clip.empty()) {
    clip = find_by_key(rig->clips, o.clip, "clip", [](const p2l::Clip& c) { return c.id; });
    if (clip < 0) return 2;
  }
  for (const std::string& e : o.expressions) {
    const std::int32_t index = find_by_key(rig->expressions, e, "expression", [](const p2l::Expression& x) { return x.id; });
    if (index < 0) return 2;
    for (Lane& lane : lanes) lane.animator.expression_add(static_cast<std::uint32_t>(index));
  }

  // Advanced mode on the lane that shows it, before anything is evaluated.
  const bool advanced_asked = !o.advanced.empty() || o.compare_advanced;
  if (advanced_asked) {
    const std::uint32_t carried = instance.advanced_available();
    const std::uint32_t bits = o.advanced.empty() ? carried : requested;
    std::vector<std::string> notes;
    const std::uint32_t on = lanes.back().instance.set_advanced(bits, &notes);
    if (!o.quiet) {
      std::cerr << "advanced: " << describe_features(on) << " on";
      if (on != bits) std::cerr << " of " << describe_features(bits) << " asked; the file carries " << describe_features(carried);
      std::cerr << (o.compare_advanced ? " (right; left: Cubism mode)" : "") << "\n";
      for (const std::string& note : notes) std::cerr << "advanced: " << note << "\n";
    }
  }

  // The host's part of texturing: pages stored as files next to the rig (page_files.hpp).
  p2l::Renderer renderer(model);
  std::vector<PageRef> pages;
  for (const p2l::Texture& t : rig->textures) pages.push_back({t.kind, t.uri});
  for (const std::string& problem :
       load_page_files(pages, fs::path(o.input).parent_path(), [&](std::uint32_t page, const p2l::Image& image) {
         return renderer.set_texture(page, image.rgba, image.width, image.height);
       }))
    std::cerr << "p2lrt render: " << problem << "\n";

  std::vector<Frame> lane_frames(lanes.size(), Frame{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 4)});
  for (Lane& lane : lanes) lane.animator.evaluate(lane.instance);
  // Every lane is framed alike, as the first lane's first frame is.
  p2l::Framing how;
  how.drawn = o.fit;
  const p2l::Affine transform = p2l::framing(instance, width, height, how);
  double render_seconds = 0, update_seconds = 0;
  Frame frame;
  auto draw = [&]() {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      std::vector<std::uint8_t>& pixels = lane_frames[i].rgba;
      for (std::size_t p = 0; p < pixels.size(); p += 4) std::copy(background.begin(), background.end(), pixels.begin() + static_cast<std::ptrdiff_t>(p));
      if (!renderer.render(lanes[i].instance, pixels.data(), width, height, &transform, p2l::kRenderStraight | p2l::kRenderKeep))
        return false;
    }
    render_seconds += seconds_since(start);
    if (lanes.size() == 1)
      frame = lane_frames[0];
    else
      frame = side_by_side(lane_frames);
    return true;
  };

  if (!animate) {
    if (!draw()) {
      std::cerr << "p2lrt render: the renderer refused a " << width << "x" << height << " image\n";
      return 1;
    }
    if (!write_png(o.output, frame)) return 1;
    if (!o.quiet)
      std::cerr << "wrote " << o.output << " (" << frame.width << "x" << frame.height << ", " << std::fixed << std::setprecision(1)
                << render_seconds * 1e3 << " ms to draw)\n";
    return 0;
  }

  // An animation: frame k shows the rig after k frames of 1/fps (frame 0: the start), each
  // frame one update (several while a simulation would drop time, below).
  std::error_code ec;
  fs::create_directories(o.output, ec);
  if (ec) {
    std::cerr << "p2lrt render: cannot create the folder " << o.output << ": " << ec.message() << "\n";
    return 1;
  }
  for (Lane& lane : lanes) {
    lane.animator.set_behaviors(behaviors);
    lane.animator.behavior_seed(o.seed);
    if (clip >= 0) lane.animator.play(clip);
  }
  const std::uint32_t stages = p2l::kStageAll & ~(o.no_physics ? p2l::kStagePhysics : 0u);
  const std::size_t count = static_cast<std::size_t>(std::lround(o.seconds * o.fps));
  const float dt = 1.0f / o.fps;
  // A vertex simulation steps at most 4 times an update and drops the rest of a longer one
  // (the format's rule for real-time hosts); a frame longer than that is reached in several
  // equal updates, so that slow frame rates and contact sheets show it in real time.
  std::uint32_t updates_per_frame = 1;
  bool simulating = false;
  for (const Lane& lane : lanes) simulating |= (lane.instance.advanced() & p2l::kAdvancedSim) != 0;
  if (simulating) {
    float fastest = 0;
    for (const p2l::Simulation& sim : rig->simulations->simulations) fastest = std::max(fastest, sim.fps);
    if (fastest > 0) updates_per_frame = std::max(1u, static_cast<std::uint32_t>(std::ceil(dt * fastest / 4.0f - 1e-4f)));
  }
  std::vector<Frame> kept;
  if (o.sheet) kept.reserve(count);
  Progress progress(count, !o.quiet);
  std::size_t events = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      const std::uint32_t updates = k == 0 ? 1 : updates_per_frame;
      for (std::uint32_t u = 0; u < updates; ++u) {
        lanes[i].animator.update(lanes[i].instance, k == 0 ? 0.0f : dt / static_cast<float>(updates), stages);
        if (i == 0) events += lanes[i].animator.event_count();
      }
    }
    update_seconds += seconds_since(start);
    if (!draw()) {
      std::cerr << "p2lrt render: the renderer refused a " << width << "x" << height << " image\n";
      return 1;
    }
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05zu.png", k);
    if (!write_png(fs::path(o.output) / name, frame)) return 1;
    if (o.sheet) kept.push_back(frame);
    progress.update(k + 1);
  }
  progress.finish();
  // Side-by-side frames are twice as wide: about square takes about half as many columns.
  std::uint32_t columns = o.sheet_columns;
  if (columns == 0 && lanes.size() > 1 && !kept.empty())
    columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(kept.size()) / static_cast<double>(lanes.size()))));
  if (o.sheet && !write_png(fs::path(o.output) / "sheet.png", contact_sheet(kept, columns, background))) return 1;
  if (!o.quiet) {
    const double n = static_cast<double>(std::max<std::size_t>(count, 1));
    std::cerr << "wrote " << count << " frames (" << width * lanes.size() << "x" << height << ") to " << o.output
              << (o.sheet ? " and sheet.png" : "") << "\n"
              << std::fixed << std::setprecision(1) << "per frame: update " << update_seconds / n * 1e6 << " us, draw "
              << render_seconds / n * 1e3 << " ms; " << events << (events == 1 ? " clip event" : " clip events") << "\n";
  }
  return 0;
}

}  // namespace p2lrt
