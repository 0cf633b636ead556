// Drives p2l::anim::Physics over a Cubism model (a model3.json imported with import_cubism,
// or a .p2lrt) with head and body sinusoids, and prints what went in and what came out each
// frame, for cubism_physics.js to replay through Cubism's own Framework code.
//
//   p2l_physics_trajectory MODEL [--rate HZ] [--seconds S] [--fps F] [--stabilize] [--wind X Y] > out.tsv
//   p2l_physics_trajectory --synthetic PHYSICS3_OUT [options as above] > out.tsv
//
// --rate: frames per second of the host (dt = 1/rate as a float); --fps: overrides the rig's
// physics_fps (Haru has none, so Cubism steps once a frame); --stabilize: Physics::stabilize
// on the first frame's inputs before the first step; --wind: Physics::set_wind.
// --synthetic: instead of a model, a rig built here with what Haru's physics lacks (X, Y and
// Angle inputs with and without reflect, four- and three-point strands, X, Y and Angle outputs
// on inner points, weights below 100, ranges that clamp, a parameter range whose midpoint is
// not its default, an output that a later group reads, two groups writing one parameter, an
// output on a point Cubism never moves), whose physics3.json is written to PHYSICS3_OUT.
//
// Output (tab separated):
//   P <id> <min> <max> <default>         one line per parameter physics reads or writes
//   F <frame> <dt> <in...> <out...>      per frame: the values handed to step() and the
//                                        values it returned, in P order (%.9g: exact floats)
// The first lines are "fps <F>", "stabilize 0|1" and "wind <X> <Y>".
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "anim/physics.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"

namespace {

struct Drive {
  const char* id;
  double amplitude, hz, phase;  // value = amplitude * sin(2 pi hz t + phase), rounded to float
};

// Head and body motion within (and for ParamAngleZ a little past) Haru's ranges (+-30, +-10).
constexpr Drive kDrives[] = {
    {"ParamAngleX", 30.0, 0.37, 0.0},  {"ParamAngleY", 25.0, 0.53, 1.0},     {"ParamAngleZ", 35.0, 0.61, 2.0},
    {"ParamBodyAngleX", 10.0, 0.29, 0.5}, {"ParamBodyAngleZ", 10.0, 0.83, 1.5},
    // The synthetic rig's inputs.
    {"InX", 12.0, 0.41, 0.0}, {"InShift", 9.0, 0.67, 1.0}, {"InAngle", 30.0, 0.53, 0.3},
    {"InY", 1.2, 0.97, 2.0},
};

p2l::Parameter parameter(const char* id, float min, float max, float default_value) {
  p2l::Parameter p;
  p.id = id;
  p.min = min;
  p.max = max;
  p.default_value = default_value;
  return p;
}

p2l::PhysicsInput input(std::uint32_t parameter, float weight, p2l::PhysicsSource source, bool reflect) {
  return {parameter, weight, source, reflect};
}

p2l::PhysicsOutput output(std::uint32_t parameter, std::uint32_t vertex, float scale, float weight,
                          p2l::PhysicsSource source, bool reflect) {
  return {parameter, vertex, scale, weight, source, reflect};
}

p2l::Rig synthetic_rig() {
  using S = p2l::PhysicsSource;
  p2l::Rig rig;
  rig.parameters = {
      parameter("InX", -10, 10, 0),       parameter("InShift", -5, 15, 0),  // midpoint 5, default 0
      parameter("InAngle", -30, 30, 0),   parameter("InY", -1, 1, 0),
      parameter("OutA", -1, 1, 0),        parameter("OutB", -30, 30, 0),
      parameter("OutX", 0.25f, 3, 0.5f),  // X outputs give 0: clamped up to 0.25
      parameter("OutY", -1, 1, 0.3f),     parameter("OutChain", -1, 1, 0),
      parameter("OutFar", 0.5f, 1, 0.75f),  // an output on a point Cubism never moves
  };
  p2l::PhysicsGroup a;
  a.id = "Four";
  a.inputs = {input(0, 60, S::X, false), input(2, 40, S::Angle, false), input(3, 50, S::Y, true),
              input(1, 30, S::X, true)};
  a.segments = {{0, 0.9f, 0.9f, 1.5f}, {3, 0.95f, 0.9f, 1.5f}, {5, 0.9f, 0.8f, 1.2f}, {4, 0.85f, 0.7f, 1.0f}};
  a.outputs = {output(4, 1, 1.5f, 100, S::Angle, false), output(5, 3, 20, 70, S::Angle, true),
               output(6, 2, 2, 100, S::X, false),        output(7, 2, 1, 40, S::Y, false),
               output(8, 2, 3, 100, S::Angle, false),    output(9, 4, 1, 50, S::Angle, false)};
  a.normalization = {-10, 0, 10, -10, 0, 10};
  p2l::PhysicsGroup b;
  b.id = "Three";
  b.inputs = {input(8, 100, S::Angle, false), input(0, 50, S::X, false)};
  b.segments = {{0, 1, 1, 1}, {6, 0.9f, 0.6f, 1.3f}, {6, 0.8f, 0.5f, 1.1f}};
  b.outputs = {output(4, 2, 2, 50, S::Angle, false)};  // blends onto group Four's OutA
  b.normalization = {-8, 1, 12, -20, 0, 20};
  rig.physics = {a, b};
  return rig;
}

const char* source_name(p2l::PhysicsSource s) {
  return s == p2l::PhysicsSource::X ? "X" : s == p2l::PhysicsSource::Y ? "Y" : "Angle";
}

// The rig's physics as a physics3.json (Positions placed by the radii, as Cubism does).
bool write_physics3(const p2l::Rig& rig, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::size_t inputs = 0, outputs = 0, vertices = 0;
  for (const auto& g : rig.physics) {
    inputs += g.inputs.size();
    outputs += g.outputs.size();
    vertices += g.segments.size();
  }
  auto num = [](float v) { return static_cast<double>(v); };
  std::fprintf(f,
               "{\"Version\": 3, \"Meta\": {\"PhysicsSettingCount\": %zu, \"TotalInputCount\": %zu, "
               "\"TotalOutputCount\": %zu, \"VertexCount\": %zu, \"EffectiveForces\": {\"Gravity\": {\"X\": 0, "
               "\"Y\": -1}, \"Wind\": {\"X\": 0, \"Y\": 0}}},\n \"PhysicsSettings\": [",
               rig.physics.size(), inputs, outputs, vertices);
  for (std::size_t gi = 0; gi < rig.physics.size(); ++gi) {
    const auto& g = rig.physics[gi];
    std::fprintf(f, "%s\n  {\"Id\": \"%s\", \"Input\": [", gi ? "," : "", g.id.c_str());
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
      const auto& in = g.inputs[i];
      std::fprintf(f, "%s{\"Source\": {\"Target\": \"Parameter\", \"Id\": \"%s\"}, \"Weight\": %.9g, \"Type\": \"%s\", \"Reflect\": %s}",
                   i ? ", " : "", rig.parameters[in.parameter].id.c_str(), num(in.weight), source_name(in.source),
                   in.reflect ? "true" : "false");
    }
    std::fprintf(f, "],\n   \"Output\": [");
    for (std::size_t i = 0; i < g.outputs.size(); ++i) {
      const auto& o = g.outputs[i];
      std::fprintf(f, "%s{\"Destination\": {\"Target\": \"Parameter\", \"Id\": \"%s\"}, \"VertexIndex\": %u, \"Scale\": %.9g, "
                   "\"Weight\": %.9g, \"Type\": \"%s\", \"Reflect\": %s}",
                   i ? ", " : "", rig.parameters[o.parameter].id.c_str(), o.vertex, num(o.scale), num(o.weight),
                   source_name(o.source), o.reflect ? "true" : "false");
    }
    std::fprintf(f, "],\n   \"Vertices\": [");
    float y = 0;
    for (std::size_t i = 0; i < g.segments.size(); ++i) {
      const auto& s = g.segments[i];
      if (i) y += s.length;
      std::fprintf(f, "%s{\"Position\": {\"X\": 0, \"Y\": %.9g}, \"Mobility\": %.9g, \"Delay\": %.9g, \"Acceleration\": %.9g, "
                   "\"Radius\": %.9g}",
                   i ? ", " : "", num(y), num(s.mobility), num(s.delay), num(s.acceleration), num(i ? s.length : 0.0f));
    }
    const auto& n = g.normalization;
    std::fprintf(f, "],\n   \"Normalization\": {\"Position\": {\"Minimum\": %.9g, \"Default\": %.9g, \"Maximum\": %.9g}, "
                 "\"Angle\": {\"Minimum\": %.9g, \"Default\": %.9g, \"Maximum\": %.9g}}}",
                 num(n.position_min), num(n.position_default), num(n.position_max), num(n.angle_min),
                 num(n.angle_default), num(n.angle_max));
  }
  std::fprintf(f, "\n]}\n");
  return std::fclose(f) == 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: p2l_physics_trajectory MODEL|--synthetic PHYSICS3_OUT [--rate HZ] [--seconds S] [--fps F] "
               "[--stabilize] [--wind X Y]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string model = argv[1], synthetic;
  int first_option = 2;
  if (model == "--synthetic") {
    if (argc < 3) return usage();
    synthetic = argv[2];
    first_option = 3;
  }
  double rate = 60.0, seconds = 10.0;
  float fps = -1.0f, wind_x = 0.0f, wind_y = 0.0f;
  bool stabilize = false;
  for (int i = first_option; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rate" && i + 1 < argc)
      rate = std::atof(argv[++i]);
    else if (a == "--seconds" && i + 1 < argc)
      seconds = std::atof(argv[++i]);
    else if (a == "--fps" && i + 1 < argc)
      fps = static_cast<float>(std::atof(argv[++i]));
    else if (a == "--stabilize")
      stabilize = true;
    else if (a == "--wind" && i + 2 < argc) {
      wind_x = static_cast<float>(std::atof(argv[++i]));
      wind_y = static_cast<float>(std::atof(argv[++i]));
    }
    else
      return usage();
  }

  p2l::Rig rig;
  if (!synthetic.empty()) {
    rig = synthetic_rig();
    if (!write_physics3(rig, synthetic)) {
      std::fprintf(stderr, "p2l_physics_trajectory: cannot write %s\n", synthetic.c_str());
      return 1;
    }
  } else if (model.size() > 6 && model.compare(model.size() - 6, 6, ".p2lrt") == 0) {
    std::vector<std::uint8_t> bytes;
    if (std::FILE* file = std::fopen(model.c_str(), "rb")) {
      std::uint8_t buffer[65536];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) bytes.insert(bytes.end(), buffer, buffer + n);
      std::fclose(file);
    }
    auto loaded = p2l::load(bytes);
    if (!loaded) {
      std::fprintf(stderr, "p2l_physics_trajectory: %s: %s\n", model.c_str(), loaded.error.message.c_str());
      return 1;
    }
    rig = *loaded.rig;
  } else {
    auto imported = p2l::import_cubism(model);
    if (!imported) {
      std::fprintf(stderr, "p2l_physics_trajectory: %s: %s\n", model.c_str(), imported.error.message.c_str());
      return 1;
    }
    rig = std::move(imported.rig);
  }
  if (fps >= 0.0f) rig.physics_fps = fps;

  // The parameters physics touches, in first-use order.
  std::vector<std::uint32_t> used;
  auto use = [&](std::uint32_t p) {
    for (auto u : used)
      if (u == p) return;
    used.push_back(p);
  };
  for (const auto& g : rig.physics) {
    for (const auto& in : g.inputs) use(in.parameter);
    for (const auto& out : g.outputs) use(out.parameter);
  }
  std::vector<std::int32_t> driven;
  for (const Drive& d : kDrives) driven.push_back(rig.find_parameter(d.id));

  std::printf("fps\t%.9g\nstabilize\t%d\nwind\t%.9g\t%.9g\n", static_cast<double>(rig.physics_fps), stabilize ? 1 : 0,
              static_cast<double>(wind_x), static_cast<double>(wind_y));
  for (auto p : used) {
    const auto& prm = rig.parameters[p];
    std::printf("P\t%s\t%.9g\t%.9g\t%.9g\n", prm.id.c_str(), static_cast<double>(prm.min), static_cast<double>(prm.max),
                static_cast<double>(prm.default_value));
  }

  p2l::anim::Physics physics(rig);
  physics.set_wind(wind_x, wind_y);
  std::vector<float> values(rig.parameters.size()), before;
  const float dt = static_cast<float>(1.0 / rate);
  const long frames = std::lround(seconds * rate);
  for (long f = 0; f < frames; ++f) {
    const double t = static_cast<double>(f) / rate;
    for (std::size_t p = 0; p < values.size(); ++p) values[p] = rig.parameters[p].default_value;
    for (std::size_t i = 0; i < driven.size(); ++i)
      if (driven[i] >= 0) {
        const Drive& d = kDrives[i];
        values[static_cast<std::size_t>(driven[i])] =
            static_cast<float>(d.amplitude * std::sin(2.0 * 3.14159265358979323846 * d.hz * t + d.phase));
      }
    before = values;
    if (f == 0 && stabilize) physics.stabilize(values);
    if (f > 0 || !stabilize) physics.step(dt, values);
    // With --stabilize the first frame shows what stabilize wrote (no step), as the
    // reference does.
    std::printf("F\t%ld\t%.9g", f, static_cast<double>(dt));
    for (auto p : used) std::printf("\t%.9g", static_cast<double>(before[p]));
    for (auto p : used) std::printf("\t%.9g", static_cast<double>(values[p]));
    std::printf("\n");
  }
  return 0;
}
