// p2l_cubism.h's import flags as the importer's options: one reading for the C API
// (capi_import.cpp) and the WebAssembly import module (web/import_module.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "p2l/cubism.hpp"
#include "p2l/p2l_cubism.h"

namespace p2l::cubism {

inline constexpr std::uint32_t kKnownImportFlags =
    P2L_IMPORT_ORIGINAL_RULES | P2L_IMPORT_P2LRT_PLAYBACK | P2L_IMPORT_EXTERNAL_TEXTURES;

// False, with [message] set, for a bit the import does not know.
inline bool options_from_flags(std::uint32_t flags, CubismImportOptions& options, std::string& message) {
  if ((flags & ~kKnownImportFlags) != 0) {
    message = "Unknown import flags " + std::to_string(flags & ~kKnownImportFlags);
    return false;
  }
  options.rules = (flags & P2L_IMPORT_ORIGINAL_RULES) != 0 ? CoreRules::Original : CoreRules::Cubism;
  options.cubism_playback = (flags & P2L_IMPORT_P2LRT_PLAYBACK) == 0;
  options.external_textures = (flags & P2L_IMPORT_EXTERNAL_TEXTURES) != 0;
  return true;
}

}  // namespace p2l::cubism
