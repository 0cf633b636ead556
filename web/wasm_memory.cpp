// memcpy, memmove and memset as WebAssembly's bulk memory instructions (memory.copy,
// memory.fill) in place of wasi-libc's unrolled loops: those are about 2.7 KB of the module,
// these a few bytes each, and the engine's own copy is as fast or faster. Every engine with
// the SIMD the module already needs (docs/WEB.md) has bulk memory.
//
// memchr and strlen a byte at a time, in place of wasi-libc's word-at-a-time versions (half
// a kilobyte): the runtime uses them only on names and messages (std::string's find and
// construction from C strings), never in a frame.
//
// Built with bulk memory, outside link-time optimisation (web/CMakeLists.txt): under LTO the
// module's features are the union of every function's, so the whole runtime would switch to
// bulk memory, which made it larger. With bulk memory on, the compiler emits the builtins
// below as the instructions themselves, never as calls back into these functions; without
// builtins it does not see the loops below as memchr and strlen either.
#include <cstddef>

extern "C" {

void* memcpy(void* __restrict to, const void* __restrict from, std::size_t n) {
  __builtin_memcpy(to, from, n);
  return to;
}

void* memmove(void* to, const void* from, std::size_t n) {
  __builtin_memmove(to, from, n);
  return to;
}

void* memset(void* to, int value, std::size_t n) {
  __builtin_memset(to, value, n);
  return to;
}

void* memchr(const void* from, int value, std::size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(from);
  for (; n; --n, ++p)
    if (*p == static_cast<unsigned char>(value)) return const_cast<unsigned char*>(p);
  return nullptr;
}

std::size_t strlen(const char* text) {
  const char* p = text;
  while (*p) ++p;
  return static_cast<std::size_t>(p - text);
}

}  // extern "C"
