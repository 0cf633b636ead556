#include "csm/log.hpp"

#include <atomic>
#include <string>

#include "base/exceptions.hpp"

namespace p2l::csm {
namespace {
std::atomic<csmLogFunction> g_log{nullptr};
#if defined(P2L_WASM)
// A WebAssembly module has no way to call a JavaScript function it was not given at start, so
// there the messages wait, at most 4 KB of them, until the JavaScript side takes them.
std::string g_pending, g_taken;
#endif
}  // namespace

csmLogFunction log_function() { return g_log.load(std::memory_order_acquire); }
void set_log_function(csmLogFunction f) { g_log.store(f, std::memory_order_release); }

void log_error(std::string_view function, std::string_view what) {
#if defined(P2L_WASM)
  if (g_pending.size() < 4096) g_pending.append("[CSM] [E]").append(function).append(": ").append(what).append("\n");
#endif
  const csmLogFunction f = log_function();
  if (!f) return;
  P2L_TRY {
    std::string line = "[CSM] [E]";
    line.append(function).append(": ").append(what);
    f(line.c_str());
  }
  P2L_CATCH_ALL {}
}

}  // namespace p2l::csm

#if defined(P2L_WASM)
// The messages logged since the last call, one a line; valid until the next call.
extern "C" __attribute__((visibility("default"))) const char* p2lcsm_take_log(void) {
  p2l::csm::g_taken.swap(p2l::csm::g_pending);
  p2l::csm::g_pending.clear();
  return p2l::csm::g_taken.c_str();
}
#endif
