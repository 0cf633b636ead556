// Library-wide entry points: versions, the host's log function, the allocator stubs, and
// the error-reporting helpers the other files share.
#include <cstdlib>
#include <mutex>

#include "base/exceptions.hpp"
#include "base/mutex.hpp"
#include <new>

#include "capi/handle.hpp"
#include "p2l/format.hpp"

#ifndef P2L_VERSION_STRING
#define P2L_VERSION_STRING "0.1.0"
#endif

namespace p2l::capi {
namespace {

// The host's log function. The callback is copied out under the lock and called outside
// it, so a callback may itself call p2l_set_log.
struct LogTarget {
  P2lLog function = nullptr;
  void* user = nullptr;
};
p2l::Mutex log_mutex;
LogTarget log_target;

}  // namespace

void log(std::int32_t level, const char* message) noexcept {
  P2L_TRY {
    LogTarget target;
    {
      std::lock_guard<p2l::Mutex> lock(log_mutex);
      target = log_target;
    }
    if (target.function != nullptr) target.function(level, message, target.user);
  } P2L_CATCH_ALL {
    // Neither a failed lock nor a C++ host's callback that throws may unwind into the caller.
  }
}

void write_error(std::string_view message, char* error, std::size_t capacity) noexcept {
  if (error == nullptr || capacity == 0) return;
  std::size_t n = message.size() < capacity - 1 ? message.size() : capacity - 1;
  if (n > 0) std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

std::string current_exception_message() noexcept {
#if P2L_HAS_EXCEPTIONS
  try {
    try {
      throw;
    } catch (const std::bad_alloc&) {
      return "out of memory";
    } catch (const std::exception& e) {
      return e.what();
    } catch (...) {
      return "unknown exception";
    }
  } catch (...) {
    return {};  // building the text itself ran out of memory
  }
#else
  return {};  // nothing is ever caught in a build without exceptions
#endif
}

}  // namespace p2l::capi

extern "C" {

uint32_t p2l_abi_version(void) { return P2L_ABI_VERSION; }

const char* p2l_version(void) { return P2L_VERSION_STRING; }

const char* p2l_format_support(void) { return p2l::format_support(); }

void p2l_set_log(P2lLog log, void* user) {
  P2L_TRY {
    std::lock_guard<p2l::Mutex> lock(p2l::capi::log_mutex);
    p2l::capi::log_target = {log, user};
  } P2L_CATCH_ALL {
    // std::mutex::lock only throws when the system refuses; the setting stays as it was.
  }
}

bool p2l_set_allocator(P2lAllocate allocate, P2lFree free, void* user) {
  // Memory comes from the C++ runtime in this build; there is no host allocator to switch to.
  static_cast<void>(allocate);
  static_cast<void>(free);
  static_cast<void>(user);
  return false;
}

uint8_t* p2l_alloc(size_t len) {
  // calloc(1, 1) for 0 bytes gives a unique pointer that p2l_dealloc frees like any other.
  return static_cast<uint8_t*>(std::calloc(len == 0 ? 1 : len, 1));
}

void p2l_dealloc(uint8_t* pointer, size_t len) {
  static_cast<void>(len);
  std::free(pointer);
}

}  // extern "C"
