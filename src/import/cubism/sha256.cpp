#include "import/cubism/sha256.hpp"

#include "import/cubism/document.hpp"

extern "C" {
void* p2l_musl_sha256_new(void);
void p2l_musl_sha256_update(void* state, const void* data, std::size_t size);
void p2l_musl_sha256_final(void* state, std::uint8_t digest[32]);
void p2l_musl_sha256_free(void* state);
}

namespace p2l::cubism {

Sha256::Sha256() : state_(p2l_musl_sha256_new()) {
  if (!state_) fail(ErrorCode::TooLarge, "out of memory");
}

Sha256::~Sha256() { p2l_musl_sha256_free(state_); }

void Sha256::update(std::span<const std::uint8_t> bytes) {
  if (state_ && !bytes.empty()) p2l_musl_sha256_update(state_, bytes.data(), bytes.size());
}

std::string Sha256::hex() {
  std::uint8_t digest[32] = {};
  if (state_) p2l_musl_sha256_final(state_, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(64, '0');
  for (int i = 0; i < 32; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

}  // namespace p2l::cubism
