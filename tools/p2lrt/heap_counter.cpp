#include "p2lrt/heap_counter.hpp"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__GLIBC__)
#include <malloc.h>
#define P2LRT_HEAP_SIZE(p) malloc_usable_size(p)
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#define P2LRT_HEAP_SIZE(p) malloc_size(p)
#endif

// The global allocator, counting the live heap bytes as the C library's allocator sizes each
// block (so its rounding counts too), at the cost of one relaxed atomic add per allocation.
// Memory the libraries allocate with malloc directly (zlib, zstd, libpng work buffers) is not
// seen, which is what the figures want: none of it outlives a call.
#ifdef P2LRT_HEAP_SIZE
namespace {

std::atomic<std::int64_t> g_live_heap_bytes{0};

void* counted_alloc(std::size_t n, std::size_t align) noexcept {
  if (n == 0) n = 1;
  void* p = align <= alignof(std::max_align_t) ? std::malloc(n) : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (p != nullptr) g_live_heap_bytes.fetch_add(static_cast<std::int64_t>(P2LRT_HEAP_SIZE(p)), std::memory_order_relaxed);
  return p;
}

void* counted_or_throw(std::size_t n, std::size_t align) {
  void* p = counted_alloc(n, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  g_live_heap_bytes.fetch_sub(static_cast<std::int64_t>(P2LRT_HEAP_SIZE(p)), std::memory_order_relaxed);
  std::free(p);
}

constexpr std::size_t kPlain = alignof(std::max_align_t);

}  // namespace

void* operator new(std::size_t n) { return counted_or_throw(n, kPlain); }
void* operator new[](std::size_t n) { return counted_or_throw(n, kPlain); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, kPlain); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, kPlain); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
#endif

namespace p2lrt {

#ifdef P2LRT_HEAP_SIZE
bool heap_counting() { return true; }
std::int64_t live_heap_bytes() { return g_live_heap_bytes.load(); }
#else
bool heap_counting() { return false; }
std::int64_t live_heap_bytes() { return 0; }
#endif

}  // namespace p2lrt
