#include "import/cubism/sha256.hpp"

#include <openssl/evp.h>

#include "import/cubism/document.hpp"

namespace p2l::cubism {

struct Sha256::State {
  EVP_MD_CTX* ctx = nullptr;
  ~State() { EVP_MD_CTX_free(ctx); }
};

namespace {
[[noreturn]] void openssl_failed() { fail(ErrorCode::BadRecord, "SHA-256 (OpenSSL EVP) failed"); }
}  // namespace

Sha256::Sha256() : state_(std::make_unique<State>()) {
  state_->ctx = EVP_MD_CTX_new();
  if (!state_->ctx || EVP_DigestInit_ex(state_->ctx, EVP_sha256(), nullptr) != 1) openssl_failed();
}

Sha256::~Sha256() = default;

void Sha256::update(std::span<const std::uint8_t> bytes) {
  if (!bytes.empty() && EVP_DigestUpdate(state_->ctx, bytes.data(), bytes.size()) != 1) openssl_failed();
}

std::string Sha256::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state_->ctx, digest, &length) != 1) openssl_failed();
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kDigits[digest[i] >> 4];
    out += kDigits[digest[i] & 15];
  }
  return out;
}

}  // namespace p2l::cubism
