// The files of one Cubism model, found relative to the folder of its model3.json. Every
// file read goes into the META source hash once, when it is first read (docs/IMPORT.md
// fixes that order by fixing the order in which the importer reads the files).
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "import/cubism/document.hpp"
#include "import/cubism/sha256.hpp"

namespace p2l::cubism {

class Sources {
 public:
  explicit Sources(std::filesystem::path folder) : folder_(std::move(folder)) {}

  // [reference]: a path as the model3.json writes it. A missing or unreadable file is fatal
  // (BadReference), the message naming [reference] and where it was looked for.
  std::vector<std::uint8_t> read(const std::string& reference) { return read_path(folder_ / reference, reference); }
  // A JSON file past kMaxJsonBytes (limits.hpp) is refused before it is read.
  Document read_json(const std::string& reference);
  // A file by its own path, named [shown] in messages.
  std::vector<std::uint8_t> read_path(const std::filesystem::path& path, const std::string& shown);

  std::string source_hash() { return "sha256:" + hash_.hex(); }  // ends the hash

 private:
  std::filesystem::path folder_;
  Sha256 hash_;
  std::set<std::filesystem::path> hashed_;  // lexically normal paths
};

}  // namespace p2l::cubism
