#include "base/message.hpp"

#include <cstring>

namespace p2l {

void MessageArg::append_to(std::string& out) const {
  if (kind_ == kCString) {
    out += text_;
    return;
  }
  if (kind_ != kUnsigned && kind_ != kSigned) {
    out.append(text_, kind_);
    return;
  }
  std::uint64_t n = number_;
  if (kind_ == kSigned && static_cast<std::int64_t>(n) < 0) {
    out += '-';
    n = 0 - n;
  }
  char digits[20];
  std::size_t i = sizeof digits;
  do {
    digits[--i] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  out.append(digits + i, sizeof digits - i);
}

std::string format_message(const char* pattern, const MessageArg* args, std::size_t count) {
  std::string out;
  std::size_t next = 0;
  for (const char* p = pattern; *p != '\0'; ++p) {
    if (p[0] == '{' && p[1] == '}' && next < count) {
      args[next++].append_to(out);
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

}  // namespace p2l
