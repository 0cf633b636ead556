// physics3.json -> PHYS (Rig::physics, Rig::physics_fps).
#include <cmath>
#include <map>

#include "base/libm.hpp"
#include "import/cubism/limits.hpp"
#include "import/cubism/side_files.hpp"

namespace p2l::cubism {
namespace {

PhysicsSource source_of(const Node& type) {
  const std::string t = type.string();
  if (t == "X") return PhysicsSource::X;
  if (t == "Y") return PhysicsSource::Y;  // the writer then writes PHYS version 2
  if (t == "Angle") return PhysicsSource::Angle;
  type.fail(ErrorCode::BadRecord, "unknown type " + quote_id(t) + " (expected X, Y or Angle)");
}

std::uint32_t parameter_of(const Node& id, const Rig& rig) {
  const std::int32_t p = rig.find_parameter(id.string());
  if (p < 0) id.fail(ErrorCode::BadReference, "no parameter " + quote_id(id.string()));
  return static_cast<std::uint32_t>(p);
}

// Cubism's runtime places every point at Radius from the one before and overwrites the
// JSON Position (cubism-semantics §8.3), so the segment length is the Radius. What that
// loses is said once a group: Positions that disagree with the radii, a root radius.
void segments(const Node& setting, PhysicsGroup& g, ImportReport& report) {
  bool lossy = false;
  float px = 0, py = 0;
  for (const Node& v : setting.at("Vertices").elements()) {
    const Node pos = v.at("Position");
    const float x = pos.at("X").number(), y = pos.at("Y").number(), radius = v.at("Radius").number();
    PhysicsSegment s;
    s.mobility = v.at("Mobility").number();
    s.delay = v.at("Delay").number();
    s.acceleration = v.at("Acceleration").number();
    if (g.segments.empty()) {
      lossy |= radius != 0 || x != 0 || y != 0;
    } else {
      s.length = radius;
      const double d = libm::hypot(double{x} - px, double{y} - py);
      lossy |= std::fabs(d - radius) > 1e-4 * std::fmax(1.0, std::fabs(radius));
    }
    px = x;
    py = y;
    g.segments.push_back(s);
  }
  if (lossy)
    report.dropped.push_back(setting.at("Vertices").note(
        "Position not kept: segment lengths are the Radius values, which Cubism evaluates (it places the points by "
        "Radius), and the Positions given disagree with them (or the root has a Radius)"));
}

Normalization normalization(const Node& n) {
  const Node p = n.at("Position"), a = n.at("Angle");
  return {p.at("Minimum").number(), p.at("Default").number(), p.at("Maximum").number(),
          a.at("Minimum").number(), a.at("Default").number(), a.at("Maximum").number()};
}

// Cubism's defaults; the Framework parses EffectiveForces but never uses them (§8.2).
void effective_forces(const Node& meta, ImportReport& report) {
  const auto forces = meta.find("EffectiveForces");
  if (!forces) return;
  auto check = [&](const char* key, float dx, float dy) {
    const auto f = forces->find(key);
    if (!f) return;
    const float x = f->at("X").number(), y = f->at("Y").number();
    if (x != dx || y != dy)
      report.dropped.push_back(f->note("(" + number_text(x) + ", " + number_text(y) +
                                       ") not carried over: PHYS has no field for it (Cubism's Framework does not "
                                       "use it either)"));
  };
  check("Gravity", 0, -1);
  check("Wind", 0, 0);
}

}  // namespace

void read_physics3(const Node& root, Rig& rig, ImportReport& report) {
  // Every particle steps every physics frame: a file past kMaxPhysicsParticles is refused
  // before anything is built.
  std::size_t particles = 0;
  if (const Json& all = root.json(); all.is_object() && all.contains("PhysicsSettings") && all["PhysicsSettings"].is_array())
    for (const Json& setting : all["PhysicsSettings"])
      if (setting.is_object() && setting.contains("Vertices") && setting["Vertices"].is_array())
        particles += setting["Vertices"].size();
  if (particles > kMaxPhysicsParticles)
    root.fail(ErrorCode::TooLarge, "PhysicsSettings: " + std::to_string(particles) +
                                       " particles; p2lrt imports physics of up to " +
                                       std::to_string(kMaxPhysicsParticles) + " particles");
  std::map<std::string, std::string> names;
  if (const auto meta = root.find("Meta")) {
    rig.physics_fps = meta->number_or("Fps", 0);
    effective_forces(*meta, report);
    for (const Node& entry : meta->elements_of("PhysicsDictionary"))
      names.emplace(entry.at("Id").string(), entry.string_or("Name", ""));
  }
  for (const Node& setting : root.at("PhysicsSettings").elements()) {
    PhysicsGroup g;
    g.id = setting.string_or("Id", "");
    auto named = names.find(g.id);
    g.name = named != names.end() && !named->second.empty() ? named->second : g.id;
    for (const Node& in : setting.at("Input").elements()) {
      PhysicsInput i;
      i.parameter = parameter_of(in.at("Source").at("Id"), rig);
      i.weight = in.at("Weight").number();
      i.source = source_of(in.at("Type"));
      i.reflect = in.boolean_or("Reflect", false);
      g.inputs.push_back(i);
    }
    segments(setting, g, report);
    for (const Node& out : setting.at("Output").elements()) {
      const Node id = out.at("Destination").at("Id");
      PhysicsOutput o;
      o.vertex = out.at("VertexIndex").index();
      o.scale = out.at("Scale").number();
      o.weight = out.at("Weight").number();
      o.source = source_of(out.at("Type"));
      o.reflect = out.boolean_or("Reflect", false);
      // Cubism writes an unknown ID into a virtual parameter that nothing draws from:
      // dropping it changes nothing it shows.
      const std::int32_t p = rig.find_parameter(id.string());
      if (p < 0) {
        report.dropped.push_back(id.note("no parameter " + quote_id(id.string()) + ": output dropped"));
        continue;
      }
      // An output outside points 1..n-1 never moves, yet Cubism still writes it every frame
      // (its initial 0, clamped and blended; docs/RUNTIME.md "Physics", quirk 9), and so
      // does p2lrt. The file allows indices up to the point count, which acts the same.
      if (o.vertex > g.segments.size()) o.vertex = static_cast<std::uint32_t>(g.segments.size());
      o.parameter = static_cast<std::uint32_t>(p);
      g.outputs.push_back(o);
    }
    g.normalization = normalization(setting.at("Normalization"));
    rig.physics.push_back(std::move(g));
  }
}

}  // namespace p2l::cubism
