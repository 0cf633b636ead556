// p2l::decimal: a float as short decimal text for messages ("-12.5", "0.3", "3.99e+37", "nan").
// std::to_chars gives the shortest text that reads back as the same float, for every float: the
// earlier hand-made form converted the magnitude to a 64-bit integer, undefined past 1.8e19
// (the load fuzzer found a key of 3.99e37 in a validator message). It adds nothing to the
// WebAssembly module, which has float to_chars already (base/shortest_decimal.hpp, for motion
// times); printf's float formatting stays out.
#pragma once

#include <charconv>
#include <string>

namespace p2l {

inline std::string decimal(float value) {
  char text[32];  // the longest float, "-1.17549435e-38", is 15 characters
  const std::to_chars_result end = std::to_chars(text, text + sizeof text, value);
  std::string out(text, end.ptr);
  return out == "-0" ? "0" : out;
}

}  // namespace p2l
