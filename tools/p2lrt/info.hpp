// `p2lrt info`: a person-readable account of a file: header, chunk table, rig contents.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>

#include "p2l/format.hpp"

namespace p2lrt {

void print_info(std::ostream& out, const std::string& path, std::span<const std::uint8_t> bytes,
                const p2l::LoadResult& loaded);

}  // namespace p2lrt
