#include "import/cubism2/mtn_clip.hpp"

namespace p2l::cubism2 {
namespace {

// The runtime interpolates between two frames unless they differ by more than this share of
// the parameter's range (compared in double, as it compares).
constexpr double kJump = 0.4;

// Points at k / fps from [values]: linear, or stepped where [stepped] says the pair jumps.
template <class Stepped>
void points(const std::vector<float>& values, float fps, float& start_value, std::vector<CurveSegment>& out, Stepped stepped) {
  start_value = values.empty() ? 0.0f : values[0];
  for (std::size_t k = 1; k < values.size(); ++k) {
    CurveSegment s;
    s.kind = stepped(values[k - 1], values[k]) ? SegmentKind::Stepped : SegmentKind::Linear;
    s.time = static_cast<float>(static_cast<double>(k) / fps);
    s.value = values[k];
    out.push_back(s);
  }
}

}  // namespace

Clip clip_of_mtn(const Mtn& mtn, const Rig& rig, const std::string& id, const std::string& file, ClipExtension& extension,
                 std::vector<std::string>& report) {
  Clip clip;
  clip.id = clip.name = id;
  clip.fps = mtn.fps;
  clip.duration = static_cast<float>(mtn.duration_ms()) / 1000.0f;
  extension.cubism_playback = true;
  std::size_t layout = 0;
  for (const MtnCurve& c : mtn.curves) {
    if (c.values.empty()) continue;
    if (c.kind == CurveKind::Layout) {
      ++layout;
      continue;
    }
    if (c.kind == CurveKind::Visible) {
      const std::int32_t part = rig.find_part(c.id);
      if (part < 0) {
        report.push_back(file + ": VISIBLE:" + c.id + " names no part of the model: that curve is left out");
        continue;
      }
      ClipExtraCurve curve;
      curve.target = ClipCurveTarget::PartOpacity;
      curve.part = part;
      points(c.values, mtn.fps, curve.start_value, curve.segments, [](float, float) { return true; });
      extension.curves.push_back(std::move(curve));
      continue;
    }
    const std::int32_t parameter = rig.find_parameter(c.id);
    if (parameter < 0) {
      // The runtime makes such a parameter as it plays the motion, and nothing reads it.
      report.push_back(file + ": " + c.id + " names no parameter of the model: that curve is left out");
      continue;
    }
    const Parameter& p = rig.parameters[static_cast<std::size_t>(parameter)];
    const double jump = kJump * (static_cast<double>(p.max) - p.min);
    Curve curve;
    curve.parameter = static_cast<std::uint32_t>(parameter);
    points(c.values, mtn.fps, curve.start_value, curve.segments,
           [jump](double a, double b) { return (a < b && b - a > jump) || (a > b && a - b > jump); });
    clip.curves.push_back(std::move(curve));
  }
  if (layout > 0)
    report.push_back(file + ": " + std::to_string(layout) + " LAYOUT: curves are not carried over (the runtime does not play them)");
  for (const std::string& note : mtn.notes) report.push_back(file + ": " + note);
  return clip;
}

}  // namespace p2l::cubism2
