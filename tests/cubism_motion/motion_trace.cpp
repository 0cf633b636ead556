// Plays motions of a Cubism model (one, a sequence of them as Cubism's sample app plays them,
// or one expression over a motion) through p2l::Animator::update, physics and pose on, as a
// host that does nothing special would (import_cubism, play, update at a fixed rate), and
// writes every parameter and every part opacity at every frame for cubism_motion.js to compare
// with Cubism's own Framework.
//
//   p2l_motion_trace MODEL3_JSON --motion CLIP_ID | --play CLIP_ID@FRAME... [--expression NAME]
//                    [--rate HZ] [--frames N] [--p2lrt-playback] [--return-to-pose] > out.tsv
//
// --motion: the clip id (the motion file's name without .motion3.json), started before the
// first update; --play CLIP_ID@FRAME (repeatable): the clip started just before update FRAME
// (1 is the first), replacing what plays (a cross-fade when it still plays), as the sample's
// startMotion does. --expression: an expression's model3 Name, started with the first motion.
// --frames: how many updates (default: until the last motion to end reaches its duration, the
// update on which Cubism drops it). --p2lrt-playback: import and play with
// p2lrt's own clip rules (to show what they differ by). --return-to-pose: the host's pose
// shows again once no motion plays (AnimatorOptions::keep_clip_values false; Cubism's loop
// keeps what the motions left).
//
// Output (tab separated): "rate R", "frames N", "P <id> <min> <max>" per parameter, "Q <id>"
// per part, then per frame "F <k> <parameter values...> <part opacities...>" (%.9g). The
// values are what a host reads (Instance::current, p2l_parameter_current) as they are. The
// behaviors are off: eye blink is not compared (its timing is random in Cubism and p2lrt's own
// here), and the sample has no other.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: p2l_motion_trace MODEL3_JSON --motion CLIP_ID | --play CLIP_ID@FRAME... [--expression NAME] "
               "[--rate HZ] [--frames N] [--p2lrt-playback] [--return-to-pose]\n");
  return 2;
}

// A clip to start just before update [frame] (1: the first).
struct Start {
  std::string clip;
  long frame = 1;
  std::int32_t index = -1;
};

// "CLIP_ID@FRAME"; false when it is not that.
bool parse_start(const std::string& text, Start& out) {
  const std::size_t at = text.rfind('@');
  if (at == std::string::npos || at == 0) return false;
  char* end = nullptr;
  out.frame = std::strtol(text.c_str() + at + 1, &end, 10);
  out.clip = text.substr(0, at);
  return *end == '\0' && out.frame >= 1;
}

// Cubism drops a motion on the update whose time since its start (0 on its first update)
// reaches the duration: the number of that update.
long last_update(const Start& start, const p2l::Rig& rig, double rate) {
  const double duration = rig.clips[static_cast<std::size_t>(start.index)].duration;
  return start.frame - 1 + static_cast<long>(std::ceil(duration * rate - 1e-9)) + 1;
}

std::int32_t clip_index(const p2l::Rig& rig, const std::string& id) {
  for (std::size_t c = 0; c < rig.clips.size(); ++c)
    if (rig.clips[c].id == id) return static_cast<std::int32_t>(c);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string path = argv[1];
  std::vector<Start> starts;
  std::string expression;
  double rate = 60;
  long frames = -1;
  bool cubism = true, keep = true;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    Start start;
    if (a == "--motion" && i + 1 < argc) {
      start.clip = argv[++i];
      starts.push_back(start);
    } else if (a == "--play" && i + 1 < argc && parse_start(argv[i + 1], start)) {
      starts.push_back(start);
      ++i;
    } else if (a == "--expression" && i + 1 < argc)
      expression = argv[++i];
    else if (a == "--rate" && i + 1 < argc)
      rate = std::atof(argv[++i]);
    else if (a == "--frames" && i + 1 < argc)
      frames = std::atol(argv[++i]);
    else if (a == "--p2lrt-playback")
      cubism = false;
    else if (a == "--return-to-pose")
      keep = false;
    else
      return usage();
  }
  if (starts.empty() || !(rate > 0)) return usage();
  std::stable_sort(starts.begin(), starts.end(), [](const Start& a, const Start& b) { return a.frame < b.frame; });

  p2l::CubismImportOptions import_options;
  import_options.cubism_playback = cubism;
  auto imported = p2l::import_cubism(path, import_options);
  if (!imported) {
    std::fprintf(stderr, "p2l_motion_trace: %s: %s\n", path.c_str(), imported.error.message.c_str());
    return 1;
  }
  auto made = p2l::Model::create(std::make_shared<const p2l::Rig>(std::move(imported.rig)));
  if (!made.model) {
    std::fprintf(stderr, "p2l_motion_trace: %s: %s\n", path.c_str(), made.error.message.c_str());
    return 1;
  }
  const p2l::Rig& rig = made.model->rig();
  for (Start& start : starts)
    if ((start.index = clip_index(rig, start.clip)) < 0) {
      std::fprintf(stderr, "p2l_motion_trace: %s: no motion %s\n", path.c_str(), start.clip.c_str());
      return 1;
    }
  std::int32_t expr = -1;
  for (std::size_t e = 0; e < rig.expressions.size(); ++e)
    if (rig.expressions[e].id == expression) expr = static_cast<std::int32_t>(e);
  if (!expression.empty() && expr < 0) {
    std::fprintf(stderr, "p2l_motion_trace: %s: no expression %s\n", path.c_str(), expression.c_str());
    return 1;
  }
  // By default the last frame compared is the one on which the last motion to end is dropped.
  if (frames < 0)
    for (const Start& start : starts) frames = std::max(frames, last_update(start, rig, rate));

  p2l::Instance instance(made.model);
  p2l::AnimatorOptions options;
  options.keep_clip_values = keep;
  p2l::Animator animator(made.model, options);
  animator.set_behaviors(0);

  std::printf("rate\t%.17g\nframes\t%ld\n", rate, frames);
  for (const p2l::Parameter& p : rig.parameters)
    std::printf("P\t%s\t%.9g\t%.9g\n", p.id.c_str(), static_cast<double>(p.min), static_cast<double>(p.max));
  for (const p2l::Part& p : rig.parts) std::printf("Q\t%s\n", p.id.c_str());
  const float dt = static_cast<float>(1.0 / rate);  // what a host passes through the float API
  std::size_t next = 0;
  for (long k = 1; k <= frames; ++k) {
    for (; next < starts.size() && starts[next].frame == k; ++next) {
      animator.play(starts[next].index);
      if (next == 0 && expr >= 0) animator.expression(expr);  // with the first motion
    }
    animator.update(instance, dt);
    std::printf("F\t%ld", k);
    for (const float v : instance.current()) std::printf("\t%.9g", static_cast<double>(v));
    for (std::size_t i = 0; i < rig.parts.size(); ++i)
      std::printf("\t%.9g", static_cast<double>(animator.part_animation_opacity(static_cast<std::uint32_t>(i))));
    std::printf("\n");
  }
  return 0;
}
