// model3.json: the list of files the model is made of, and what the importer does not use.
#include "import/cubism/side_files.hpp"

#include <algorithm>
#include <utility>

namespace p2l::cubism {

void report_unused(const Node& object, std::initializer_list<const char*> used, ImportReport& report) {
  for (const std::string& key : object.keys()) {
    bool known = false;
    for (const char* u : used) known |= key == u;
    if (!known) report.dropped.push_back(object.at(key.c_str()).note("not carried over"));
  }
}

namespace {

// A side file's name, or "" without one: missing, or null (Cubism's Framework reads a null
// reference as no file; seen in exports: "Physics": null).
std::string optional_file(const Node& refs, const char* key) {
  const auto member = refs.find(key);
  return member && !member->json().is_null() ? member->string() : std::string();
}

void motions(const Node& list, Model3& m, ImportReport& report) {
  for (const std::string& group : list.keys()) {
    for (const Node& entry : list.at(group.c_str()).elements()) {
      MotionRef ref;
      ref.group = group;
      ref.file = entry.at("File").string();
      ref.where = entry.where();
      // A negative fade means "none given": the motion3.json's own, or the runtime's default.
      ref.fade_in = entry.number_or("FadeInTime", -1);
      ref.fade_out = entry.number_or("FadeOutTime", -1);
      static const struct {
        const char* key;
        const char* what;
      } kMedia[] = {{"Sound", "sound file "}, {"MotionSync", "motion-sync file "}};
      for (const auto& media : kMedia)
        if (const auto f = entry.find(media.key))
          report.dropped.push_back(
              f->note(media.what + quote_id(f->string()) + " not carried over (clips have no audio)"));
      report_unused(entry, {"File", "FadeInTime", "FadeOutTime", "Sound", "MotionSync"}, report);
      m.motions.push_back(std::move(ref));
    }
  }
}

}  // namespace

Model3 read_model3(const Node& root, ImportReport& report) {
  Model3 m;
  const Node refs = root.at("FileReferences");
  m.moc = refs.at("Moc").string();
  for (const Node& t : refs.elements_of("Textures")) m.textures.push_back(t.string());
  m.physics = optional_file(refs, "Physics");
  m.pose = optional_file(refs, "Pose");
  m.display_info = optional_file(refs, "DisplayInfo");
  m.user_data = optional_file(refs, "UserData");
  for (const Node& e : refs.elements_of("Expressions")) {
    m.expressions.push_back({e.at("Name").string(), e.at("File").string()});
    report_unused(e, {"Name", "File"}, report);
  }
  if (const auto list = refs.find("Motions")) motions(*list, m, report);
  report_unused(refs, {"Moc", "Textures", "Physics", "Pose", "DisplayInfo", "UserData", "Expressions", "Motions"},
                report);
  report_unused(root, {"Version", "FileReferences", "Groups", "HitAreas"}, report);
  return m;
}

void read_groups(const Node& root, Rig& rig, ImportReport& report) {
  for (const Node& g : root.elements_of("Groups")) {
    const Node target = g.at("Target");
    const std::string name = g.at("Name").string();
    // Cubism's Framework knows parameter groups only.
    if (target.string() != "Parameter") {
      report.dropped.push_back(target.note("group " + quote_id(name) + " of target " + quote_id(target.string()) +
                                           " dropped (roles are parameter groups)"));
      continue;
    }
    Role role;
    role.role = name;
    for (const Node& id : g.elements_of("Ids")) {
      const std::int32_t p = rig.find_parameter(id.string());
      // The Framework drives a virtual parameter then, which nothing reads.
      if (p < 0) {
        report.dropped.push_back(
            id.note("no parameter " + quote_id(id.string()) + ": left out of role " + quote_id(name)));
        continue;
      }
      role.parameters.push_back(static_cast<std::uint32_t>(p));
    }
    report_unused(g, {"Target", "Name", "Ids"}, report);
    rig.roles.push_back(std::move(role));
  }
}

void add_standard_roles(Rig& rig) {
  static constexpr std::pair<const char*, const char*> kStandard[] = {
      {"AngleX", "ParamAngleX"},         {"AngleY", "ParamAngleY"},     {"AngleZ", "ParamAngleZ"},
      {"BodyAngleX", "ParamBodyAngleX"}, {"EyeBallX", "ParamEyeBallX"}, {"EyeBallY", "ParamEyeBallY"},
      {"Breath", "ParamBreath"},         {"LipSync", "ParamMouthOpenY"}, {"MouthForm", "ParamMouthForm"},
      // Cubism's MotionSync vowel parameters.
      {"VowelA", "ParamA"},              {"VowelI", "ParamI"},          {"VowelU", "ParamU"},
      {"VowelE", "ParamE"},              {"VowelO", "ParamO"}};
  for (const auto& standard : kStandard) {
    const std::string name = standard.first;
    const std::int32_t p = rig.find_parameter(standard.second);
    const bool named = std::any_of(rig.roles.begin(), rig.roles.end(), [&](const Role& r) { return r.role == name; });
    if (p < 0 || named) continue;
    rig.roles.push_back(Role{name, {static_cast<std::uint32_t>(p)}});
  }
}

// A hit area's id and name are both the model3 Name ("Head"): hosts ported from Cubism's
// samples look hit areas up by that name, and an id survives stripped names. The Cubism
// Id is the art mesh, kept as the area's mesh.
void read_hit_areas(const Node& root, Rig& rig, ImportReport& report) {
  read_hit_area_list(root.elements_of("HitAreas"), "Id", "Name", rig, report);
}

void read_hit_area_list(const std::vector<Node>& list, const char* id_key, const char* name_key, Rig& rig, ImportReport& report) {
  for (const Node& h : list) {
    const Node id = h.at(id_key);
    HitArea area;
    area.name = h.string_or(name_key, "");
    area.id = area.name.empty() ? id.string() : area.name;
    for (const HitArea& other : rig.hit_areas)
      if (other.id == area.id) report.dropped.push_back(h.note("a second hit area named " + quote_id(area.id)));
    const std::int32_t mesh = rig.find_mesh(id.string());
    // Cubism's hit test never hits a drawable the moc lacks; an area without meshes neither.
    if (mesh < 0)
      report.dropped.push_back(
          id.note("no art mesh " + quote_id(id.string()) + ": hit area " + quote_id(area.id) + " has no mesh"));
    else
      area.meshes.push_back(static_cast<std::uint32_t>(mesh));
    report_unused(h, {id_key, name_key}, report);
    rig.hit_areas.push_back(std::move(area));
  }
}

}  // namespace p2l::cubism
