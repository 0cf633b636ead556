// Texture pages in large (2 MiB) memory pages where the system offers them on request (Linux's
// transparent huge pages in "madvise" mode). The renderer samples a page down its rows: each
// texel row of a 2048-texel page is 8 KiB, so with 4 KiB pages nearly every row a triangle
// reads is another TLB entry, and the misses cost as much as the sampling (Haru's and Mao's
// 16 MiB pages). Large pages cover a page of texels with eight entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__) && !defined(__EMSCRIPTEN__) && !defined(__wasi__)
#include <sys/mman.h>
#endif

namespace p2l::render {

// Reserves [bytes] in [buffer] (empty) and asks for large pages over the whole 2 MiB blocks of
// its storage; the request must come before the storage is first written, which is when the
// system backs it. Only a hint: without it the buffer is the same, in small pages.
inline void reserve_in_large_pages(std::vector<std::uint8_t>& buffer, std::size_t bytes) {
  buffer.reserve(bytes);
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && !defined(__wasi__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kLarge = std::uintptr_t{2} << 20;
  const auto start = reinterpret_cast<std::uintptr_t>(buffer.data());
  const std::uintptr_t begin = (start + kLarge - 1) & ~(kLarge - 1), end = (start + buffer.capacity()) & ~(kLarge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace p2l::render
