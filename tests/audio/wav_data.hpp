// The data chunk of a plain PCM WAV as its bytes, with its rate, channels and bits per sample:
// for tests that push a file's samples as PCM, as a streaming host would (Cubism's scaling),
// rather than through libsndfile's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace p2l_test {

struct WavData {
  std::vector<std::uint8_t> bytes;  // empty: no data chunk
  std::uint32_t rate = 0, channels = 0, bits = 0;
};

inline WavData wav_data(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> b{std::istreambuf_iterator<char>(in), {}};
  WavData w;
  if (b.size() < 44) return w;
  auto u32 = [&](std::size_t at) {
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 | std::uint32_t(b[at + 3]) << 24;
  };
  w.channels = b[22] | b[23] << 8;
  w.rate = u32(24);
  w.bits = b[34] | b[35] << 8;
  for (std::size_t at = 12; at + 8 <= b.size();) {
    const std::uint32_t size = u32(at + 4);
    if (std::equal(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + 4), "data")) {
      const std::size_t end = std::min<std::size_t>(b.size(), at + 8 + std::size_t{size});
      w.bytes.assign(b.begin() + static_cast<std::ptrdiff_t>(at + 8), b.begin() + static_cast<std::ptrdiff_t>(end));
      break;
    }
    at += 8 + std::size_t{size} + (size & 1);
  }
  return w;
}

}  // namespace p2l_test
