// p2l::sized: gives `list` n default values for the caller to fill in place, where a count
// is known before the loop that fills it (a count read from the file, one entry per record
// of the rig).
//
// Why not reserve() and push_back(): push_back carries libc++'s growth path (reallocate,
// move every element across, destroy the old ones), instantiated once per element type, and
// moving a finished record into the list needs the record's move constructor too. Over the
// model's hundred types that cost the WebAssembly module kilobytes; a vector constructed at
// its size needs neither.
//
// Why swap rather than `list = std::vector<T>(n)`: move assignment inlines the old list's
// clean-up (destroy each element, free) into every instantiation, where after a swap the
// temporary's destructor does it, and that destructor exists for each type anyway. Over the
// forty-odd types sized this way that was 3 KB of the WebAssembly module.
#pragma once

#include <cstddef>
#include <vector>

namespace p2l {

template <class T>
std::vector<T>& sized(std::vector<T>& list, std::size_t n) {
  std::vector<T>(n).swap(list);
  return list;
}

}  // namespace p2l
