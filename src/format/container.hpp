// The version-2 container: a 32-byte header, a table of 40-byte chunk entries, and the
// chunks, each 16-byte aligned, optionally compressed. read_container() applies every
// table rule (bounds, alignment, overlap, padding, duplicate tags, CRC, compression) and
// hands back each chunk's decompressed bytes.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "p2l/format.hpp"

namespace p2l::format {

inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::size_t kEntrySize = 40;
inline constexpr std::uint32_t kHeaderNamesStripped = 1;
inline constexpr std::uint16_t kChunkRequired = 1;
inline constexpr std::uint16_t kChunkHasCrc = 2;
inline constexpr char kMagic[8] = {'P', '2', 'L', 'R', 'T', 0, 0, 0};

struct ChunkBytes {
  ChunkEntry entry;
  std::span<const std::uint8_t> bytes;  // decompressed content
  std::shared_ptr<const void> owner;    // keeps `bytes` alive (null: the caller's buffer)
  bool decompressed = false;
};

// A u64 from the file as an address on this machine, or false when it does not fit:
// a 32-bit reader rejects what it cannot address instead of truncating it.
template <class Size>
bool to_address(std::uint64_t value, Size& out) {
  if (value > std::numeric_limits<Size>::max()) return false;
  out = static_cast<Size>(value);
  return true;
}

// Reads the header and chunk table only (major 2). Fills `info`.
bool read_table(std::span<const std::uint8_t> file, FileInfo& info, Error& error);

// For a table read_table() accepted (from these bytes or an identical copy): verifies
// CRCs when asked and decompresses every chunk.
bool read_chunks(std::span<const std::uint8_t> file, const std::shared_ptr<const void>& owner,
                 const LoadOptions& options, const FileInfo& info, std::vector<ChunkBytes>& chunks, Error& error);

// read_table() then read_chunks().
bool read_container(std::span<const std::uint8_t> file, const std::shared_ptr<const void>& owner,
                    const LoadOptions& options, FileInfo& info, std::vector<ChunkBytes>& chunks, Error& error);

}  // namespace p2l::format
