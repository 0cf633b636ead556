// p2l::Mutex: std::mutex where the platform has threads; where it has none (the WebAssembly
// build: wasi-libc without threads, whose libc++ has no std::mutex) a lock that does nothing,
// which is all a single thread needs. Use it with std::lock_guard.
#pragma once

#include <mutex>

namespace p2l {

#if defined(_LIBCPP_HAS_NO_THREADS) || defined(_LIBCPP_HAS_THREADS) && !_LIBCPP_HAS_THREADS
struct Mutex {
  void lock() noexcept {}
  void unlock() noexcept {}
};
#else
using Mutex = std::mutex;
#endif

}  // namespace p2l
