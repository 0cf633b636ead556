// Where the renderer reports an embedded PNG page that does not decode. Each TexturePages
// decodes a page once, so the reporter hears of each failing page once per TexturePages
// (once per model in the C API, whose rigs share one). The C API installs a reporter that
// forwards to the host's log; a C++ host without one hears nothing and may ask
// TexturePages::error instead.
#pragma once

#include <cstdint>

namespace p2l::render {

// [page] of a model did not decode; [reason] says why. Called on the rendering thread,
// possibly from several threads at once; must not throw.
using PageFailureReporter = void (*)(std::uint32_t page, const char* reason) noexcept;

// Installs [reporter] (null: none) for every renderer of the process.
void set_page_failure_reporter(PageFailureReporter reporter) noexcept;

}  // namespace p2l::render
