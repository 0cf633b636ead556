#include "p2lrt/import_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "p2l/cubism.hpp"
#include "p2l/format.hpp"

namespace p2lrt {
namespace {

namespace fs = std::filesystem;

// The library writes external pages relative to the model3.json (it does not know where the
// rig goes); the file written here must find them from its own folder.
void relocate_external_pages(p2l::Rig& rig, const fs::path& model, const fs::path& out) {
  const fs::path from = fs::absolute(model).parent_path(), to = fs::absolute(out).parent_path();
  for (p2l::Texture& t : rig.textures)
    if (t.kind == p2l::TextureKind::External) t.uri = fs::proximate(from / t.uri, to).generic_string();
}

void print_report(const p2l::ImportReport& report) {
  const std::size_t n = report.dropped.size();
  if (n == 0) {
    std::cerr << "import report: nothing lost\n";
    return;
  }
  std::cerr << "import report: " << n << (n == 1 ? " thing" : " things") << " not carried over exactly:\n";
  for (const std::string& line : report.dropped) std::cerr << "  " << line << "\n";
}

}  // namespace

int import_cubism(const std::string& in_path, const std::string& out_path, bool external_textures, p2l::CoreRules rules) {
  p2l::CubismImportOptions options;
  options.external_textures = external_textures;
  options.rules = rules;
  p2l::ImportResult imported = p2l::import_cubism(in_path, options);
  if (!imported) {
    // The message names the file and the JSON path; the moc3 reader's errors may add a place in the moc.
    std::cerr << "p2lrt: import failed: " << imported.error.to_string() << "\n";
    return 1;
  }
  p2l::Rig& rig = imported.rig;
  relocate_external_pages(rig, in_path, out_path);
  p2l::WriteResult w = p2l::write(rig);
  if (!w) {
    std::cerr << "p2lrt: cannot write " << out_path << ": " << w.error.to_string() << "\n";
    return 1;
  }
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
  if (!out) {
    std::cerr << "p2lrt: cannot write " << out_path << "\n";
    return 1;
  }
  print_report(imported.report);
  std::cerr << "imported " << fs::path(in_path).filename().string() << ": " << rig.parameters.size() << " parameters, "
            << rig.parts.size() << " parts, " << rig.meshes.size() << " meshes, " << rig.deformers.size()
            << " deformers, " << rig.clips.size() << " clips, " << rig.expressions.size() << " expressions, "
            << rig.physics.size() << " physics groups, " << rig.textures.size() << " textures -> " << out_path << " ("
            << w.bytes.size() << " bytes)\n";
  return 0;
}

}  // namespace p2lrt
