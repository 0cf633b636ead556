// Replaces the global allocator with one that counts every allocation, so a test can tell
// that a per-frame path allocates nothing. It defines the replaceable operator new/delete
// functions: include it in exactly one source file of a test binary. (tests/alloc_test.cpp
// keeps its own, which also tracks sizes and the peak.)
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace p2l_test {

inline std::atomic<std::size_t> g_allocations{0};

// Allocations made so far in this process.
inline std::size_t allocation_count() { return g_allocations.load(); }

namespace counting_detail {
inline void* counted(std::size_t n, std::size_t align = 0) noexcept {
  g_allocations.fetch_add(1);
  if (n == 0) n = 1;
  if (align <= alignof(std::max_align_t)) return std::malloc(n);
  return std::aligned_alloc(align, (n + align - 1) / align * align);
}
inline void* checked(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace counting_detail

}  // namespace p2l_test

void* operator new(std::size_t n) { return p2l_test::counting_detail::checked(p2l_test::counting_detail::counted(n)); }
void* operator new[](std::size_t n) { return p2l_test::counting_detail::checked(p2l_test::counting_detail::counted(n)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return p2l_test::counting_detail::counted(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return p2l_test::counting_detail::counted(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  return p2l_test::counting_detail::checked(p2l_test::counting_detail::counted(n, static_cast<std::size_t>(a)));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return p2l_test::counting_detail::checked(p2l_test::counting_detail::counted(n, static_cast<std::size_t>(a)));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return p2l_test::counting_detail::counted(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return p2l_test::counting_detail::counted(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
