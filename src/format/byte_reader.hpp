// A bounds-checked little-endian cursor with a sticky error: the first failure is kept
// (with its offset) and every later read returns zero, so record parsers can read a
// whole record and check ok() once per loop turn instead of after every field.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "base/message.hpp"
#include "p2l/format.hpp"

namespace p2l::format {

class ByteReader {
 public:
  // `chunk` and `base` say where the bytes came from, for error messages: with
  // `base_is_file`, offsets are reported as base + position in the file.
  ByteReader(std::span<const std::uint8_t> data, std::string chunk, std::uint64_t base, bool base_is_file)
      : data_(data), chunk_(std::move(chunk)), base_(base), base_is_file_(base_is_file) {}

  bool ok() const { return error_.ok(); }
  const Error& error() const { return error_; }
  Error take_error() { return std::move(error_); }
  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  const std::uint8_t* here() const { return data_.data() + pos_; }
  std::span<const std::uint8_t> data() const { return data_; }
  const std::string& chunk() const { return chunk_; }
  // Version 1 has no chunks; its reader names the section it is in instead.
  void set_chunk(std::string chunk) { chunk_ = std::move(chunk); }

  // Records the first failure, at `at` (the current position by default).
  void fail(ErrorCode code, std::string message) { fail_at(pos_, code, std::move(message)); }
  void fail_at(std::size_t at, ErrorCode code, std::string message) {
    if (!ok()) return;
    error_.code = code;
    error_.chunk = chunk_;
    error_.offset = static_cast<std::int64_t>(base_is_file_ ? base_ + at : at);
    error_.in_chunk = !base_is_file_;
    error_.message = std::move(message);
    pos_ = data_.size();  // nothing more to read
  }
  // The offset an error at `at` would report, for callers that remember record starts.
  std::int64_t report_offset(std::size_t at) const {
    return static_cast<std::int64_t>(base_is_file_ ? base_ + at : at);
  }
  bool reports_in_chunk() const { return !base_is_file_; }

  // `n` bytes, or null (and a failure) when fewer remain.
  const std::uint8_t* take(std::size_t n, const char* what) {
    if (!ok()) return nullptr;
    if (remaining() < n) {
      fail(ErrorCode::Truncated, message("expected {} ({} bytes), {} left", what, n, remaining()));
      return nullptr;
    }
    const std::uint8_t* p = here();
    pos_ += n;
    return p;
  }

  std::uint8_t u8(const char* what = "u8") {
    const std::uint8_t* p = take(1, what);
    return p ? *p : 0;
  }
  std::uint16_t u16(const char* what = "u16") {
    const std::uint8_t* p = take(2, what);
    return p ? static_cast<std::uint16_t>(p[0] | (p[1] << 8)) : 0;
  }
  std::uint32_t u32(const char* what = "u32") {
    const std::uint8_t* p = take(4, what);
    return p ? load_u32(p) : 0;
  }
  std::int32_t i32(const char* what = "i32") { return static_cast<std::int32_t>(u32(what)); }
  std::uint64_t u64(const char* what = "u64") {
    const std::uint8_t* p = take(8, what);
    return p ? load_u32(p) | (std::uint64_t{load_u32(p + 4)} << 32) : 0;
  }
  float f32(const char* what = "f32") {
    std::size_t at = pos_;
    const std::uint8_t* p = take(4, what);
    if (!p) return 0;
    float v = load_f32(p);
    if (!std::isfinite(v)) {
      fail_at(at, ErrorCode::NonFinite, message("expected a finite f32 for {}", what));
      return 0;
    }
    return v;
  }
  bool flag(const char* what = "flag") { return u8(what) != 0; }

  // A u32 count of items each at least `min_size` bytes: bounded by what remains, so a
  // hostile count can never make a parser reserve more than the input could hold.
  std::uint32_t count(std::size_t min_size, const char* what) {
    std::size_t at = pos_;
    std::uint32_t n = u32(what);
    check_count(at, n, min_size, what);
    return ok() ? n : 0;
  }
  std::uint16_t count16(std::size_t min_size, const char* what) {
    std::size_t at = pos_;
    std::uint16_t n = u16(what);
    check_count(at, n, min_size, what);
    return ok() ? n : 0;
  }
  void check_count(std::size_t at, std::uint64_t n, std::size_t min_size, const char* what) {
    if (!ok()) return;
    if (n * (min_size ? min_size : 1) > remaining()) {
      fail_at(at, ErrorCode::Truncated,
              message("{} count {} needs at least {} bytes, {} left", what, n, n * (min_size ? min_size : 1),
                      remaining()));
    }
  }

  static std::uint32_t load_u32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
  }
  static float load_f32(const std::uint8_t* p) {
    std::uint32_t bits = load_u32(p);
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  }

 private:
  std::span<const std::uint8_t> data_;
  std::string chunk_;
  std::uint64_t base_ = 0;
  bool base_is_file_ = true;
  std::size_t pos_ = 0;
  Error error_;
};

}  // namespace p2l::format
