// The Cubism import's SHA-256 (musl's, src/import/cubism/sha256.cpp) against the FIPS 180-2
// examples and the NIST test vectors: the META source hash must read as every other tool's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "import/cubism/sha256.hpp"

namespace {

std::string digest(const std::string& text, std::size_t piece = 0) {
  p2l::cubism::Sha256 hash;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  if (piece == 0) piece = text.size() + 1;
  for (std::size_t at = 0; at < text.size(); at += piece)
    hash.update({bytes + at, std::min(piece, text.size() - at)});
  return hash.hex();
}

TEST(Sha256, FipsExamples) {
  EXPECT_EQ(digest(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(digest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, AMillionAsInPiecesOfEverySize) {
  const std::string a(1000000, 'a');
  for (std::size_t piece : {std::size_t{1000000}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{4099}})
    EXPECT_EQ(digest(a, piece), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") << piece;
}

}  // namespace
