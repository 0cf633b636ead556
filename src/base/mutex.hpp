// p2l::Mutex: std::mutex where the platform has threads; where it has none (the WebAssembly
// build: wasi-libc without threads, whose libc++ has no std::mutex) a lock that does nothing,
// which is all a single thread needs. Use it with std::lock_guard.
#pragma once

#include <mutex>

namespace p2l {

// P2L_HAS_THREADS: whether the platform's C++ library has threads (0 in the WebAssembly build).
#if defined(_LIBCPP_HAS_NO_THREADS) || defined(_LIBCPP_HAS_THREADS) && !_LIBCPP_HAS_THREADS
#define P2L_HAS_THREADS 0
struct Mutex {
  void lock() noexcept {}
  void unlock() noexcept {}
};
#else
#define P2L_HAS_THREADS 1
using Mutex = std::mutex;
#endif

}  // namespace p2l
