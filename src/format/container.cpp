#include "format/container.hpp"

#include <algorithm>
#include <limits>
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

void set_outside(Error& error, const ChunkEntry& e, std::uint64_t at, std::uint64_t table_end, std::uint64_t file_size) {
  set_error(error, ErrorCode::BadChunkTable, e.tag, at,
            message("chunk at {} of {} bytes lies outside the file's data area [{}, {})", e.offset, e.length,
                    table_end, file_size));
}

// [e] runs past the end of the file: what it needs, and how much of it is there.
void set_truncated(Error& error, const ChunkEntry& e, std::uint64_t file_size) {
  const std::string where = file_size > e.offset ? message("{} bytes into it", file_size - e.offset)
                                                 : std::string("before it");
  set_error(error, ErrorCode::Truncated, e.tag, e.offset,
            message("the file is truncated: the chunk's data needs {} bytes, the file ends {} (at {})", e.length,
                    where, file_size));
}

// The chunks in offset order: none overlaps the one before it, and what lies between and after
// them is padding (zeros, shorter than one alignment step). A layout that is sound but runs
// past the end of the file is a file cut short (a download or a copy stopped early): Truncated,
// naming the chunk the file ends in or before. The bytes past the end cannot be read, so the
// chunks there are checked for overlap and spacing only; an overlap or a gap is the table's
// fault and is reported as such, before the truncation.
bool check_layout(std::span<const std::uint8_t> file, std::uint64_t table_end, const FileInfo& info, Error& error) {
  // By offset, equal offsets in table order (every chunk ends before 2^63, checked before).
  std::vector<KeyedIndex> order(info.chunks.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = {static_cast<std::int64_t>(info.chunks[i].offset), static_cast<std::uint32_t>(i)};
  sort_keyed(order.data(), order.data() + order.size());
  auto is_padding = [&](std::uint64_t from, std::uint64_t to) {
    if (to - from >= 16) return false;
    for (std::uint64_t k = from; k < std::min<std::uint64_t>(to, file.size()); ++k)
      if (file[k] != 0) return false;
    return true;
  };
  const ChunkEntry* cut = nullptr;  // the first chunk past the end of the file
  std::uint64_t end = table_end;
  for (const KeyedIndex& o : order) {
    const ChunkEntry& e = info.chunks[o.index];
    if (e.offset < end) {
      set_error(error, ErrorCode::BadChunkTable, e.tag, e.offset,
                message("chunk overlaps the one before it, which ends at {}", end));
      return false;
    }
    if (!is_padding(end, e.offset)) {
      if (e.offset >= file.size()) {
        set_outside(error, e, kHeaderSize + std::uint64_t{o.index} * kEntrySize + 8, table_end, file.size());
        return false;
      }
      set_error(error, ErrorCode::BadChunkTable, e.tag, end,
                message("expected at most 15 zero bytes of padding before the chunk, found {} bytes that "
                        "are not all zero padding",
                        e.offset - end));
      return false;
    }
    end = e.offset + e.length;
    if (cut == nullptr && end > file.size()) cut = &e;
  }
  if (cut != nullptr) {
    set_truncated(error, *cut, file.size());
    return false;
  }
  if (!is_padding(end, file.size())) {
    set_error(error, ErrorCode::BadChunkTable, "", end,
              message("expected the file to end after the last chunk (and at most 15 zero bytes of "
                      "padding), found {} more bytes",
                      file.size() - end));
    return false;
  }
  return true;
}

}  // namespace

bool read_table(std::span<const std::uint8_t> file, FileInfo& info, Error& error) {
  ByteReader r(file, "", 0, true);
  // The messages say in words what the error's code says (Error::to_string() shows no code):
  // "not a .p2lrt file", "the file is truncated".
  const std::uint8_t* magic = r.take(8, "the 8-byte magic");
  if (!magic || std::memcmp(magic, kMagic, 8) != 0) {
    set_error(error, ErrorCode::NotP2lrt, "", 0,
              magic ? std::string("not a .p2lrt file: expected the magic \"P2LRT\\0\\0\\0\"")
                    : message("not a .p2lrt file: it has {} bytes, fewer than the 8-byte magic", file.size()));
    return false;
  }
  std::uint32_t version = r.u32("the version");
  if (!r.ok()) {
    error = r.take_error();
    error.message = message("the file is truncated: {}", error.message);
    return false;
  }
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
              message("the file is truncated: expected a 32-byte header, the file has {} bytes", file.size()));
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
              message("the file is truncated: the chunk table of {} entries needs {} bytes, the file has {}", count,
                      table_end, file.size()));
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
    // Inside the header or table, or ending past 2^63 (past any file there can be; it also keeps
    // offsets sortable as signed keys): the table is wrong. A chunk that merely runs past this
    // file's end is left to check_layout(), which tells a file cut short from a bad table.
    constexpr std::uint64_t kNoFileEnds = std::numeric_limits<std::int64_t>::max();
    if (e.offset < table_end || e.offset > kNoFileEnds || e.length > kNoFileEnds - e.offset) {
      set_outside(error, e, at + 8, table_end, file.size());
      return false;
    }
    info.chunks.push_back(std::move(e));
  }
  if (!check_layout(file, table_end, info, error)) return false;

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
