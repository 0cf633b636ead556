// Plays one motion of a Cubism model (or one expression over a motion) through
// p2l::Animator::update, physics and pose on, as a host that does nothing special would
// (import_cubism, play, update at a fixed rate), and writes every parameter and every part
// opacity at every frame for cubism_motion.js to compare with Cubism's own Framework.
//
//   p2l_motion_trace MODEL3_JSON --motion CLIP_ID [--expression NAME] [--rate HZ] [--frames N]
//                    [--p2lrt-playback] > out.tsv
//
// --motion: the clip id (the motion file's name without .motion3.json); --expression: an
// expression's model3 Name, started with the motion. --frames: how many updates (default:
// until the motion's time reaches its duration, the frame on which Cubism drops it).
// --p2lrt-playback: import and play with p2lrt's own clip rules (to show what they differ by).
//
// Output (tab separated): "rate R", "frames N", "P <id> <min> <max>" per parameter, "Q <id>"
// per part, then per frame "F <k> <parameter values...> <part opacities...>" (%.9g). The
// values are those the evaluation used: clamped to the range (repeat ones wrapped into it),
// which is where Cubism's model keeps them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: p2l_motion_trace MODEL3_JSON --motion CLIP_ID [--expression NAME] [--rate HZ] [--frames N] "
               "[--p2lrt-playback]\n");
  return 2;
}

// A repeat parameter's value in [min, max], as Cubism's model keeps it.
float wrap_into(float v, float min, float max) {
  const float size = max - min;
  if (v > max) return size > 0.0f ? min + std::fmod(v - max, size) : max;
  if (v < min) return size > 0.0f ? max - std::fmod(min - v, size) : min;
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string path = argv[1];
  std::string motion, expression;
  double rate = 60;
  long frames = -1;
  bool cubism = true;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--motion" && i + 1 < argc)
      motion = argv[++i];
    else if (a == "--expression" && i + 1 < argc)
      expression = argv[++i];
    else if (a == "--rate" && i + 1 < argc)
      rate = std::atof(argv[++i]);
    else if (a == "--frames" && i + 1 < argc)
      frames = std::atol(argv[++i]);
    else if (a == "--p2lrt-playback")
      cubism = false;
    else
      return usage();
  }
  if (motion.empty() || !(rate > 0)) return usage();

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
  std::int32_t clip = -1, expr = -1;
  for (std::size_t c = 0; c < rig.clips.size(); ++c)
    if (rig.clips[c].id == motion) clip = static_cast<std::int32_t>(c);
  for (std::size_t e = 0; e < rig.expressions.size(); ++e)
    if (rig.expressions[e].id == expression) expr = static_cast<std::int32_t>(e);
  if (clip < 0 || (!expression.empty() && expr < 0)) {
    std::fprintf(stderr, "p2l_motion_trace: %s: no %s %s\n", path.c_str(), clip < 0 ? "motion" : "expression",
                 clip < 0 ? motion.c_str() : expression.c_str());
    return 1;
  }
  // Cubism drops a motion on the update whose time since its start (0 on the first update)
  // reaches the duration: that is the last frame compared.
  const double duration = rig.clips[static_cast<std::size_t>(clip)].duration;
  if (frames < 0) frames = static_cast<long>(std::ceil(duration * rate - 1e-9)) + 1;

  p2l::Instance instance(made.model);
  p2l::Animator animator(made.model);
  animator.play(clip);
  if (expr >= 0) animator.expression(expr);

  std::printf("rate\t%.17g\nframes\t%ld\n", rate, frames);
  for (const p2l::Parameter& p : rig.parameters)
    std::printf("P\t%s\t%.9g\t%.9g\n", p.id.c_str(), static_cast<double>(p.min), static_cast<double>(p.max));
  for (const p2l::Part& p : rig.parts) std::printf("Q\t%s\n", p.id.c_str());
  const float dt = static_cast<float>(1.0 / rate);  // what a host passes through the float API
  for (long k = 1; k <= frames; ++k) {
    animator.update(instance, dt);
    std::printf("F\t%ld", k);
    const auto values = instance.current();
    for (std::size_t i = 0; i < rig.parameters.size(); ++i) {
      const p2l::Parameter& p = rig.parameters[i];
      const float v = p.repeat ? wrap_into(values[i], p.min, p.max) : std::clamp(values[i], p.min, p.max);
      std::printf("\t%.9g", static_cast<double>(v));
    }
    for (std::size_t i = 0; i < rig.parts.size(); ++i)
      std::printf("\t%.9g", static_cast<double>(animator.part_animation_opacity(static_cast<std::uint32_t>(i))));
    std::printf("\n");
  }
  return 0;
}
