// The writer's compressors (format/compression.hpp), apart from the decompressors: modules
// that write nothing compressed leave them out (web/compress_absent.cpp).
#include <zlib.h>
#include <zstd.h>

#include "format/compression.hpp"

namespace p2l::format {

std::vector<std::uint8_t> compress(Compression method, std::span<const std::uint8_t> raw, int level) {
  std::vector<std::uint8_t> out;
  if (method == Compression::Deflate) {
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    out.resize(size);
    int rc = compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), level > 0 ? level : 9);
    out.resize(rc == Z_OK ? size : 0);
  } else if (method == Compression::Zstd) {
    out.resize(ZSTD_compressBound(raw.size()));
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    // No checksum, no dictionary id, content size in the header: one plain frame.
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level > 0 ? level : 19);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
    size_t n = ZSTD_compress2(cctx, out.data(), out.size(), raw.data(), raw.size());
    ZSTD_freeCCtx(cctx);
    out.resize(ZSTD_isError(n) ? 0 : n);
  }
  return out;
}

}  // namespace p2l::format
