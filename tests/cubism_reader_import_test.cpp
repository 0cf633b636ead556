// The Cubism import from a host's reader (p2l::import_cubism(name, reader)): the same rig, the
// same report and the same errors as from disk, for hosts whose files live in archives, app
// assets or behind fetch. Haru comes from the npm package scripts/fetch_cubism_core.sh caches
// (never committed; the test skips without it); the error cases are made here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "p2l/cubism.hpp"
#include "p2l/format.hpp"

namespace {

namespace fs = std::filesystem;
using Files = std::map<std::string, std::vector<std::uint8_t>>;

// A reader over [files] that notes every name it is asked for.
p2l::CubismFileReader reader_of(const Files& files, std::vector<std::string>* asked = nullptr) {
  return [&files, asked](const std::string& name, std::vector<std::uint8_t>& out) {
    if (asked) asked->push_back(name);
    const auto it = files.find(name);
    if (it == files.end()) return false;
    out = it->second;
    return true;
  };
}

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

fs::path haru_dir() {
  const char* cache = std::getenv("P2L_CUBISM_CORE");
  const char* home = std::getenv("HOME");
  const std::string dir = cache && *cache ? cache : std::string(home ? home : "") + "/.cache/p2lrt/live2dcubismcore-1.0.2";
  return fs::path(dir) / "package/characters/haru_greeter_pro_jp/runtime";
}

TEST(CubismReaderImport, HaruFromMemoryIsHaruFromDisk) {
  const fs::path folder = haru_dir();
  const fs::path model = folder / "haru_greeter_t03.model3.json";
  if (!fs::exists(model)) GTEST_SKIP() << "Haru not fetched (scripts/fetch_cubism_core.sh): " << model.string();
  // Every file of the folder under an archive-like prefix.
  Files files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files["chars/haru/" + fs::relative(entry.path(), folder).generic_string()] =
        std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
  }
  const p2l::ImportResult from_disk = p2l::import_cubism(model);
  ASSERT_TRUE(from_disk) << from_disk.error.to_string();
  std::vector<std::string> asked;
  const p2l::ImportResult from_memory = p2l::import_cubism("chars/haru/haru_greeter_t03.model3.json", reader_of(files, &asked));
  ASSERT_TRUE(from_memory) << from_memory.error.to_string();
  EXPECT_EQ(from_memory.report.dropped, from_disk.report.dropped);
  // The same bytes written: every chunk, the META source hash included.
  const p2l::WriteResult a = p2l::write(from_disk.rig), b = p2l::write(from_memory.rig);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(a.bytes == b.bytes);
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked.front(), "chars/haru/haru_greeter_t03.model3.json");
  for (const std::string& name : asked) EXPECT_EQ(name.rfind("chars/haru/", 0), 0u) << name << ": joined to the model's folder";
  // cubism_files lists what the import then reads: each name it asked for, once, in its order.
  const p2l::CubismFiles listed = p2l::cubism_files("chars/haru/haru_greeter_t03.model3.json", reader_of(files));
  ASSERT_TRUE(listed) << listed.error.to_string();
  std::vector<std::string> read_once;
  for (const std::string& name : asked)
    if (std::find(read_once.begin(), read_once.end(), name) == read_once.end()) read_once.push_back(name);
  EXPECT_EQ(listed.names, read_once);
}

TEST(CubismReaderImport, FilesListsWhatTheModel3Names) {
  const Files files = {{"m/x.model3.json", bytes_of(R"({"Version": 3, "FileReferences": {"Moc": "../moc/m.moc3",
      "Textures": ["t/0.png", "./t/0.png", "t/1.png"], "Physics": null, "Pose": "p.pose3.json",
      "Motions": {"Idle": [{"File": "a.motion3.json"}], "Tap": [{"File": "a.motion3.json"}, {"File": "b.motion3.json"}]}}})")}};
  const p2l::CubismFiles listed = p2l::cubism_files("m/x.model3.json", reader_of(files));
  ASSERT_TRUE(listed) << listed.error.to_string();
  EXPECT_EQ(listed.names, (std::vector<std::string>{"m/x.model3.json", "moc/m.moc3", "m/t/0.png", "m/t/1.png",
                                                    "m/p.pose3.json", "m/a.motion3.json", "m/b.motion3.json"}));
  EXPECT_EQ(p2l::cubism_files("a/m.moc3", reader_of({})).names, std::vector<std::string>{"a/m.moc3"});
  const p2l::CubismFiles missing = p2l::cubism_files("m/y.model3.json", reader_of(files));
  EXPECT_FALSE(missing);
  EXPECT_EQ(missing.error.message, "y.model3.json: no such file (the host's reader has no m/y.model3.json)");
  EXPECT_TRUE(missing.names.empty());
}

TEST(CubismReaderImport, ErrorsNameTheFileAsFromDisk) {
  auto error_of = [](const Files& files, const std::string& model = "m/x.model3.json") {
    const p2l::ImportResult r = p2l::import_cubism(model, reader_of(files));
    EXPECT_FALSE(r);
    EXPECT_TRUE(r.rig == p2l::Rig{}) << "no half-imported rig";
    return r.error;
  };
  p2l::Error e = error_of({});
  EXPECT_EQ(e.code, p2l::ErrorCode::BadReference);
  EXPECT_EQ(e.message, "x.model3.json: no such file (the host's reader has no m/x.model3.json)");
  e = error_of({{"m/x.model3.json", bytes_of(R"({"Version": 3, "FileReferences": {"Moc": "m.moc3",}})")}});
  EXPECT_EQ(e.code, p2l::ErrorCode::BadRecord);
  EXPECT_EQ(e.message.rfind("x.model3.json: not valid JSON: parse error at line 1, column ", 0), 0u) << e.message;
  const std::vector<std::uint8_t> model3 = bytes_of(R"({"Version": 3, "FileReferences": {"Moc": "../moc/m.moc3"}})");
  e = error_of({{"m/x.model3.json", model3}});
  EXPECT_EQ(e.code, p2l::ErrorCode::BadReference);
  EXPECT_EQ(e.message, "../moc/m.moc3: no such file (the host's reader has no moc/m.moc3)");
  e = error_of({{"m/x.model3.json", model3}, {"moc/m.moc3", bytes_of("MOCX and then some bytes")}});
  EXPECT_EQ(e.message.rfind("../moc/m.moc3: ", 0), 0u) << e.message;
  e = error_of({{"m.moc3", bytes_of("MOC3")}}, "m.moc3");
  EXPECT_EQ(e.message.rfind("m.moc3: ", 0), 0u) << e.message;
  const p2l::ImportResult none = p2l::import_cubism("x.model3.json", p2l::CubismFileReader{});
  EXPECT_FALSE(none);
  EXPECT_EQ(none.error.message, "x.model3.json: no reader to read it with");
}

}  // namespace
