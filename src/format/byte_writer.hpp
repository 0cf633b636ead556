// An appending little-endian byte buffer for the writer.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace p2l::format {

class ByteWriter {
 public:
  std::vector<std::uint8_t>& bytes() { return out_; }
  const std::vector<std::uint8_t>& bytes() const { return out_; }
  std::size_t size() const { return out_.size(); }

  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v) {
    out_.push_back(static_cast<std::uint8_t>(v));
    out_.push_back(static_cast<std::uint8_t>(v >> 8));
  }
  void u32(std::uint32_t v) {
    std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                         static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
    out_.insert(out_.end(), b, b + 4);
  }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void u64(std::uint64_t v) {
    u32(static_cast<std::uint32_t>(v));
    u32(static_cast<std::uint32_t>(v >> 32));
  }
  void f32(float v) {
    if (!std::isfinite(v)) non_finite_ = true;
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void flag(bool v) { u8(v ? 1 : 0); }
  // Whether a float that is not finite was written (the reader refuses those).
  bool non_finite() const { return non_finite_; }
  void mark_non_finite() { non_finite_ = true; }
  // Runs of 4-byte values: one copy on little-endian hosts, value by value elsewhere.
  template <class T>
  void values32(const T* data, std::size_t n) {
    static_assert(sizeof(T) == 4);
    if constexpr (std::endian::native == std::endian::little) {
      std::size_t at = out_.size();
      out_.resize(at + 4 * n);
      if (n) std::memcpy(out_.data() + at, data, 4 * n);
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, data + i, 4);
        u32(bits);
      }
    }
  }
  void raw(std::span<const std::uint8_t> data) { out_.insert(out_.end(), data.begin(), data.end()); }
  void raw(std::string_view s) { out_.insert(out_.end(), s.begin(), s.end()); }
  void zeros(std::size_t n) { out_.insert(out_.end(), n, 0); }
  void pad_to(std::size_t alignment) {
    while (out_.size() % alignment) out_.push_back(0);
  }
  // Overwrites a u32 written earlier (counts known only after the items).
  void patch_u32(std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  }

 private:
  std::vector<std::uint8_t> out_;
  bool non_finite_ = false;
};

}  // namespace p2l::format
