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

// A .moc3 (versions 1-5) into the core chunks CANV PARM DEFM PART MESH GLUE DRAW, in canvas
// pixels (y down), evaluating in p2lrt as the Cubism Core evaluates the moc. Every offset,
// count and index is checked before use; a bad file gives an error naming the section.
ImportResult import_moc3(std::span<const std::uint8_t> moc3);

}  // namespace p2l
