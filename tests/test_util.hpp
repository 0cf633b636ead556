// Shared helpers for the tests: file access, the vectors folder, small byte surgery.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "p2l/format.hpp"

namespace p2l_test {

inline std::string vectors_dir() { return P2L_VECTORS_DIR; }

inline std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::vector<std::uint8_t> vector_file(const std::string& name) {
  std::string path = vectors_dir() + "/" + name;
  if (!std::filesystem::exists(path)) return {};
  return read_bytes(path);
}

#define P2L_REQUIRE_VECTORS()                                                              \
  do {                                                                                     \
    if (!std::filesystem::exists(p2l_test::vectors_dir()))                                 \
      GTEST_SKIP() << "compatibility vectors not found at " << p2l_test::vectors_dir();     \
  } while (0)

inline std::uint32_t get_u32(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
inline void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
inline void put_u16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) { std::memcpy(b.data() + at, &v, 2); }
inline void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) { std::memcpy(b.data() + at, &v, 8); }
inline std::uint64_t get_u64(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

// Table entry i of a version-2 file.
inline std::size_t entry_at(std::size_t i) { return 32 + 40 * i; }
inline int find_entry(const std::vector<std::uint8_t>& b, const char* tag) {
  std::uint32_t n = get_u32(b, 16);
  for (std::uint32_t i = 0; i < n; ++i)
    if (std::memcmp(b.data() + entry_at(i), tag, 4) == 0) return static_cast<int>(i);
  return -1;
}

}  // namespace p2l_test
