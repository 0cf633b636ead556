// import_cubism: the model3.json, then the files it names in a fixed order (the order the
// META source hash covers them in, docs/IMPORT.md), each into the rig the moc3 made.
#include "p2l/cubism.hpp"

#include <map>
#include <set>

#include "import/cubism/side_files.hpp"
#include "import/cubism2/moc_import.hpp"
#include "import/cubism/sources.hpp"

namespace p2l {
namespace cubism {
namespace {

namespace fs = std::filesystem;

// The moc3's core chunks; its report lines and errors are prefixed with its file.
void read_moc3(const std::vector<std::uint8_t>& bytes, const std::string& file, CoreRules rules, ImportResult& result) {
  ImportResult moc = import_moc3(bytes, {rules});
  if (!moc) fail(moc.error.code, file + ": " + moc.error.message);
  result.rig = std::move(moc.rig);
  for (const std::string& line : moc.report.dropped) result.report.dropped.push_back(file + ": " + line);
}

template <class Read>
void side_file(Sources& sources, const std::string& reference, Read read, ImportResult& result) {
  if (reference.empty()) return;
  const Document doc = sources.read_json(reference);
  read(Node(doc), result.rig, result.report);
}

// "motion/haru_g_m07.motion3.json" -> "haru_g_m07".
std::string clip_id(const std::string& file) {
  std::string name = fs::path(file).filename().string();
  for (std::string suffix : {".motion3.json", ".json"})
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      name.resize(name.size() - suffix.size());
      break;
    }
  return name;
}

// One clip a motion file: a clip has one group, so a file listed again (Haru lists most of
// its Idle motions under Use too) keeps its first group.
void read_motions(Sources& sources, const std::vector<MotionRef>& motions, const CubismImportOptions& options,
                  ImportResult& result) {
  std::map<std::string, std::string> group_of;  // normal file path -> its clip's group
  std::set<std::string> ids;
  for (const MotionRef& ref : motions) {
    const std::string file = fs::path(ref.file).lexically_normal().generic_string();
    if (auto seen = group_of.find(file); seen != group_of.end()) {
      result.report.dropped.push_back(ref.where + ": " + quote_id(ref.file) +
                                      " is listed again: a clip has one group, so it stays in " +
                                      quote_id(seen->second) + " only");
      continue;
    }
    group_of.emplace(file, ref.group);
    std::string id = clip_id(file);
    if (ids.contains(id)) {
      int n = 2;
      while (ids.contains(id + "-" + std::to_string(n))) ++n;
      const std::string unique = id + "-" + std::to_string(n);
      result.report.dropped.push_back(ref.where + ": another motion file is named " + quote_id(id) +
                                      ": this clip's id is " + quote_id(unique));
      id = unique;
    }
    ids.insert(id);
    const Document doc = sources.read_json(ref.file);
    read_motion3(Node(doc), ref, id, options.cubism_playback, result.rig, result.report);
  }
}

void finish(Sources& sources, const std::string& source, Rig& rig) {
  rig.meta.push_back({"generator", "p2lrt import"});
  rig.meta.push_back({"generator_version", P2L_VERSION_STRING});
  rig.meta.push_back({"source", source});
  rig.meta.push_back({"source_hash", sources.source_hash()});
  // The side files were checked against the moc as they were read; this is the net.
  const Error e = validate(rig);
  if (!e.ok()) fail(e.code, "the imported rig does not validate: " + e.message);
}

// [own]: the model3.json as [sources] reads it (a path on disk, a name through a reader);
// [name] its file name, as messages and META name it.
void import_model3(Sources& sources, const std::string& own, const std::string& name, const CubismImportOptions& options,
                   ImportResult& result) {
  const Document settings = parse_document(name, sources.read_own(own, name));
  const Node root(settings);
  if (is_model2(root)) {
    // A Cubism 2 model.json: under Cubism 2's rules whatever the options ask.
    import_model2(sources, root, result);
    if (options.rules != CoreRules::Cubism)
      result.report.dropped.push_back(name + ": a Cubism 2 model imports under Cubism 2's rules only (asked for the format's own)");
    finish(sources, name, result.rig);
    return;
  }
  const Model3 m = read_model3(root, result.report);
  read_moc3(sources.read(m.moc), m.moc, options.rules, result);
  for (const std::string& t : m.textures)
    result.rig.textures.push_back(read_texture(sources.read(t), t, options.external_textures));
  report_missing_pages(root, result.rig, result.report);
  side_file(sources, m.physics, read_physics3, result);
  side_file(sources, m.pose, read_pose3, result);
  if (result.rig.pose) result.rig.pose->cubism_playback = options.cubism_playback;
  side_file(sources, m.display_info, read_cdi3, result);
  side_file(sources, m.user_data, read_userdata3, result);
  for (const ExpressionRef& e : m.expressions) {
    for (const Expression& other : result.rig.expressions)
      if (other.id == e.name) result.report.dropped.push_back(name + ": a second expression named " + quote_id(e.name));
    const Document doc = sources.read_json(e.file);
    read_exp3(Node(doc), e.name, options.cubism_playback, result.rig, result.report);
  }
  read_motions(sources, m.motions, options, result);
  read_groups(root, result.rig, result.report);
  add_standard_roles(result.rig);
  read_hit_areas(root, result.rig, result.report);
  finish(sources, name, result.rig);
}

void import_bare_moc3(Sources& sources, const std::string& own, const std::string& name, const CubismImportOptions& options,
                      ImportResult& result) {
  const std::vector<std::uint8_t> bytes = sources.read_own(own, name);
  if (bytes.size() >= 4 && bytes[0] == 'm' && bytes[1] == 'o' && bytes[2] == 'c' && bytes[3] <= cubism2::kLastVersion) {
    // A Cubism 2 .moc: its own reader, under Cubism 2's rules whatever the options ask.
    ImportResult moc = cubism2::import_moc(bytes);
    if (!moc) fail(moc.error.code, name + ": " + moc.error.message);
    result.rig = std::move(moc.rig);
    for (const std::string& line : moc.report.dropped) result.report.dropped.push_back(name + ": " + line);
    if (options.rules != CoreRules::Cubism)
      result.report.dropped.push_back(name + ": a Cubism 2 model imports under Cubism 2's rules only (asked for the format's own)");
  } else {
    read_moc3(bytes, name, options.rules, result);
  }
  add_standard_roles(result.rig);
  finish(sources, name, result.rig);
}

// A model3.json (a name ending in .json) or a bare moc3.
void import_any(Sources& sources, const std::string& own, const std::string& name, const CubismImportOptions& options,
                ImportResult& result) {
  if (fs::path(name).extension() == ".json")
    import_model3(sources, own, name, options, result);
  else
    import_bare_moc3(sources, own, name, options, result);
}

}  // namespace
}  // namespace cubism

ImportResult import_cubism(const std::filesystem::path& model, const CubismImportOptions& options) {
  ImportResult result;
  result.error = cubism::guarded([&] {
    cubism::Sources sources(model.parent_path());
    cubism::import_any(sources, model.string(), model.filename().string(), options, result);
  });
  if (!result.error.ok()) result.rig = Rig{};
  return result;
}

CubismFiles cubism_files(const std::string& model, const CubismFileReader& read) {
  CubismFiles files;
  files.error = cubism::guarded([&] {
    if (!read) cubism::fail(ErrorCode::BadReference, model + ": no reader to read it with");
    const std::filesystem::path path(model);
    const std::string own = path.lexically_normal().generic_string(), name = path.filename().string();
    files.names.push_back(own);
    if (path.extension() != ".json") return;
    cubism::Sources sources(path.parent_path().generic_string(), read);
    const cubism::Document settings = cubism::parse_document(name, sources.read_own(own, name));
    std::set<std::string> seen{own};
    const auto add = [&](const std::string& reference) {
      if (reference.empty()) return;
      std::string joined = sources.name_of(reference);
      if (seen.insert(joined).second) files.names.push_back(std::move(joined));
    };
    if (cubism::is_model2(cubism::Node(settings))) return cubism::list_model2_files(cubism::Node(settings), add);
    ImportReport unused;
    const cubism::Model3 m = cubism::read_model3(cubism::Node(settings), unused);
    // The import's order (import_model3 above).
    add(m.moc);
    for (const std::string& t : m.textures) add(t);
    for (const std::string* f : {&m.physics, &m.pose, &m.display_info, &m.user_data}) add(*f);
    for (const cubism::ExpressionRef& e : m.expressions) add(e.file);
    for (const cubism::MotionRef& motion : m.motions) add(motion.file);
  });
  if (!files.error.ok()) files.names.clear();
  return files;
}

ImportResult import_cubism(const std::string& model, const CubismFileReader& read, const CubismImportOptions& options) {
  ImportResult result;
  result.error = cubism::guarded([&] {
    if (!read) cubism::fail(ErrorCode::BadReference, model + ": no reader to read it with");
    const std::filesystem::path name(model);
    cubism::Sources sources(name.parent_path().generic_string(), read);
    cubism::import_any(sources, name.lexically_normal().generic_string(), name.filename().string(), options, result);
  });
  if (!result.error.ok()) result.rig = Rig{};
  return result;
}

}  // namespace p2l
