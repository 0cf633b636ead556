#include "p2lrt/bench_command.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "eval/cubism_evaluate.hpp"
#include "eval/draw_order.hpp"
#include "eval/evaluate.hpp"
#include "eval/state.hpp"
#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"
#include "p2lrt/heap_counter.hpp"

namespace p2lrt {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;
using Bytes = std::vector<std::uint8_t>;

constexpr float kFrame = 1.0f / 60.0f;
const char* const kSections[] = {"load", "eval", "update", "render", "memory", "threads"};

const bool kCountsMemory = heap_counting();

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Keeps results the compiler could otherwise prove unused.
std::atomic<std::uintptr_t> g_sink{0};
void keep(const void* p) { g_sink.fetch_xor(reinterpret_cast<std::uintptr_t>(p), std::memory_order_relaxed); }

// ---------------------------------------------------------------------------------------
// Formatting.

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// Three significant digits without an exponent: 1.23, 12.3, 123.
std::string three_digits(double v) { return format(v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v); }

std::string duration(double seconds) {
  if (!(seconds > 0)) return "0";
  if (seconds < 1e-6) return three_digits(seconds * 1e9) + " ns";
  if (seconds < 1e-3) return three_digits(seconds * 1e6) + " µs";
  if (seconds < 1) return three_digits(seconds * 1e3) + " ms";
  return three_digits(seconds) + " s";
}

std::string byte_size(double bytes) {
  if (bytes < 1e3) return format("%.0f B", bytes);
  if (bytes < 1e6) return three_digits(bytes / 1e3) + " kB";
  if (bytes < 1e9) return three_digits(bytes / 1e6) + " MB";
  return three_digits(bytes / 1e9) + " GB";
}

std::string percent(double fraction) { return format("%.1f%%", fraction * 100); }

std::string rate(double per_second) {
  if (per_second >= 1e6) return three_digits(per_second / 1e6) + " M";
  if (per_second >= 1e3) return three_digits(per_second / 1e3) + " k";
  return three_digits(per_second);
}

// Characters on screen (UTF-8 code points), so "µs" pads as two.
std::size_t screen_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// Rows of cells: the first column left-aligned, the others right-aligned, under a title.
class Table {
 public:
  explicit Table(std::string title, std::vector<std::string> header) : title_(std::move(title)) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void note(std::string text) { notes_.push_back(std::move(text)); }

  void print(std::ostream& out) const {
    std::vector<std::size_t> widths;
    for (const auto& row : rows_)
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (widths.size() <= c) widths.push_back(0);
        widths[c] = std::max(widths[c], screen_width(row[c]));
      }
    out << title_ << "\n";
    for (const auto& row : rows_) {
      out << "  ";
      for (std::size_t c = 0; c < row.size(); ++c) {
        const std::string pad(widths[c] - screen_width(row[c]), ' ');
        out << (c == 0 ? row[c] + pad : "   " + pad + row[c]);
      }
      out << "\n";
    }
    for (const auto& n : notes_) out << "  " << n << "\n";
    out << "\n";
  }

 private:
  std::string title_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::string> notes_;
};

// Which measurement is running, on standard error: one line rewritten on a terminal, a
// line each elsewhere (a log shows where a slow run spent its time).
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled), terminal_(isatty(2) != 0) {}
  void show(const std::string& what) {
    if (!enabled_) return;
    if (terminal_) std::fprintf(stderr, "\r\033[Kp2lrt bench: %s ...", what.c_str());
    else std::fprintf(stderr, "p2lrt bench: %s\n", what.c_str());
    shown_ = true;
  }
  // Before printing on standard output, which may be the same terminal.
  void clear() {
    if (enabled_ && terminal_ && shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool enabled_, terminal_, shown_ = false;
};

// ---------------------------------------------------------------------------------------
// Measuring.

struct Stats {
  double median = 0, min = 0, max = 0;  // seconds per operation
  double spread() const { return median > 0 ? (max - min) / median : 0; }
};

Stats stats_of(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  Stats s;
  const std::size_t n = samples.size();
  s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.min = samples.front();
  s.max = samples.back();
  return s;
}

Json to_json(const Stats& s) { return {{"median_s", s.median}, {"min_s", s.min}, {"spread", s.spread()}}; }

// [fields] followed by the timings.
Json with_stats(Json fields, const Stats& s) {
  const Json timings = to_json(s);
  for (const auto& item : timings.items()) fields[item.key()] = item.value();
  return fields;
}

struct Settings {
  double seconds = 0.2;
  std::uint32_t repetitions = 5;
};

// Runs [run](n, seconds) — n operations, adding the time of each of its quantities to
// seconds[k] — first in growing batches until a batch (not the first, which may pay for
// cold caches or lazy work) lasts settings.seconds, then that batch size once per
// repetition. Returns each quantity's time per operation.
template <class Run>
std::vector<Stats> measure_split(const Settings& settings, std::size_t quantities, Run&& run) {
  std::vector<double> split(quantities);
  auto batch = [&](std::size_t n) {
    std::fill(split.begin(), split.end(), 0.0);
    const auto start = Clock::now();
    run(n, std::span<double>(split));
    return seconds_since(start);
  };
  std::size_t n = 1;
  for (bool warm = false;; warm = true) {
    const double t = batch(n);
    if (warm && t >= settings.seconds) break;
    if (t < settings.seconds) {
      const double wanted = static_cast<double>(n) * settings.seconds * 1.2 / std::max(t, 1e-7);
      n = std::max(n + 1, static_cast<std::size_t>(std::min(wanted, static_cast<double>(n) * 1000.0)));
    }
  }
  std::vector<std::vector<double>> samples(quantities);
  for (std::uint32_t r = 0; r < settings.repetitions; ++r) {
    batch(n);
    for (std::size_t k = 0; k < quantities; ++k) samples[k].push_back(split[k] / static_cast<double>(n));
  }
  std::vector<Stats> out;
  for (auto& s : samples) out.push_back(stats_of(std::move(s)));
  return out;
}

// The time of one call of [op].
template <class Op>
Stats measure(const Settings& settings, Op&& op) {
  return measure_split(settings, 1, [&](std::size_t n, std::span<double> seconds) {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) op();
    seconds[0] = seconds_since(start);
  })[0];
}

std::vector<std::string> timing_cells(const Stats& s) { return {duration(s.median), duration(s.min), percent(s.spread())}; }

// ---------------------------------------------------------------------------------------
// The rig under test.

struct Subject {
  std::string path;
  bool imported = false;  // a Cubism model: the load measurements read its .p2lrt encoding
  Bytes file;             // the bytes the load measurements read
  std::shared_ptr<const p2l::Rig> rig;
  std::shared_ptr<const p2l::Model> model;
};

bool read_bytes(const std::string& path, Bytes& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return static_cast<bool>(in) || in.eof();
}

// The rig as `p2lrt render` gets it: a .p2lrt loaded, or a Cubism model imported.
bool open_subject(const std::string& path, Subject& subject) {
  subject.path = path;
  if (path.ends_with(".model3.json") || path.ends_with(".model.json")) {  // Cubism 3+ or Cubism 2
    p2l::ImportResult imported = p2l::import_cubism(path);
    if (!imported) {
      std::cerr << "p2lrt bench: " << imported.error.to_string() << "\n";
      return false;
    }
    p2l::WriteResult written = p2l::write(imported.rig);
    if (!written) {
      std::cerr << "p2lrt bench: " << path << ": the imported rig does not write: " << written.error.to_string() << "\n";
      return false;
    }
    subject.imported = true;
    subject.file = std::move(written.bytes);
  } else if (!read_bytes(path, subject.file)) {
    std::cerr << "p2lrt bench: cannot open " << path << "\n";
    return false;
  }
  p2l::LoadResult loaded = p2l::load(subject.file);
  if (!loaded) {
    std::cerr << "p2lrt bench: " << path << ": " << loaded.error.to_string() << "\n";
    return false;
  }
  subject.rig = loaded.rig;
  p2l::ModelResult model = p2l::Model::create(subject.rig);
  if (!model) {
    std::cerr << "p2lrt bench: " << path << ": " << model.error.to_string() << "\n";
    return false;
  }
  subject.model = model.model;
  return true;
}

std::size_t vertex_count(const p2l::Rig& rig) {
  std::size_t n = 0;
  for (const auto& m : rig.meshes) n += m.vertex_count();
  return n;
}

Json rig_summary(const Subject& s) {
  const p2l::Rig& rig = *s.rig;
  return {{"meshes", rig.meshes.size()},      {"vertices", vertex_count(rig)},  {"parameters", rig.parameters.size()},
          {"deformers", rig.deformers.size()}, {"parts", rig.parts.size()},      {"glues", rig.glues.size()},
          {"clips", rig.clips.size()},         {"physics_groups", rig.physics.size()}, {"textures", rig.textures.size()},
          {"file_bytes", s.file.size()}};
}

// Seeded random poses: every parameter anywhere in its range in every pose, so no stage
// can coast on an unchanged input (the idea of tests/wasm/make_wasm_cases.cpp).
class Poses {
 public:
  Poses(const p2l::Rig& rig, std::uint32_t count, std::uint64_t seed) : stride_(rig.parameters.size()), count_(count) {
    std::uint64_t state = seed;
    values_.reserve(stride_ * count_);
    for (std::size_t p = 0; p < count_; ++p)
      for (const p2l::Parameter& parameter : rig.parameters) {
        const double unit = static_cast<double>(split_mix64(state) >> 11) * 0x1p-53;
        // In double throughout, as bench/web/haru_bench.mjs makes them: the same seed gives the
        // Core and the WebAssembly module there the same poses as here.
        const double lo = parameter.min, hi = parameter.max;
        values_.push_back(static_cast<float>(lo + (hi - lo) * unit));
      }
  }
  std::span<const float> at(std::size_t i) const { return {values_.data() + (i % count_) * stride_, stride_}; }
  std::size_t count() const { return count_; }

 private:
  // SplitMix64, as tests/random_rig.hpp.
  static std::uint64_t split_mix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t stride_, count_;
  std::vector<float> values_;
};

// What a section hands back: its table and its JSON.
struct Section {
  std::string name;
  Table table;
  Json json;
};

// ---------------------------------------------------------------------------------------
// load: the file's bytes from memory to a Rig, then to a Model.

Bytes encode(const p2l::Rig& rig, p2l::Compression compression) {
  p2l::WriteOptions options;
  options.compression = compression;
  p2l::WriteResult w = p2l::write(rig, options);
  return w ? std::move(w.bytes) : Bytes{};
}

Section bench_load(const Subject& s, const Settings& settings, ProgressLine& progress) {
  // MB/s always count the rig's uncompressed encoding, so the codecs compare as "how much
  // rig per second" (as bench/load_bench.cpp does).
  const double plain_bytes = static_cast<double>(encode(*s.rig, p2l::Compression::None).size());
  struct Case {
    std::string name;
    Bytes bytes;
    bool borrow;
  };
  const std::string as_is = s.imported ? "imported, plain" : "file as is";
  std::vector<Case> cases = {{as_is + ", copied", s.file, false},
                             {as_is + ", borrowed", s.file, true},
                             {"deflate, copied", encode(*s.rig, p2l::Compression::Deflate), false},
                             {"zstd, copied", encode(*s.rig, p2l::Compression::Zstd), false}};
  Section out{"load", Table("load", {"", "bytes", "median", "min", "spread", "MB/s"}), Json::object()};
  out.json["uncompressed_bytes"] = plain_bytes;
  Json rows = Json::array();
  for (const Case& c : cases) {
    if (c.bytes.empty()) continue;  // the codec is not built in
    progress.show("load, " + c.name);
    p2l::LoadOptions options;
    options.borrow = c.borrow;
    bool failed = false;
    const Stats t = measure(settings, [&] {
      p2l::LoadResult r = p2l::load(c.bytes, options);
      failed |= !r;
      keep(r.rig.get());
    });
    if (failed) continue;
    const double mbps = plain_bytes / t.median / 1e6;
    std::vector<std::string> row = {c.name, byte_size(static_cast<double>(c.bytes.size()))};
    for (auto& cell : timing_cells(t)) row.push_back(cell);
    row.push_back(format("%.0f", mbps));
    out.table.add(row);
    Json j = with_stats({{"name", c.name}, {"bytes", c.bytes.size()}, {"borrow", c.borrow}}, t);
    j["mb_per_s"] = mbps;
    rows.push_back(j);
  }
  out.json["loads"] = rows;

  progress.show("Model::create");
  const Stats create = measure(settings, [&] { keep(p2l::Model::create(s.rig).model.get()); });
  std::vector<std::string> row = {"Model::create", ""};
  for (auto& cell : timing_cells(create)) row.push_back(cell);
  out.table.add(row);
  out.json["model_create"] = to_json(create);
  out.table.note("MB/s: the rig's uncompressed encoding (" + byte_size(plain_bytes) + ") per second, whatever the codec");
  return out;
}

// ---------------------------------------------------------------------------------------
// eval: evaluate() whole, and stage by stage.

const char* const kStageNames[] = {"parameters", "deformers", "meshes", "parts", "glue", "draw_order"};
constexpr std::size_t kStages = std::size(kStageNames);
// The stages' figures less the last interval's, the empty one: the clock read each holds.
std::vector<Stats> less_clock_read(std::vector<Stats> stages) {
  const double clock_read = stages.back().median;
  stages.pop_back();
  for (Stats& st : stages) {
    st.median = std::max(st.median - clock_read, 0.0);
    st.min = std::max(st.min - clock_read, 0.0);
    st.max = std::max(st.max - clock_read, 0.0);
  }
  return stages;
}

// Under Cubism's rules evaluation runs its own stages (src/eval/cubism_evaluate.cpp).
const char* const kCubismStageNames[] = {"parameters", "parts", "deformers", "meshes", "glue", "output", "render_order"};
static_assert(std::size(kCubismStageNames) == p2l::eval::kCubismStages);

// The Cubism stages, timed as measure_stages times the others: the clock read after each
// stage, and once more for the empty interval.
std::vector<Stats> measure_cubism_stages(const Subject& s, const Poses& poses, const Settings& settings) {
  constexpr std::size_t kN = p2l::eval::kCubismStages;
  p2l::Instance instance(s.model);
  p2l::InstanceState& state = instance.state();
  std::size_t next = 0;
  struct Marks {
    Clock::time_point t[kN + 2];
  } marks;
  const p2l::eval::StageMark mark{[](void* m, std::size_t stage) { static_cast<Marks*>(m)->t[stage + 1] = Clock::now(); }, &marks};
  std::vector<Stats> stages = measure_split(settings, kN + 1, [&](std::size_t n, std::span<double> seconds) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto pose = poses.at(next++);
      std::copy(pose.begin(), pose.end(), state.current.begin());
      marks.t[0] = Clock::now();
      p2l::eval::evaluate_cubism(*s.model, state, mark);
      marks.t[kN + 1] = Clock::now();  // the empty interval
      for (std::size_t k = 0; k <= kN; ++k) seconds[k] += std::chrono::duration<double>(marks.t[k + 1] - marks.t[k]).count();
    }
  });
  return less_clock_read(std::move(stages));
}

// The stages evaluate_core runs, timed one after the other on the same pose, so each works
// on what the one before it produced as in a real evaluation. Each interval also holds one
// clock read, so an empty interval is timed too and taken off every stage.
std::vector<Stats> measure_stages(const Subject& s, const Poses& poses, const Settings& settings) {
  p2l::Instance instance(s.model);
  p2l::InstanceState& state = instance.state();
  const p2l::Rig& rig = *s.rig;
  const p2l::eval::ModelPlan& plan = s.model->plan();
  std::size_t next = 0;
  std::vector<Stats> stages = measure_split(settings, kStages + 1, [&](std::size_t n, std::span<double> seconds) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto pose = poses.at(next++);
      std::copy(pose.begin(), pose.end(), state.current.begin());
      state.virtual_frames_valid = false;  // as evaluate_core does
      Clock::time_point t[kStages + 2];
      t[0] = Clock::now();
      p2l::eval::normalize_parameters(plan, state);
      t[1] = Clock::now();
      p2l::eval::evaluate_deformers(rig, plan, state);
      t[2] = Clock::now();
      p2l::eval::evaluate_meshes(rig, plan, state);
      t[3] = Clock::now();
      p2l::eval::evaluate_parts(rig, plan, state);
      t[4] = Clock::now();
      p2l::eval::apply_glue(rig, plan, state);
      t[5] = Clock::now();
      p2l::eval::build_render_order(rig, plan, state);
      t[6] = Clock::now();
      t[7] = Clock::now();  // the empty interval
      for (std::size_t k = 0; k <= kStages; ++k) seconds[k] += std::chrono::duration<double>(t[k + 1] - t[k]).count();
    }
  });
  return less_clock_read(std::move(stages));
}

Section bench_eval(const Subject& s, const Poses& poses, const Settings& settings, ProgressLine& progress) {
  progress.show("evaluate()");
  p2l::Instance instance(s.model);
  std::size_t next = 0;
  // evaluate_values(pose) is evaluate() without first copying the pose into parameters().
  const Stats whole = measure(settings, [&] { instance.evaluate_values(poses.at(next++)); });
  const bool cubism = s.model->plan().cubism;
  // Cubism 2's evaluation (one pass per object kind, src/eval/cubism2_evaluate.cpp) has no
  // stage marks: it is timed whole.
  const bool staged = !s.model->plan().cubism2;
  if (staged) progress.show("evaluate() stage by stage");
  const std::vector<Stats> stages =
      !staged ? std::vector<Stats>{} : cubism ? measure_cubism_stages(s, poses, settings) : measure_stages(s, poses, settings);
  const std::span<const char* const> names = !staged ? std::span<const char* const>{}
                                             : cubism ? std::span<const char* const>(kCubismStageNames)
                                                      : std::span<const char* const>(kStageNames);

  double stage_sum = 0;
  for (const Stats& st : stages) stage_sum += st.median;
  Section out{"eval",
              Table("evaluate() over " + std::to_string(poses.count()) + " random poses",
                    {"", "median", "min", "spread", "share"}),
              Json::object()};
  std::vector<std::string> row = {"evaluate()"};
  for (auto& cell : timing_cells(whole)) row.push_back(cell);
  row.push_back("");
  out.table.add(row);
  Json stage_json = Json::object();
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::string label = std::to_string(k + 1) + " " + names[k];
    std::replace(label.begin(), label.end(), '_', ' ');
    row = {"  " + label};
    for (auto& cell : timing_cells(stages[k])) row.push_back(cell);
    row.push_back(percent(stage_sum > 0 ? stages[k].median / stage_sum : 0));
    out.table.add(row);
    stage_json[names[k]] = to_json(stages[k]);
  }
  const double rest = whole.median - stage_sum;
  if (staged) {
    out.table.add({"  rest (host layer, change flags)", "≈ " + (rest > 0 ? duration(rest) : std::string("0")), "", "", ""});
    out.table.note(std::string("stages") + (cubism ? " (Cubism's rules)" : "") + ": timed one after the other on each pose, less a clock read; share: of the stages' sum;");
    out.table.note("rest: the whole's median minus the stages' (a difference of two measurements, so rough)");
  } else {
    out.table.note("Cubism 2's rules: timed whole (no stages)");
  }
  out.json = {{"poses", poses.count()}, {"whole", to_json(whole)}, {"stages", stage_json}, {"rest_s", rest}};
  return out;
}

// ---------------------------------------------------------------------------------------
// update: the animation layer over evaluation, as a host drives it at 60 fps.

// The clip [key] names (id or index), the first clip for an empty key, -1 for none; -2 with
// the choices printed when the key names nothing.
std::int32_t find_clip(const p2l::Rig& rig, const std::string& key) {
  if (key.empty()) return rig.clips.empty() ? -1 : 0;
  for (std::size_t i = 0; i < rig.clips.size(); ++i)
    if (rig.clips[i].id == key) return static_cast<std::int32_t>(i);
  char* end = nullptr;
  const unsigned long index = std::strtoul(key.c_str(), &end, 10);
  if (end != key.c_str() && *end == '\0' && index < rig.clips.size()) return static_cast<std::int32_t>(index);
  std::cerr << "p2lrt bench: no clip \"" << key << "\"";
  if (rig.clips.empty()) std::cerr << " (the rig has none)\n";
  else {
    std::cerr << "; the rig has:";
    for (std::size_t i = 0; i < rig.clips.size(); ++i) std::cerr << (i ? ", " : " ") << i << " " << rig.clips[i].id;
    std::cerr << "\n";
  }
  return -2;
}

// One character playing [clip] with blink and breath, a second in (fades done, physics
// swinging), then update(1/60) per operation.
Stats measure_update(const Subject& s, std::int32_t clip, std::uint32_t stages, const Settings& settings) {
  p2l::Instance instance(s.model);
  p2l::Animator animator(s.model);
  animator.set_behaviors(p2l::kBehaviorBlink | p2l::kBehaviorBreath);
  animator.behavior_seed(1);
  animator.evaluate(instance);
  if (clip >= 0) animator.play(clip);
  for (int i = 0; i < 60; ++i) animator.update(instance, kFrame, stages);
  return measure(settings, [&] { animator.update(instance, kFrame, stages); });
}

Section bench_update(const Subject& s, std::int32_t clip, const Settings& settings, ProgressLine& progress) {
  const std::string playing = clip >= 0 ? "clip " + s.rig->clips[static_cast<std::size_t>(clip)].id : "no clip";
  Section out{"update",
              Table("update(1/60) with " + playing + ", blink, breath (" + std::to_string(s.rig->physics.size()) +
                        " physics groups)",
                    {"", "median", "min", "spread", "frames/s"}),
              Json::object()};
  const std::pair<const char*, std::uint32_t> variants[] = {{"update()", p2l::kStageAll},
                                                            {"update() without physics", p2l::kStageAll & ~p2l::kStagePhysics}};
  out.json["clip"] = clip >= 0 ? Json(s.rig->clips[static_cast<std::size_t>(clip)].id) : Json(nullptr);
  out.json["behaviors"] = Json::array({"blink", "breath"});
  for (const auto& [name, stages] : variants) {
    progress.show(name);
    const Stats t = measure_update(s, clip, stages, settings);
    std::vector<std::string> row = {name};
    for (auto& cell : timing_cells(t)) row.push_back(cell);
    row.push_back(rate(1 / t.median));
    out.table.add(row);
    out.json[stages == p2l::kStageAll ? "update" : "update_without_physics"] = to_json(t);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// render: the software renderer drawing the default pose.

Section bench_render(const Subject& s, const Settings& settings, ProgressLine& progress) {
  Section out{"render", Table("render the default pose (p2l::Renderer)", {"", "median", "min", "spread", "frames/s"}),
              Json::array()};
  p2l::Instance instance(s.model);  // evaluated at the defaults
  // The first frame decodes the embedded pages (once per TexturePages): timed on its own,
  // with pages of its own, so that it is neither in the steady frames below nor hidden there.
  {
    progress.show("render: first frame");
    Bytes pixels(std::size_t{512} * 512 * 4);
    p2l::Renderer first(s.model, std::make_shared<p2l::TexturePages>(s.model));
    const auto start = Clock::now();
    const bool drawn = first.render(instance, pixels.data(), 512, 512);
    const double seconds = seconds_since(start);
    if (drawn) {
      const std::size_t pages = s.rig->textures.size();
      out.table.note("first frame at 512×512, decoding " + std::to_string(pages) + (pages == 1 ? " page: " : " pages: ") +
                     duration(seconds) + " (not in the rows above)");
      out.json.push_back({{"width", 512}, {"height", 512}, {"first_frame", true}, {"seconds", seconds}});
    }
  }
  p2l::Renderer renderer(s.model);
  // One thread, then (where the machine has more) every core drawing bands of each frame:
  // wall time, the frame's latency.
  std::vector<unsigned> thread_counts = {1};
  renderer.set_threads(0);
  if (renderer.threads() > 1) thread_counts.push_back(renderer.threads());
  for (const unsigned threads : thread_counts) {
    renderer.set_threads(threads);
    for (std::uint32_t side : {512u, 1024u}) {
      std::string name = std::to_string(side) + "×" + std::to_string(side);
      if (threads > 1) name += ", " + std::to_string(threads) + " threads";
      progress.show("render " + name);
      Bytes pixels(std::size_t{side} * side * 4);
      bool failed = false;
      // This renderer's first frame decodes its pages again; measure()'s warm-up leaves it out.
      const Stats t = measure(settings, [&] { failed |= !renderer.render(instance, pixels.data(), side, side); });
      if (failed) {
        out.table.note(name + ": the renderer refused the image");
        continue;
      }
      std::vector<std::string> row = {name};
      for (auto& cell : timing_cells(t)) row.push_back(cell);
      row.push_back(rate(1 / t.median));
      out.table.add(row);
      out.json.push_back(with_stats({{"width", side}, {"height", side}, {"threads", threads}}, t));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// memory: heap bytes each object keeps.

// Heap bytes [make]() leaves allocated; what it makes is kept alive in [keep_alive].
template <class Make, class T>
std::int64_t heap_kept(Make&& make, T& keep_alive) {
  const std::int64_t before = live_heap_bytes();
  keep_alive = make();
  return live_heap_bytes() - before;
}

Section bench_memory(const Subject& s, ProgressLine& progress) {
  Section out{"memory", Table("memory (heap bytes kept)", {"", "bytes"}), Json::object()};
  if (!kCountsMemory) {
    out.table.note("not measured: this platform's allocator cannot say a block's size");
    out.json = nullptr;
    return out;
  }
  progress.show("memory");
  p2l::LoadOptions borrow;
  borrow.borrow = true;
  std::shared_ptr<const p2l::Rig> copied, borrowed;
  std::shared_ptr<const p2l::Model> model;
  std::unique_ptr<p2l::Instance> instance;
  std::unique_ptr<p2l::Animator> animator;
  std::unique_ptr<p2l::Renderer> renderer;
  const std::int64_t rig_copied = heap_kept([&] { return p2l::load(s.file).rig; }, copied);
  const std::int64_t rig_borrowed = heap_kept([&] { return p2l::load(s.file, borrow).rig; }, borrowed);
  const std::int64_t plan = heap_kept([&] { return p2l::Model::create(copied).model; }, model);
  const std::int64_t one_instance = heap_kept([&] { return std::make_unique<p2l::Instance>(model); }, instance);
  const std::int64_t one_animator = heap_kept([&] { return std::make_unique<p2l::Animator>(model); }, animator);
  Bytes pixels(std::size_t{512} * 512 * 4);
  const std::int64_t one_renderer = heap_kept(
      [&] {
        auto r = std::make_unique<p2l::Renderer>(model);
        r->render(*instance, pixels.data(), 512, 512);
        return r;
      },
      renderer);

  auto add = [&](const char* key, const std::string& label, std::int64_t bytes) {
    out.table.add({label, byte_size(static_cast<double>(bytes))});
    out.json[key] = bytes;
  };
  add("rig_copied", "Rig, loaded copied", rig_copied);
  add("rig_borrowed", "Rig, loaded borrowed (the caller keeps the file's bytes)", rig_borrowed);
  add("model_plan", "Model plan (Model::create)", plan);
  add("per_model", "per model: Rig (copied) + Model plan", rig_copied + plan);
  add("instance", "Instance", one_instance);
  add("animator", "Animator", one_animator);
  add("per_instance", "per instance: Instance + Animator", one_instance + one_animator);
  add("renderer_512", "Renderer after a 512×512 frame (its decoded textures, scratch)", one_renderer);
  out.table.note("as the C library's allocator sizes the blocks; the file's bytes themselves are not counted");
  return out;
}

// ---------------------------------------------------------------------------------------
// threads: many characters of one model, on one thread and on all of them.

// Evaluations per second of [count] instances sharing the model, split over [threads]
// threads (each evaluates its own), each instance at its own pose every round. One
// operation is a round: every instance evaluated once.
Stats measure_rounds(const Subject& s, const Poses& poses, std::uint32_t count, unsigned threads, const Settings& settings) {
  std::vector<std::vector<p2l::Instance>> owned(threads);
  for (std::uint32_t i = 0; i < count; ++i) owned[i % threads].emplace_back(s.model);
  std::vector<std::size_t> next_round(threads, 0);  // where each thread's pose cycle is
  auto work = [&](unsigned t, std::size_t rounds) {
    auto& mine = owned[t];
    const std::size_t first = next_round[t];
    for (std::size_t r = first; r < first + rounds; ++r)
      for (std::size_t i = 0; i < mine.size(); ++i) mine[i].evaluate_values(poses.at(r + i * 7919));
    next_round[t] = first + rounds;
  };
  return measure_split(settings, 1, [&](std::size_t n, std::span<double> seconds) {
    const auto start = Clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t, n);
    work(0, n);
    for (auto& th : pool) th.join();
    seconds[0] = seconds_since(start);
  })[0];
}

Section bench_threads(const Subject& s, const Poses& poses, std::uint32_t count, const Settings& settings,
                      ProgressLine& progress) {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned many = std::min<unsigned>(hardware, count);
  Section out{"threads",
              Table(std::to_string(count) + " instances of one model evaluating", {"", "median", "best", "spread", "scaling"}),
              Json::object()};
  out.json["instances"] = count;
  out.json["hardware_concurrency"] = hardware;
  Json rows = Json::array();
  double single = 0;
  for (unsigned threads : {1u, many}) {
    if (threads == many && many == 1 && !rows.empty()) break;  // one core: nothing to compare
    const std::string name = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    progress.show(name + ", " + std::to_string(count) + " instances");
    const Stats t = measure_rounds(s, poses, count, threads, settings);
    const double per_second = count / t.median, best = count / t.min;
    if (threads == 1) single = per_second;
    out.table.add({name, rate(per_second) + " eval/s", rate(best) + " eval/s", percent(t.spread()),
                   format("%.2f×", per_second / single)});
    rows.push_back({{"threads", threads},
                    {"evaluations_per_s", per_second},
                    {"best_evaluations_per_s", best},
                    {"spread", t.spread()},
                    {"scaling", per_second / single}});
  }
  out.json["runs"] = rows;
  return out;
}

// ---------------------------------------------------------------------------------------

bool parse_sections(const std::string& only, std::vector<std::string>& sections) {
  if (only.empty() || only == "all") {
    sections.assign(std::begin(kSections), std::end(kSections));
    return true;
  }
  std::stringstream list(only);
  for (std::string name; std::getline(list, name, ',');) {
    if (std::find(std::begin(kSections), std::end(kSections), name) == std::end(kSections)) {
      std::cerr << "p2lrt bench: --only " << only << ": no section \"" << name
                << "\"; expected a comma list of load, eval, update, render, memory, threads\n";
      return false;
    }
    sections.push_back(name);
  }
  return true;
}

bool check_arguments(const BenchOptions& o) {
  if (!(o.seconds > 0 && o.seconds <= 3600)) {
    std::cerr << "p2lrt bench: --seconds must be above 0 and at most 3600\n";
    return false;
  }
  if (o.repetitions < 1 || o.poses < 1 || o.instances < 1) {
    std::cerr << "p2lrt bench: --repetitions, --poses and --instances must be at least 1\n";
    return false;
  }
  return true;
}

void print_heading(const Subject& s, const BenchOptions& o) {
  const p2l::Rig& rig = *s.rig;
  std::cout << "p2lrt bench " << s.path << "\n"
            << "  " << rig.meshes.size() << " meshes, " << vertex_count(rig) << " vertices, " << rig.parameters.size()
            << " parameters, " << rig.deformers.size() << " deformers, " << rig.clips.size() << " clips, "
            << rig.physics.size() << " physics groups; " << (s.imported ? "imported, " : "file ")
            << byte_size(static_cast<double>(s.file.size())) << "\n"
            << "  median and min of " << o.repetitions << " repetitions of at least " << o.seconds
            << " s each after a warm-up; spread: (max - min) / median\n\n";
}

}  // namespace

void BenchOptions::add_to(CLI::App* command) {
  command->add_option("FILE", input, "A .p2lrt file, or a Cubism .model3.json or Cubism 2 .model.json (imported on the fly)")->required();
  command->add_option("--seconds", seconds, "Least time of each repetition of a measurement (default 0.2)");
  command->add_option("--repetitions", repetitions, "Repetitions of each measurement (default 5)");
  command->add_option("--poses", poses, "Random poses evaluate() cycles through (default 1000)");
  command->add_option("--instances", instances, "Instances evaluated together in the thread measurement (default 64)");
  command->add_option("--seed", seed, "Seed of the random poses (default 1)");
  command->add_option("--clip", clip, "The clip update() plays (id or index; default the first)");
  command->add_option("--only", only, "Sections to run, a comma list of load, eval, update, render, memory, threads");
  command->add_flag("--json", json, "Print the results as JSON instead of the table");
  command->add_flag("-q,--quiet", quiet, "No progress on standard error");
}

int bench(const BenchOptions& o) {
  std::vector<std::string> sections;
  if (!check_arguments(o) || !parse_sections(o.only, sections)) return 2;
  Subject subject;
  if (!open_subject(o.input, subject)) return 1;
  const std::int32_t clip = find_clip(*subject.rig, o.clip);
  if (clip == -2) return 2;

  const Settings settings{o.seconds, o.repetitions};
  const Poses poses(*subject.rig, o.poses, o.seed);
  ProgressLine progress(!o.quiet);
  if (!o.json) print_heading(subject, o);
  Json json = {{"file", o.input},
               {"rig", rig_summary(subject)},
               {"method", {{"seconds", o.seconds}, {"repetitions", o.repetitions}, {"seed", o.seed}}}};
  for (const std::string& name : sections) {
    Section section = name == "load"     ? bench_load(subject, settings, progress)
                      : name == "eval"   ? bench_eval(subject, poses, settings, progress)
                      : name == "update" ? bench_update(subject, clip, settings, progress)
                      : name == "render" ? bench_render(subject, settings, progress)
                      : name == "memory" ? bench_memory(subject, progress)
                                         : bench_threads(subject, poses, o.instances, settings, progress);
    progress.clear();
    if (!o.json) {
      section.table.print(std::cout);
      std::cout.flush();
    }
    json[section.name] = std::move(section.json);
  }
  if (o.json) std::cout << json.dump(2) << "\n";
  return std::cout ? 0 : 1;
}

}  // namespace p2lrt
