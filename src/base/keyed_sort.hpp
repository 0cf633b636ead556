// p2l::sort_keyed: sorts (key, index) entries by key, equal keys by index - the order a
// stable sort by key gives, without a stable sort's buffer. The draw order and the reader's
// chunk-overlap check both sort this way; doing it through this one function keeps a single
// copy of std::sort's introsort (about 3 KB of the WebAssembly module each) instead of an
// introsort and a merge sort.
#pragma once

#include <algorithm>
#include <cstdint>

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

inline void sort_keyed(KeyedIndex* first, KeyedIndex* last) { std::sort(first, last, KeyedIndexLess{}); }

}  // namespace p2l
