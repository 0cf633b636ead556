// A Cubism 2 .mtn motion as a clip: what the 2.1 runtime plays from it, in p2lrt's curves.
//
// The runtime samples a motion at frame position f = seconds x fps: a parameter curve gives
// v[floor f] + (v[floor f + 1] - v[floor f]) x frac, each list held at its last value, except
// where the two values differ by more than 40 % of the parameter's range, where it holds
// v[floor f] (no interpolation across a jump). So each curve is a point a frame at k / fps,
// joined by linear segments, or by stepped ones across a jump. A VISIBLE:PART curve is written
// as it is, frame by frame (a stepped part-opacity curve, which the pose reads); LAYOUT: curves
// are not played by the runtime and not imported. docs/IMPORT.md, "Cubism 2 models".
#pragma once

#include <string>
#include <vector>

#include "import/cubism2/mtn_file.hpp"
#include "p2l/rig.hpp"

namespace p2l::cubism2 {

// The clip [id] of [mtn] for [rig] (whose parameters and parts the curves name), its CEXT
// record (part-opacity curves; Cubism's playback) into [extension], and one line in [report]
// for each thing not carried over (a curve naming a parameter or part the model lacks, LAYOUT:
// curves), each beginning with [file].
Clip clip_of_mtn(const Mtn& mtn, const Rig& rig, const std::string& id, const std::string& file, ClipExtension& extension,
                 std::vector<std::string>& report);

}  // namespace p2l::cubism2
