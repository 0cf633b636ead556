// p2l::decimal: a float as short decimal text for messages ("-12.5", "0.0001", "nan").
// Why not std::to_string(float) or snprintf: they bring printf's float formatting, about ten
// kilobytes of the WebAssembly module, for a number in an error message. Four decimals are
// enough to tell a person which key is wrong; values past 1e12 print in whole units. The
// digits come from p2l::message, as in every other message, not from std::to_string.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "base/message.hpp"

namespace p2l {

inline std::string decimal(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  const double v = std::fabs(static_cast<double>(value));
  std::string text = value < 0 ? "-" : "";
  if (v >= 1e12) return text + message("{}", static_cast<std::uint64_t>(v));
  const auto scaled = static_cast<std::uint64_t>(std::llround(v * 10000.0));
  text += message("{}", scaled / 10000);
  std::uint64_t fraction = scaled % 10000;
  if (fraction != 0) {
    std::string digits = message("{}", fraction + 10000).substr(1);
    digits.erase(digits.find_last_not_of('0') + 1);
    text += "." + digits;
  }
  return text == "-0" ? "0" : text;
}

}  // namespace p2l
