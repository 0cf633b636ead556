// A Cubism 2 physics.json: its physics_hair entries as HAIR pendulums, read as the Cubism 2
// framework's L2DPhysics reads them. Where the framework would hand the runtime a NaN (a
// number missing) the piece is left out with a report line; a parameter the model does not
// have is made, as the runtime makes it on lookup. docs/IMPORT.md ("Cubism 2 models") lists
// each case.
#include <optional>

#include "import/cubism/side_files.hpp"

namespace p2l::cubism {
namespace {

// [key] of [object] as a finite float, or nothing with the reason in [report].
std::optional<float> number_at(const Node& object, const char* key, const std::string& consequence,
                               ImportReport& report) {
  const auto member = object.find(key);
  if (!member) {
    report.dropped.push_back(object.missing_note(key) + ": " + consequence);
    return std::nullopt;
  }
  std::string why;
  const std::optional<float> f = member->number_if(why);
  if (!f) report.dropped.push_back(why + ": " + consequence);
  return f;
}

// The parameter [id] names. The runtime makes a parameter the model lacks when something looks
// it up (value 0, range +-1e6): a hair's output on it is then another hair's input (gathered
// models pass a swing from hair to hair this way), and an input on it pulls toward 0. So the
// import makes it too; nothing draws with it.
std::uint32_t parameter_of(const Node& link, const std::string& id, Rig& rig, ImportReport& report) {
  const std::int32_t p = rig.find_parameter(id);
  if (p >= 0) return static_cast<std::uint32_t>(p);
  rig.parameters.push_back(Parameter{id, id, -1e6f, 1e6f, 0.0f, false, false});
  report.dropped.push_back(link.note("no parameter " + quote_id(id) + " in the model: made (0, range +-1e6), as the runtime "
                                     "makes it; nothing draws with it"));
  return static_cast<std::uint32_t>(rig.parameters.size() - 1);
}

// An input's or output's parameter, scale and weight; false (with a report line) when one of
// them cannot be carried over.
bool read_link(const Node& link, Rig& rig, std::uint32_t& parameter, float& scale, float& weight, ImportReport& report) {
  const std::string id = link.at("id").string();
  const auto s = number_at(link, "scale", "left out", report);
  const auto w = number_at(link, "weight", "left out", report);
  if (!s || !w) return false;
  const std::uint32_t p = parameter_of(link, id, rig, report);
  parameter = p;
  scale = *s;
  weight = *w;
  report_unused(link, {"id", "ptype", "scale", "weight"}, report);
  return true;
}

HairSource source_of(const Node& input, ImportReport& report) {
  const std::string type = input.string_or("ptype", "");
  if (type == "y") return HairSource::Y;
  if (type == "angle") return HairSource::GravityAngle;
  // The framework keeps its default, x, for anything else.
  if (type != "x") report.dropped.push_back(input.note("unknown ptype " + quote_id(type) + ", read as x (as the framework does)"));
  return HairSource::X;
}

HairValue value_of(const Node& output, ImportReport& report) {
  const std::string type = output.string_or("ptype", "");
  if (type == "angle_v") return HairValue::AngularVelocity;
  if (type != "angle")
    report.dropped.push_back(output.note("unknown ptype " + quote_id(type) + ", read as angle (as the framework does)"));
  return HairValue::Angle;
}

}  // namespace

void read_physics2(const Node& root, Rig& rig, ImportReport& report) {
  if (!root.has("physics_hair")) report.dropped.push_back(root.missing_note("physics_hair") + ": no hair physics");
  for (const Node& entry : root.elements_of("physics_hair")) {
    Hair hair;
    // The name is a label for people; the packages spell its key three ways.
    for (const char* key : {"label", "comment", "lebel"})
      if (entry.has(key) && entry.at(key).json().is_string()) {
        hair.name = entry.at(key).string();
        break;
      }
    const Node setup = entry.at("setup");
    const auto length = number_at(setup, "length", "that hair is left out", report);
    const auto resistance = number_at(setup, "regist", "that hair is left out", report);
    const auto mass = number_at(setup, "mass", "that hair is left out", report);
    if (!length || !resistance || !mass) continue;
    if (!(*length > 0.0f) || !(*mass > 0.0f)) {
      // The runtime divides by both: its hair would write NaN or swing about nothing.
      report.dropped.push_back(setup.note("a length and a mass above 0 are needed: that hair is left out"));
      continue;
    }
    hair.length = *length;
    hair.resistance = *resistance;
    hair.mass = *mass;
    report_unused(setup, {"length", "regist", "mass"}, report);
    for (const Node& src : entry.elements_of("src")) {
      HairInput in;
      in.source = source_of(src, report);
      if (read_link(src, rig, in.parameter, in.scale, in.weight, report)) hair.inputs.push_back(in);
    }
    for (const Node& target : entry.elements_of("targets")) {
      HairOutput out;
      out.value = value_of(target, report);
      if (read_link(target, rig, out.parameter, out.scale, out.weight, report)) hair.outputs.push_back(out);
    }
    report_unused(entry, {"label", "comment", "lebel", "setup", "src", "targets"}, report);
    rig.hairs.push_back(std::move(hair));
  }
  report_unused(root, {"type", "physics_hair"}, report);
}

}  // namespace p2l::cubism
