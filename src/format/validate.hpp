// Everything a rig's records must satisfy beyond their byte layout: references in range,
// parents before children, keys ascending, sizes that match. One pass serves loaded
// files (errors then carry the record's offset) and rigs built by hand before writing.
#pragma once

#include "format/record_reader.hpp"
#include "p2l/format.hpp"

namespace p2l::format {

Error validate_rig(const Rig& rig, const RecordOffsets* offsets);

}  // namespace p2l::format
