// FileReferences.Textures -> TEXR pages.
#include <algorithm>
#include <map>

#include "import/cubism/side_files.hpp"

namespace p2l::cubism {

Texture read_texture(std::span<const std::uint8_t> png, const std::string& reference, bool external) {
  // TEXR needs the page size; a PNG gives it in its first chunk, IHDR.
  static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  static const std::uint8_t kIhdr[4] = {'I', 'H', 'D', 'R'};
  if (png.size() < 24 || !std::equal(kSignature, kSignature + 8, png.begin()) ||
      !std::equal(kIhdr, kIhdr + 4, png.begin() + 12))
    fail(ErrorCode::BadRecord, reference + ": not a PNG file");
  auto be32 = [&](std::size_t at) {
    return std::uint32_t{png[at]} << 24 | std::uint32_t{png[at + 1]} << 16 | std::uint32_t{png[at + 2]} << 8 |
           png[at + 3];
  };
  Texture page;
  page.width = be32(16);
  page.height = be32(20);
  if (external) {
    page.kind = TextureKind::External;
    page.uri = reference;
  } else {
    page.kind = TextureKind::Png;
    page.data = Array<std::uint8_t>(std::vector<std::uint8_t>(png.begin(), png.end()));
  }
  return page;
}

void report_missing_pages(const Node& root, const Rig& rig, ImportReport& report) {
  struct Users {
    std::size_t meshes = 0;
    const std::string* first = nullptr;
  };
  std::map<std::int32_t, Users> missing;  // by page, so that the lines come in page order
  for (const Mesh& mesh : rig.meshes)
    if (mesh.texture_page >= 0 && static_cast<std::size_t>(mesh.texture_page) >= rig.textures.size()) {
      Users& users = missing[mesh.texture_page];
      if (users.meshes++ == 0) users.first = &mesh.id;
    }
  // Named by the path it is missing from, whether the key is there or not.
  const std::string where = root.file() + ": FileReferences.Textures";
  for (const auto& [page, users] : missing) {
    const bool one = users.meshes == 1;
    report.dropped.push_back(where + ": page " + std::to_string(page) + " is not listed (the list has " +
                             std::to_string(rig.textures.size()) + "), yet " + std::to_string(users.meshes) +
                             (one ? " art mesh uses it (" : " art meshes use it (") + quote_id(*users.first) +
                             (one ? "): it draws nothing" : " first): they draw nothing"));
  }
}

}  // namespace p2l::cubism
