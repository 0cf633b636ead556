// p2l::heap_sort: an in-place sort in n log n steps whatever the input, and small. The
// fallback of p2l::sort_keyed (keys too far apart to pack) and of the WebAssembly module's
// introsort (web/wasm_sort.cpp) past its depth limit.
#pragma once

#include <cstddef>
#include <utility>

namespace p2l {

template <class T, class Less>
void heap_sort(T* a, std::size_t n, Less less) {
  const auto sift = [&](std::size_t root, std::size_t end) {
    const T v = a[root];
    for (;;) {
      std::size_t child = 2 * root + 1;
      if (child >= end) break;
      if (child + 1 < end && less(a[child], a[child + 1])) ++child;
      if (!less(v, a[child])) break;
      a[root] = a[child];
      root = child;
    }
    a[root] = v;
  };
  for (std::size_t i = n / 2; i-- > 0;) sift(i, n);
  for (std::size_t end = n; end-- > 1;) {
    std::swap(a[0], a[end]);
    sift(0, end);
  }
}

}  // namespace p2l
