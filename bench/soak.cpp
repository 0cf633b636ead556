// p2l_soak: a long run of the C API, for leaks, slow growth and non-finite outputs that only a
// long run shows (not a test, not in CI; ./bench.sh --soak builds it in Release and runs it).
//
//   p2l_soak [--updates N] [--instances N] [--seed S] [--model PATH]
//
// Defaults: 10,000,000 p2l_update calls in all, over 50 rigs of one model (the example
// character), seed 1. The rigs are updated in turn with dt drawn from [0, 0.1] s; before an
// update a rig may get clips, layers, seeks, expressions, part poses, parameter writes (some of
// them NaN or infinite), host overrides, behaviours and gaze; advanced mode (which allocates)
// switches rarely; every ~200,000 updates one rig is freed and a new one made in its place.
// Everything comes from one std::mt19937 seeded with --seed (never two draws as arguments of
// one call, whose order compilers choose), so a run repeats exactly.
//
// Every rig's outputs (every mesh's vertices, every mesh's opacity, the rig's opacity) are
// checked to be finite after every 1000th update of that rig and at the end. Progress goes
// out on one line at every 5%. Exit status 1 when an output was not finite, a rig failed, or
// the resident memory at the end exceeds the resident memory after the first round by more
// than 10% + 8 MiB; 2 for bad arguments or a model that does not load.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "capi_counts.hpp"
#include "p2l/p2l.h"

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Resident set size now, from /proc/self/statm (its second field, in pages).
std::uint64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// The peak resident set size, VmHWM in /proc/self/status (kB).
std::uint64_t peak_resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  std::uint64_t kb = 0;
  while (std::fgets(line, sizeof line, f) != nullptr)
    if (std::strncmp(line, "VmHWM:", 6) == 0) kb = std::strtoull(line + 6, nullptr, 10);
  std::fclose(f);
  return kb * 1024;
}

struct Options {
  std::uint64_t updates = 10'000'000;
  std::uint32_t instances = 50;
  std::uint32_t seed = 1;
  std::string model = P2L_SOURCE_DIR "/examples/character/character.p2lrt";
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") return false;
    if (i + 1 >= argc) {
      std::fprintf(stderr, "p2l_soak: %s needs a value\n", arg.c_str());
      return false;
    }
    const char* value = argv[++i];
    char* end = nullptr;
    if (arg == "--model") {
      o.model = value;
      continue;
    }
    const unsigned long long n = std::strtoull(value, &end, 10);
    if (end == value || *end != '\0') {
      std::fprintf(stderr, "p2l_soak: %s: not a number: %s\n", arg.c_str(), value);
      return false;
    }
    if (arg == "--updates") {
      o.updates = n;
    } else if (arg == "--instances" && n > 0 && n <= 100000) {
      o.instances = static_cast<std::uint32_t>(n);
    } else if (arg == "--seed" && n <= 0xFFFFFFFFull) {
      o.seed = static_cast<std::uint32_t>(n);
    } else {
      std::fprintf(stderr, "p2l_soak: bad option or value: %s %s\n", arg.c_str(), value);
      return false;
    }
  }
  return true;
}

using Counts = p2l_test::CapiCounts;

class Soak {
 public:
  Soak(const Options& o, P2lModel* model, const Counts& counts) : o_(o), model_(model), c_(counts), rng_(o.seed) {}

  std::mt19937& rng() { return rng_; }

  P2lRig* make(std::uint32_t index) {
    char error[256] = "";
    P2lRig* rig = p2l_rig_create(model_, error, sizeof error);
    if (rig == nullptr) {
      std::fprintf(stderr, "p2l_soak: p2l_rig_create: %s\n", error);
      return nullptr;
    }
    p2l_behavior_seed(rig, o_.seed * 7919u + index);
    return rig;
  }

  // The random calls a host makes between two updates of one rig.
  void poke(P2lRig* rig) {
    const std::uint32_t r = static_cast<std::uint32_t>(rng_() % 100000);
    if (r < 30000) {  // parameter writes: ~5% of them NaN or infinite
      for (std::uint32_t k = 1 + pick(3); k > 0; --k) {
        const std::uint32_t i = pick(c_.parameters);
        p2l_set_parameter(rig, i, value(c_.ranges[i][0], c_.ranges[i][1]));
      }
    }
    if (r < 200) {
      p2l_play(rig, static_cast<std::int32_t>(pick(c_.clips + 1)) - 1);
    } else if (r < 400) {
      const std::uint32_t layer = 1 + pick(2);
      const std::int32_t clip = static_cast<std::int32_t>(pick(c_.clips + 1)) - 1;
      p2l_play_layer(rig, layer, clip, pick(3));
    } else if (r < 450) {
      p2l_clip_seek(rig, unit() * 4.0f);
    } else if (r < 550) {
      p2l_expression(rig, static_cast<std::int32_t>(pick(c_.expressions + 1)) - 1);
    } else if (r < 650 && c_.pose_groups > 0) {
      const std::uint32_t g = pick(c_.pose_groups);
      p2l_pose_show(rig, g, pick(c_.pose_sizes[g]));
    } else if (r < 1150) {
      const std::uint32_t i = pick(c_.parameters);
      const float v = value(c_.ranges[i][0], c_.ranges[i][1]);
      p2l_set_parameter_override(rig, i, v, unit());
    } else if (r < 1200) {
      p2l_clear_parameter_overrides(rig);
    } else if (r < 1250) {
      p2l_behaviors(rig, pick(16));
    } else if (r < 2250) {
      const float x = unit() * 2.0f - 1.0f;
      p2l_look_at(rig, x, unit() * 2.0f - 1.0f);
    } else if (r < 3250) {
      p2l_lip_sync(rig, unit());
    } else if (r < 3252) {  // 1 in 50,000: advanced mode switches (it allocates)
      p2l_set_advanced(rig, pick(16) & c_.advanced);
      ++advanced_switches_;
    }
  }

  // Every output of [rig]'s last evaluation is finite; counts what it read.
  bool finite(const P2lRig* rig) {
    bool ok = std::isfinite(p2l_opacity(rig));
    for (std::uint32_t m = 0; m < c_.meshes; ++m) {
      const float o = p2l_mesh_opacity(rig, m);
      ok = ok && std::isfinite(o);
      const std::uint32_t n = p2l_mesh_vertex_count(rig, m) * 2;
      const float* v = p2l_mesh_vertices(rig, m);
      if (n > 0 && v == nullptr) ok = false;
      for (std::uint32_t k = 0; k < n && v != nullptr; ++k) ok = ok && std::isfinite(v[k]);
      values_checked_ += n + 1;
    }
    ++checks_;
    if (p2l_rig_failure(rig) != nullptr) {
      std::fprintf(stderr, "\np2l_soak: a rig failed: %s\n", p2l_rig_failure(rig));
      ok = false;
    }
    return ok;
  }

  std::uint64_t checks() const { return checks_; }
  std::uint64_t values_checked() const { return values_checked_; }
  std::uint64_t advanced_switches() const { return advanced_switches_; }

  float dt() { return unit() * 0.1f; }

  std::uint32_t pick(std::uint32_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(rng_() % n); }

 private:
  float unit() { return static_cast<float>(rng_() >> 8) * (1.0f / 16777216.0f); }
  // A value for a parameter with range [lo, hi]: mostly a little beyond the range either way,
  // 5% NaN, ±infinity, the largest floats or any bit pattern.
  float value(float lo, float hi) {
    const std::uint32_t r = pick(100);
    if (r == 0) return std::numeric_limits<float>::quiet_NaN();
    if (r == 1) return (rng_() & 1) ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    if (r == 2) return (rng_() & 1) ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();
    if (r <= 4) return std::bit_cast<float>(static_cast<std::uint32_t>(rng_()));
    const float span = hi - lo;
    return lo - span * 0.25f + unit() * span * 1.5f;
  }

  const Options& o_;
  P2lModel* model_;
  const Counts& c_;
  std::mt19937 rng_;
  std::uint64_t checks_ = 0, values_checked_ = 0, advanced_switches_ = 0;
};

void count_log(std::int32_t, const char*, void* user) { ++*static_cast<std::uint64_t*>(user); }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: p2l_soak [--updates N] [--instances N] [--seed S] [--model PATH]\n");
    return 2;
  }
  std::ifstream in(o.model, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  char error[512] = "";
  P2lModel* model = bytes.empty() ? nullptr : p2l_model_load(bytes.data(), bytes.size(), 0, error, sizeof error);
  if (model == nullptr) {
    std::fprintf(stderr, "p2l_soak: %s: %s\n", o.model.c_str(), bytes.empty() ? "cannot read" : error);
    return 2;
  }
  // Advanced mode's notes (a feature left off and why) would flood the terminal: counted.
  std::uint64_t logged = 0;
  p2l_set_log(&count_log, &logged);

  Counts c;
  {
    P2lRig* probe = p2l_rig_create(model, error, sizeof error);
    if (probe == nullptr) {
      std::fprintf(stderr, "p2l_soak: p2l_rig_create: %s\n", error);
      return 2;
    }
    c = p2l_test::read_capi_counts(probe);
    p2l_rig_free(probe);
  }
  std::printf("p2l_soak: %s: %u parameters, %u meshes, %u clips, %u expressions, %u pose groups, advanced 0x%x\n",
              o.model.c_str(), c.parameters, c.meshes, c.clips, c.expressions, c.pose_groups, c.advanced);
  std::printf("p2l_soak: %" PRIu64 " updates over %u instances, seed %u\n", o.updates, o.instances, o.seed);
  std::fflush(stdout);

  Soak soak(o, model, c);
  std::vector<P2lRig*> rigs(o.instances, nullptr);
  std::vector<std::uint64_t> rig_updates(o.instances, 0);
  for (std::uint32_t i = 0; i < o.instances; ++i) {
    rigs[i] = soak.make(i);
    if (rigs[i] == nullptr) return 2;
  }

  bool all_finite = true;
  std::uint64_t first_bad = 0;
  std::uint64_t recreated = 0, start_rss = 0, made = o.instances;
  const std::uint64_t recreate_every = 200'000, report_every = std::max<std::uint64_t>(o.updates / 20, 1);
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  std::uint64_t last_done = 0, next_report = report_every;
  std::uint32_t turn = 0;
  for (std::uint64_t done = 0; done < o.updates;) {
    P2lRig* rig = rigs[turn];
    soak.poke(rig);
    p2l_update(rig, soak.dt());
    ++done;
    if (++rig_updates[turn] % 1000 == 0 && !soak.finite(rig)) {
      if (all_finite) first_bad = done;
      all_finite = false;
    }
    if (++turn == o.instances) turn = 0;
    // The first round: every rig made and updated once.
    if (done == o.instances || (start_rss == 0 && done == o.updates)) start_rss = resident_bytes();
    if (done % recreate_every == 0) {
      const std::uint32_t k = soak.pick(o.instances);
      p2l_rig_free(rigs[k]);
      rigs[k] = soak.make(static_cast<std::uint32_t>(made++));
      if (rigs[k] == nullptr) return 1;
      rig_updates[k] = 0;
      ++recreated;
    }
    if (done >= next_report || done == o.updates) {
      next_report += report_every;
      const auto now = std::chrono::steady_clock::now();
      const double span = std::chrono::duration<double>(now - last).count();
      const double rate = span > 0 ? static_cast<double>(done - last_done) / span : 0.0;
      std::printf("p2l_soak: %3.0f%%  %10" PRIu64 " updates  %9.0f updates/s  RSS %7.1f MiB  outputs %s\n",
                  100.0 * static_cast<double>(done) / static_cast<double>(o.updates), done, rate,
                  static_cast<double>(resident_bytes()) / kMiB, all_finite ? "finite" : "NOT FINITE");
      std::fflush(stdout);
      last = now;
      last_done = done;
    }
  }
  for (P2lRig* rig : rigs)
    if (!soak.finite(rig)) {
      if (all_finite) first_bad = o.updates;
      all_finite = false;
    }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::uint64_t end_rss = resident_bytes(), peak_rss = peak_resident_bytes();
  const double limit = static_cast<double>(start_rss) * 1.10 + 8.0 * kMiB;
  const bool memory_ok = static_cast<double>(end_rss) <= limit;

  for (P2lRig* rig : rigs) p2l_rig_free(rig);
  p2l_model_free(model);
  p2l_set_log(nullptr, nullptr);

  std::printf("p2l_soak: done: %" PRIu64 " updates over %u instances in %.1f s: %.0f updates/s\n", o.updates,
              o.instances, seconds, seconds > 0 ? static_cast<double>(o.updates) / seconds : 0.0);
  std::printf("p2l_soak: rigs recreated %" PRIu64 ", advanced-mode switches %" PRIu64 ", log messages %" PRIu64 "\n",
              recreated, soak.advanced_switches(), logged);
  std::printf("p2l_soak: start RSS (after the first round) %.1f MiB, peak RSS (VmHWM) %.1f MiB, end RSS %.1f MiB\n",
              static_cast<double>(start_rss) / kMiB, static_cast<double>(peak_rss) / kMiB,
              static_cast<double>(end_rss) / kMiB);
  std::printf("p2l_soak: memory rule: end RSS must not exceed start RSS + 10%% + 8 MiB = %.1f MiB (grew %+.0f KiB): %s\n",
              limit / kMiB, (static_cast<double>(end_rss) - static_cast<double>(start_rss)) / 1024.0,
              memory_ok ? "kept" : "EXCEEDED");
  if (all_finite)
    std::printf("p2l_soak: outputs: all finite (%" PRIu64 " checks, %" PRIu64 " values: every vertex and opacity)\n",
                soak.checks(), soak.values_checked());
  else
    std::printf("p2l_soak: outputs: NOT FINITE (first seen by update %" PRIu64 ")\n", first_bad);
  const bool ok = all_finite && memory_ok;
  std::printf("p2l_soak: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
