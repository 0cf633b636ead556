// A stress test of the module's allocator (web/wasm_malloc.cpp), built into a module of its
// own (p2l_malloc_test.wasm) and run by web/test/malloc_stress.mjs: random malloc, calloc,
// realloc, aligned_alloc and free, with every live block filled with its own pattern and the
// pattern checked before the block is resized or freed, so an overlap, a lost byte or a
// bad merge shows. Sizes run from 0 to 256 KiB, mostly small, as a rig's load makes them.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "splitmix.hpp"

namespace {

constexpr int kSlots = 512;
struct Slot {
  unsigned char* p;
  std::uint32_t size, tag;
};
Slot slots[kSlots];

std::uint32_t random_size() {
  const std::uint32_t kind = splitmix_next() % 16;
  if (kind < 10) return splitmix_next() % 128;
  if (kind < 14) return splitmix_next() % 4096;
  if (kind < 15) return splitmix_next() % 65536;
  return splitmix_next() % (1u << 18);
}

unsigned char pattern(std::uint32_t tag, std::uint32_t i) { return static_cast<unsigned char>(tag * 31u + i * 7u + (i >> 8)); }
void fill(Slot& s) {
  for (std::uint32_t i = 0; i < s.size; ++i) s.p[i] = pattern(s.tag, i);
}
bool intact(const Slot& s, std::uint32_t upto) {
  for (std::uint32_t i = 0; i < upto; ++i)
    if (s.p[i] != pattern(s.tag, i)) return false;
  return true;
}
bool aligned(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

}  // namespace

// Runs [operations] random operations from [seed]; returns 0, or the number (from 1) of the
// first operation that found something wrong.
extern "C" __attribute__((export_name("run"))) int run(std::uint32_t seed, std::uint32_t operations) {
  splitmix_state = seed;
  std::uint32_t tags = 1;
  for (std::uint32_t op = 1; op <= operations; ++op) {
    Slot& s = slots[splitmix_next() % kSlots];
    const std::uint32_t what = splitmix_next() % 8;
    if (s.p && !intact(s, s.size)) return static_cast<int>(op);
    if (s.p && what < 3) {
      std::free(s.p);
      s.p = nullptr;
    } else if (s.p && what < 5) {  // realloc keeps what fits
      const std::uint32_t size = random_size();
      unsigned char* q = static_cast<unsigned char*>(std::realloc(s.p, size));
      if (!q) return static_cast<int>(op);
      s.p = q;
      if (!aligned(q) || !intact(s, size < s.size ? size : s.size)) return static_cast<int>(op);
      s.size = size;
      s.tag = tags++;
      fill(s);
    } else if (!s.p) {
      const std::uint32_t size = random_size();
      if (what == 5) {
        s.p = static_cast<unsigned char*>(std::calloc(size, 1));
        if (s.p)
          for (std::uint32_t i = 0; i < size; ++i)
            if (s.p[i] != 0) return static_cast<int>(op);
      } else if (what == 6) {
        s.p = static_cast<unsigned char*>(std::aligned_alloc(16, size));
      } else {
        s.p = static_cast<unsigned char*>(std::malloc(size));
      }
      if (!s.p || !aligned(s.p)) return static_cast<int>(op);
      s.size = size;
      s.tag = tags++;
      fill(s);
    }
  }
  // Everything back, each block checked a last time.
  for (Slot& s : slots) {
    if (s.p && !intact(s, s.size)) return static_cast<int>(operations + 1);
    std::free(s.p);
    s.p = nullptr;
  }
  // Refusals: a size past the 32-bit address space and an alignment the allocator lacks.
  if (std::malloc(0xFFFFFFF0u) != nullptr || std::aligned_alloc(64, 64) != nullptr) return static_cast<int>(operations + 2);
  return 0;
}
