// std::sort of 64-bit unsigned numbers, in place of the copy libc++ builds. The runtime sorts
// only such numbers (the sparse keyform grid, the validator's keyform cells, and through
// p2l::sort_keyed the draw order and the chunk table); libc++'s sort for them is about
// 4.5 KB of the module (its introsort with five-element networks, a partial sort as the
// fallback), this one under 1 KB: a quicksort on the median of three, insertion sort for
// short ranges, a heap sort past twice log2(n) levels, as libc++'s own. Numbers have one
// sorted order, so the result is the same whichever sort gives it.
//
// libc++ 19 declares this instantiation extern (its library defines it, weakly) and every
// std::sort over unsigned long long calls it; defining the symbol here takes its place.
#include <cstddef>
#include <utility>

#include "base/heap_sort.hpp"

#if defined(_LIBCPP_VERSION)
namespace {

using Number = unsigned long long;

void introsort(Number* first, Number* last, int depth) {
  while (last - first > 16) {
    if (depth-- == 0) {
      p2l::heap_sort(first, static_cast<std::size_t>(last - first), [](Number a, Number b) { return a < b; });
      return;
    }
    // The median of first, middle and last at *first (the pivot), the largest at last[-1]:
    // both scans below then stop without bounds checks.
    Number* const middle = first + (last - first) / 2;
    if (*middle < *first) std::swap(*middle, *first);
    if (last[-1] < *middle) std::swap(last[-1], *middle);
    if (*middle < *first) std::swap(*middle, *first);
    std::swap(*first, *middle);
    const Number pivot = *first;
    Number* i = first;
    Number* j = last;
    for (;;) {
      do ++i;
      while (*i < pivot);
      do --j;
      while (pivot < *j);
      if (i >= j) break;
      std::swap(*i, *j);
    }
    std::swap(*first, *j);
    // [first, j) <= pivot <= (j, last): the shorter side by recursion, the longer by looping.
    if (j - first < last - j) {
      introsort(first, j, depth);
      first = j + 1;
    } else {
      introsort(j + 1, last, depth);
      last = j;
    }
  }
  for (Number* k = first + 1; k < last; ++k) {
    const Number v = *k;
    Number* at = k;
    for (; at > first && v < at[-1]; --at) *at = at[-1];
    *at = v;
  }
}

}  // namespace

// std::__2::__sort<std::__2::__less<unsigned long long, unsigned long long>&, unsigned long long*>
extern "C" void p2l_sort_numbers(Number* first, Number* last, void* less) __asm__(
    "_ZNSt3__26__sortIRNS_6__lessIyyEEPyEEvT0_S5_T_");
extern "C" void p2l_sort_numbers(Number* first, Number* last, void*) {
  int depth = 0;
  for (std::size_t n = static_cast<std::size_t>(last - first); n > 1; n /= 2) depth += 2;
  introsort(first, last, depth);
}
#endif
