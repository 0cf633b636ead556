// Importing Cubism models: the moc3 importer (in the p2l library: exception-free, no JSON)
// and the shared result type. The whole-model importer (model3.json with its side files)
// is in p2l/cubism.hpp, library p2l_cubism.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/rig.hpp"

namespace p2l {

// What an import could not carry over exactly, one line a thing, each naming the object
// ("parameter ParamAngleX: 2 decimal places ..."). Empty: nothing was lost.
struct ImportReport {
  std::vector<std::string> dropped;
};

struct ImportResult {
  Rig rig;
  ImportReport report;
  Error error;
  explicit operator bool() const { return error.ok(); }
};

struct Moc3ImportOptions {
  // Cubism (the default): core chunks version 2, which evaluate as the Cubism Core evaluates
  // the moc3, to its last bit on the models measured (docs/IMPORT.md). Original: the format's
  // own rules (version 1, which the original runtime reads too), in canvas pixels; what they
  // cannot express is approximated and the report says so.
  CoreRules rules = CoreRules::Cubism;
};

// A .moc3 (versions 1-5) into the core chunks CANV PARM DEFM PART MESH GLUE DRAW. Every
// offset, count and index is checked before use; a bad file gives an error naming the section.
ImportResult import_moc3(std::span<const std::uint8_t> moc3, const Moc3ImportOptions& options = {});

}  // namespace p2l
