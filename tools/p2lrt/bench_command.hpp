// `p2lrt bench`: how fast one rig loads, evaluates, animates and draws on this machine, and
// how much memory a model and an instance of it take, as a table (or JSON).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace p2lrt {

struct BenchOptions {
  std::string input;              // a .p2lrt, or a Cubism .model3.json imported on the fly
  double seconds = 0.2;           // at least this long per repetition of a measurement
  std::uint32_t repetitions = 5;  // of each measurement, after a warm-up
  std::uint32_t poses = 1000;     // seeded random poses evaluate() cycles through
  std::uint32_t instances = 64;   // evaluated together in the thread measurement
  std::uint64_t seed = 1;         // of the poses
  std::string clip;               // id or index; empty: the first clip, if any
  std::string only;               // comma list of sections; empty: all of them
  bool json = false;              // JSON on standard output instead of the table
  bool quiet = false;             // no progress on standard error

  void add_to(CLI::App* command);
};

// Runs the command; returns the process exit code (0 done, 1 failed, 2 bad arguments).
int bench(const BenchOptions& options);

}  // namespace p2lrt
