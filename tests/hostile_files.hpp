// Files made to hurt a reader, for the regression tests and the fuzz seeds: each one is a
// finding of the fuzzers or a published crash class, rebuilt from p2lrt's own rigs (no
// model's bytes) so that it can be committed and regenerated.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "full_rig.hpp"
#include "p2l/format.hpp"

namespace p2l_test {

// The full rig with its first snap list {30, key}: out of order for any key below 30, which
// the writer would refuse, so the bytes are patched after writing (no CRCs written). The
// load fuzzer's first finding had key -3.99e37: the validator's message then formatted it
// through an undefined float-to-integer conversion.
inline std::vector<std::uint8_t> descending_snap_file(float key) {
  p2l::Rig rig = make_full_rig();
  constexpr float kMarker = 12345.625f;  // a value nothing else in the rig holds
  rig.gui->snaps[0].values = {30.0f, kMarker};
  p2l::WriteOptions options;
  options.crc = false;
  std::vector<std::uint8_t> bytes = p2l::write(rig, options).bytes;
  std::array<std::uint8_t, 4> marker, patch;
  std::memcpy(marker.data(), &kMarker, 4);
  std::memcpy(patch.data(), &key, 4);
  auto at = std::search(bytes.begin(), bytes.end(), marker.begin(), marker.end());
  if (at != bytes.end()) std::copy(patch.begin(), patch.end(), at);
  return bytes;
}

}  // namespace p2l_test
