// The JSON files of a Cubism model as the importer reads them. Every value is reached
// through a Node that knows its file and its path in that file, so that a fatal error or a
// report line says exactly where: "haru.physics3.json: PhysicsSettings[2].Input[0].Source.Id".
//
// Fatal problems are thrown as Failure inside the library and turned into an Error by
// guarded() at the public function; nothing else may escape it. Built without exceptions (the
// WebAssembly import module), a fatal problem records its Error (trapped_failure()) and traps:
// the module runs each import in an instance of its own, which the host then drops
// (web/import/import_module.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/exceptions.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"

namespace p2l::cubism {

// Document order matters: motion groups become clips in the order the model3.json lists them.
using Json = nlohmann::ordered_json;

struct Failure {
  Error error;
};
[[noreturn]] void fail(ErrorCode code, std::string message);

// Runs [body]; a Failure, a JSON library exception or running out of memory comes back as
// the Error, so the public functions can promise not to throw. (Without exceptions a failure
// traps before it could come back: see above.)
template <class F>
Error guarded(F&& body) noexcept {
  Error error;
#if !P2L_HAS_EXCEPTIONS
  body();
#else
  try {
    body();
  } catch (const Failure& f) {
    error = f.error;
  } catch (const std::bad_alloc&) {
    error.code = ErrorCode::TooLarge;
    error.message = "out of memory";
  } catch (const std::exception& e) {
    error.code = ErrorCode::BadRecord;
    error.message = e.what();
  } catch (...) {
    error.code = ErrorCode::BadRecord;
    error.message = "unexpected failure";
  }
#endif
  return error;
}

#if !P2L_HAS_EXCEPTIONS
// The failure an import trapped on (ok before one did).
const Error& trapped_failure();
#endif

struct Document {
  std::string file;  // as the model3.json names it (the model3.json: its file name)
  Json root;
};

// A BadRecord naming the file and where the syntax breaks when the bytes are not JSON.
Document parse_document(std::string file, std::span<const std::uint8_t> bytes);

class Node {
 public:
  explicit Node(const Document& doc) : doc_(&doc), value_(&doc.root) {}

  const Json& json() const { return *value_; }
  const std::string& file() const { return doc_->file; }
  const std::string& path() const { return path_; }
  std::string where() const { return path_.empty() ? doc_->file : doc_->file + ": " + path_; }
  // "file: path: what", for report lines.
  std::string note(const std::string& what) const { return where() + ": " + what; }
  [[noreturn]] void fail(ErrorCode code, const std::string& what) const;

  bool has(const char* key) const { return value_->is_object() && value_->contains(key); }
  Node at(const char* key) const;  // a member that must be there
  std::optional<Node> find(const char* key) const;
  std::vector<std::string> keys() const;  // an object's member names, in document order

  std::size_t size() const;  // of an array (anything else is an error)
  Node element(std::size_t index) const;
  std::vector<Node> elements() const;                    // of an array
  std::vector<Node> elements_of(const char* key) const;  // of an array member; none when it is missing

  float number() const;         // finite as a 32-bit float
  // number() that does not fail: nothing, and [why] set to the line number() would fail with.
  std::optional<float> number_if(std::string& why) const;
  // The line at() would fail with when [key] is missing.
  std::string missing_note(const char* key) const;
  std::uint32_t index() const;  // a whole number, not negative
  bool boolean() const;
  std::string string() const;

  // Optional members: the fallback when the member is missing.
  float number_or(const char* key, float fallback) const;
  bool boolean_or(const char* key, bool fallback) const;
  std::string string_or(const char* key, const std::string& fallback) const;

 private:
  Node(const Document* doc, const Json* value, std::string path) : doc_(doc), value_(value), path_(std::move(path)) {}
  void expect_object() const;

  const Document* doc_;
  const Json* value_;
  std::string path_;
};

// `"ParamFoo"`: how an ID is quoted in messages.
inline std::string quote_id(const std::string& id) { return "\"" + id + "\""; }
// The shortest decimal that reads back as [f] ("0.5", not "0.500000"), for messages.
std::string number_text(float f);

}  // namespace p2l::cubism
