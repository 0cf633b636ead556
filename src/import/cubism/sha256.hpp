// SHA-256 (OpenSSL EVP) for META source_hash; the OpenSSL types stay in sha256.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace p2l::cubism {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::span<const std::uint8_t> bytes);
  std::string hex();  // lower-case hex of the digest; ends the hash

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace p2l::cubism
