// The host's part of texturing, for the commands that draw (`p2lrt render`, `p2lrt view`): pages
// stored as files next to the rig are read and decoded (PNG) and handed to a renderer; embedded
// PNG pages need nothing; KTX2 pages are not decoded by the commands.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "p2l/render.hpp"
#include "p2l/rig.hpp"

namespace p2lrt {

struct PageRef {
  p2l::TextureKind kind;
  std::string uri;  // an external page's path, relative to the rig file
};

// Gives every external page of [pages] to [give] (page index, decoded straight RGBA; false when
// the renderer refuses it). Returns a line per page whose meshes will draw transparent, saying why.
std::vector<std::string> load_page_files(const std::vector<PageRef>& pages, const std::filesystem::path& folder,
                                         const std::function<bool(std::uint32_t, const p2l::Image&)>& give);

}  // namespace p2lrt
