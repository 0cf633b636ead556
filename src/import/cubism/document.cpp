#include "import/cubism/document.hpp"

#include "import/cubism/limits.hpp"

#include <charconv>
#include <cmath>
#include <utility>

namespace p2l::cubism {

namespace {

// A syntax error, or a number past a double ("1e999": out_of_range.406): the library's
// "[json.exception.parse_error.101] " prefix dropped, where and why kept.
[[noreturn]] void not_json(const std::string& file, std::string what) {
  if (auto end = what.find("] "); what.starts_with("[json.exception") && end != std::string::npos) what.erase(0, end + 2);
  fail(ErrorCode::BadRecord, file + ": not valid JSON: " + what);
}

}  // namespace

#if P2L_HAS_EXCEPTIONS
void fail(ErrorCode code, std::string message) {
  Failure f;
  f.error.code = code;
  f.error.message = std::move(message);
  throw f;
}
#else
namespace {
Error the_failure;
const std::string* parsing = nullptr;  // the document being parsed, for the JSON library's errors
}  // namespace

const Error& trapped_failure() { return the_failure; }

void fail(ErrorCode code, std::string message) {
  the_failure.code = code;
  the_failure.message = std::move(message);
  __builtin_trap();
}

// The JSON library's throw (json_no_exceptions.hpp): a parse error names its document; nothing
// else of the library fails, since Node checks every type before it reads a value.
extern "C" void p2l_json_failed(const char* what) {
  if (parsing) not_json(*parsing, what);
  fail(ErrorCode::BadRecord, what);
}
#endif

Document parse_document(std::string file, std::span<const std::uint8_t> bytes) {
  Document doc;
  doc.file = std::move(file);
  if (bytes.size() > kMaxJsonBytes)
    fail(ErrorCode::TooLarge, doc.file + ": " + std::to_string(bytes.size()) + " bytes; p2lrt reads Cubism JSON files of up to " +
                                  std::to_string(kMaxJsonBytes) + " bytes");
  // As chars: the JSON library reads unsigned chars through std::char_traits<unsigned char>,
  // which libc++ 19 no longer defines (the WebAssembly build).
  const char* text = reinterpret_cast<const char*>(bytes.data());
#if P2L_HAS_EXCEPTIONS
  try {
    doc.root = Json::parse(text, text + bytes.size());
  } catch (const Json::exception& e) {
    not_json(doc.file, e.what());
  }
#else
  parsing = &doc.file;
  doc.root = Json::parse(text, text + bytes.size());
  parsing = nullptr;
#endif
  return doc;
}

std::string number_text(float f) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, f).ptr);
}

void Node::fail(ErrorCode code, const std::string& what) const { cubism::fail(code, note(what)); }

void Node::expect_object() const {
  if (!value_->is_object()) fail(ErrorCode::BadRecord, std::string("expected an object, found ") + value_->type_name());
}

Node Node::at(const char* key) const {
  expect_object();
  auto it = value_->find(key);
  if (it == value_->end()) cubism::fail(ErrorCode::BadRecord, missing_note(key));
  return Node(doc_, &*it, path_.empty() ? std::string(key) : path_ + "." + key);
}

std::optional<Node> Node::find(const char* key) const {
  if (!has(key)) return std::nullopt;
  return at(key);
}

std::vector<std::string> Node::keys() const {
  expect_object();
  std::vector<std::string> out;
  for (auto it = value_->begin(); it != value_->end(); ++it) out.push_back(it.key());
  return out;
}

std::size_t Node::size() const {
  if (!value_->is_array()) fail(ErrorCode::BadRecord, std::string("expected an array, found ") + value_->type_name());
  return value_->size();
}

Node Node::element(std::size_t index) const {
  if (index >= size()) fail(ErrorCode::BadRecord, "has no element " + std::to_string(index));
  return Node(doc_, &(*value_)[index], path_ + "[" + std::to_string(index) + "]");
}

std::vector<Node> Node::elements() const {
  std::vector<Node> out;
  const std::size_t n = size();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(Node(doc_, &(*value_)[i], path_ + "[" + std::to_string(i) + "]"));
  return out;
}

std::optional<float> Node::number_if(std::string& why) const {
  if (!value_->is_number()) {
    why = note(std::string("expected a number, found ") + value_->type_name());
    return std::nullopt;
  }
  const double d = value_->get<double>();
  // At and past the midpoint between FLT_MAX and 2^128 a double rounds to infinity.
  constexpr double kPastFloatRange = 0x1.ffffffp127;
  if (!(std::fabs(d) < kPastFloatRange)) {
    why = note("the number is not finite as a 32-bit float");
    return std::nullopt;
  }
  return static_cast<float>(d);
}

float Node::number() const {
  std::string why;
  const std::optional<float> f = number_if(why);
  if (!f) cubism::fail(value_->is_number() ? ErrorCode::NonFinite : ErrorCode::BadRecord, why);
  return *f;
}

std::string Node::missing_note(const char* key) const {
  return Node(doc_, value_, path_.empty() ? std::string(key) : path_ + "." + key).note("missing");
}

std::uint32_t Node::index() const {
  if (!value_->is_number()) fail(ErrorCode::BadRecord, std::string("expected a number, found ") + value_->type_name());
  const double d = value_->get<double>();
  if (!(d >= 0 && d <= 4294967295.0 && d == std::floor(d)))
    fail(ErrorCode::BadRecord, "expected a whole number from 0 to 4294967295, found " + value_->dump());
  return static_cast<std::uint32_t>(d);
}

bool Node::boolean() const {
  if (!value_->is_boolean())
    fail(ErrorCode::BadRecord, std::string("expected true or false, found ") + value_->type_name());
  return value_->get<bool>();
}

std::string Node::string() const {
  if (!value_->is_string()) fail(ErrorCode::BadRecord, std::string("expected a string, found ") + value_->type_name());
  return value_->get<std::string>();
}

std::vector<Node> Node::elements_of(const char* key) const {
  expect_object();
  return has(key) ? at(key).elements() : std::vector<Node>{};
}

float Node::number_or(const char* key, float fallback) const {
  expect_object();
  return has(key) ? at(key).number() : fallback;
}
bool Node::boolean_or(const char* key, bool fallback) const {
  expect_object();
  return has(key) ? at(key).boolean() : fallback;
}
std::string Node::string_or(const char* key, const std::string& fallback) const {
  expect_object();
  return has(key) ? at(key).string() : fallback;
}

}  // namespace p2l::cubism
