// motion3.json -> one CLIP clip, and the CEXT record for what Cubism motions carry beyond
// parameter curves (events, model and part-opacity curves, per-curve fades).
#include <algorithm>

#include "import/cubism/limits.hpp"
#include "import/cubism/side_files.hpp"

namespace p2l::cubism {
namespace {

struct Decoded {
  float start_time = 0, start_value = 0;
  std::vector<CurveSegment> segments;
  std::string cut;  // the report line of a last segment cut short, or empty
};

// Cubism's flat array: the first point, then per segment a type code and its points
// (0 linear: 1 point; 1 Bezier: control 1, control 2, end; 2 stepped, 3 inverse stepped:
// 1 point). Each segment starts where the one before ends. A curve that cannot be read gives
// nothing and [why], the line that says where and why: the caller drops that curve alone.
std::optional<Decoded> decode(const Node& list, std::string& why) {
  if (!list.json().is_array()) {
    why = list.note(std::string("expected an array, found ") + list.json().type_name());
    return std::nullopt;
  }
  const std::size_t n = list.size();
  if (n < 2) {
    why = list.note("needs at least the first point (time, value)");
    return std::nullopt;
  }
  bool bad = false;
  const auto number = [&](std::size_t k) {
    const std::optional<float> f = bad ? std::optional<float>(0.0f) : list.element(k).number_if(why);
    bad = bad || !f;
    return f.value_or(0.0f);
  };
  Decoded d;
  d.start_time = number(0);
  d.start_value = number(1);
  for (std::size_t i = 2; i < n && !bad;) {
    const Node code = list.element(i);
    const float c = number(i);
    if (bad) break;
    CurveSegment s;
    if (c == 0)
      s.kind = SegmentKind::Linear;
    else if (c == 1)
      s.kind = SegmentKind::Bezier;
    else if (c == 2)
      s.kind = SegmentKind::Stepped;
    else if (c == 3)
      s.kind = SegmentKind::InverseStepped;
    else {
      why = code.note("unknown segment type " + number_text(c) + " (expected 0 to 3)");
      return std::nullopt;
    }
    const std::size_t numbers = s.kind == SegmentKind::Bezier ? 6 : 2;
    // A last segment cut short (Haru's lip-sync curves): Cubism's Framework reads each
    // missing number as 0 (its points default to (0, 0)), and so does the importer.
    if (n - i - 1 < numbers)
      d.cut = code.note("the segment needs " + std::to_string(numbers) + " numbers after its type, the array has " +
                        std::to_string(n - i - 1) + " left: the missing ones are read as 0, as Cubism's Framework does");
    const auto at = [&](std::size_t k) { return k < n ? number(k) : 0.0f; };
    if (s.kind == SegmentKind::Bezier)
      for (std::size_t k = 0; k < 4; ++k) s.control[k] = at(i + 1 + k);
    s.time = at(i + numbers - 1);
    s.value = at(i + numbers);
    d.segments.push_back(s);
    i += 1 + numbers;
  }
  if (bad) return std::nullopt;
  return d;
}

// The points of every curve as Cubism counts them, from the arrays themselves (Meta's
// TotalPointCount is often wrong: Haru's motions declare fewer than they hold), before
// anything is built, so that a motion past kMaxMotionPoints is refused at once.
std::size_t count_points(const Node& root) {
  std::size_t points = 0;
  if (!root.json().is_object() || !root.json().contains("Curves")) return 0;
  const Json& curves = root.json()["Curves"];
  if (!curves.is_array()) return 0;
  for (const Json& curve : curves) {
    if (!curve.is_object() || !curve.contains("Segments") || !curve["Segments"].is_array()) continue;
    const Json& list = curve["Segments"];
    const std::size_t n = list.size();
    if (n < 2) continue;
    points += 1;
    for (std::size_t i = 2; i < n;) {
      const bool bezier = list[i].is_number() && list[i].get<double>() == 1.0;
      points += bezier ? 3 : 1;
      i += bezier ? 7 : 3;
    }
  }
  return points;
}

// Cubism's Framework plays the leading Model curves, then the Parameter curves, then the
// PartOpacity curves, each run ending at the first curve of another target (§4.6).
int target_rank(const std::string& target) { return target == "Model" ? 0 : target == "Parameter" ? 1 : 2; }

}  // namespace

void read_motion3(const Node& root, const MotionRef& ref, const std::string& id, bool cubism_playback, Rig& rig,
                  ImportReport& report) {
  if (const std::size_t points = count_points(root); points > kMaxMotionPoints)
    root.fail(ErrorCode::TooLarge, "Curves: " + std::to_string(points) + " points; p2lrt imports motions of up to " +
                                       std::to_string(kMaxMotionPoints) + " points");
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
    std::string unreadable;
    std::optional<Decoded> decoded;
    if (const auto segments = curve.find("Segments"))
      decoded = decode(*segments, unreadable);
    else
      unreadable = curve.missing_note("Segments");
    if (!decoded) {
      report.dropped.push_back(unreadable + ": " + target + " curve " + quote_id(cid) + " dropped");
      continue;
    }
    Decoded& d = *decoded;
    if (!d.cut.empty()) report.dropped.push_back(d.cut);
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
    out_of_order |= target_rank(target) < rank;
    rank = std::max(rank, target_rank(target));
  }

  for (const Node& event : root.elements_of("UserData"))
    ext.events.push_back({event.at("Time").number(), event.at("Value").string()});
  std::stable_sort(ext.events.begin(), ext.events.end(),
                   [](const ClipEvent& a, const ClipEvent& b) { return a.time < b.time; });

  // The Framework reads a missing AreBeziersRestricted as false: control times count.
  ext.unrestricted_beziers = !meta.boolean_or("AreBeziersRestricted", false);
  ext.cubism_playback = cubism_playback;
  if (out_of_order)
    report.dropped.push_back(root.at("Curves").note(
        "not in Cubism's order (Model, then Parameter, then PartOpacity curves): Cubism's Framework skips the curves "
        "after the first change back, p2lrt plays them all"));

  rig.clips.push_back(std::move(clip));
  if (!ext.events.empty() || !ext.curves.empty() || !ext.fades.empty() || ext.cubism_playback ||
      ext.unrestricted_beziers)
    rig.clip_extensions.push_back(std::move(ext));
}

}  // namespace p2l::cubism
