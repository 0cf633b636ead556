// A Cubism 2 .moc as a rig (p2l::cubism2::import_moc): the model read by read_moc, built under
// Cubism's rules (core chunks version 2, the rules p2lrt evaluates moc3 files by), which the 2.1
// runtime's rules largely are: positions in canvas pixels at the root, warps over their parent's
// normalised space, rotations probing their parent, keyforms absolute and interpolated over
// their parameters' keys, objects hidden outside their keys. How close that evaluation comes to
// the runtime is measured against live2d.min.js (docs/IMPORT.md, "Cubism 2 models"); the
// report says what is not carried over exactly.
#pragma once

#include <cstdint>
#include <span>

#include "import/cubism2/moc_file.hpp"
#include "p2l/import.hpp"

namespace p2l::cubism2 {

// The rig of a model read by read_moc (no texture pages: a model.json names them).
ImportResult import_moc(const Moc& moc);
// read_moc, then the above.
ImportResult import_moc(std::span<const std::uint8_t> bytes);

}  // namespace p2l::cubism2
