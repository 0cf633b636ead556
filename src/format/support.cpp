// Small shared pieces: the format support string, error names and rig look-ups.
#include <string>

#include "base/message.hpp"
#include "format/chunk_ids.hpp"
#include "p2l/format.hpp"

namespace p2l {

namespace {
std::string build_support() {
  std::string s = "1,2";
  for (const auto& c : format::kChunkSpecs) s += message(" {}/{}", c.tag, c.newest_version);
  return s;
}
}  // namespace

const char* format_support() {
  static const std::string support = build_support();
  return support.c_str();
}

std::span<const KnownChunk> known_chunks() {
  static const auto table = [] {
    std::array<KnownChunk, format::kChunkIdCount> t{};
    for (std::size_t i = 0; i < t.size(); ++i) {
      for (int k = 0; k < 4; ++k) t[i].tag[k] = format::kChunkSpecs[i].tag[k];
      t[i].tag[4] = 0;
      t[i].version = format::kChunkSpecs[i].newest_version;
    }
    return t;
  }();
  return table;
}

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::Ok: return "ok";
    case ErrorCode::NotP2lrt: return "not a .p2lrt file";
    case ErrorCode::UnsupportedVersion: return "unsupported version";
    case ErrorCode::Truncated: return "truncated";
    case ErrorCode::BadHeader: return "bad header";
    case ErrorCode::BadChunkTable: return "bad chunk table";
    case ErrorCode::DuplicateChunk: return "duplicate chunk";
    case ErrorCode::MissingChunk: return "missing chunk";
    case ErrorCode::RequiredFeature: return "required feature";
    case ErrorCode::CrcMismatch: return "CRC mismatch";
    case ErrorCode::BadCompression: return "bad compression";
    case ErrorCode::TooLarge: return "too large";
    case ErrorCode::BadRecord: return "bad record";
    case ErrorCode::NonFinite: return "non-finite number";
    case ErrorCode::BadReference: return "bad reference";
    case ErrorCode::BadStructure: return "bad structure";
    case ErrorCode::BadString: return "bad string";
    case ErrorCode::WriteUnsupported: return "cannot write";
  }
  return "unknown error";
}

std::string Error::to_string() const {
  if (ok()) return "ok";
  // "chunk TAG, offset K: message": where, then what, as a person reads it. The code stays
  // for programs (Error::code, error_code_name()); the message says in words what went wrong
  // (the code's name stands in for a message that is empty).
  // Each part through p2l::message rather than string concatenation (src/base/message.hpp
  // says why).
  std::string text;
  if (!chunk.empty()) text = p2l::message("chunk {}", chunk);
  if (offset >= 0)
    text += p2l::message(in_chunk ? "{}offset {} in its decompressed content" : "{}offset {}",
                         text.empty() ? "" : ", ", offset);
  text += p2l::message(text.empty() ? "{}" : ": {}", message.empty() ? error_code_name(code) : message.c_str());
  return text;
}

}  // namespace p2l
