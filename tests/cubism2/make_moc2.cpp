// Writes synthetic Cubism 2 .moc files from the tests' own writer: the fuzzer's seeds.
//   p2l_fuzz_make_moc2 DIR     synthetic-vV[-unshared|-null-lists].moc for every version V
#include <cstdio>
#include <fstream>
#include <string>

#include "cubism2/moc_writer.hpp"
#include "cubism2/synth_moc.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  using namespace p2l_test::cubism2;
  int written = 0;
  for (int version = p2l::cubism2::kFirstVersion; version <= p2l::cubism2::kLastVersion; ++version) {
    for (int variant = 0; variant < 3; ++variant) {
      MocWriteOptions options;
      options.share = variant != 1;
      options.empty_lists_as_null = variant == 2;
      const auto bytes = write_moc(synth_moc(version), options);
      const char* suffix = variant == 0 ? "" : variant == 1 ? "-unshared" : "-null-lists";
      const std::string path = std::string(argv[1]) + "/synthetic-v" + std::to_string(version) + suffix + ".moc";
      std::ofstream out(path, std::ios::binary);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      if (!out) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        return 1;
      }
      ++written;
    }
  }
  std::printf("%d files\n", written);
  return 0;
}
