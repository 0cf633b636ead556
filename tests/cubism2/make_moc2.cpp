// Writes synthetic Cubism 2 files: the fuzzers' seeds and the fixtures' models, made here
// rather than kept in the repository (no Cubism file is).
//   p2l_fuzz_make_moc2 DIR             synthetic-vV[-unshared|-null-lists].moc for every version V,
//                                      and fixture-NAME.moc for every fixture (fixture_mocs.hpp)
//   p2l_fuzz_make_moc2 DIR --mtn       motions: every line ending, a byte-order mark, LF after $fps,
//                                      lines the reader skips
//   p2l_fuzz_make_moc2 DIR --fixtures  NAME.moc and NAME.poses.json for every fixture
//                                      (scripts/cubism2_fixtures.sh); p2l_moc2_make is the same tool
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "cubism2/fixture_mocs.hpp"
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

// Each fixture's model, and with [poses] its poses as JSON: [{"PARAM_ID": value, ...}, ...].
int fixtures(const std::string& dir, bool poses, const std::string& prefix) {
  using namespace p2l_test::cubism2;
  int written = 0;
  for (const Fixture& f : cubism2_fixtures()) {
    const auto bytes = write_moc(f.moc);
    if (!write(dir + "/" + prefix + f.name + ".moc", std::string(bytes.begin(), bytes.end()))) return -1;
    ++written;
    if (!poses) continue;
    std::string json = "[";
    for (std::size_t i = 0; i < f.poses.size(); ++i) {
      json += i ? ",\n{" : "{";
      bool first = true;
      for (const auto& [id, value] : f.poses[i]) {
        char number[32];
        std::snprintf(number, sizeof number, "%.9g", static_cast<double>(value));
        json += (first ? "\"" : ",\"") + id + "\":" + number;
        first = false;
      }
      json += "}";
    }
    if (!write(dir + "/" + f.name + ".poses.json", json + "]\n")) return -1;
  }
  return written;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[2]) == "--mtn") return motions(argv[1]);
  if (argc == 3 && std::string(argv[2]) == "--fixtures") {
    const int n = fixtures(argv[1], true, "");
    if (n >= 0) std::printf("%d fixtures\n", n);
    return n < 0 ? 1 : 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR [--mtn | --fixtures]\n", argv[0]);
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
  const int more = fixtures(argv[1], false, "fixture-");
  if (more < 0) return 1;
  std::printf("%d files\n", written + more);
  return 0;
}
