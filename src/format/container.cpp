#include "format/container.hpp"

#include <algorithm>
#include <string>

#include "base/keyed_sort.hpp"
#include "base/message.hpp"
#include "base/sized.hpp"
#include "format/byte_reader.hpp"
#include "format/compression.hpp"

namespace p2l::format {
namespace {

// Sets `error` in place (no Error to build and move at each of the many failures below).
void set_error(Error& error, ErrorCode code, std::string chunk, std::uint64_t offset, std::string message) {
  error.code = code;
  error.chunk = std::move(chunk);
  error.offset = static_cast<std::int64_t>(offset);
  error.in_chunk = false;
  error.message = std::move(message);
}

bool valid_tag(const std::string& tag) {
  return std::all_of(tag.begin(), tag.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
}

// Canonical tags are upper case (with digits); vendor tags have a lower-case letter.
bool canonical_tag(const std::string& tag) {
  return std::none_of(tag.begin(), tag.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

std::string printable_tag(const std::uint8_t* p) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    char c = static_cast<char>(p[i]);
    if (c >= 0x20 && c < 0x7F) {
      s += c;
    } else {
      static const char* hex = "0123456789ABCDEF";
      s += "\\x";
      s += hex[(p[i] >> 4) & 15];
      s += hex[p[i] & 15];
    }
  }
  return s;
}

}  // namespace

bool read_table(std::span<const std::uint8_t> file, FileInfo& info, Error& error) {
  ByteReader r(file, "", 0, true);
  const std::uint8_t* magic = r.take(8, "the 8-byte magic");
  if (!magic || std::memcmp(magic, kMagic, 8) != 0) {
    if (r.ok())
      set_error(error, ErrorCode::NotP2lrt, "", 0, "expected the magic \"P2LRT\\0\\0\\0\"");
    else
      error = r.take_error();
    if (error.code == ErrorCode::Truncated) error.code = ErrorCode::NotP2lrt;
    return false;
  }
  std::uint32_t version = r.u32("the version");
  if (!r.ok()) return error = r.take_error(), false;
  info.major = static_cast<std::uint16_t>(version & 0xFFFF);
  info.minor = static_cast<std::uint16_t>(version >> 16);
  if (version == 1) {
    info.major = 1;
    info.minor = 0;
    return true;
  }
  if (info.major != 2) {
    set_error(error, ErrorCode::UnsupportedVersion, "", 8,
                        message("expected major version 1 or 2, found {}", info.major));
    return false;
  }
  if (file.size() < kHeaderSize) {
    set_error(error, ErrorCode::Truncated, "", file.size(),
                        message("expected a 32-byte header, the file has {} bytes", file.size()));
    return false;
  }
  info.flags = r.u32();
  std::uint32_t count = r.u32();
  std::uint32_t toc_offset = r.u32();
  if (toc_offset != kHeaderSize) {
    set_error(error, ErrorCode::BadHeader, "", 20,
                        message("expected toc_offset 32 (the table follows the header), found {}", toc_offset));
    return false;
  }
  std::uint64_t table_end = kHeaderSize + std::uint64_t{count} * kEntrySize;
  if (table_end > file.size()) {
    set_error(error, ErrorCode::Truncated, "", 16,
                        message("the chunk table of {} entries needs {} bytes, the file has {}", count, table_end,
                                file.size()));
    return false;
  }
  info.chunks.clear();
  info.chunks.reserve(count);
  ByteReader t(file.subspan(kHeaderSize, count * kEntrySize), "", kHeaderSize, true);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::size_t at = kHeaderSize + std::size_t{i} * kEntrySize;
    const std::uint8_t* tag = t.take(4, "a chunk tag");
    ChunkEntry e;
    e.tag.assign(reinterpret_cast<const char*>(tag), 4);
    e.version = t.u16();
    e.flags = t.u16();
    e.offset = t.u64();
    e.length = t.u64();
    e.raw_length = t.u64();
    e.crc = t.u32();
    t.u32();  // reserved
    if (!valid_tag(e.tag)) {
      set_error(error, ErrorCode::BadChunkTable, printable_tag(tag), at,
                          message("expected a tag of four ASCII letters or digits in table entry {}", i));
      return false;
    }
    std::size_t offset = 0, length = 0;
    if (!to_address(e.offset, offset) || !to_address(e.length, length)) {
      set_error(error, ErrorCode::TooLarge, e.tag, at + 8,
                          "offset or length exceeds this reader's address width");
      return false;
    }
    if (e.offset % 16 != 0) {
      set_error(error, ErrorCode::BadChunkTable, e.tag, at + 8,
                          message("expected a 16-byte aligned offset, found {}", e.offset));
      return false;
    }
    if (e.offset < table_end || e.length > file.size() || e.offset > file.size() - e.length) {
      set_error(error, ErrorCode::BadChunkTable, e.tag, at + 8,
                          message("chunk at {} of {} bytes lies outside the file's data area [{}, {})", e.offset,
                                  e.length, table_end, file.size()));
      return false;
    }
    info.chunks.push_back(std::move(e));
  }

  // Chunks may not overlap; what lies between and after them is padding: zeros, and
  // shorter than one alignment step.
  // By offset, equal offsets in table order (every offset is within the file, checked above).
  std::vector<KeyedIndex> order(info.chunks.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = {static_cast<std::int64_t>(info.chunks[i].offset), static_cast<std::uint32_t>(i)};
  sort_keyed(order.data(), order.data() + order.size());
  auto is_padding = [&](std::uint64_t from, std::uint64_t to) {
    if (to - from >= 16) return false;
    for (std::uint64_t k = from; k < to; ++k)
      if (file[k] != 0) return false;
    return true;
  };
  std::uint64_t end = table_end;
  for (const KeyedIndex& o : order) {
    const ChunkEntry& e = info.chunks[o.index];
    if (e.offset < end) {
      set_error(error, ErrorCode::BadChunkTable, e.tag, e.offset,
                          message("chunk overlaps the one before it, which ends at {}", end));
      return false;
    }
    if (!is_padding(end, e.offset)) {
      set_error(error, ErrorCode::BadChunkTable, e.tag, end,
                          message("expected at most 15 zero bytes of padding before the chunk, found {} bytes that "
                                  "are not all zero padding",
                                  e.offset - end));
      return false;
    }
    end = e.offset + e.length;
  }
  if (!is_padding(end, file.size())) {
    set_error(error, ErrorCode::BadChunkTable, "", end,
                        message("expected the file to end after the last chunk (and at most 15 zero bytes of "
                                "padding), found {} more bytes",
                                file.size() - end));
    return false;
  }

  // A canonical tag may appear once.
  for (std::size_t i = 0; i < info.chunks.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (info.chunks[i].tag == info.chunks[j].tag && canonical_tag(info.chunks[i].tag)) {
        set_error(error, ErrorCode::DuplicateChunk, info.chunks[i].tag, kHeaderSize + i * kEntrySize,
                            message("expected each canonical tag at most once; table entries {} and {} share it", j,
                                    i));
        return false;
      }
    }
  }
  return true;
}

bool read_container(std::span<const std::uint8_t> file, const std::shared_ptr<const void>& owner,
                    const LoadOptions& options, FileInfo& info, std::vector<ChunkBytes>& chunks, Error& error) {
  return read_table(file, info, error) && read_chunks(file, owner, options, info, chunks, error);
}

bool read_chunks(std::span<const std::uint8_t> file, const std::shared_ptr<const void>& owner,
                 const LoadOptions& options, const FileInfo& info, std::vector<ChunkBytes>& chunks, Error& error) {
  // A decompression bomb (a few kilobytes of zstd that expand to gigabytes) is refused from
  // the table, before anything is decompressed: the compressed chunks' declared lengths
  // together must stay within the reader's budget. No codec ever writes past a declared
  // length, so this bounds the memory the chunks take.
  std::uint64_t declared = 0;
  for (std::size_t i = 0; i < info.chunks.size(); ++i) {
    const ChunkEntry& e = info.chunks[i];
    if (e.compression() == Compression::None) continue;
    if (e.raw_length > options.max_chunk_bytes) {
      set_error(error, ErrorCode::TooLarge, e.tag, kHeaderSize + i * kEntrySize + 24,
                message("raw_length {} exceeds the reader's limit of {} bytes a chunk", e.raw_length,
                        options.max_chunk_bytes));
      return false;
    }
    if (e.raw_length > options.max_total_bytes - declared) {
      set_error(error, ErrorCode::TooLarge, e.tag, kHeaderSize + i * kEntrySize + 24,
                message("raw_length {} takes the compressed chunks past the reader's limit of {} bytes a file "
                        "({} declared before this one)",
                        e.raw_length, options.max_total_bytes, declared));
      return false;
    }
    declared += e.raw_length;
  }
  // Filled in place (base/sized.hpp says why); on failure the caller drops them.
  sized(chunks, info.chunks.size());
  for (std::size_t i = 0; i < info.chunks.size(); ++i) {
    const ChunkEntry& e = info.chunks[i];
    std::uint64_t entry_at = kHeaderSize + i * kEntrySize;
    auto stored = file.subspan(static_cast<std::size_t>(e.offset), static_cast<std::size_t>(e.length));
    if (options.verify_crc && e.has_crc()) {
      std::uint32_t actual = crc32(stored);
      if (actual != e.crc) {
        set_error(error, ErrorCode::CrcMismatch, e.tag, e.offset,
                            message("chunk fails its CRC: the table says {}, the bytes give {}", e.crc, actual));
        return false;
      }
    }
    ChunkBytes& c = chunks[i];
    c.entry = e;
    switch (e.compression()) {
      case Compression::None:
        if (e.raw_length != e.length) {
          set_error(error, ErrorCode::BadChunkTable, e.tag, entry_at + 24,
                              message("an uncompressed chunk needs raw_length equal to length ({}), found {}", e.length,
                                      e.raw_length));
          return false;
        }
        c.bytes = stored;
        c.owner = owner;
        break;
      case Compression::Deflate:
      case Compression::Zstd: {
        std::size_t raw = 0;
        if (!to_address(e.raw_length, raw) || e.raw_length > options.max_chunk_bytes) {
          set_error(error, ErrorCode::TooLarge, e.tag, entry_at + 24,
                              message("raw_length {} exceeds the reader's limit of {} bytes a chunk", e.raw_length,
                                      options.max_chunk_bytes));
          return false;
        }
        std::string why;
        AlignedBuffer out = decompress(e.compression(), stored, e.raw_length, why);
        if (!out) {
          set_error(error, ErrorCode::BadCompression, e.tag, e.offset,
                              message("{} chunk does not decompress: {}",
                                      e.compression() == Compression::Deflate ? "deflate" : "zstd", why));
          return false;
        }
        c.bytes = {out.data.get(), out.size};
        c.owner = out.data;
        c.decompressed = true;
        break;
      }
      default:
        set_error(error, ErrorCode::BadCompression, e.tag, entry_at + 6,
                            "compression method 3 is reserved (expected 0 none, 1 deflate or 2 zstd)");
        return false;
    }
  }
  return true;
}

}  // namespace p2l::format
