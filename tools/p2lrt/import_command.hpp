// `p2lrt import`: a Cubism model (.moc3, or .model3.json and the files it names) to .p2lrt.
#pragma once

#include <string>

#include "p2l/rig.hpp"

namespace p2lrt {

// Writes [out_path]; prints the import report and a summary. Returns the exit code.
// [external_textures]: texture pages refer to the PNG files (relative to the output's folder);
// [rules]: which core rules the moc3 becomes (p2l::Moc3ImportOptions).
int import_cubism(const std::string& in_path, const std::string& out_path, bool external_textures, p2l::CoreRules rules);

}  // namespace p2lrt
