#include "import/cubism2/mtn_file.hpp"

#include <cmath>
#include <string>

namespace p2l::cubism2 {

namespace {

constexpr std::size_t kMaxIdBytes = 1024;

bool letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool separator(char c) { return c == ',' || c == ' ' || c == '\t'; }

class Reader {
 public:
  Reader(std::string_view text, Mtn& out, Error& error) : text_(text), out_(out), error_(error) {}

  bool read() {
    if (text_.size() > kMaxMtnBytes)
      return fail(0, "the motion is " + std::to_string(text_.size()) + " bytes, over the 32 MiB a .mtn may have");
    bool crlf = false, lf_only = false;
    std::size_t fps_line = 0;  // line number of the last $fps, 0 for none
    std::size_t after_fps = 0;  // curves on the lines after it
    std::size_t values = 0;
    // A UTF-8 byte-order mark (some editors write one) is not part of the first line.
    const std::size_t bom = text_.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    // Lines end at LF, CR or both (files with CR CR LF exist); numbered as an editor would.
    for (std::size_t at = bom, number = 1; at < text_.size();) {
      std::size_t end = text_.find_first_of("\r\n", at);
      if (end == std::string_view::npos) end = text_.size();
      const std::string_view line = text_.substr(at, end - at);
      const std::size_t start = at;
      at = end;
      line_ = number;
      if (at < text_.size()) {
        if (text_[at] == '\r') {
          crlf = true;
          while (at < text_.size() && text_[at] == '\r') ++at;
          if (at < text_.size() && text_[at] == '\n') ++at;
        } else {
          lf_only = true;
          ++at;
        }
        ++number;
      }
      if (line.empty()) continue;
      const char first = line.front();
      if (first == '#') continue;
      if (first == '$') {
        if (!setting(line, start)) return false;
        if (line.substr(1, 3) == "fps") fps_line = line_, after_fps = 0;
        continue;
      }
      if (!letter(first) && first != '_') {
        if (line.find_first_not_of(" \t") != std::string_view::npos)
          out_.notes.push_back("line " + std::to_string(line_) + " is neither a curve, a setting nor a comment: skipped");
        continue;
      }
      const std::size_t equals = line.find('=');
      if (equals == std::string_view::npos) {
        out_.notes.push_back("line " + std::to_string(line_) + " names no curve (no '='): skipped");
        continue;
      }
      MtnCurve curve;
      std::string_view id = line.substr(0, equals);
      if (id.size() > kMaxIdBytes) return fail(start, "a curve id of " + std::to_string(id.size()) + " bytes");
      if (id.substr(0, 8) == "VISIBLE:") {
        curve.kind = CurveKind::Visible;
        id.remove_prefix(8);
      } else if (id.substr(0, 7) == "LAYOUT:") {
        curve.kind = CurveKind::Layout;
        id.remove_prefix(7);
      }
      curve.id = std::string(id);
      if (!numbers(line.substr(equals + 1), start + equals + 1, curve.values)) return false;
      values += curve.values.size();
      if (values > kMaxMtnValues)
        return fail(start, "the motion holds more than " + std::to_string(kMaxMtnValues) + " values");
      if (curve.values.size() > out_.frames) out_.frames = static_cast<std::uint32_t>(curve.values.size());
      if (fps_line != 0) ++after_fps;
      out_.curves.push_back(std::move(curve));
    }
    if (lf_only && !crlf && fps_line != 0 && after_fps > 0)
      out_.notes.push_back("LF line endings: the Cubism 2.1 runtime's reader takes the lines after $fps (line " +
                           std::to_string(fps_line) + ") as more $fps values and loses their " +
                           std::to_string(after_fps) + " curves; p2lrt reads them");
    return true;
  }

 private:
  bool fail(std::size_t offset, std::string message) {
    error_.code = ErrorCode::BadRecord;
    error_.chunk.clear();
    error_.offset = static_cast<std::int64_t>(offset);
    error_.in_chunk = false;
    error_.message = "line " + std::to_string(line_) + ": " + std::move(message);
    return false;
  }

  // "$name=values": only $fps counts, and only within (5, 121).
  bool setting(std::string_view line, std::size_t start) {
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos || line.substr(1, equals - 1) != "fps") return true;
    std::vector<float> v;
    if (!numbers(line.substr(equals + 1), start + equals + 1, v)) return false;
    if (v.empty()) return true;
    if (v.back() > 5.0f && v.back() < 121.0f) {
      out_.fps = v.back();
    } else {
      out_.notes.push_back("$fps=" + std::to_string(v.back()) + " (line " + std::to_string(line_) +
                           ") is outside 5 to 121: 30 frames a second, as the runtime plays it");
    }
    return true;
  }

  // Numbers separated by commas, spaces or tabs: an optional '-', digits, an optional '.'
  // and digits.
  // A checked token's value as the runtime computes it, in double (the same bits in any locale
  // and on any machine): the integer digits as v = 10 v + d, then each fraction digit added as
  // d x 0.1^k with the power kept by repeated multiplication by 0.1; negated after. (Not the
  // correctly rounded decimal: the runtime's own sum, which it then stores as a float.)
  static double runtime_number(std::string_view token) {
    std::size_t i = 0;
    const bool negative = !token.empty() && token[0] == '-';
    if (negative) ++i;
    double v = 0;
    for (; i < token.size() && token[i] != '.'; ++i) v = v * 10 + (token[i] - '0');
    double place = 0.1;
    for (++i; i < token.size(); ++i, place *= 0.1) v += place * (token[i] - '0');
    return negative ? -v : v;
  }

  bool numbers(std::string_view s, std::size_t offset, std::vector<float>& out) {
    std::size_t i = 0;
    while (i < s.size()) {
      if (separator(s[i])) {
        ++i;
        continue;
      }
      const std::size_t begin = i;
      if (s[i] == '-') ++i;
      bool any = false;
      while (i < s.size() && digit(s[i])) ++i, any = true;
      if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && digit(s[i])) ++i, any = true;
      }
      if (!any || (i < s.size() && !separator(s[i]))) {
        const std::size_t bad = i < s.size() ? i : begin;
        return fail(offset + bad, "column " + std::to_string(bad + 1) + " of the values: '" +
                                      std::string(s.substr(begin, std::min<std::size_t>(s.size() - begin, 16))) +
                                      "' is not a number (an optional '-', digits, an optional '.' and digits)" +
                                      (i < s.size() && letter(s[i]) ? "; a letter in a value list hangs the Cubism 2.1 runtime" : ""));
      }
      const float f = static_cast<float>(runtime_number(s.substr(begin, i - begin)));
      if (!std::isfinite(f)) return fail(offset + begin, "a value too large for a float");
      out.push_back(f);
    }
    return true;
  }

  std::string_view text_;
  Mtn& out_;
  Error& error_;
  std::size_t line_ = 0;
};

}  // namespace

std::uint32_t Mtn::duration_ms() const {
  return static_cast<std::uint32_t>(std::floor(1000.0 * frames / static_cast<double>(fps)));
}

bool read_mtn(std::string_view text, Mtn& out, Error& error) {
  error = Error{};
  out = Mtn{};
  return Reader(text, out, error).read();
}

}  // namespace p2l::cubism2
