// What the WebAssembly module puts in place of the C++ runtime's failure paths, so that it
// imports nothing: libc++'s verbose abort and operator new's out-of-memory handling would
// otherwise pull in stdio and with it the WASI file functions. A failure traps instead,
// which the host sees as a RuntimeError from the call that failed.
#include <cstddef>
#include <cstdlib>
#include <new>

#include <wasi/api.h>

#if defined(_LIBCPP_VERSION)
#include <__verbose_abort>
_LIBCPP_BEGIN_NAMESPACE_STD
// libc++ 20 declared it noexcept; 19 did not.
#if _LIBCPP_VERSION >= 200000
void __libcpp_verbose_abort(char const*, ...) noexcept { __builtin_trap(); }
#else
void __libcpp_verbose_abort(char const*, ...) { __builtin_trap(); }
#endif
_LIBCPP_END_NAMESPACE_STD
#endif

void* operator new(std::size_t n) {
  if (void* p = std::malloc(n ? n : 1)) return p;
  __builtin_trap();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

// The nothrow and over-aligned forms (the reader's chunk buffers are 16-byte aligned) would
// come from libc++abi, whose new-handler path reaches std::terminate and stdio.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
namespace {
void* aligned(std::size_t n, std::align_val_t a) noexcept {
  const std::size_t align = static_cast<std::size_t>(a);
  const std::size_t size = ((n ? n : 1) + align - 1) / align * align;  // aligned_alloc wants a multiple
  return std::aligned_alloc(align, size);
}
}  // namespace
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = aligned(n, a)) return p;
  __builtin_trap();
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return aligned(n, a); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

// libc++abi's own last words (type_info, terminate) print to stderr before aborting.
extern "C" [[noreturn]] void abort_message(const char*, ...) { __builtin_trap(); }

// Formatting a number into a string (validation messages: std::to_string of a float) runs
// libc's vfprintf, which can reach stderr, and stderr reaches the WASI file calls. The module
// opens no file and never writes to stderr: these answer "bad descriptor" in place of the
// host functions they would import.
extern "C" {
__wasi_errno_t __wasi_fd_close(__wasi_fd_t) { return __WASI_ERRNO_BADF; }
__wasi_errno_t __wasi_fd_seek(__wasi_fd_t, __wasi_filedelta_t, __wasi_whence_t, __wasi_filesize_t*) {
  return __WASI_ERRNO_BADF;
}
__wasi_errno_t __wasi_fd_write(__wasi_fd_t, const __wasi_ciovec_t*, size_t, __wasi_size_t*) { return __WASI_ERRNO_BADF; }
}

// The compiler runtime's 128-bit division references the stack protector's symbols.
extern "C" {
unsigned long __stack_chk_guard = 0x5afe5afeUL;
[[noreturn]] void __stack_chk_fail(void) { __builtin_trap(); }
}
