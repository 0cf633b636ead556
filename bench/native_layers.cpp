// What p2lrt's API layers cost over the same work bench/native_core.c gives a Cubism Core: the
// same sweep (or track) through Instance::evaluate (C++) and p2l_evaluate (the C API), and the
// tracks of real playback native_core.c replays.
//
//   p2l_native_layers MODEL.moc3|MODEL.model3.json [--sweep FRAMES | --track FILE] [--reps N]
//     one JSON line: thread CPU and wall microseconds per evaluation of each repetition, for
//     "cpp" (Instance::evaluate) and "capi" (p2l_evaluate)
//   p2l_native_layers MODEL.model3.json --write-track FILE [--seconds S]
//     plays the model's idle motion (the group "Idle", else the first clip, looping) with its
//     physics, breath and blink at 60 Hz for S seconds (default 20), as `p2lrt render` would, and
//     writes the parameter values each evaluation started from (Instance::current()):
//     "P2LTRACK", u32 parameters, u32 frames, the ids NUL-terminated, frames x parameters floats
//     (all little-endian)
#include <time.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "p2l/p2l.h"
#include "eval/state.hpp"

namespace {

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "p2l_native_layers: %s\n", message.c_str());
  std::exit(2);
}

double seconds(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::shared_ptr<p2l::Rig> import(const std::string& path) {
  p2l::ImportResult imported = path.ends_with(".model3.json") ? p2l::import_cubism(path) : p2l::import_moc3(read_file(path));
  if (!imported) die(path + ": " + imported.error.to_string());
  return std::make_shared<p2l::Rig>(std::move(imported.rig));
}

// frames x parameters, in the rig's parameter order.
struct Frames {
  std::size_t count = 0;
  std::vector<float> values;
};

// bench/native_core.c's sweep, the same formula in the same precision.
Frames sweep(const p2l::Rig& rig, int frames) {
  Frames out;
  out.count = static_cast<std::size_t>(frames);
  const std::size_t np = rig.parameters.size();
  out.values.resize(out.count * np);
  for (std::size_t f = 0; f < out.count; ++f)
    for (std::size_t i = 0; i < np; ++i) {
      const double phase = 2.0 * 3.14159265358979323846 * (static_cast<double>(f) / 120.0 + 0.618034 * static_cast<double>(i));
      const double lo = rig.parameters[i].min, hi = rig.parameters[i].max;
      out.values[f * np + i] = static_cast<float>(lo + (hi - lo) * (0.5 + 0.5 * std::sin(phase)));
    }
  return out;
}

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  if (at + 4 > b.size()) die("the track ends early");
  return static_cast<std::uint32_t>(b[at]) | static_cast<std::uint32_t>(b[at + 1]) << 8 |
         static_cast<std::uint32_t>(b[at + 2]) << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24;
}

// A track file mapped onto the rig's parameters by id (one the track lacks keeps its default).
Frames read_track(const p2l::Rig& rig, const std::string& path) {
  const std::vector<std::uint8_t> b = read_file(path);
  if (b.size() < 16 || std::memcmp(b.data(), "P2LTRACK", 8) != 0) die(path + " is not a track file");
  const std::uint32_t tn = u32_at(b, 8), frames = u32_at(b, 12);
  if (tn == 0 || tn > 65536 || frames == 0 || frames > 1000000) die(path + ": not a track");
  std::size_t at = 16;
  std::vector<std::string> ids;
  for (std::uint32_t t = 0; t < tn; ++t) {
    const auto end = std::find(b.begin() + static_cast<std::ptrdiff_t>(at), b.end(), 0);
    if (end == b.end()) die(path + ": the ids end early");
    ids.emplace_back(b.begin() + static_cast<std::ptrdiff_t>(at), end);
    at = static_cast<std::size_t>(end - b.begin()) + 1;
  }
  const std::size_t np = rig.parameters.size();
  std::vector<std::int64_t> column(np, -1);
  for (std::size_t i = 0; i < np; ++i)
    for (std::uint32_t t = 0; t < tn; ++t)
      if (ids[t] == rig.parameters[i].id) column[i] = t;
  if (b.size() - at < static_cast<std::size_t>(frames) * tn * 4) die(path + ": the values end early");
  Frames out;
  out.count = frames;
  out.values.resize(out.count * np);
  for (std::size_t f = 0; f < out.count; ++f)
    for (std::size_t i = 0; i < np; ++i) {
      float v = rig.parameters[i].default_value;
      if (column[i] >= 0) {
        const std::uint32_t bits = u32_at(b, at + (f * tn + static_cast<std::size_t>(column[i])) * 4);
        std::memcpy(&v, &bits, 4);
      }
      out.values[f * np + i] = v;
    }
  return out;
}

void put_u32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}

std::int32_t idle_clip(const p2l::Rig& rig) {
  for (std::size_t c = 0; c < rig.clips.size(); ++c) {
    std::string group = rig.clips[c].group;
    std::transform(group.begin(), group.end(), group.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (group == "idle") return static_cast<std::int32_t>(c);
  }
  return rig.clips.empty() ? -1 : 0;
}

int write_track(const std::string& model_path, const std::string& out_path, double duration) {
  const std::shared_ptr<p2l::Rig> rig = import(model_path);
  p2l::ModelResult made = p2l::Model::create(rig);
  if (!made) die(model_path + ": " + made.error.to_string());
  p2l::Instance instance(made.model);
  p2l::Animator animator(made.model);
  animator.set_behaviors(p2l::kBehaviorBlink | p2l::kBehaviorBreath);
  animator.behavior_seed(1);
  animator.evaluate(instance);
  const std::int32_t clip = idle_clip(*rig);
  if (clip >= 0) {
    animator.set_clip_looping(static_cast<std::uint32_t>(clip), true);
    animator.play(clip);
  }
  const std::size_t np = rig->parameters.size();
  const auto frames = static_cast<std::uint32_t>(std::lround(duration * 60.0));
  std::vector<std::uint8_t> out = {'P', '2', 'L', 'T', 'R', 'A', 'C', 'K'};
  put_u32(out, static_cast<std::uint32_t>(np));
  put_u32(out, frames);
  for (const p2l::Parameter& p : rig->parameters) {
    out.insert(out.end(), p.id.begin(), p.id.end());
    out.push_back(0);
  }
  std::size_t moving = 0;
  std::vector<float> previous(np, NAN);
  for (std::uint32_t f = 0; f < frames; ++f) {
    animator.update(instance, 1.0f / 60.0f);
    const std::span<const float> current = instance.current();
    for (std::size_t i = 0; i < np; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &current[i], 4);
      put_u32(out, bits);
      moving += f > 0 && current[i] != previous[i];
      previous[i] = current[i];
    }
  }
  std::ofstream file(out_path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  if (!file) die("cannot write " + out_path);
  std::printf("{\"track\": \"%s\", \"clip\": \"%s\", \"parameters\": %zu, \"frames\": %u, \"moving_per_frame\": %.2f}\n",
              out_path.c_str(), clip >= 0 ? rig->clips[static_cast<std::size_t>(clip)].id.c_str() : "", np, frames,
              frames > 1 ? static_cast<double>(moving) / (frames - 1) : 0.0);
  return 0;
}

struct Times {
  std::vector<double> cpu, wall;
};

// Warm-up pass, then [reps] passes over the frames; per evaluation.
template <class Step>
Times time_passes(const Frames& frames, int reps, Step step) {
  Times t;
  for (int r = -1; r < reps; ++r) {
    const double cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
    for (std::size_t f = 0; f < frames.count; ++f) step(f);
    if (r < 0) continue;
    const double n = static_cast<double>(frames.count);
    t.cpu.push_back((seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0) * 1e6 / n);
    t.wall.push_back((seconds(CLOCK_MONOTONIC) - wall0) * 1e6 / n);
  }
  return t;
}

std::string list(const std::vector<double>& v) {
  std::string s = "[";
  char number[32];
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::snprintf(number, sizeof number, "%s%.3f", i ? ", " : "", v[i]);
    s += number;
  }
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: p2l_native_layers MODEL [--sweep FRAMES | --track FILE] [--reps N] | MODEL.model3.json --write-track FILE [--seconds S]");
  const std::string model_path = argv[1];
  std::string track, write;
  int frames = 600, reps = 5;
  double duration = 20.0;
  for (int a = 2; a < argc; ++a) {
    const std::string arg = argv[a];
    if (a + 1 >= argc) die("missing the value of " + arg);
    if (arg == "--sweep") frames = std::atoi(argv[++a]);
    else if (arg == "--track") track = argv[++a];
    else if (arg == "--reps") reps = std::atoi(argv[++a]);
    else if (arg == "--write-track") write = argv[++a];
    else if (arg == "--seconds") duration = std::atof(argv[++a]);
    else die("unknown option " + arg);
  }
  if (frames < 1 || reps < 1 || !(duration > 0 && duration < 3600)) die("bad numbers");
  if (!write.empty()) return write_track(model_path, write, duration);

  const std::shared_ptr<p2l::Rig> rig = import(model_path);
  const Frames poses = track.empty() ? sweep(*rig, frames) : read_track(*rig, track);
  const std::size_t np = rig->parameters.size();

  p2l::ModelResult made = p2l::Model::create(rig);
  if (!made) die(model_path + ": " + made.error.to_string());
  p2l::Instance instance(made.model);
  const Times cpp = time_passes(poses, reps, [&](std::size_t f) {
    std::copy_n(poses.values.data() + f * np, np, instance.parameters().data());
    instance.evaluate();
  });
  // What change tracking leaves to do: deformers and meshes (vertices) evaluated per frame.
  double deformers = 0, meshes = 0;
  for (std::size_t f = 0; f < poses.count; ++f) {
    std::copy_n(poses.values.data() + f * np, np, instance.parameters().data());
    instance.evaluate();
    const p2l::InstanceState& s = instance.state();
    for (const std::uint8_t d : s.deformer_dirty) deformers += d;
    for (const std::uint8_t m : s.cubism.mesh_fresh) meshes += m;
  }
  deformers /= static_cast<double>(poses.count);
  meshes /= static_cast<double>(poses.count);

  p2l::WriteResult written = p2l::write(*rig);
  if (!written) die(model_path + ": " + written.error.to_string());
  char error[512] = "";
  P2lModel* model = p2l_model_load(written.bytes.data(), written.bytes.size(), 0, error, sizeof error);
  if (model == nullptr) die(model_path + ": " + error);
  P2lRig* capi_rig = p2l_rig_create(model, error, sizeof error);
  if (capi_rig == nullptr) die(model_path + ": " + error);
  const Times capi = time_passes(poses, reps, [&](std::size_t f) {
    std::copy_n(poses.values.data() + f * np, np, p2l_parameter_values(capi_rig));
    p2l_evaluate(capi_rig);
  });
  p2l_rig_free(capi_rig);
  p2l_model_free(model);

  std::printf("{\"model\": \"%s\", \"mode\": \"%s\", \"frames\": %zu, \"deformers\": %zu, \"meshes\": %zu, "
              "\"deformers_evaluated\": %.1f, \"meshes_evaluated\": %.1f, \"cpp_cpu_us\": %s, \"cpp_wall_us\": %s, "
              "\"capi_cpu_us\": %s, \"capi_wall_us\": %s}\n",
              model_path.c_str(), track.empty() ? "sweep" : "track", poses.count, rig->deformers.size(), rig->meshes.size(),
              deformers, meshes, list(cpp.cpu).c_str(), list(cpp.wall).c_str(), list(capi.cpu).c_str(), list(capi.wall).c_str());
  return 0;
}
