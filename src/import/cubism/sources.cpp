#include "import/cubism/sources.hpp"

#include "import/cubism/limits.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

namespace p2l::cubism {
namespace {

// A name joined to a folder of names, "." and ".." resolved by name ('/' separators).
std::string join_names(const std::string& folder, const std::string& name) {
  return std::filesystem::path(folder.empty() ? name : folder + "/" + name).lexically_normal().generic_string();
}

// A file a model names is in or under the model's folder: a leading '/' is joined to the folder
// as Cubism's frameworks join it to the model's URL ("dir/" + "/model.moc" reads dir/model.moc),
// never read from the root of the machine's file system.
std::filesystem::path under_folder(const std::string& reference) {
  const std::size_t first = reference.find_first_not_of('/');
  return std::filesystem::path(first == std::string::npos ? std::string() : reference.substr(first));
}

}  // namespace

std::string Sources::name_of(const std::string& reference) const { return join_names(name_folder_, reference); }

std::vector<std::uint8_t> Sources::read_named(const std::string& reference, const std::string& shown) {
  return reader_ != nullptr ? read_through(join_names(name_folder_, reference), shown) : read_path(folder_ / under_folder(reference), shown);
}

std::vector<std::uint8_t> Sources::read_own(const std::string& path, const std::string& shown) {
  return reader_ != nullptr ? read_through(path, shown) : read_path(path, shown);
}

std::vector<std::uint8_t> Sources::read_path(const std::filesystem::path& path, const std::string& shown) {
#if defined(P2L_WASM)
  // The WebAssembly module reads through the host's reader only: no file system, and no
  // WASI imports for one.
  fail(ErrorCode::BadReference, shown + ": no reader to read it with (" + path.string() + ")");
#else
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) fail(ErrorCode::BadReference, shown + ": no such file (" + path.string() + ")");
  if (!std::filesystem::is_regular_file(status))
    fail(ErrorCode::BadReference, shown + ": not a regular file (" + path.string() + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::BadReference, shown + ": cannot be opened (" + path.string() + ")");
  std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
  if (in.bad()) fail(ErrorCode::BadReference, shown + ": cannot be read (" + path.string() + ")");
  hash_once(path.lexically_normal().string(), bytes);
  return bytes;
#endif
}

std::vector<std::uint8_t> Sources::read_through(const std::string& name, const std::string& shown) {
  std::vector<std::uint8_t> bytes;
  if (!(*reader_)(name, bytes)) fail(ErrorCode::BadReference, shown + ": no such file (the host's reader has no " + name + ")");
  hash_once(name, bytes);
  return bytes;
}

bool Sources::exists(const std::string& reference) {
  if (reader_ != nullptr) {
    std::vector<std::uint8_t> bytes;
    return (*reader_)(join_names(name_folder_, reference), bytes);
  }
#if defined(P2L_WASM)
  return false;
#else
  std::error_code ec;
  return std::filesystem::is_regular_file(folder_ / under_folder(reference), ec);
#endif
}

void Sources::hash_once(const std::string& key, const std::vector<std::uint8_t>& bytes) {
  if (hashed_.insert(key).second) hash_.update(bytes);
}

Document Sources::read_json(const std::string& reference) {
  auto too_large = [&](std::uint64_t size) {
    fail(ErrorCode::TooLarge, reference + ": " + std::to_string(size) + " bytes; p2lrt reads Cubism JSON files of up to " +
                                  std::to_string(kMaxJsonBytes) + " bytes");
  };
#if !defined(P2L_WASM)
  if (reader_ == nullptr) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(folder_ / under_folder(reference), ec);
    if (!ec && size > kMaxJsonBytes) too_large(size);
  }
#endif
  std::vector<std::uint8_t> bytes = read(reference);
  if (bytes.size() > kMaxJsonBytes) too_large(bytes.size());
  return parse_document(reference, bytes);
}

}  // namespace p2l::cubism
