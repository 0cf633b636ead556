// The Cubism Core API's versions, logging, moc and model creation (include/Live2DCubismCore.h).
// Nothing thrown inside reaches the caller; every refusal is logged with its reason.
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "Live2DCubismCore.h"
#include "base/exceptions.hpp"
#include "csm/log.hpp"
#include "csm/model_state.hpp"
#include "csm/moc_data.hpp"
#include "csm/registry.hpp"
#include "p2l/csm_release.h"

namespace {

using namespace p2l::csm;

// The interface this library provides: Cubism Core 6.0.1's (docs/CUBISM_CORE.md).
constexpr csmVersion kVersion = (6u << 24) | (0u << 16) | 1u;

bool aligned(const void* p, std::uintptr_t alignment) { return reinterpret_cast<std::uintptr_t>(p) % alignment == 0; }

std::span<const std::uint8_t> bytes_of(const void* address, unsigned int size) {
  return {static_cast<const std::uint8_t*>(address), size};
}

// The whole check; the moc's data when it passes (else null, with the reason logged).
std::shared_ptr<const MocData> check(const char* function, const void* address, unsigned int size) {
  if (!address) {
    log_error(function, "the moc3 address is NULL");
    return nullptr;
  }
  const auto bytes = bytes_of(address, size);
  const std::uint32_t version = moc_version_of(bytes);
  if (version == 0) {
    log_error(function, size < 64 ? "the buffer holds " + std::to_string(size) + " bytes, less than a moc3 header"
                                  : std::string("the buffer does not start with a moc3 header (\"MOC3\")"));
    return nullptr;
  }
  if (version > csmMocVersion_53) {
    log_error(function, "moc3 version " + std::to_string(version) + " is newer than this Core reads (up to " +
                            std::to_string(csmMocVersion_53) + ", Cubism 5.3)");
    return nullptr;
  }
  MocResult built = build_moc(bytes);
  if (!built.moc) log_error(function, built.error);
  return built.moc;
}

}  // namespace

extern "C" {

csmVersion csmGetVersion(void) { return kVersion; }

csmMocVersion csmGetLatestMocVersion(void) { return csmMocVersion_53; }

csmMocVersion csmGetMocVersion(const void* address, const unsigned int size) {
  if (!address) return csmMocVersion_Unknown;
  return moc_version_of(bytes_of(address, size));
}

int csmHasMocConsistency(void* address, const unsigned int size) {
  P2L_TRY {
    if (address && !aligned(address, csmAlignofMoc)) {
      log_error("csmHasMocConsistency", "the moc3 address is not aligned to csmAlignofMoc (64)");
      return 0;
    }
    return check("csmHasMocConsistency", address, size) ? 1 : 0;
  }
  P2L_CATCH_ALL { return 0; }
}

csmLogFunction csmGetLogFunction(void) { return log_function(); }

void csmSetLogFunction(csmLogFunction handler) { set_log_function(handler); }

csmMoc* csmReviveMocInPlace(void* address, const unsigned int size) {
  P2L_TRY {
    if (address && !aligned(address, csmAlignofMoc)) {
      log_error("csmReviveMocInPlace", "the moc3 address is not aligned to csmAlignofMoc (64)");
      return nullptr;
    }
    std::shared_ptr<const MocData> moc = check("csmReviveMocInPlace", address, size);
    if (!moc) return nullptr;
    register_moc(address, size, std::move(moc));
    return static_cast<csmMoc*>(address);
  }
  P2L_CATCH_ALL {
    log_error("csmReviveMocInPlace", "out of memory");
    return nullptr;
  }
}

unsigned int csmGetSizeofModel(const csmMoc* moc) {
  P2L_TRY {
    if (!find_moc(moc)) {
      log_error("csmGetSizeofModel", "not a moc made by csmReviveMocInPlace");
      return 0;
    }
    return kModelBytes;
  }
  P2L_CATCH_ALL { return 0; }
}

csmModel* csmInitializeModelInPlace(const csmMoc* moc, void* address, const unsigned int size) {
  P2L_TRY {
    std::shared_ptr<const MocData> data = find_moc(moc);
    if (!data) {
      log_error("csmInitializeModelInPlace", "not a moc made by csmReviveMocInPlace");
      return nullptr;
    }
    if (!address || !aligned(address, csmAlignofModel)) {
      log_error("csmInitializeModelInPlace", "the model address is NULL or not aligned to csmAlignofModel (16)");
      return nullptr;
    }
    if (size < kModelBytes) {
      log_error("csmInitializeModelInPlace", "the model buffer holds " + std::to_string(size) +
                                                 " bytes; csmGetSizeofModel asks for " + std::to_string(kModelBytes));
      return nullptr;
    }
    auto state = std::make_unique<ModelState>(std::move(data));
    register_model(address, size, std::move(state));
    return static_cast<csmModel*>(address);
  }
  P2L_CATCH_ALL {
    log_error("csmInitializeModelInPlace", "out of memory");
    return nullptr;
  }
}

int p2lcsm_release_model(csmModel* model) {
  P2L_TRY { return model && release_model(model) ? 1 : 0; }
  P2L_CATCH_ALL { return 0; }
}

int p2lcsm_release_moc(csmMoc* moc) {
  P2L_TRY { return moc && release_moc(moc) ? 1 : 0; }
  P2L_CATCH_ALL { return 0; }
}

}  // extern "C"
