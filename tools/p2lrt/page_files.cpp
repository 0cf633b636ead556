#include "p2lrt/page_files.hpp"

#include <fstream>
#include <iterator>

namespace p2lrt {

std::vector<std::string> load_page_files(const std::vector<PageRef>& pages, const std::filesystem::path& folder,
                                         const std::function<bool(std::uint32_t, const p2l::Image&)>& give) {
  std::vector<std::string> problems;
  for (std::uint32_t page = 0; page < pages.size(); ++page) {
    if (pages[page].kind == p2l::TextureKind::Png) continue;
    std::string problem = "KTX2, which this command does not decode";
    if (pages[page].kind == p2l::TextureKind::External) {
      const std::filesystem::path file = folder / pages[page].uri;
      std::ifstream in(file, std::ios::binary);
      const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
      p2l::Image image;
      std::string error;
      if (!in && bytes.empty())
        problem = "the file " + file.string() + ", which cannot be opened";
      else if (!p2l::decode_png(bytes, image, error))
        problem = "the file " + file.string() + ": " + error;
      else if (give(page, image))
        continue;
      else
        problem = "the file " + file.string() + ", which the renderer refused";
    }
    problems.push_back("texture page " + std::to_string(page) + " is " + problem + ": its meshes draw transparent");
  }
  return problems;
}

}  // namespace p2lrt
