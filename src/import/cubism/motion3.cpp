// motion3.json -> one CLIP clip, and the CEXT record for what Cubism motions carry beyond
// parameter curves (events, model and part-opacity curves, per-curve fades).
#include <algorithm>

#include "import/cubism/side_files.hpp"

namespace p2l::cubism {
namespace {

struct Decoded {
  float start_time = 0, start_value = 0;
  std::vector<CurveSegment> segments;
  std::size_t beziers = 0, beziers_outside = 0;  // Bezier segments; those with a control time outside the segment
};

// Cubism's flat array: the first point, then per segment a type code and its points
// (0 linear: 1 point; 1 Bezier: control 1, control 2, end; 2 stepped, 3 inverse stepped:
// 1 point). Each segment starts where the one before ends.
Decoded decode(const Node& list) {
  const std::size_t n = list.size();
  if (n < 2) list.fail(ErrorCode::BadRecord, "needs at least the first point (time, value)");
  Decoded d;
  d.start_time = list.element(0).number();
  d.start_value = list.element(1).number();
  float from = d.start_time;
  for (std::size_t i = 2; i < n;) {
    const Node code = list.element(i);
    const float c = code.number();
    CurveSegment s;
    if (c == 0)
      s.kind = SegmentKind::Linear;
    else if (c == 1)
      s.kind = SegmentKind::Bezier;
    else if (c == 2)
      s.kind = SegmentKind::Stepped;
    else if (c == 3)
      s.kind = SegmentKind::InverseStepped;
    else
      code.fail(ErrorCode::BadRecord, "unknown segment type " + number_text(c) + " (expected 0 to 3)");
    const std::size_t numbers = s.kind == SegmentKind::Bezier ? 6 : 2;
    if (n - i - 1 < numbers)
      code.fail(ErrorCode::BadRecord, "the segment needs " + std::to_string(numbers) +
                                          " numbers after its type, the array has " + std::to_string(n - i - 1) +
                                          " left");
    if (s.kind == SegmentKind::Bezier)
      for (std::size_t k = 0; k < 4; ++k) s.control[k] = list.element(i + 1 + k).number();
    s.time = list.element(i + numbers - 1).number();
    s.value = list.element(i + numbers).number();
    if (s.kind == SegmentKind::Bezier) {
      ++d.beziers;
      auto outside = [&](float t) { return t < from || t > s.time; };
      if (outside(s.control[0]) || outside(s.control[2])) ++d.beziers_outside;
    }
    from = s.time;
    d.segments.push_back(s);
    i += 1 + numbers;
  }
  return d;
}

// Cubism's Framework plays the leading Model curves, then the Parameter curves, then the
// PartOpacity curves, each run ending at the first curve of another target (§4.6).
int target_rank(const std::string& target) { return target == "Model" ? 0 : target == "Parameter" ? 1 : 2; }

}  // namespace

void read_motion3(const Node& root, const MotionRef& ref, const std::string& id, Rig& rig, ImportReport& report) {
  const Node meta = root.at("Meta");
  Clip clip;
  clip.id = id;
  clip.name = id;
  clip.group = ref.group;
  clip.duration = meta.at("Duration").number();
  clip.fps = meta.number_or("Fps", 30);
  clip.looping = meta.boolean_or("Loop", false);
  // The model3.json entry's fade overrides the file's when it gives one (as Cubism's samples do).
  clip.fade_in = ref.fade_in >= 0 ? ref.fade_in : meta.number_or("FadeInTime", -1);
  clip.fade_out = ref.fade_out >= 0 ? ref.fade_out : meta.number_or("FadeOutTime", -1);
  ClipExtension ext;
  ext.clip = static_cast<std::uint32_t>(rig.clips.size());

  std::size_t beziers = 0, outside = 0, curves_outside = 0;
  int rank = 0;
  bool out_of_order = false;
  for (const Node& curve : root.at("Curves").elements()) {
    const std::string target = curve.at("Target").string();
    const Node id_node = curve.at("Id");
    const std::string cid = id_node.string();
    const float fade_in = curve.number_or("FadeInTime", -1), fade_out = curve.number_or("FadeOutTime", -1);
    // Haru's own motions have lip-sync curves whose last segment is cut short; Cubism's
    // Framework does not check and plays whatever it reads past the end. One such curve is
    // dropped, not the model.
    Decoded d;
    try {
      d = decode(curve.at("Segments"));
    } catch (const Failure& f) {
      report.dropped.push_back(f.error.message + ": " + target + " curve " + quote_id(cid) + " dropped");
      continue;
    }
    auto dropped = [&](const std::string& why) { report.dropped.push_back(id_node.note(why + ": curve dropped")); };
    if (target == "Parameter") {
      const std::int32_t p = rig.find_parameter(cid);
      // Cubism plays it into a virtual parameter that nothing reads.
      if (p < 0) {
        dropped("no parameter " + quote_id(cid));
        continue;
      }
      if (curve.has("FadeInTime") || curve.has("FadeOutTime"))
        ext.fades.push_back({static_cast<std::uint32_t>(clip.curves.size()), fade_in, fade_out});
      clip.curves.push_back({static_cast<std::uint32_t>(p), d.start_time, d.start_value, std::move(d.segments)});
    } else if (target == "Model" || target == "PartOpacity") {
      ClipExtraCurve c;
      if (target == "PartOpacity") {
        c.target = ClipCurveTarget::PartOpacity;
        c.part = rig.find_part(cid);
        // Cubism writes it into a virtual parameter that only a pose reads, and every pose
        // part is a real part (an unknown one is fatal in pose3).
        if (c.part < 0) {
          dropped("no part " + quote_id(cid));
          continue;
        }
      } else if (cid == "EyeBlink") {
        c.target = ClipCurveTarget::EyeBlink;
      } else if (cid == "LipSync") {
        c.target = ClipCurveTarget::LipSync;
      } else if (cid == "Opacity") {
        c.target = ClipCurveTarget::ModelOpacity;
      } else {
        dropped("unknown Model curve " + quote_id(cid) + " (expected EyeBlink, LipSync or Opacity)");
        continue;
      }
      c.fade_in = fade_in;
      c.fade_out = fade_out;
      c.start_time = d.start_time;
      c.start_value = d.start_value;
      c.segments = std::move(d.segments);
      ext.curves.push_back(std::move(c));
    } else {
      report.dropped.push_back(curve.at("Target").note("unknown target " + quote_id(target) + ": curve dropped"));
      continue;
    }
    beziers += d.beziers;
    outside += d.beziers_outside;
    curves_outside += d.beziers_outside > 0;
    out_of_order |= target_rank(target) < rank;
    rank = std::max(rank, target_rank(target));
  }

  for (const Node& event : root.elements_of("UserData"))
    ext.events.push_back({event.at("Time").number(), event.at("Value").string()});
  std::stable_sort(ext.events.begin(), ext.events.end(),
                   [](const ClipEvent& a, const ClipEvent& b) { return a.time < b.time; });

  // Unrestricted Beziers (Cubism's default) may put a control time outside the segment;
  // p2lrt keeps it within. Where none is outside, both play the same.
  if (outside > 0 && !meta.boolean_or("AreBeziersRestricted", false))
    report.dropped.push_back(meta.note(
        "AreBeziersRestricted is false and " + std::to_string(outside) + " of the " + std::to_string(beziers) +
        " Bezier segments (in " + std::to_string(curves_outside) +
        " curves) have a control point outside their segment's time span: p2lrt restricts control times to the "
        "segment, so those segments play differently"));
  if (out_of_order)
    report.dropped.push_back(root.at("Curves").note(
        "not in Cubism's order (Model, then Parameter, then PartOpacity curves): Cubism's Framework skips the curves "
        "after the first change back, p2lrt plays them all"));

  rig.clips.push_back(std::move(clip));
  if (!ext.events.empty() || !ext.curves.empty() || !ext.fades.empty()) rig.clip_extensions.push_back(std::move(ext));
}

}  // namespace p2l::cubism
