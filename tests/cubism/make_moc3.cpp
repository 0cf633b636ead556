// Writes a seeded synthetic .moc3 (tests/cubism/synth_model.hpp) for the fidelity check
// against the official Cubism Core on content the sample models lack.
//   p2l_make_moc3 SEED OUT.moc3 [--version 3|4|5|6] [--features LIST] [--dump]
// LIST: comma-separated feature names, applied in order: NAME turns one on, no-NAME off,
// "none" / "all" / "default" set every one (e.g. "none,colors" isolates keyform colours).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "synth_model.hpp"

namespace {

int usage() {
  std::fprintf(stderr, "usage: p2l_make_moc3 SEED OUT.moc3 [--version 3|4|5|6] [--features LIST] [--dump]\nfeatures: %s\n",
               p2l_test::synth::Features::names().c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  char* end = nullptr;
  const std::uint64_t seed = std::strtoull(argv[1], &end, 10);
  if (end == argv[1] || *end != '\0') return usage();
  const std::string out_path = argv[2];
  int version = 4;
  p2l_test::synth::Features features;
  bool dump = false;
  for (int i = 3; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--dump") {
      dump = true;
      continue;
    }
    if (i + 1 >= argc) return usage();
    const std::string_view value = argv[++i];
    if (arg == "--version") {
      if (value != "3" && value != "4" && value != "5" && value != "6") return usage();
      version = value[0] - '0';
    } else if (arg == "--features") {
      for (std::size_t at = 0; at <= value.size();) {
        const std::size_t comma = std::min(value.find(',', at), value.size());
        const std::string_view name = value.substr(at, comma - at);
        if (!name.empty() && !features.set(name)) {
          std::fprintf(stderr, "p2l_make_moc3: unknown feature \"%.*s\"\n", static_cast<int>(name.size()), name.data());
          return usage();
        }
        at = comma + 1;
      }
    } else {
      return usage();
    }
  }
  const auto made = p2l_test::synth::generate_moc3(seed, version, features);
  if (made.bytes.empty()) {
    std::fprintf(stderr, "p2l_make_moc3: %s\n", made.error.c_str());
    return 1;
  }
  std::ofstream out(out_path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(made.bytes.data()), static_cast<std::streamsize>(made.bytes.size()));
  if (!out) {
    std::fprintf(stderr, "p2l_make_moc3: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::printf("%s (%zu bytes)\n", made.summary.c_str(), made.bytes.size());
  if (dump) std::printf("%s", made.description.c_str());
  return 0;
}
