// moc3 -> p2l::Rig: the core chunks (CANV PARM DEFM PART MESH GLUE DRAW) of a Cubism model,
// in canvas pixels (y down) so that the p2lrt core evaluates it as the Cubism Core does.
// Work in progress for issue 4: moc versions 1-3 content (no colours, no blend shapes yet);
// everything the rig cannot express goes into the report.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/rig.hpp"

namespace p2l {

struct ImportReport {
  std::vector<std::string> dropped;  // what the rig does not keep, one line each
};

struct ImportResult {
  Rig rig;
  ImportReport report;
  Error error;
  explicit operator bool() const { return error.ok(); }
};

ImportResult import_moc3(std::span<const std::uint8_t> moc3);

}  // namespace p2l
