#include "format/compression.hpp"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "base/message.hpp"

namespace p2l::format {
namespace {

// Output that doubles as the codec fills it, capped at the declared raw length.
class GrowingOutput {
 public:
  explicit GrowingOutput(std::uint64_t raw_length, std::size_t stored_size) : limit_(raw_length) {
    // Start near a typical ratio; honest chunks rarely need more than two growth steps.
    std::uint64_t first = std::max<std::uint64_t>(4096, std::uint64_t{stored_size} * 4);
    buffer_ = AlignedBuffer::allocate(static_cast<std::size_t>(std::min(first, limit_)));
  }
  bool ok() const { return static_cast<bool>(buffer_); }
  std::uint8_t* free_space() { return buffer_.data.get() + used_; }
  std::size_t free_size() const { return buffer_.size - used_; }
  void produced(std::size_t n) { used_ += n; }
  std::size_t used() const { return used_; }
  bool full() const { return used_ == limit_; }
  // Makes room for more output; false when the declared length is reached.
  bool grow() {
    if (buffer_.size >= limit_) return false;
    std::uint64_t next = std::min<std::uint64_t>(limit_, std::uint64_t{buffer_.size} * 2);
    AlignedBuffer bigger = AlignedBuffer::allocate(static_cast<std::size_t>(next));
    if (!bigger) return false;
    std::memcpy(bigger.data.get(), buffer_.data.get(), used_);
    buffer_ = std::move(bigger);
    return true;
  }
  AlignedBuffer finish() {
    buffer_.size = used_;
    return std::move(buffer_);
  }

 private:
  std::uint64_t limit_;
  AlignedBuffer buffer_;
  std::size_t used_ = 0;
};

std::string size_mismatch(std::size_t produced, std::uint64_t raw_length) {
  return message("decompresses to {} bytes, raw_length says {}", produced, raw_length);
}

AlignedBuffer inflate_zlib(std::span<const std::uint8_t> stored, std::uint64_t raw_length, std::string& why) {
  GrowingOutput out(raw_length, stored.size());
  if (!out.ok()) return why = "cannot allocate the output", AlignedBuffer{};
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return why = "zlib failed to start", AlignedBuffer{};
  z.next_in = const_cast<Bytef*>(stored.data());
  z.avail_in = static_cast<uInt>(stored.size());
  int rc = Z_OK;
  std::uint8_t overflow[1];
  while (rc != Z_STREAM_END) {
    if (out.free_size() == 0 && !out.grow()) {
      // Declared length reached: the stream must end here without more output.
      z.next_out = overflow;
      z.avail_out = 1;
      rc = inflate(&z, Z_FINISH);
      if (rc == Z_STREAM_END && z.avail_out == 1) break;
      inflateEnd(&z);
      return why = "the zlib stream holds more than raw_length bytes", AlignedBuffer{};
    }
    z.next_out = out.free_space();
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(out.free_size(), 1u << 30));
    uInt before = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    out.produced(before - z.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      inflateEnd(&z);
      return why = "the zlib stream is truncated", AlignedBuffer{};
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      why = message("the zlib stream is corrupt ({})", z.msg ? z.msg : "error");
      inflateEnd(&z);
      return {};
    }
  }
  bool trailing = z.avail_in != 0;
  inflateEnd(&z);
  if (trailing) return why = "bytes follow the end of the zlib stream", AlignedBuffer{};
  if (out.used() != raw_length) return why = size_mismatch(out.used(), raw_length), AlignedBuffer{};
  return out.finish();
}

AlignedBuffer decompress_zstd(std::span<const std::uint8_t> stored, std::uint64_t raw_length, std::string& why) {
  if (ZSTD_getDictID_fromFrame(stored.data(), stored.size()) != 0)
    return why = "the zstd frame needs a dictionary", AlignedBuffer{};
  size_t frame = ZSTD_findFrameCompressedSize(stored.data(), stored.size());
  if (ZSTD_isError(frame))
    return why = message("the zstd frame is truncated or corrupt ({})", ZSTD_getErrorName(frame)), AlignedBuffer{};
  if (frame != stored.size()) return why = "bytes follow the zstd frame", AlignedBuffer{};
  GrowingOutput out(raw_length, stored.size());
  if (!out.ok()) return why = "cannot allocate the output", AlignedBuffer{};
  ZSTD_DStream* ds = ZSTD_createDStream();
  if (!ds) return why = "zstd failed to start", AlignedBuffer{};
  ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, 27);
  ZSTD_inBuffer in{stored.data(), stored.size(), 0};
  size_t rc = 1;
  std::uint8_t overflow[1];
  while (rc != 0) {
    if (out.free_size() == 0 && !out.grow()) {
      ZSTD_outBuffer o{overflow, 1, 0};
      rc = ZSTD_decompressStream(ds, &o, &in);
      if (!ZSTD_isError(rc) && rc == 0 && o.pos == 0) break;
      ZSTD_freeDStream(ds);
      return why = "the zstd frame holds more than raw_length bytes", AlignedBuffer{};
    }
    ZSTD_outBuffer o{out.free_space(), out.free_size(), 0};
    std::size_t in_before = in.pos;
    rc = ZSTD_decompressStream(ds, &o, &in);
    out.produced(o.pos);
    if (ZSTD_isError(rc)) {
      why = message("the zstd frame is corrupt ({})", ZSTD_getErrorName(rc));
      ZSTD_freeDStream(ds);
      return {};
    }
    if (rc != 0 && o.pos == 0 && in.pos == in_before && in.pos == in.size) {
      ZSTD_freeDStream(ds);
      return why = "the zstd frame is truncated", AlignedBuffer{};
    }
  }
  ZSTD_freeDStream(ds);
  if (out.used() != raw_length) return why = size_mismatch(out.used(), raw_length), AlignedBuffer{};
  return out.finish();
}

}  // namespace

AlignedBuffer decompress(Compression method, std::span<const std::uint8_t> stored, std::uint64_t raw_length,
                         std::string& why) {
  switch (method) {
    case Compression::Deflate: return inflate_zlib(stored, raw_length, why);
    case Compression::Zstd: return decompress_zstd(stored, raw_length, why);
    default: break;
  }
  why = "not a compression method";
  return {};
}

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  uLong c = ::crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths: feed large inputs in pieces.
  std::size_t at = 0;
  while (at < bytes.size()) {
    std::size_t n = std::min<std::size_t>(bytes.size() - at, 1u << 30);
    c = ::crc32(c, bytes.data() + at, static_cast<uInt>(n));
    at += n;
  }
  return static_cast<std::uint32_t>(c);
}

}  // namespace p2l::format
