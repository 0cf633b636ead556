// p2l::sort_keyed: sorts (key, index) entries by key, equal keys by index - the order a
// stable sort by key gives, without a stable sort's buffer. The draw order and the reader's
// chunk-overlap check both sort this way.
//
// Why the entries become 64-bit numbers for the sort: the sparse keyform grid and the
// validator already sort 64-bit numbers with std::sort, and each std::sort instantiation is
// an introsort of about 3 KB in the WebAssembly module. The indices are unique, so
// (key - lowest key) shifted above the index bits, or'ed with the index, sorts exactly as
// (key, index) does whenever the keys' range leaves room for the index - draw orders and
// chunk offsets always do in practice. Keys further apart fall back to a small heap sort;
// either way the order is the one total order (key, index), so the result is the same.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "base/heap_sort.hpp"

namespace p2l {

struct KeyedIndex {
  std::int64_t key;
  std::uint32_t index;  // unique among the entries sorted together
};

struct KeyedIndexLess {
  bool operator()(const KeyedIndex& a, const KeyedIndex& b) const {
    return a.key != b.key ? a.key < b.key : a.index < b.index;
  }
};

inline void sort_keyed(KeyedIndex* first, KeyedIndex* last) {
  const std::size_t n = static_cast<std::size_t>(last - first);
  if (n < 2) return;
  // Already in order, as a draw-order group mostly is (its children keep the one draw order
  // 500 at most poses, in tree order): nothing to do.
  std::size_t sorted = 1;
  while (sorted < n && KeyedIndexLess{}(first[sorted - 1], first[sorted])) ++sorted;
  if (sorted == n) return;
  std::int64_t low = first[0].key, high = low;
  std::uint32_t indices = 0;
  for (std::size_t i = 0; i < n; ++i) {
    low = std::min(low, first[i].key);
    high = std::max(high, first[i].key);
    indices |= first[i].index;
  }
  const int bits = std::bit_width(indices);
  const std::uint64_t base = static_cast<std::uint64_t>(low);
  if (bits == 0 || ((static_cast<std::uint64_t>(high) - base) >> (64 - bits)) != 0) {
    heap_sort(first, n, KeyedIndexLess{});  // keys too far apart to pack
    return;
  }
  // The numbers are written over the entries' own storage (entry i is read before number i
  // overwrites the first half of entry i / 2), and read back from the last: no buffer. The
  // copies go through memcpy, which is what makes reusing the storage for another type sound.
  static_assert(sizeof(KeyedIndex) >= sizeof(std::uint64_t) && alignof(KeyedIndex) >= alignof(std::uint64_t));
  unsigned char* const bytes = reinterpret_cast<unsigned char*>(first);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t number = ((static_cast<std::uint64_t>(first[i].key) - base) << bits) | first[i].index;
    std::memcpy(bytes + i * sizeof number, &number, sizeof number);
  }
  std::uint64_t* const numbers = reinterpret_cast<std::uint64_t*>(bytes);
  std::sort(numbers, numbers + n);
  const std::uint64_t index_mask = (std::uint64_t{1} << bits) - 1;
  for (std::size_t i = n; i-- > 0;) {
    std::uint64_t number;
    std::memcpy(&number, bytes + i * sizeof number, sizeof number);
    const KeyedIndex entry{static_cast<std::int64_t>((number >> bits) + base),
                           static_cast<std::uint32_t>(number & index_mask)};
    std::memcpy(static_cast<void*>(first + i), &entry, sizeof entry);
  }
}

// Sorts entries whose order is last time's sorted order with new keys, as a draw-order group
// is from one evaluation to the next: an insertion sort, a few moves where a few keys moved,
// finished by sort_keyed when the moves pass about one per entry (keys shuffled, or a file
// made to reverse its draw order every frame). The same total order (key, index), so the same
// result as sort_keyed from any starting order. Not inlined: one copy for both draw-order
// walks (the WebAssembly module's budget).
[[gnu::noinline]] inline void resort_keyed(KeyedIndex* first, KeyedIndex* last) {
  const std::size_t n = static_cast<std::size_t>(last - first);
  std::size_t budget = n + 16;
  for (std::size_t i = 1; i < n; ++i) {
    const KeyedIndex x = first[i];
    std::size_t j = i;
    while (j > 0 && KeyedIndexLess{}(x, first[j - 1])) {
      first[j] = first[j - 1];
      --j;
      if (--budget == 0) {
        first[j] = x;
        sort_keyed(first, last);
        return;
      }
    }
    first[j] = x;
  }
}

}  // namespace p2l
