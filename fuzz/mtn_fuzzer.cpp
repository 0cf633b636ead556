// libFuzzer target for the Cubism 2 .mtn reader, p2l::cubism2::read_mtn, and the clip the
// importer makes of what it reads (p2l::cubism2::clip_of_mtn).
//
// Any input either reads or is refused with a reason; nothing may read outside the text,
// overflow or allocate without bound. What reads holds together: a frame rate within
// (5, 121), every value finite, frames the longest curve, at most kMaxMtnValues values; and
// its clip, on a small rig with the parameters and parts the seeds name, validates.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "import/cubism2/mtn_clip.hpp"
#include "import/cubism2/mtn_file.hpp"
#include "p2l/format.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** p2l_mtn_fuzzer: %s\n    %s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// Parameters and parts the seeds' curves name (p2l_fuzz_make_moc2 --mtn), the rest left out.
const p2l::Rig& small_rig() {
  static const p2l::Rig rig = [] {
    p2l::Rig r;
    for (const char* id : {"PARAM_ANGLE_X", "PARAM_EYE_L_OPEN", "PARAM_BODY_ANGLE_X", "PARAM_A", "PARAM_B", "P", "_Q"}) {
      p2l::Parameter p;
      p.id = p.name = id;
      p.min = -30;
      p.max = 30;
      r.parameters.push_back(p);
    }
    for (const char* id : {"PARTS_01_ARM_L", "PARTS_01_ARM_R"}) {
      p2l::Part part;
      part.id = part.name = id;
      r.parts.push_back(part);
    }
    return r;
  }();
  return rig;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2l::cubism2;
  Mtn mtn;
  p2l::Error error;
  if (!read_mtn(std::string_view(reinterpret_cast<const char*>(data), size), mtn, error)) {
    if (error.ok() || error.message.empty()) fail("refused without a reason", error.to_string());
    return 0;
  }
  if (!(mtn.fps > 5.0f && mtn.fps < 121.0f)) fail("a frame rate outside (5, 121)", std::to_string(mtn.fps));
  std::size_t values = 0, longest = 0;
  for (const MtnCurve& c : mtn.curves) {
    values += c.values.size();
    longest = c.values.size() > longest ? c.values.size() : longest;
    for (const float v : c.values)
      if (!std::isfinite(v)) fail("a value that is not finite", c.id);
  }
  if (values > kMaxMtnValues) fail("more values than the bound", std::to_string(values));
  if (longest != mtn.frames) fail("frames is not the longest curve", std::to_string(mtn.frames));
  (void)mtn.duration_ms();
  p2l::Rig rig = small_rig();
  p2l::ClipExtension extension;
  std::vector<std::string> report;
  rig.clips.push_back(clip_of_mtn(mtn, rig, "fuzzed", "fuzzed.mtn", extension, report));
  rig.clip_extensions.push_back(std::move(extension));
  const p2l::Error invalid = p2l::validate(rig);
  if (!invalid.ok()) fail("its clip does not validate", invalid.to_string());
  return 0;
}
