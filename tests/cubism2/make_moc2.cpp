// Writes synthetic Cubism 2 files: the fuzzers' seeds, made here rather than kept in the
// repository (no Cubism file is).
//   p2l_fuzz_make_moc2 DIR          synthetic-vV[-unshared|-null-lists].moc for every version V
//   p2l_fuzz_make_moc2 DIR --mtn    motions: every line ending, a byte-order mark, LF after $fps,
//                                   lines the reader skips
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "cubism2/moc_writer.hpp"
#include "cubism2/synth_moc.hpp"

namespace {

bool write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::fprintf(stderr, "cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

int motions(const std::string& dir) {
  const std::pair<const char*, std::string> seeds[] = {
      {"crlf", "# motion\r\n$fps=30\r\n\r\nPARAM_ANGLE_X=0,1.5,-3,.5,2.\r\nPARAM_EYE_L_OPEN=1,1,0,0,1\r\n"
               "VISIBLE:PARTS_01_ARM_L=1,1,0\r\nLAYOUT:X=0\r\nLAYOUT:SCALE_X=1\r\n"},
      {"lf-after-fps", "# motion\n$fps=24\nPARAM_A=0,1,2\nPARAM_B=3 4\t5\n"},
      {"bom-cr-cr-lf", "\xEF\xBB\xBF#\r\r\n$fps=60\r\r\nPARAM_BODY_ANGLE_X=-10,-9.5,-9,-8.25\r\r\nVISIBLE:PARTS_01_ARM_R=0,0,1\r\r\n"},
      {"cr-odd-lines", "$fps=4\rP=1,2,3\rNO_EQUALS\r 7\r_Q=9\r"},
  };
  for (const auto& [name, text] : seeds)
    if (!write(dir + "/synthetic-" + name + ".mtn", text)) return 1;
  std::printf("%zu files\n", std::size(seeds));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[2]) == "--mtn") return motions(argv[1]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR [--mtn]\n", argv[0]);
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
      if (!write(path, std::string(bytes.begin(), bytes.end()))) return 1;
      ++written;
    }
  }
  std::printf("%d files\n", written);
  return 0;
}
