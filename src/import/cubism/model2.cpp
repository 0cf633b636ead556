// A Cubism 2 model.json and the files it names: the .moc (cubism2/moc_import), its texture
// pages, the hair physics (physics2.cpp), .mtn motions (cubism2/mtn_clip) with the
// model.json's groups and fades, .exp.json expressions, the pose, hit areas and the
// framework's initial values. docs/IMPORT.md ("Cubism 2
// models") is the mapping table; everything not carried over is a report line.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "import/cubism/side_files.hpp"
#include "import/cubism/sources.hpp"
#include "import/cubism2/moc_import.hpp"
#include "import/cubism2/mtn_clip.hpp"

namespace p2l::cubism {
namespace {

namespace fs = std::filesystem;

// The framework's fade when a motion or expression gives none, or one not above 0: 1000 ms.
// An expression's is a whole number of milliseconds (the framework parseInt()s it).
float fade_seconds(const Node& entry, const char* key, bool whole_ms = false) {
  float ms = entry.number_or(key, 1000);
  if (whole_ms) ms = std::trunc(ms);
  return ms > 0 ? ms / 1000.0f : 1.0f;
}

// "mtn/idle_00.mtn" -> "idle_00".
std::string clip_id_of(const std::string& file) { return fs::path(file).stem().string(); }

void read_moc(Sources& sources, const std::string& file, ImportResult& result) {
  ImportResult moc = cubism2::import_moc(sources.read(file));
  if (!moc) fail(moc.error.code, file + ": " + moc.error.message);
  result.rig = std::move(moc.rig);
  for (const std::string& line : moc.report.dropped) result.report.dropped.push_back(file + ": " + line);
}

// Each motion file a clip in its group (a file listed again keeps its first group, as for a
// model3.json); the model.json's fades, else the framework's 1 s.
void read_motions(Sources& sources, const Node& root, ImportResult& result) {
  const auto list = root.find("motions");
  if (!list) return;
  std::map<std::string, std::string> group_of;
  std::set<std::string> ids;
  for (const std::string& group : list->keys()) {
    for (const Node& entry : list->at(group.c_str()).elements()) {
      const std::string file = entry.at("file").string();
      const std::string normal = fs::path(file).lexically_normal().generic_string();
      if (const auto seen = group_of.find(normal); seen != group_of.end()) {
        result.report.dropped.push_back(entry.note(quote_id(file) + " is listed again: a clip has one group, so it stays in " +
                                                   quote_id(seen->second) + " only"));
        continue;
      }
      group_of.emplace(normal, group);
      if (!sources.exists(file)) {
        result.report.dropped.push_back(entry.note(quote_id(file) + " is not there: that motion is left out"));
        continue;
      }
      if (const auto sound = entry.find("sound"))
        result.report.dropped.push_back(sound->note("sound file " + quote_id(sound->string()) + " not carried over (clips have no audio)"));
      report_unused(entry, {"file", "sound", "fade_in", "fade_out"}, result.report);
      std::string id = clip_id_of(file);
      for (int n = 2; ids.contains(id); ++n) id = clip_id_of(file) + "-" + std::to_string(n);
      ids.insert(id);
      const std::vector<std::uint8_t> bytes = sources.read(file);
      cubism2::Mtn mtn;
      Error error;
      // A motion the reader refuses (a letter in a value list, on which the runtime hangs) is
      // left out with its reason; the model and its other motions import.
      if (!cubism2::read_mtn(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), mtn, error)) {
        result.report.dropped.push_back(file + ": " + error.message + ": that motion is left out");
        continue;
      }
      ClipExtension extension;
      Clip clip = cubism2::clip_of_mtn(mtn, result.rig, id, file, extension, result.report.dropped);
      clip.group = group;
      clip.fade_in = fade_seconds(entry, "fade_in");
      clip.fade_out = fade_seconds(entry, "fade_out");
      extension.clip = static_cast<std::uint32_t>(result.rig.clips.size());
      result.rig.clips.push_back(std::move(clip));
      result.rig.clip_extensions.push_back(std::move(extension));
    }
  }
}

}  // namespace

// .exp.json: each parameter's value as the framework stores it at load (add: val - def, def 0
// by default; mult: val / def, def 1 by default and when 0; set: val), its fades (1 s when
// absent or not above 0).
void read_exp2(const Node& root, const std::string& name, Rig& rig, ImportReport& report) {
  Expression e;
  e.id = e.name = name;
  e.fade_in = fade_seconds(root, "fade_in", true);
  e.fade_out = fade_seconds(root, "fade_out", true);
  e.cubism_playback = true;
  for (const Node& p : root.elements_of("params")) {
    const Node id = p.at("id");
    const float val = p.at("val").number();
    const std::string calc = p.string_or("calc", "add");
    ExpressionValue v;
    if (calc == "mult") {
      v.blend = ExpressionBlend::Multiply;
      const float def = p.number_or("def", 1);
      v.value = def == 0 ? val : val / def;
    } else if (calc == "set") {
      v.blend = ExpressionBlend::Overwrite;
      v.value = val;
    } else {
      if (calc != "add") report.dropped.push_back(p.at("calc").note("unknown calc " + quote_id(calc) + ", read as add"));
      v.blend = ExpressionBlend::Add;
      v.value = val - p.number_or("def", 0);
    }
    add_expression_value(id, v, rig, e, report);
  }
  rig.expressions.push_back(std::move(e));
}

// .pose.json: groups of parts of which one shows; the framework's fade is 0.5 s whatever the
// file says.
void read_pose2(const Node& root, Rig& rig, ImportReport& report) {
  Pose pose;
  pose.fade_in = 0.5f;
  pose.cubism_playback = true;
  pose.cubism2 = true;
  if (const auto fade = root.find("fade_in"))
    report.dropped.push_back(fade->note("the framework fades poses in 0.5 s whatever this says: not carried over"));
  for (const Node& group : root.elements_of("parts_visible")) {
    PoseGroup g;
    for (const Node& entry : group.elements_of("group")) {
      const std::string id = entry.at("id").string();
      const std::int32_t part = rig.find_part(id);
      if (part < 0) {
        report.dropped.push_back(entry.note("no part " + quote_id(id) + ": left out of its group"));
        continue;
      }
      PoseEntry e;
      e.part = static_cast<std::uint32_t>(part);
      for (const Node& link : entry.elements_of("link")) {
        const std::int32_t linked = rig.find_part(link.string());
        if (linked < 0)
          report.dropped.push_back(link.note("no part " + quote_id(link.string()) + ": link left out"));
        else
          e.linked.push_back(static_cast<std::uint32_t>(linked));
      }
      g.entries.push_back(std::move(e));
    }
    add_pose_group(group, std::move(g), pose, report);
  }
  rig.pose = std::move(pose);
}

namespace {

// The framework's init_param and init_parts_visible, applied as the model loads: the
// parameters' defaults and the parts' starting visibility.
void read_initial_values(const Node& root, Rig& rig, ImportReport& report) {
  for (const Node& p : root.elements_of("init_param")) {
    const std::int32_t index = rig.find_parameter(p.at("id").string());
    if (index < 0) {
      report.dropped.push_back(p.note("no parameter " + quote_id(p.at("id").string()) + ": initial value dropped"));
      continue;
    }
    Parameter& param = rig.parameters[static_cast<std::size_t>(index)];
    param.default_value = std::clamp(p.at("val").number(), param.min, param.max);
  }
  for (const Node& p : root.elements_of("init_parts_visible")) {
    const std::int32_t index = rig.find_part(p.at("id").string());
    if (index < 0) {
      report.dropped.push_back(p.note("no part " + quote_id(p.at("id").string()) + ": initial visibility dropped"));
      continue;
    }
    const float val = p.at("val").number();
    rig.parts[static_cast<std::size_t>(index)].visible = val > 0;
    if (val > 0 && val < 1)
      report.dropped.push_back(p.note("a part starts shown or hidden: its opacity " + number_text(val) + " is read as shown"));
  }
}

// The roles the Cubism 2 framework gives by parameter id (its sample's drag, breath, eye
// blink and lip sync write these ids).
void add_cubism2_roles(Rig& rig) {
  static constexpr std::pair<const char*, const char*> kStandard[] = {
      {"AngleX", "PARAM_ANGLE_X"},          {"AngleY", "PARAM_ANGLE_Y"},       {"AngleZ", "PARAM_ANGLE_Z"},
      {"BodyAngleX", "PARAM_BODY_ANGLE_X"}, {"EyeBallX", "PARAM_EYE_BALL_X"}, {"EyeBallY", "PARAM_EYE_BALL_Y"},
      {"Breath", "PARAM_BREATH"},           {"LipSync", "PARAM_MOUTH_OPEN_Y"}, {"MouthForm", "PARAM_MOUTH_FORM"},
      {"EyeBlink", "PARAM_EYE_L_OPEN"},     {"EyeBlink", "PARAM_EYE_R_OPEN"}};
  for (const auto& standard : kStandard) {
    const std::string name = standard.first;
    const std::int32_t p = rig.find_parameter(standard.second);
    if (p < 0) continue;
    auto role = std::find_if(rig.roles.begin(), rig.roles.end(), [&](const Role& r) { return r.role == name; });
    if (role == rig.roles.end()) role = rig.roles.insert(rig.roles.end(), Role{name, {}});
    role->parameters.push_back(static_cast<std::uint32_t>(p));
  }
}

}  // namespace

bool is_model2(const Node& root) { return !root.has("FileReferences") && root.has("model"); }

void import_model2(Sources& sources, const Node& root, ImportResult& result) {
  read_moc(sources, root.at("model").string(), result);
  Rig& rig = result.rig;
  for (const Node& t : root.elements_of("textures")) rig.textures.push_back(read_texture(sources.read(t.string()), t.string(), false));
  read_initial_values(root, rig, result.report);
  // A side file that is not there (a widget package may lack one) is left out, as the
  // framework goes on without it.
  auto there = [&](const Node& file) {
    if (sources.exists(file.string())) return true;
    result.report.dropped.push_back(file.note(quote_id(file.string()) + " is not there: left out"));
    return false;
  };
  if (const auto physics = root.find("physics"); physics && !physics->json().is_null() && there(*physics)) {
    const Document doc = sources.read_json(physics->string());
    read_physics2(Node(doc), rig, result.report);
  }
  if (const auto pose = root.find("pose"); pose && !pose->json().is_null() && there(*pose)) {
    const Document doc = sources.read_json(pose->string());
    read_pose2(Node(doc), rig, result.report);
  }
  for (const Node& e : root.elements_of("expressions")) {
    const std::string name = e.at("name").string();
    for (const Expression& other : rig.expressions)
      if (other.id == name) result.report.dropped.push_back(e.note("a second expression named " + quote_id(name)));
    if (!there(e.at("file"))) continue;
    const Document doc = sources.read_json(e.at("file").string());
    read_exp2(Node(doc), name, rig, result.report);
  }
  read_motions(sources, root, result);
  add_cubism2_roles(rig);
  read_hit_area_list(root.elements_of("hit_areas"), "id", "name", rig, result.report);  // as a model3.json's
  report_unused(root, {"type", "name", "version", "model", "textures", "physics", "pose", "expressions", "motions", "hit_areas",
                       "init_param", "init_parts_visible"},
                result.report);
}

void list_model2_files(const Node& root, const std::function<void(const std::string&)>& add) {
  add(root.at("model").string());
  for (const Node& t : root.elements_of("textures")) add(t.string());
  if (const auto f = root.find("physics"); f && !f->json().is_null()) add(f->string());
  if (const auto f = root.find("pose"); f && !f->json().is_null()) add(f->string());
  for (const Node& e : root.elements_of("expressions")) add(e.at("file").string());
  if (const auto list = root.find("motions"))
    for (const std::string& group : list->keys())
      for (const Node& entry : list->at(group.c_str()).elements()) add(entry.at("file").string());
}

}  // namespace p2l::cubism
