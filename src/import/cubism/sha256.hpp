// SHA-256 for META source_hash: musl's (src/base/musl_libm/sha256.c), built into the library on
// every target, so the import needs no crypto library.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace p2l::cubism {

class Sha256 {
 public:
  Sha256();  // Failure (TooLarge) when its 104 bytes cannot be had
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::span<const std::uint8_t> bytes);
  std::string hex();  // lower-case hex of the digest; ends the hash

 private:
  void* state_;
};

}  // namespace p2l::cubism
