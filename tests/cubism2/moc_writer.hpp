// Writes a Cubism 2 .moc from p2l::cubism2::Moc: the tests' own writer (synthetic models
// for structures the importer must handle, fuzz seeds, round trips through read_moc). The
// layout is the one src/import/cubism2/moc_file.hpp reads; nothing here comes from a model.
#pragma once

#include <cstdint>
#include <vector>

#include "import/cubism2/moc_file.hpp"

namespace p2l_test::cubism2 {

struct MocWriteOptions {
  // Each id string and each keyed object's key list written once, named again by
  // back-reference, as Live2D's editor writes them; false writes every one out.
  bool share = true;
  // Lists of no items written as null, which the runtime reads as empty lists.
  bool empty_lists_as_null = false;
  // Float arrays equal to one written before named by back-reference (hostile files).
  bool share_arrays = false;
};

std::vector<std::uint8_t> write_moc(const p2l::cubism2::Moc& moc, const MocWriteOptions& options = {});

// The stream's compact number: 1 to 4 bytes, 7 bits each (values below 2^28).
void put_compact(std::vector<std::uint8_t>& out, std::uint32_t value);

}  // namespace p2l_test::cubism2
