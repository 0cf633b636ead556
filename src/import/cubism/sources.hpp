// The files of one Cubism model, named relative to the folder of its model3.json and read
// from that folder on disk, or through a host's reader (archives, app assets, fetch). Every
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
#include "p2l/cubism.hpp"

namespace p2l::cubism {

class Sources {
 public:
  // Files under [folder] on disk.
  explicit Sources(std::filesystem::path folder) : folder_(std::move(folder)) {}
  // Files through [reader], by their names joined to [folder] ('/' separators, "." and ".."
  // resolved by name): the reader is asked for "models/haru/haru.moc3" when the model3.json
  // "models/haru/haru.model3.json" names "haru.moc3". [reader] outlives the sources.
  Sources(std::string folder, const CubismFileReader& reader) : name_folder_(std::move(folder)), reader_(&reader) {}

  // [reference]: a path as the model3.json writes it. A missing or unreadable file is fatal
  // (BadReference), the message naming [reference] and where it was looked for.
  std::vector<std::uint8_t> read(const std::string& reference) { return read_named(reference, reference); }
  // A JSON file past kMaxJsonBytes (limits.hpp) is refused before it is parsed (on disk,
  // before it is read).
  Document read_json(const std::string& reference);
  // A file by its own path (on disk) or its own name (through a reader), named [shown] in
  // messages: the model3.json itself, or a bare moc3.
  std::vector<std::uint8_t> read_own(const std::string& path, const std::string& shown);

  // Whether [reference] is there to read (through a reader: whether the reader gives it).
  bool exists(const std::string& reference);

  std::string source_hash() { return "sha256:" + hash_.hex(); }  // ends the hash
  // The name the host's reader is asked for when the model3.json names [reference].
  std::string name_of(const std::string& reference) const;

 private:
  std::vector<std::uint8_t> read_named(const std::string& reference, const std::string& shown);
  std::vector<std::uint8_t> read_path(const std::filesystem::path& path, const std::string& shown);
  std::vector<std::uint8_t> read_through(const std::string& name, const std::string& shown);
  void hash_once(const std::string& key, const std::vector<std::uint8_t>& bytes);

  std::filesystem::path folder_;
  std::string name_folder_;
  const CubismFileReader* reader_ = nullptr;
  Sha256 hash_;
  std::set<std::string> hashed_;  // lexically normal paths or names
};

}  // namespace p2l::cubism
