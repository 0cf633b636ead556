// Chunk compression: deflate (a zlib stream, RFC 1950) and zstd (one frame, RFC 8878,
// no dictionary). Decompression grows its output as the codec produces it, so a chunk
// whose raw_length lies cannot make the reader allocate more than twice what really
// comes out (and never more than raw_length).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "format/aligned_buffer.hpp"
#include "p2l/format.hpp"

namespace p2l::format {

// Decompresses `stored` into exactly `raw_length` bytes. On failure returns an empty
// buffer and sets `why` (the stream is corrupt, too short or too long).
AlignedBuffer decompress(Compression method, std::span<const std::uint8_t> stored, std::uint64_t raw_length,
                         std::string& why);

// Compresses `raw` with `method` at `level` (0: the default). Deterministic for a
// given library version and level.
std::vector<std::uint8_t> compress(Compression method, std::span<const std::uint8_t> raw, int level);

std::uint32_t crc32(std::span<const std::uint8_t> bytes);

}  // namespace p2l::format
