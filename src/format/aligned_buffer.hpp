// A shared, 16-byte aligned byte block: decompressed chunks and the copy of a loaded file
// live in these so that their f32/u16/u32 arrays can be used in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

namespace p2l::format {

inline constexpr std::size_t kChunkAlignment = 16;

struct AlignedBuffer {
  std::shared_ptr<std::uint8_t> data;
  std::size_t size = 0;

  static AlignedBuffer allocate(std::size_t size) {
    AlignedBuffer b;
    auto* p = static_cast<std::uint8_t*>(
        ::operator new[](size ? size : 1, std::align_val_t{kChunkAlignment}, std::nothrow));
    if (!p) return b;
    b.data = std::shared_ptr<std::uint8_t>(
        p, [](std::uint8_t* q) { ::operator delete[](q, std::align_val_t{kChunkAlignment}); });
    b.size = size;
    return b;
  }
  static AlignedBuffer copy_of(const std::uint8_t* bytes, std::size_t size) {
    AlignedBuffer b = allocate(size);
    if (b.data && size) std::memcpy(b.data.get(), bytes, size);
    return b;
  }
  explicit operator bool() const { return data != nullptr; }
};

}  // namespace p2l::format
