#include "p2lrt/import_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "p2l/import.hpp"
#include "p2l/format.hpp"

namespace p2lrt {
namespace {

bool read(const std::filesystem::path& path, std::vector<std::uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "p2lrt: cannot open " << path.string() << "\n";
    return false;
  }
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

// A PNG's size from its IHDR chunk, or false when the bytes are not a PNG.
bool png_size(const std::vector<std::uint8_t>& b, std::uint32_t& w, std::uint32_t& h) {
  static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (b.size() < 24 || !std::equal(kSignature, kSignature + 8, b.begin()) || std::string(b.begin() + 12, b.begin() + 16) != "IHDR")
    return false;
  auto be32 = [&](std::size_t at) {
    return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
  };
  w = be32(16);
  h = be32(20);
  return true;
}

}  // namespace

int import_cubism(const std::string& in_path, const std::string& out_path) {
  namespace fs = std::filesystem;
  const fs::path input(in_path);
  fs::path moc_path = input;
  std::vector<fs::path> textures;
  std::vector<std::string> not_imported;
  if (input.extension() == ".json") {
    std::vector<std::uint8_t> text;
    if (!read(input, text)) return 1;
    nlohmann::json settings;
    try {
      settings = nlohmann::json::parse(text.begin(), text.end());
      const auto& refs = settings.at("FileReferences");
      moc_path = input.parent_path() / refs.at("Moc").get<std::string>();
      if (refs.contains("Textures"))
        for (const auto& t : refs["Textures"]) textures.push_back(input.parent_path() / t.get<std::string>());
      for (const char* side : {"Physics", "Pose", "DisplayInfo", "UserData", "Expressions", "Motions"})
        if (refs.contains(side)) not_imported.push_back(std::string(side) + " (not imported yet)");
      for (const char* key : {"Groups", "HitAreas"})
        if (settings.contains(key)) not_imported.push_back(std::string(key) + " (not imported yet)");
    } catch (const std::exception& e) {
      std::cerr << "p2lrt: " << in_path << ": not a model3.json this importer reads: " << e.what() << "\n";
      return 1;
    }
  }
  std::vector<std::uint8_t> moc;
  if (!read(moc_path, moc)) return 1;
  auto imported = p2l::import_moc3(moc);
  if (!imported) {
    std::cerr << "p2lrt: " << moc_path.string() << ": " << imported.error.to_string() << "\n";
    return 1;
  }
  for (const fs::path& t : textures) {
    p2l::Texture page;
    std::vector<std::uint8_t> png;
    if (!read(t, png)) return 1;
    if (!png_size(png, page.width, page.height)) {
      std::cerr << "p2lrt: " << t.string() << ": not a PNG\n";
      return 1;
    }
    page.data = p2l::Array<std::uint8_t>(std::move(png));
    imported.rig.textures.push_back(std::move(page));
  }
  imported.rig.meta.push_back({"generator", "p2lrt import 0.1.0"});
  imported.rig.meta.push_back({"source", moc_path.filename().string()});
  p2l::WriteResult w = p2l::write(imported.rig);
  if (!w) {
    std::cerr << "p2lrt: cannot write " << out_path << ": " << w.error.to_string() << "\n";
    return 1;
  }
  std::ofstream out(out_path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
  if (!out) {
    std::cerr << "p2lrt: cannot write " << out_path << "\n";
    return 1;
  }
  for (const auto& line : imported.report.dropped) std::cerr << "import report: " << line << "\n";
  for (const auto& line : not_imported) std::cerr << "import report: " << line << "\n";
  std::cerr << "imported " << moc_path.filename().string() << " (" << imported.rig.meshes.size() << " meshes, "
            << imported.rig.parameters.size() << " parameters, " << textures.size() << " texture pages) into " << out_path
            << " (" << w.bytes.size() << " bytes)\n";
  return 0;
}

}  // namespace p2lrt
