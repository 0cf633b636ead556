#include "import/cubism/sources.hpp"

#include "import/cubism/limits.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

namespace p2l::cubism {

std::vector<std::uint8_t> Sources::read_path(const std::filesystem::path& path, const std::string& shown) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) fail(ErrorCode::BadReference, shown + ": no such file (" + path.string() + ")");
  if (!std::filesystem::is_regular_file(status))
    fail(ErrorCode::BadReference, shown + ": not a regular file (" + path.string() + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorCode::BadReference, shown + ": cannot be opened (" + path.string() + ")");
  std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
  if (in.bad()) fail(ErrorCode::BadReference, shown + ": cannot be read (" + path.string() + ")");
  if (hashed_.insert(path.lexically_normal()).second) hash_.update(bytes);
  return bytes;
}

Document Sources::read_json(const std::string& reference) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(folder_ / reference, ec);
  if (!ec && size > kMaxJsonBytes)
    fail(ErrorCode::TooLarge, reference + ": " + std::to_string(size) + " bytes; p2lrt reads Cubism JSON files of up to " +
                                  std::to_string(kMaxJsonBytes) + " bytes");
  return parse_document(reference, read(reference));
}

}  // namespace p2l::cubism
