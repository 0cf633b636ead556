// p2l::message: an error message from a pattern and its arguments, each "{}" in the pattern
// standing for the next argument: message("{} count {} needs {} bytes", what, n, size).
// Arguments are text (C strings, std::string, std::string_view) and integers.
//
// Why not std::string concatenation: every `+` is a call and a temporary to destroy, repeated
// at each of the few hundred places where the reader and the validator describe a failure.
// In the WebAssembly module that cost kilobytes; here a call site only fills a small array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace p2l {

class MessageArg {
 public:
  MessageArg(const char* text) : text_(text), kind_(kCString) {}  // NOLINT(google-explicit-constructor)
  MessageArg(const std::string& text)                                // NOLINT(google-explicit-constructor)
      : text_(text.data()), kind_(static_cast<std::uint32_t>(text.size())) {}
  MessageArg(std::string_view text)  // NOLINT(google-explicit-constructor)
      : text_(text.data()), kind_(static_cast<std::uint32_t>(text.size())) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  MessageArg(T value)  // NOLINT(google-explicit-constructor)
      : number_(static_cast<std::uint64_t>(value)), kind_(std::is_signed_v<T> ? kSigned : kUnsigned) {}

  void append_to(std::string& out) const;

 private:
  // kind_ is the text's length, or one of these.
  static constexpr std::uint32_t kCString = 0xFFFFFFFFu, kUnsigned = 0xFFFFFFFEu, kSigned = 0xFFFFFFFDu;
  union {
    const char* text_;
    std::uint64_t number_;
  };
  std::uint32_t kind_;
};

std::string format_message(const char* pattern, const MessageArg* args, std::size_t count);

template <class... Args>
std::string message(const char* pattern, const Args&... args) {
  const MessageArg list[] = {MessageArg(args)...};
  return format_message(pattern, list, sizeof...(Args));
}

}  // namespace p2l
