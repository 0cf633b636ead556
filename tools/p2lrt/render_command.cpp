#include "p2lrt/render_command.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <csignal>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>
#include <thread>

#include "p2l/anim.hpp"
#include "p2l/audio.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"
#include "p2lrt/page_files.hpp"
#include "video/draw_pool.hpp"
#include "video/video_writer.hpp"

namespace p2lrt {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using p2l::video::Frame;
using p2l::video::OutputKind;

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
  if (path.ends_with(".model3.json") || path.ends_with(".model.json")) {  // Cubism 3+ or Cubism 2
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

bool write_png(const fs::path& path, const Frame& frame) {
  std::vector<std::uint8_t> png;
  std::string error;
  if (!p2l::encode_png(frame.rgba.data(), frame.width, frame.height, png, error)) {
    std::cerr << "p2lrt render: cannot encode " << path.string() << ": " << error << "\n";
    return false;
  }
  // A temporary name first: a failure leaves no half-written PNG under the real one.
  fs::path temp = path;
  temp += ".part";
  std::ofstream out(temp, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  out.close();
  std::error_code ec;
  if (out) fs::rename(temp, path, ec);
  if (!out || ec) {
    fs::remove(temp, ec);
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

// A frame size the output can hold: 4:2:0 video (MP4, WebM) needs even sides.
void round_to_even(std::uint32_t& side) { side += side % 2; }

// A gain that opens the mouth fully on the voice's loud syllables: 1 over the 90th percentile of
// its levels at [fps] updates a second (quiet updates, under 0.01, left out), from 1 to 30.
// Speech's level is Cubism's RMS, about 0.1..0.3 for speech at a usual recording level, where
// Cubism's sample opens the mouth a fifth of the way.
float auto_gain(const p2l::AudioFile& audio, float fps) {
  p2l::Speech probe(audio.sample_rate, audio.channels);
  if (!probe.push(std::span<const float>(audio.samples))) return 1.0f;
  probe.end();
  std::vector<double> levels;
  while (!probe.finished()) {
    probe.update(1.0 / static_cast<double>(fps));
    if (probe.rms() > 0.01) levels.push_back(probe.rms());
  }
  if (levels.empty()) return 1.0f;
  const auto at = levels.begin() + static_cast<std::ptrdiff_t>(levels.size() * 9 / 10);
  std::nth_element(levels.begin(), at, levels.end());
  return static_cast<float>(std::clamp(1.0 / *at, 1.0, 30.0));
}

volatile std::sig_atomic_t g_stop = 0;
extern "C" void stop_on_signal(int) { g_stop = 1; }

// "X,Y,W,H": a canvas rectangle with a positive width and height.
bool parse_region(const std::string& text, std::array<float, 4>& region) {
  std::stringstream list(text);
  std::size_t n = 0;
  for (std::string item; std::getline(list, item, ',');) {
    if (n == 4 || !parse_float(item, region[n])) return false;
    ++n;
  }
  return n == 4 && region[2] > 0.0f && region[3] > 0.0f;
}

// The canvas rectangle [region] scaled to fit a [width] x [height] image, aspect kept, centred.
p2l::Affine region_framing(const std::array<float, 4>& region, std::uint32_t width, std::uint32_t height) {
  const float scale = std::min(static_cast<float>(width) / region[2], static_cast<float>(height) / region[3]);
  p2l::Affine m;
  m.a = m.d = scale;
  m.tx = 0.5f * static_cast<float>(width) - scale * (region[0] + 0.5f * region[2]);
  m.ty = 0.5f * static_cast<float>(height) - scale * (region[1] + 0.5f * region[3]);
  return m;
}

}  // namespace

void RenderOptions::add_to(CLI::App* command) {
  command->add_option("FILE", input, "A .p2lrt file, or a Cubism .model3.json or Cubism 2 .model.json (imported on the fly)")->required();
  command->add_option("-o,--output", output,
                      "A .png for one pose; for an animation a folder (PNG frames), .mp4 (H.264, AAC), .webm (VP9 with "
                      "alpha on a transparent background, Opus) or .gif")
      ->required();
  command->add_option("--param", params, "PARAMETER_ID=VALUE (repeatable): the host's pose");
  command->add_option("--size", size, "Image size WxH (default: the canvas, at most 1024 on its longer side)");
  command->add_flag("--fit", fit, "Frame what is drawn (first frame) instead of the whole canvas");
  command->add_option("--gain", gain,
                      "With --audio: the mouth level is the voice's RMS times this (default 1, as Cubism's sample), or auto: "
                      "fully open on the voice's loud syllables");
  command->add_option("--region", region,
                      "Frame this rectangle of the canvas instead, X,Y,W,H in canvas pixels (p2lrt info gives the canvas), "
                      "e.g. a face for a talking video");
  command->add_option("--background", background, "transparent (default), white, black, #rrggbb or #rrggbbaa");
  command->add_option("--clip", clip, "Play this clip (id or index) and write frames into the output folder");
  command->add_option("--seconds", seconds, "Animation length (default 3; with --audio, the audio's)");
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
  command->add_option("--audio", audio,
                      "A voice (WAV, FLAC, OGG/Vorbis): muxed into a video, the mouth moved by it (lip sync on), the "
                      "animation as long as the audio (frames: audio seconds x fps, rounded up)");
  command->add_option("--mouth", mouth, "With --audio: rms (the level opens the mouth; default) or vowels (its shape too)");
  command->add_option("--threads", threads, "Threads drawing (default 0: every core): an animation's frames, or a still's bands; updates stay on one");
}

int render(const RenderOptions& o) {
  // Arguments first, so that a typo fails before any work.
  std::array<std::uint8_t, 4> background{};
  if (!parse_color(o.background, background)) {
    std::cerr << "p2lrt render: --background " << o.background << ": expected transparent, white, black, #rrggbb or #rrggbbaa\n";
    return 2;
  }
  std::array<float, 4> region{};
  if (!o.region.empty() && !parse_region(o.region, region)) {
    std::cerr << "p2lrt render: --region " << o.region << ": expected X,Y,W,H in canvas pixels, W and H positive\n";
    return 2;
  }
  const OutputKind kind = p2l::video::output_kind(o.output);
  if (kind == OutputKind::Unknown) {
    std::cerr << "p2lrt render: -o " << o.output << ": unknown kind of output " << fs::path(o.output).extension()
              << "; expected .png (one pose), .mp4, .webm, .gif or a folder (PNG frames)\n";
    return 2;
  }
  const bool video = p2l::video::is_video(kind);
  if (video && !p2l::video::video_supported()) {
    std::string why;
    p2l::video::VideoWriter::open(o.output, kind, {}, why);
    std::cerr << "p2lrt render: " << why << "\n";
    return 1;
  }
  const bool animate = !o.clip.empty() || !o.expressions.empty() || !o.audio.empty() || kind != OutputKind::Png;
  if (animate && kind == OutputKind::Png) {
    std::cerr << "p2lrt render: -o " << o.output
              << " is one image; an animation (--clip, --expression, --audio) goes into a folder, .mp4, .webm or .gif\n";
    return 2;
  }
  if (!o.audio.empty() && o.seconds != -1.0f) {
    std::cerr << "p2lrt render: --seconds and --audio: the audio sets the length; leave --seconds out\n";
    return 2;
  }
  const float seconds = o.seconds == -1.0f ? 3.0f : o.seconds;
  if (animate && !(seconds > 0.0f && o.fps > 0.0f && seconds * o.fps <= 100000.0f)) {
    std::cerr << "p2lrt render: --seconds and --fps must be positive, at most 100000 frames in all\n";
    return 2;
  }
  if (o.mouth != "rms" && o.mouth != "vowels") {
    std::cerr << "p2lrt render: --mouth " << o.mouth << ": expected rms or vowels\n";
    return 2;
  }
  float gain = 1.0f;
  if (o.gain != "auto" && (!parse_float(o.gain, gain) || gain < 0.0f)) {
    std::cerr << "p2lrt render: --gain " << o.gain << ": expected a number >= 0 or auto\n";
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

  // The voice: decoded whole, before the rig, so that a file that is not audio fails at once.
  p2l::AudioFile audio;
  const bool has_audio = !o.audio.empty();
  if (has_audio) {
    audio = p2l::decode_audio_file(o.audio);
    if (!audio) {
      std::cerr << "p2lrt render: --audio " << o.audio << ": " << audio.error << "\n";
      return 1;
    }
    if (audio.samples.empty()) {
      std::cerr << "p2lrt render: --audio " << o.audio << ": no samples\n";
      return 1;
    }
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
  if (kind == OutputKind::Mp4 || kind == OutputKind::WebM) {
    // 4:2:0 halves the chroma both ways: the picture grows by a pixel (the character framed into
    // it as into any size) rather than being cut or padded.
    const std::uint32_t asked_w = width, asked_h = height;
    round_to_even(width);
    round_to_even(height);
    if ((width != asked_w || height != asked_h) && !o.quiet)
      std::cerr << "p2lrt render: drawn at " << width << "x" << height << " (not " << asked_w << "x" << asked_h
                << "): 4:2:0 video needs even sides\n";
  }
  if (kind == OutputKind::Mp4 && background[3] < 255) {
    // No alpha in H.264 as MP4 carries it: the background made opaque over black, so that the
    // edges blend as they would over black rather than keeping straight colours.
    for (std::size_t c = 0; c < 3; ++c) background[c] = static_cast<std::uint8_t>((background[c] * background[3] + 127) / 255);
    background[3] = 255;
    if (o.background == "transparent" && !o.quiet) std::cerr << "p2lrt render: MP4 has no alpha: drawn on black (--background)\n";
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

  // The host's part of texturing: pages stored as files next to the rig (page_files.hpp), set
  // on every drawing thread's renderer.
  std::vector<PageRef> pages;
  for (const p2l::Texture& t : rig->textures) pages.push_back({t.kind, t.uri});
  std::vector<std::pair<std::uint32_t, p2l::Image>> page_images;
  for (const std::string& problem :
       load_page_files(pages, fs::path(o.input).parent_path(), [&](std::uint32_t page, const p2l::Image& image) {
         // What Renderer::set_texture takes (render.hpp).
         const bool usable = page < rig->textures.size() && image.width > 0 && image.height > 0 &&
                             std::uint64_t{image.width} * image.height <= (std::uint64_t{1} << 28) &&
                             image.rgba.size() >= std::size_t{image.width} * image.height * 4;
         if (usable) page_images.emplace_back(page, image);
         return usable;
       }))
    std::cerr << "p2lrt render: " << problem << "\n";

  for (Lane& lane : lanes) lane.animator.evaluate(lane.instance);
  // Every lane is framed alike, as the first lane's first frame is.
  p2l::Framing how;
  how.drawn = o.fit;
  p2l::video::DrawSetup setup;
  setup.model = model;
  setup.width = width;
  setup.height = height;
  setup.lanes = static_cast<std::uint32_t>(lanes.size());
  setup.transform = region[2] > 0.0f ? region_framing(region, width, height) : p2l::framing(instance, width, height, how);
  setup.background = background;
  for (const auto& [page, image] : page_images) setup.textures.emplace_back(page, &image);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = o.threads == 0 ? cores : std::min(o.threads, 256u);
  // An animation draws whole frames on the threads; a still draws its one frame in bands on them.
  setup.threads = animate ? threads : 1u;
  setup.band_threads = animate ? 1u : threads;
  std::vector<p2l::Instance*> lane_instances;
  for (Lane& lane : lanes) lane_instances.push_back(&lane.instance);

  if (!animate) {
    p2l::video::DrawPool pool(setup);
    const auto start = Clock::now();
    bool written = false;
    const bool ok = pool.run(1, [&](std::size_t) { return std::span<p2l::Instance* const>(lane_instances); },
                             [&](std::size_t, const Frame& frame) { return written = write_png(o.output, frame); });
    if (!ok) {
      if (!written && !pool.error().empty()) std::cerr << "p2lrt render: " << pool.error() << "\n";
      return 1;
    }
    if (!o.quiet)
      std::cerr << "wrote " << o.output << " (" << width * lanes.size() << "x" << height << ", " << std::fixed << std::setprecision(1)
                << seconds_since(start) * 1e3 << " ms to draw and write)\n";
    return 0;
  }

  // An animation: frame k shows the rig after k frames of 1/fps (frame 0: the start), each
  // frame one update (several while a simulation would drop time, below). With audio, the
  // frames cover it: ceil(audio seconds x fps), the last frame showing its end.
  const std::size_t count = has_audio ? static_cast<std::size_t>(std::max(1.0, std::ceil(audio.seconds() * o.fps - 1e-6)))
                                  : static_cast<std::size_t>(std::lround(seconds * o.fps));
  if (has_audio && static_cast<double>(count) > 100000) {
    std::cerr << "p2lrt render: --audio " << o.audio << " at --fps " << o.fps << " makes more than 100000 frames\n";
    return 2;
  }
  std::optional<p2l::Speech> speech;
  if (has_audio) {
    if (o.gain == "auto") gain = auto_gain(audio, o.fps);
    speech.emplace(audio.sample_rate, audio.channels, p2l::SpeechOptions{.vowels = o.mouth == "vowels", .gain = gain});
    if (!speech->ok() || !speech->push(std::span<const float>(audio.samples))) {
      std::cerr << "p2lrt render: --audio " << o.audio << ": " << speech->error() << "\n";
      return 1;
    }
    speech->end();
    behaviors |= p2l::kBehaviorLipSync;
    if (!o.quiet)
      std::cerr << "audio: " << o.audio << " (" << audio.format << ", " << audio.sample_rate << " Hz, " << audio.channels
                << (audio.channels == 1 ? " channel, " : " channels, ") << std::fixed << std::setprecision(3) << audio.seconds()
                << " s): " << count << " frames; lip sync on (mouth: " << o.mouth << ", gain " << std::setprecision(2)
                << speech->options().gain << ")\n";
  }

  // Where frames go: the video writer (opened now, so that a path that cannot be written fails
  // before any drawing), or PNG files in a folder.
  std::unique_ptr<p2l::video::VideoWriter> writer;
  p2l::video::AudioTrack track{audio.sample_rate, audio.channels, audio.samples};
  if (video) {
    p2l::video::VideoSettings settings;
    settings.width = width * static_cast<std::uint32_t>(lanes.size());
    settings.height = height;
    settings.fps = o.fps;
    settings.alpha = background[3] < 255;
    settings.audio = has_audio ? &track : nullptr;
    std::string error;
    writer = p2l::video::VideoWriter::open(o.output, kind, settings, error);
    if (!writer) {
      std::cerr << "p2lrt render: " << error << "\n";
      return 1;
    }
    if (has_audio && kind == OutputKind::Gif && !o.quiet) std::cerr << "p2lrt render: a GIF holds no sound: the audio only moves the mouth\n";
  } else {
    std::error_code ec;
    fs::create_directories(o.output, ec);
    if (ec) {
      std::cerr << "p2lrt render: cannot create the folder " << o.output << ": " << ec.message() << "\n";
      return 1;
    }
  }

  for (Lane& lane : lanes) {
    lane.animator.set_behaviors(behaviors);
    lane.animator.behavior_seed(o.seed);
    if (clip >= 0) lane.animator.play(clip);
  }
  const std::uint32_t stages = p2l::kStageAll & ~(o.no_physics ? p2l::kStagePhysics : 0u);
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
  p2l::video::DrawPool pool(setup);
  Progress progress(count, !o.quiet);
  std::size_t events = 0;
  double update_seconds = 0, write_seconds = 0;
  const auto started = Clock::now();
  auto update = [&](std::size_t k) {
    const auto start = Clock::now();
    const std::uint32_t updates = k == 0 ? 1 : updates_per_frame;
    const float step = k == 0 ? 0.0f : dt / static_cast<float>(updates);
    for (std::uint32_t u = 0; u < updates; ++u) {
      // The voice over the time this update covers, for the lip sync of this update.
      if (speech && k > 0) speech->update(step);
      for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (speech && k > 0) lanes[i].animator.speak(*speech);
        lanes[i].animator.update(lanes[i].instance, step, stages);
        if (i == 0) events += lanes[i].animator.event_count();
      }
    }
    update_seconds += seconds_since(start);
    return std::span<p2l::Instance* const>(lane_instances);
  };
  // Ctrl-C (or a TERM) stops between frames, so that the unfinished video's temporary file is
  // removed rather than left behind.
  g_stop = 0;
  std::signal(SIGINT, stop_on_signal);
  std::signal(SIGTERM, stop_on_signal);
  auto write = [&](std::size_t k, const Frame& frame) {
    if (g_stop) {
      progress.finish();
      std::cerr << "p2lrt render: interrupted at frame " << k << " of " << count << "; nothing written\n";
      return false;
    }
    const auto start = Clock::now();
    bool ok = true;
    if (writer) {
      std::string error;
      ok = writer->write_frame(frame.rgba.data(), error);
      if (!ok) std::cerr << "p2lrt render: " << error << "\n";
    } else {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%05zu.png", k);
      ok = write_png(fs::path(o.output) / name, frame);
    }
    if (ok && o.sheet) kept.push_back(frame);
    write_seconds += seconds_since(start);
    progress.update(k + 1);
    return ok;
  };
  const bool drawn = pool.run(count, update, write);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!drawn) {
    progress.finish();
    if (!pool.error().empty()) std::cerr << "p2lrt render: " << pool.error() << "\n";
    return g_stop ? 130 : 1;  // the writer, unfinished, removes its file
  }
  if (writer) {
    std::string error;
    if (!writer->finish(error)) {
      progress.finish();
      std::cerr << "p2lrt render: " << error << "\n";
      return 1;
    }
  }
  const double wall = seconds_since(started);
  progress.finish();
  // Side-by-side frames are twice as wide: about square takes about half as many columns.
  std::uint32_t columns = o.sheet_columns;
  if (columns == 0 && lanes.size() > 1 && !kept.empty())
    columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(kept.size()) / static_cast<double>(lanes.size()))));
  const fs::path sheet_path = video ? fs::path(o.output).replace_extension(".sheet.png") : fs::path(o.output) / "sheet.png";
  if (o.sheet && !write_png(sheet_path, contact_sheet(kept, columns, background))) return 1;
  if (!o.quiet) {
    const double n = static_cast<double>(std::max<std::size_t>(count, 1));
    std::cerr << "wrote " << count << " frames (" << width * lanes.size() << "x" << height << ") to " << o.output;
    if (writer) std::cerr << " (" << writer->describe() << ")";
    std::cerr << (o.sheet ? " and " + sheet_path.string() : "") << "\n"
              << std::fixed << std::setprecision(1) << "per frame: " << wall / n * 1e3 << " ms in all with " << setup.threads
              << (setup.threads == 1 ? " drawing thread" : " drawing threads") << " (update " << update_seconds / n * 1e6
              << " us, " << (writer ? "encode " : "PNG ") << write_seconds / n * 1e3 << " ms on the main thread); " << events
              << (events == 1 ? " clip event" : " clip events") << "\n";
  }
  return 0;
}

}  // namespace p2lrt
