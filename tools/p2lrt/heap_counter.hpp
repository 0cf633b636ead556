// The heap bytes the program holds, for p2lrt bench's memory figures. The library has no API
// that says how much a Rig, a Model or an Instance takes, so the tool replaces the global
// allocator (heap_counter.cpp) with one that keeps the live bytes: an object's cost is the
// difference before and after making it.
#pragma once

#include <cstdint>

namespace p2lrt {

// False where the C library cannot say a block's size (not glibc, not macOS): then nothing counts.
bool heap_counting();
std::int64_t live_heap_bytes();

}  // namespace p2lrt
