// Reading and writing .p2lrt files (version 1 and 2) into and out of p2l::Rig.
// Nothing here throws: every failure comes back as a p2l::Error naming the chunk,
// the offset and what was expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l {

// Stable numbers for every way a load or a write can fail (the C API returns them too).
enum class ErrorCode : std::uint16_t {
  Ok = 0,
  NotP2lrt = 1,            // magic is not "P2LRT\0\0\0"
  UnsupportedVersion = 2,  // major is neither 1 nor 2
  Truncated = 3,           // the file or a chunk ends early
  BadHeader = 4,           // toc_offset, reserved fields
  BadChunkTable = 5,       // tag, alignment, bounds, overlap, padding
  DuplicateChunk = 6,
  MissingChunk = 7,
  RequiredFeature = 8,  // an unknown chunk marked required
  CrcMismatch = 9,
  BadCompression = 10,  // reserved method, failed or wrong-length decompression
  TooLarge = 11,        // beyond the address width or the configured limits
  BadRecord = 12,       // a record's bytes do not parse (over-/under-read, bad enum, codec)
  NonFinite = 13,
  BadReference = 14,  // an index out of range
  BadStructure = 15,  // order, sizes, keys and other cross-field rules
  BadString = 16,
  WriteUnsupported = 17,  // the model cannot be written as asked
};

const char* error_code_name(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::Ok;
  std::string chunk;          // four-character tag, or empty for the header and table
  std::int64_t offset = -1;   // byte offset in the file, or in the decompressed chunk (see in_chunk)
  bool in_chunk = false;      // offset counts from the start of the chunk's decompressed content
  std::string message;        // what was expected, in words
  bool ok() const { return code == ErrorCode::Ok; }
  std::string to_string() const;  // "chunk MESH, offset 1234: ..."
};

enum class Compression : std::uint8_t { None = 0, Deflate = 1, Zstd = 2 };

// One table-of-contents entry as stored (version 2), for `info` and diagnostics.
struct ChunkEntry {
  std::string tag;
  std::uint16_t version = 0;
  std::uint16_t flags = 0;
  std::uint64_t offset = 0, length = 0, raw_length = 0;
  std::uint32_t crc = 0;
  bool required() const { return flags & 1; }
  bool has_crc() const { return flags & 2; }
  Compression compression() const { return static_cast<Compression>((flags >> 2) & 3); }
  bool known = false;        // parsed into the Rig; otherwise kept as a RawChunk
  std::uint64_t records = 0;  // the chunk's leading record count, where it has one
};

struct FileInfo {
  std::uint16_t major = 0, minor = 0;
  std::uint32_t flags = 0;
  std::vector<ChunkEntry> chunks;  // empty for version 1
};

struct LoadOptions {
  bool verify_crc = false;  // load flag bit0: check CRCs of chunks that carry one
  // Use the caller's bytes in place: arrays of uncompressed chunks point into them, so
  // the caller must keep them alive and unchanged as long as the Rig lives. Without it
  // the bytes are copied once into a buffer the Rig owns.
  bool borrow = false;
  std::uint64_t max_chunk_bytes = std::uint64_t{1} << 30;  // per decompressed chunk
  // All compressed chunks' raw_length together: a decompression bomb is refused from the
  // chunk table, before anything is decompressed (docs/RELIABILITY.md).
  std::uint64_t max_total_bytes = std::uint64_t{1} << 30;
};

struct LoadResult {
  std::shared_ptr<const Rig> rig;  // null on failure
  FileInfo info;
  Error error;
  explicit operator bool() const { return rig != nullptr; }
};

LoadResult load(std::span<const std::uint8_t> bytes, const LoadOptions& options = {});

// Only the header and the chunk table: what `p2lrt info` shows before (or without) parsing.
bool read_file_info(std::span<const std::uint8_t> bytes, FileInfo& info, Error& error);

struct WriteOptions {
  int version = 2;  // 1 writes the version-1 layout: core content only
  Compression compression = Compression::None;
  int level = 0;              // 0: the codec's default (zlib 9, zstd 19)
  bool strip_names = false;   // write every name empty, set header flag bit0
  bool publish = false;       // f16 positions/offsets and unorm16 UVs (lossy, smaller)
  bool crc = true;            // store a CRC in every chunk entry
};

struct WriteResult {
  std::vector<std::uint8_t> bytes;
  std::vector<std::string> dropped;  // what the chosen version could not keep
  Error error;
  explicit operator bool() const { return error.ok(); }
};

WriteResult write(const Rig& rig, const WriteOptions& options = {});

// Checks everything a file's records must satisfy; load() runs it, write() too.
Error validate(const Rig& rig);

// "1,2 STRS/1 CANV/3 ... HAIR/1": the majors and chunk versions this library reads.
const char* format_support();

// The chunks this library knows, in the order the writer writes them.
struct KnownChunk {
  char tag[5];
  std::uint16_t version;  // newest version read
};
std::span<const KnownChunk> known_chunks();

}  // namespace p2l
