// A Cubism 2 `.mtn` motion (text): a frame rate and one curve a line, each value a frame.
//
//   # comment
//   $fps=30
//   PARAM_ANGLE_X=0,1.5,3,-2
//   VISIBLE:PARTS_01_ARM_L=1,1,0
//   LAYOUT:X=0,0.1
//
// As the Cubism 2.1 runtime reads it (../shared/research/cubism-2.md section 2.3): `#` lines
// are comments, `$` lines settings of which only `$fps` counts, and only between 5 and 121
// exclusive (else 30); a curve line starts with a letter or `_`, names its curve up to `=`,
// then numbers (an optional `-`, digits, an optional `.` and digits) separated by commas,
// spaces or tabs. The motion lasts as many frames as its longest curve.
//
// Where the runtime is defective p2lrt reads what the author wrote and notes it: a value with a
// letter in it (`1e-3`) hangs the runtime, here it is refused naming its line and column; with
// LF-only line endings the runtime's reader takes the lines after `$fps` as more `$fps`
// values and loses their curves, here they are read and a note says so. Bounds: 32 MiB a
// file, 2^22 values in all, ids of at most 1,024 bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "p2l/format.hpp"

namespace p2l::cubism2 {

enum class CurveKind : std::uint8_t {
  Parameter,  // "PARAM_ID="
  Visible,    // "VISIBLE:PART_ID=": a part's visibility, 0 or 1 (the pose reads it)
  Layout,     // "LAYOUT:X=" and the like: read, not played by the runtime (which names them X, SCALE_X)
};

struct MtnCurve {
  CurveKind kind = CurveKind::Parameter;
  std::string id;  // without its "VISIBLE:" or "LAYOUT:" prefix
  std::vector<float> values;
};

struct Mtn {
  float fps = 30;
  std::vector<MtnCurve> curves;  // in file order
  std::uint32_t frames = 0;      // the longest curve's values
  // What p2lrt reads differently from the 2.1 runtime, or skips, one line each (for the
  // import report).
  std::vector<std::string> notes;

  // floor(1000 x frames / fps) milliseconds, as the runtime gives it.
  std::uint32_t duration_ms() const;
};

inline constexpr std::size_t kMaxMtnBytes = std::size_t{32} << 20;
inline constexpr std::size_t kMaxMtnValues = std::size_t{1} << 22;

// Reads [text] into [out]; false with [error] (line in the message, byte offset) when refused.
bool read_mtn(std::string_view text, Mtn& out, Error& error);

}  // namespace p2l::cubism2
