// Many rigs of one shared model on eight threads, every call a host makes, in random order:
// for ThreadSanitizer (scripts/tsan.sh builds and runs this under -fsanitize=thread), and as a
// quick check in the ordinary AddressSanitizer suite.
//
// What is shared, as the runtime allows it (p2l.h "Threads", docs/RUNTIME.md): one P2lModel
// (examples/character/character.p2lrt) loaded once through the C API, or one p2l::Model (the
// full hand-made rig) with one p2l::TexturePages; the model's decoded texture pages, which
// every rig's renderer reads; the log function. What is not: each P2lRig (p2l::Instance +
// p2l::Animator + p2l::Renderer) is made, used and freed by one thread.
//
// Each test runs kRuns rigs over kThreads threads. A rig runs a script: its calls and their
// arguments come from a std::mt19937 seeded by the script's number, so a script gives the same
// outputs wherever and whenever it runs. Every script runs twice, on two different threads (and
// a few a third time on the main thread before the threads start); the two runs must hash the
// same, bit for bit. Each thread's own std::mt19937 decides how its rigs interleave (up to
// kLive alive at once) and when the next one is made. Every output read (vertices, opacities,
// colours, draw and render order, hit tests, rendered pixels) must be finite.
//
// Once every thread has made its last rig, thread 0 frees the model (p2l_model_free, or the
// last std::shared_ptr the test holds) while the other threads' rigs still run: rigs keep the
// model's data alive (src/capi/handle.hpp), and the last rig freed, on whichever thread,
// destroys it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "capi_counts.hpp"
#include "eval/hit_test.hpp"
#include "full_rig.hpp"
#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/p2l.h"
#include "p2l/render.hpp"

namespace {

constexpr int kThreads = 8;
constexpr int kRuns = 1000;  // rigs made in all: kRuns / 2 scripts, each run on two threads
constexpr int kScripts = kRuns / 2;
constexpr std::size_t kLive = 4;  // rigs alive at once on one thread, at most
constexpr std::uint32_t kImage = 32;  // p2l_render into kImage x kImage pixels

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// FNV-1a over everything a run reads back.
struct Hash {
  std::uint64_t h = 14695981039346656037ull;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof v);
  }
};

// What one thread found wrong (the first thing only; assertions are made on the main
// thread), and how much of each kind of call it made.
struct Problems {
  std::uint64_t count = 0;
  std::string first;
  std::uint64_t updates = 0, evaluations = 0, renders = 0, drawn = 0, advanced = 0;
  void add(std::string what) {
    if (count++ == 0) first = std::move(what);
  }
};

// Whether a rendered image has any pixel that is not transparent black.
bool drawn(const std::vector<std::uint8_t>& image) {
  return std::any_of(image.begin(), image.end(), [](std::uint8_t b) { return b != 0; });
}

// A uniform pick in [0, n); std::mt19937 itself is the same on every standard library. A call
// never takes two draws as arguments (their order is unspecified, and g++ and clang differ), so
// a script is the same calls under every compiler.
std::uint32_t pick(std::mt19937& rng, std::uint32_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(rng() % n); }
float unit(std::mt19937& rng) { return static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f); }
float between(std::mt19937& rng, float lo, float hi) { return lo + (hi - lo) * unit(rng); }

// Any float: mostly near [lo, hi], else a special value or any bit pattern at all (NaNs with
// payloads, infinities, denormals, the largest floats).
float any_float(std::mt19937& rng, float lo, float hi) {
  static constexpr float kSpecial[] = {std::numeric_limits<float>::quiet_NaN(),
                                       -std::numeric_limits<float>::quiet_NaN(),
                                       std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity(),
                                       std::numeric_limits<float>::max(),
                                       -std::numeric_limits<float>::max(),
                                       std::numeric_limits<float>::denorm_min(),
                                       -0.0f,
                                       0.0f,
                                       1e30f,
                                       -1e30f,
                                       1.0f};
  switch (rng() % 10) {
    case 0:
      return kSpecial[pick(rng, std::size(kSpecial))];
    case 1:
      return std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    default: {
      const float span = std::isfinite(hi - lo) ? hi - lo : 2.0f;
      return between(rng, lo - span / 2, hi + span / 2);
    }
  }
}

// A time step: mostly [0, 0.1] s, sometimes 0, negative, NaN, infinite or a long frame.
float any_dt(std::mt19937& rng) {
  switch (rng() % 40) {
    case 0:
      return std::numeric_limits<float>::quiet_NaN();
    case 1:
      return -between(rng, 0.0f, 1.0f);
    case 2:
      return 0.0f;
    case 3:
      return between(rng, 0.1f, 2.0f);
    case 4:
      return std::numeric_limits<float>::infinity();
    default:
      return between(rng, 0.0f, 0.1f);
  }
}

// Counts a render and hashes its image; a failed render is a problem.
void rendered(bool ok, const std::vector<std::uint8_t>& image, Hash& hash, Problems& problems) {
  if (!ok) problems.add("render failed");
  ++problems.renders;
  problems.drawn += drawn(image) ? 1 : 0;
  hash.value(ok);
  hash.bytes(image.data(), image.size());
}

bool finite(std::span<const float> values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

// ---- The C API over the example character -------------------------------------------------

using p2l_test::CapiCounts;

struct CapiSubject {
  using Shared = P2lModel*;
  struct Run {
    P2lRig* rig = nullptr;
    std::mt19937 rng;
    int ops_left = 0;
    Hash hash;
    std::vector<std::uint8_t> image = std::vector<std::uint8_t>(kImage * kImage * 4);
    std::vector<std::uint32_t> order;
  };

  CapiCounts counts;
  P2lModel* model = nullptr;

  // Reads the counts once from a rig of [model] (made and freed here).
  void prepare(P2lModel* shared) {
    model = shared;
    P2lRig* rig = p2l_rig_create(model, nullptr, 0);
    ASSERT_NE(rig, nullptr);
    counts = p2l_test::read_capi_counts(rig);
    p2l_rig_free(rig);
  }

  // Reads every output of the last evaluation into the hash; non-finite ones are problems.
  void observe(Run& run, Problems& problems, const char* after) const {
    P2lRig* rig = run.rig;
    for (std::uint32_t m = 0; m < counts.meshes; ++m) {
      const std::uint32_t n = p2l_mesh_vertex_count(rig, m);
      const float* v = p2l_mesh_vertices(rig, m);
      if (n > 0 && v == nullptr) problems.add(std::string("no vertices after ") + after);
      if (v != nullptr) {
        if (!finite({v, std::size_t{n} * 2})) problems.add(std::string("non-finite vertices after ") + after);
        run.hash.bytes(v, std::size_t{n} * 2 * sizeof(float));
      }
      float rgb[6];
      p2l_mesh_colors(rig, m, rgb, rgb + 3);
      const float o = p2l_mesh_opacity(rig, m), d = p2l_mesh_draw_order(rig, m);
      if (!finite(rgb) || !std::isfinite(o) || !std::isfinite(d) || o < 0.0f || o > 1.0f)
        problems.add(std::string("non-finite or out-of-range opacity, draw order or colours after ") + after);
      run.hash.bytes(rgb, sizeof rgb);
      run.hash.value(o);
      run.hash.value(d);
      run.hash.value(p2l_mesh_changes(rig, m));
    }
    const float opacity = p2l_opacity(rig);
    if (!std::isfinite(opacity)) problems.add(std::string("non-finite rig opacity after ") + after);
    run.hash.value(opacity);
    run.order.resize(counts.meshes);
    const std::uint32_t n = p2l_render_order(rig, run.order.data(), counts.meshes);
    run.hash.value(n);
    run.hash.bytes(run.order.data(), std::min(n, counts.meshes) * sizeof(std::uint32_t));
    const float* current = p2l_parameter_current(rig);
    if (current != nullptr) run.hash.bytes(current, counts.parameters * sizeof(float));
  }

  Run start(std::uint32_t script, Problems& problems) const {
    Run run;
    run.rng.seed(0x5EED0000u + script);
    run.ops_left = 30 + static_cast<int>(run.rng() % 50);
    char error[256] = "";
    run.rig = p2l_rig_create(model, error, sizeof error);
    if (run.rig == nullptr) {
      problems.add(std::string("p2l_rig_create: ") + error);
      return run;
    }
    // Rigs after a process's first blink on a seed of their own (capi_handles.cpp); the same
    // seed makes the two runs of a script blink alike.
    p2l_behavior_seed(run.rig, script);
    observe(run, problems, "p2l_rig_create");
    return run;
  }

  // One random call on [run]'s rig.
  void step(Run& run, Problems& problems) const {
    std::mt19937& rng = run.rng;
    P2lRig* rig = run.rig;
    const CapiCounts& c = counts;
    --run.ops_left;
    const std::uint32_t op = pick(rng, 100);
    if (op < 14) {  // parameter writes, any float, through both entry points
      for (std::uint32_t k = 1 + pick(rng, 4); k > 0; --k) {
        const std::uint32_t i = pick(rng, c.parameters + 1);  // one past the end is ignored
        const auto range = i < c.parameters ? c.ranges[i] : std::array<float, 2>{0, 1};
        const float v = any_float(rng, range[0], range[1]);
        if (rng() % 2 != 0 || i >= c.parameters)
          p2l_set_parameter(rig, i, v);
        else
          p2l_parameter_values(rig)[i] = v;
      }
    } else if (op < 18) {
      p2l_play(rig, static_cast<std::int32_t>(pick(rng, c.clips + 2)) - 1);
    } else if (op < 22) {
      const std::uint32_t layer = pick(rng, 5) == 0 ? pick(rng, P2L_MAX_LAYERS + 2) : pick(rng, 3);
      const std::int32_t clip = static_cast<std::int32_t>(pick(rng, c.clips + 2)) - 1;
      p2l_play_layer(rig, layer, clip, pick(rng, 4));
    } else if (op < 24) {
      p2l_clip_seek(rig, any_float(rng, 0.0f, 3.0f));
    } else if (op < 25) {
      const std::uint32_t layer = pick(rng, 3);
      p2l_layer_seek(rig, layer, any_float(rng, 0.0f, 3.0f));
    } else if (op < 26) {
      const std::uint32_t layer = pick(rng, 3);
      p2l_set_layer_weight(rig, layer, any_float(rng, 0.0f, 1.0f));
    } else if (op < 29) {
      const std::uint32_t kind = pick(rng, 3);
      const std::uint32_t e = pick(rng, c.expressions + 1);
      if (kind == 0) p2l_expression(rig, static_cast<std::int32_t>(e) - 1);
      if (kind == 1) p2l_expression_add(rig, e);
      if (kind == 2) p2l_expression_remove(rig, e);
    } else if (op < 32) {
      const std::uint32_t g = pick(rng, c.pose_groups + 1);
      p2l_pose_show(rig, g, pick(rng, (g < c.pose_groups ? c.pose_sizes[g] : 1) + 1));
    } else if (op < 33) {
      p2l_set_pose_enabled(rig, rng() % 4 != 0);
    } else if (op < 37) {
      const std::uint32_t i = pick(rng, c.parameters + 1);
      const auto range = i < c.parameters ? c.ranges[i] : std::array<float, 2>{0, 1};
      const float value = any_float(rng, range[0], range[1]);
      p2l_set_parameter_override(rig, i, value, any_float(rng, 0.0f, 1.0f));
      if (rng() % 8 == 0) p2l_clear_parameter_overrides(rig);
    } else if (op < 39) {
      p2l_behaviors(rig, pick(rng, 16));
    } else if (op < 41) {
      const float x = any_float(rng, -1.0f, 1.0f);
      p2l_look_at(rig, x, any_float(rng, -1.0f, 1.0f));
    } else if (op < 42) {
      p2l_lip_sync(rig, any_float(rng, 0.0f, 1.0f));
    } else if (op < 43) {
      const float wind[4] = {between(rng, -5.0f, 5.0f), between(rng, -5.0f, 5.0f), between(rng, -500.0f, 500.0f),
                             between(rng, -500.0f, 500.0f)};
      p2l_physics_wind(rig, wind[0], wind[1]);
      p2l_sim_wind(rig, wind[2], wind[3]);
    } else if (op < 44) {
      p2l_set_opacity(rig, any_float(rng, 0.0f, 1.0f));
      const std::uint32_t part = pick(rng, c.parts + 1);
      p2l_set_part_opacity(rig, part, any_float(rng, 0.0f, 1.0f));
    } else if (op < 45) {
      const float mul[3] = {unit(rng), unit(rng), unit(rng)}, scr[3] = {unit(rng), unit(rng), unit(rng)};
      const std::uint32_t mesh = pick(rng, c.meshes + 1);
      const float* multiply = rng() % 3 == 0 ? nullptr : mul;
      p2l_set_mesh_colors(rig, mesh, multiply, rng() % 2 == 0 ? nullptr : scr);
    } else if (op < 47) {  // rare: allocates
      p2l_set_advanced(rig, pick(rng, 16));
      ++problems.advanced;
      if (rng() % 4 == 0) p2l_sim_reset(rig);
    } else if (op < 48) {
      if (rng() % 2 == 0) {
        p2l_physics_stabilize(rig);
        observe(run, problems, "p2l_physics_stabilize");
      } else {
        p2l_physics_reset(rig);
      }
    } else if (op < 75) {
      p2l_update(rig, any_dt(rng));
      ++problems.updates;
      observe(run, problems, "p2l_update");
    } else if (op < 80) {
      p2l_evaluate(rig);
      ++problems.evaluations;
      observe(run, problems, "p2l_evaluate");
    } else if (op < 88) {
      for (int k = 0; k < 4; ++k) {
        const float x = rng() % 16 == 0 ? any_float(rng, 0.0f, c.width) : between(rng, 0.0f, c.width);
        const float y = between(rng, 0.0f, c.height);
        run.hash.value(p2l_hit_test(rig, x, y));
      }
    } else if (op < 92) {
      float frame[6];
      const std::uint32_t b = pick(rng, c.bones + 1);
      const bool ok = p2l_bone_transform(rig, b, frame);
      run.hash.value(ok);
      if (ok) {
        if (!finite(frame)) problems.add("non-finite bone frame");
        run.hash.bytes(frame, sizeof frame);
      }
    } else {
      // Rendering reads the model's shared decoded pages (the first render of the process
      // decodes them, under TexturePages' lock); each rig draws with a renderer of its own.
      const float s = kImage / std::max(c.width, c.height);
      const float fit[6] = {s, 0, 0, s, between(rng, -4.0f, 4.0f), between(rng, -4.0f, 4.0f)};
      const float* transform = rng() % 2 == 0 ? nullptr : fit;
      const bool ok = p2l_render(rig, run.image.data(), kImage, kImage, transform, pick(rng, 4));
      rendered(ok, run.image, run.hash, problems);
    }
  }

  std::uint64_t finish(Run& run, Problems& problems) const {
    if (run.rig == nullptr) return 0;
    observe(run, problems, "the last call");
    // Strings come from the model's data, which the rig keeps alive even after
    // p2l_model_free.
    for (std::uint32_t i = 0; i < c_min(counts.parameters, 3u); ++i) {
      const char* id = p2l_parameter_id(run.rig, i);
      if (id == nullptr)
        problems.add("no parameter id");
      else
        run.hash.bytes(id, std::strlen(id));
    }
    if (const char* failure = p2l_rig_failure(run.rig)) problems.add(std::string("the rig failed: ") + failure);
    p2l_rig_free(run.rig);
    run.rig = nullptr;
    return run.hash.h;
  }

  static std::uint32_t c_min(std::uint32_t a, std::uint32_t b) { return a < b ? a : b; }
};

// ---- The C++ API over the full hand-made rig ------------------------------------------------

struct CppSubject {
  struct Run {
    std::unique_ptr<p2l::Instance> instance;
    std::unique_ptr<p2l::Animator> animator;
    std::unique_ptr<p2l::Renderer> renderer;  // made on first use, as the C API does
    std::mt19937 rng;
    int ops_left = 0;
    Hash hash;
    std::vector<std::uint8_t> image = std::vector<std::uint8_t>(kImage * kImage * 4);
  };

  // Shared between threads: the model, the rig it holds and the decoded pages. Thread 0
  // resets [model] once every rig is made; the runs hold their own references.
  std::shared_ptr<const p2l::Model> model;
  std::shared_ptr<p2l::TexturePages> pages;
  // Read before the threads start (the rig outlives the run: every instance holds it).
  const p2l::Rig* rig = nullptr;
  std::uint32_t bones = 0;

  void observe(Run& run, Problems& problems, const char* after) const {
    const p2l::Instance& in = *run.instance;
    for (std::uint32_t m = 0; m < rig->meshes.size(); ++m) {
      const auto v = in.vertices(m);
      if (!finite(v)) problems.add(std::string("non-finite vertices after ") + after);
      run.hash.bytes(v.data(), v.size_bytes());
      const float o = in.opacity(m), d = in.draw_order(m);
      if (!std::isfinite(o) || !std::isfinite(d) || o < 0.0f || o > 1.0f || !finite(in.multiply(m)) ||
          !finite(in.screen(m)))
        problems.add(std::string("non-finite or out-of-range opacity, draw order or colours after ") + after);
      run.hash.value(o);
      run.hash.value(d);
      run.hash.bytes(in.multiply(m).data(), 12);
      run.hash.bytes(in.screen(m).data(), 12);
    }
    for (std::uint32_t p = 0; p < rig->parts.size(); ++p) {
      const p2l::GroupComposite& g = in.part_composite(p);
      run.hash.value(g.opacity);
      if (!std::isfinite(g.opacity)) problems.add(std::string("non-finite part composite after ") + after);
    }
    run.hash.bytes(in.render_order().data(), in.render_order().size_bytes());
    run.hash.bytes(in.render_commands().data(), in.render_commands().size_bytes());
    run.hash.bytes(in.current().data(), in.current().size_bytes());
    const auto colliders = in.simulation_colliders();
    if (!finite(colliders)) problems.add(std::string("non-finite colliders after ") + after);
    run.hash.bytes(colliders.data(), colliders.size_bytes());
  }

  Run start(std::uint32_t script, Problems& problems) const {
    Run run;
    run.rng.seed(0xC0DE0000u + script);
    run.ops_left = 30 + static_cast<int>(run.rng() % 50);
    run.instance = std::make_unique<p2l::Instance>(model);
    run.animator = std::make_unique<p2l::Animator>(model);
    run.animator->behavior_seed(script);
    run.animator->evaluate(*run.instance);
    observe(run, problems, "creation");
    return run;
  }

  void step(Run& run, Problems& problems) const {
    std::mt19937& rng = run.rng;
    p2l::Instance& in = *run.instance;
    p2l::Animator& an = *run.animator;
    const auto n = [](std::size_t size) { return static_cast<std::uint32_t>(size); };
    const std::uint32_t parameters = n(rig->parameters.size()), clips = n(rig->clips.size()),
                        expressions = n(rig->expressions.size()), parts = n(rig->parts.size()),
                        meshes = n(rig->meshes.size());
    --run.ops_left;
    const std::uint32_t op = pick(rng, 100);
    if (op < 14) {
      for (std::uint32_t k = 1 + pick(rng, 4); k > 0 && parameters > 0; --k) {
        const std::uint32_t i = pick(rng, parameters);
        const p2l::Parameter& p = rig->parameters[i];
        in.parameters()[i] = any_float(rng, p.min, p.max);
      }
    } else if (op < 18) {
      an.play(static_cast<std::int32_t>(pick(rng, clips + 2)) - 1);
    } else if (op < 22) {
      const std::uint32_t layer = pick(rng, 3);
      const std::int32_t clip = static_cast<std::int32_t>(pick(rng, clips + 2)) - 1;
      an.play_layer(layer, clip, pick(rng, 4));
    } else if (op < 25) {
      const std::uint32_t layer = pick(rng, 3);
      an.seek(layer, any_float(rng, 0.0f, 3.0f));
    } else if (op < 28) {
      const std::uint32_t e = pick(rng, expressions + 1);
      switch (pick(rng, 3)) {
        case 0: an.expression(static_cast<std::int32_t>(e) - 1); break;
        case 1: an.expression_add(e); break;
        default: an.expression_remove(e); break;
      }
    } else if (op < 31) {
      const std::uint32_t groups = rig->pose ? n(rig->pose->groups.size()) : 0;
      const std::uint32_t g = pick(rng, groups + 1);
      an.pose_show(g, pick(rng, (g < groups ? n(rig->pose->groups[g].entries.size()) : 1) + 1));
    } else if (op < 35) {
      const std::uint32_t i = pick(rng, parameters + 1);
      const float value = any_float(rng, -10.0f, 10.0f);
      an.set_override(i, value, any_float(rng, 0.0f, 1.0f));
      if (rng() % 8 == 0) an.clear_overrides();
    } else if (op < 37) {
      an.set_behaviors(pick(rng, 16));
    } else if (op < 39) {
      const float x = any_float(rng, -1.0f, 1.0f);
      an.look_at(x, any_float(rng, -1.0f, 1.0f));
    } else if (op < 40) {
      an.lip_sync(any_float(rng, 0.0f, 1.0f));
    } else if (op < 41) {
      const float wind[4] = {between(rng, -5.0f, 5.0f), between(rng, -5.0f, 5.0f), between(rng, -500.0f, 500.0f),
                             between(rng, -500.0f, 500.0f)};
      an.set_physics_wind(wind[0], wind[1]);
      in.set_simulation_wind(wind[2], wind[3]);
    } else if (op < 42) {
      in.set_opacity(any_float(rng, 0.0f, 1.0f));
      const std::uint32_t part = pick(rng, parts + 1);
      in.set_part_opacity(part, any_float(rng, 0.0f, 1.0f));
    } else if (op < 43) {
      p2l::ColorOverride colors;
      colors.multiply = {unit(rng), unit(rng), unit(rng)};
      const std::uint32_t part = pick(rng, parts + 1);
      in.set_part_colors(part, rng() % 3 == 0 ? std::nullopt : std::optional(colors));
    } else if (op < 46) {  // rare: allocates
      in.set_advanced(pick(rng, 16));
      ++problems.advanced;
      if (rng() % 4 == 0) in.reset_simulations();
    } else if (op < 47) {
      an.stabilize_physics(in);
      observe(run, problems, "stabilize_physics");
    } else if (op < 74) {
      const float dt = any_dt(rng);
      an.update(in, dt, rng() % 8 == 0 ? pick(rng, 64) : p2l::kStageAll);
      ++problems.updates;
      observe(run, problems, "update");
    } else if (op < 78) {
      if (rng() % 2 == 0)
        an.evaluate(in);
      else
        in.evaluate();
      ++problems.evaluations;
      observe(run, problems, "evaluate");
    } else if (op < 84) {
      // p2l_hit_test's rule, on the instance's vertices and the model's shared indices.
      for (int k = 0; k < 4; ++k) {
        const float x = between(rng, 0.0f, rig->canvas.width), y = between(rng, 0.0f, rig->canvas.height);
        std::int32_t hit = -1;
        for (std::size_t a = 0; a < rig->hit_areas.size() && hit < 0; ++a)
          for (std::uint32_t m : rig->hit_areas[a].meshes)
            if (m < meshes && (in.changes(m) & p2l::kMeshVisible) != 0 &&
                p2l::mesh_contains(in.vertices(m), in.model().mesh_indices(m), x, y)) {
              hit = static_cast<std::int32_t>(a);
              break;
            }
        run.hash.value(hit);
      }
    } else if (op < 90) {
      const auto frame = in.bone_transform(pick(rng, bones + 1));
      run.hash.value(frame.has_value());
      if (frame) {
        const float f[6] = {frame->a, frame->b, frame->c, frame->d, frame->tx, frame->ty};
        if (!finite(f)) problems.add("non-finite bone frame");
        run.hash.bytes(f, sizeof f);
      }
    } else {
      if (!run.renderer) run.renderer = std::make_unique<p2l::Renderer>(in.model_ptr(), pages);
      const bool ok = run.renderer->render(in, run.image.data(), kImage, kImage, nullptr, pick(rng, 4));
      rendered(ok, run.image, run.hash, problems);
    }
  }

  std::uint64_t finish(Run& run, Problems& problems) const {
    observe(run, problems, "the last call");
    run.renderer.reset();
    run.animator.reset();
    run.instance.reset();
    return run.hash.h;
  }
};

// ---- The harness -----------------------------------------------------------------------------

struct Outcome {
  std::vector<std::array<std::uint64_t, 2>> hashes = std::vector<std::array<std::uint64_t, 2>>(kScripts);
  std::vector<Problems> problems = std::vector<Problems>(kThreads);
  std::vector<int> runs = std::vector<int>(kThreads);
  int live_at_free = -1;  // rigs alive on the other threads when the model was freed
};

// Runs [script] alone, to the end, on the calling thread.
template <class Subject>
std::uint64_t run_alone(const Subject& subject, std::uint32_t script, Problems& problems) {
  auto run = subject.start(script, problems);
  while (run.ops_left > 0) subject.step(run, problems);
  return subject.finish(run, problems);
}

// The threads. [release] frees the test's own reference to the model (on thread 0, once
// every thread has made its last rig).
template <class Subject, class Release>
Outcome run_threads(const Subject& subject, Release release) {
  Outcome out;
  std::atomic<int> made_all{0};      // threads that have made every rig of theirs
  std::atomic<bool> freed{false};    // thread 0 has released the model
  std::atomic<int> live{0};          // rigs alive, all threads
  auto body = [&](int t) {
    Problems& problems = out.problems[static_cast<std::size_t>(t)];
    std::mt19937 rng(0x7EAD0000u + static_cast<std::uint32_t>(t));
    // This thread's runs: copy 0 of script s runs on thread s % 8, copy 1 on (s + 3) % 8.
    std::vector<std::pair<std::uint32_t, int>> queue;
    for (std::uint32_t s = 0; s < kScripts; ++s)
      for (int copy = 0; copy < 2; ++copy)
        if (static_cast<int>((s + (copy == 0 ? 0u : 3u)) % kThreads) == t) queue.emplace_back(s, copy);
    std::shuffle(queue.begin(), queue.end(), rng);
    struct Live {
      typename Subject::Run run;
      std::uint32_t script;
      int copy;
    };
    std::vector<Live> alive;
    std::size_t next = 0;
    bool said_made = false;
    auto maybe_release = [&] {
      if (t == 0 && !freed.load() && made_all.load() == kThreads) {
        out.live_at_free = live.load() - static_cast<int>(alive.size());
        release();
        freed.store(true);
      }
    };
    while (next < queue.size() || !alive.empty()) {
      maybe_release();
      if (next < queue.size() && (alive.empty() || (alive.size() < kLive && rng() % 4 == 0))) {
        const auto [script, copy] = queue[next++];
        alive.push_back({subject.start(script, problems), script, copy});
        live.fetch_add(1);
        ++out.runs[static_cast<std::size_t>(t)];
        continue;
      }
      if (next == queue.size() && !said_made) {
        said_made = true;
        made_all.fetch_add(1);
      }
      const std::size_t i = rng() % alive.size();
      Live& l = alive[i];
      if (l.run.ops_left > 0) {
        subject.step(l.run, problems);
        continue;
      }
      // The thread's last rig stays alive until the model is released, so that rigs outlive
      // the model's handle on every thread.
      if (alive.size() == 1 && next == queue.size())
        while (!freed.load()) {
          maybe_release();
          std::this_thread::yield();
        }
      out.hashes[l.script][static_cast<std::size_t>(l.copy)] = subject.finish(l.run, problems);
      live.fetch_sub(1);
      alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (!said_made) made_all.fetch_add(1);
    while (!freed.load()) {  // only for a thread without runs
      maybe_release();
      std::this_thread::yield();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(body, t);
  for (auto& th : threads) th.join();
  return out;
}

// [expect_drawn]: whether some renders must draw pixels (the model's pages decode).
template <class Subject, class Release>
void check(const Subject& subject, Release release, bool expect_drawn) {
  // A few scripts alone on this thread first: what the threads must give for them.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> reference;
  Problems alone;
  for (std::uint32_t s = 0; s < kScripts; s += 50) reference.emplace_back(s, run_alone(subject, s, alone));
  EXPECT_EQ(alone.count, 0u) << alone.first;

  const Outcome out = run_threads(subject, release);
  int runs = 0;
  Problems all;
  for (const Problems& p : out.problems) {
    all.updates += p.updates;
    all.evaluations += p.evaluations;
    all.renders += p.renders;
    all.drawn += p.drawn;
    all.advanced += p.advanced;
  }
  std::printf("%d rigs on %d threads: %llu updates, %llu evaluations, %llu renders (%llu drew pixels), %llu "
              "advanced-mode switches; model released with %d rigs of other threads alive\n",
              kRuns, kThreads, static_cast<unsigned long long>(all.updates),
              static_cast<unsigned long long>(all.evaluations), static_cast<unsigned long long>(all.renders),
              static_cast<unsigned long long>(all.drawn), static_cast<unsigned long long>(all.advanced),
              out.live_at_free);
  EXPECT_GT(all.renders, 0u);
  if (expect_drawn) {
    EXPECT_GT(all.drawn, 0u) << "no render drew anything: the shared pages are not exercised";
  }
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(out.problems[static_cast<std::size_t>(t)].count, 0u)
        << "thread " << t << ": " << out.problems[static_cast<std::size_t>(t)].first;
    EXPECT_GT(out.runs[static_cast<std::size_t>(t)], 0) << "thread " << t;
    runs += out.runs[static_cast<std::size_t>(t)];
  }
  EXPECT_EQ(runs, kRuns);
  EXPECT_GT(out.live_at_free, 0) << "the model was released with no rig of another thread alive";
  int mismatches = 0;
  for (std::uint32_t s = 0; s < kScripts; ++s)
    if (out.hashes[s][0] != out.hashes[s][1] && ++mismatches <= 5)
      ADD_FAILURE() << "script " << s << ": its runs on threads " << s % kThreads << " and " << (s + 3) % kThreads
                    << " differ";
  EXPECT_EQ(mismatches, 0);
  for (const auto& [s, h] : reference) EXPECT_EQ(out.hashes[s][0], h) << "script " << s << " alone and on a thread";
}

// The log: reported to concurrently from any thread (p2l.h), counted here.
void count_log(std::int32_t, const char*, void* user) { static_cast<std::atomic<int>*>(user)->fetch_add(1); }

TEST(ThreadStress, CapiRigsOnOneModel) {
  const auto bytes = read_file(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt");
  ASSERT_FALSE(bytes.empty());
  // Static: the runtime copies the log target under its lock and calls it outside, so a call
  // may still arrive with a user pointer just replaced; what it points to must outlive the rigs.
  static std::atomic<int> logged{0}, other{0};
  p2l_set_log(&count_log, &logged);
  char error[256] = "";
  P2lModel* model = p2l_model_load(bytes.data(), bytes.size(), 0, error, sizeof error);
  ASSERT_NE(model, nullptr) << error;
  CapiSubject subject;
  subject.prepare(model);
  ASSERT_FALSE(testing::Test::HasFatalFailure());
  ASSERT_GT(subject.counts.clips, 0u);
  ASSERT_GT(subject.counts.expressions, 0u);
  ASSERT_GT(subject.counts.pose_groups, 0u);
  ASSERT_GT(subject.counts.meshes, 0u);
  // The log switches while the threads run: p2l_set_log may be called from any thread at
  // any time.
  std::atomic<bool> done{false};
  std::thread switcher([&] {
    for (int i = 0; !done.load(); ++i) {
      p2l_set_log(i % 2 == 0 ? &count_log : nullptr, i % 2 == 0 ? &other : nullptr);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    p2l_set_log(nullptr, nullptr);
  });
  check(subject, [&] { p2l_model_free(subject.model); }, true);
  std::printf("log messages: %d\n", logged.load() + other.load());
  done.store(true);
  switcher.join();
}

TEST(ThreadStress, CppInstancesOnOneModel) {
  auto written = p2l::write(p2l_test::make_full_rig());
  ASSERT_TRUE(written) << written.error.to_string();
  auto loaded = p2l::load(written.bytes);
  ASSERT_TRUE(loaded) << loaded.error.to_string();
  auto compiled = p2l::Model::create(loaded.rig);
  ASSERT_TRUE(compiled) << compiled.error.to_string();
  loaded.rig.reset();  // the model holds the rig from here on
  CppSubject subject;
  subject.model = compiled.model;
  compiled.model.reset();
  subject.pages = std::make_shared<p2l::TexturePages>(subject.model);
  subject.rig = &subject.model->rig();
  subject.bones = subject.rig->bones ? static_cast<std::uint32_t>(subject.rig->bones->bones.size()) : 0;
  ASSERT_GT(subject.rig->clips.size(), 0u);
  ASSERT_TRUE(subject.model->rig().simulations);
  // Its one PNG page is not a PNG: every render draws without it (a failed decode, once).
  check(subject, [&] { subject.model.reset(); }, false);
}

}  // namespace
