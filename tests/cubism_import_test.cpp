// The Cubism whole-model importer (p2l/cubism.hpp): each side file's mapping rules on small
// JSON written here, with the expected values worked out by hand; the fatal errors and the
// report lines; the whole importer on a synthetic model folder; and Haru, from the npm
// package that scripts/fetch_cubism_core.sh caches (never committed), when it is present.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "import/cubism/document.hpp"
#include "import/cubism/side_files.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"
#include "side_file_rig.hpp"

namespace {

namespace fs = std::filesystem;
using p2l::cubism::Document;
using p2l::cubism::Node;

Document doc(const std::string& file, const std::string& text) {
  return p2l::cubism::parse_document(file, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

// Parameters ParamAngle(0) ParamB(1) ParamC(2) ParamD(3); parts Body(0) Arm1(1) Arm2(2) Arm3(3); meshes A(0) B(1).
p2l::Rig base_rig() { return p2l_test::make_side_file_rig(); }

// Runs one side-file reader on [text] and returns its error (ok when it succeeded).
template <class Read>
p2l::Error run(const std::string& file, const std::string& text, Read read) {
  return p2l::cubism::guarded([&] {
    const Document d = doc(file, text);
    read(Node(d));
  });
}

bool has_line(const p2l::ImportReport& r, const std::string& words) {
  for (const auto& line : r.dropped)
    if (line.find(words) != std::string::npos) return true;
  return false;
}

std::string lines(const p2l::ImportReport& r) {
  std::string out;
  for (const auto& line : r.dropped) out += line + "\n";
  return out;
}

p2l::cubism::MotionRef motion_ref(float fade_in = -1, float fade_out = -1) {
  return {"Idle", "m.motion3.json", fade_in, fade_out, "model.model3.json: FileReferences.Motions.Idle[0]"};
}

// ---- motion3 --------------------------------------------------------------------------------

TEST(CubismImport, Motion3DecodesAllFourSegmentKinds) {
  // (0,1) -linear-> (1,2) -Bezier (1.25,3) (1.75,4)-> (2,5) -stepped-> (3,6) -inverse stepped-> (4,7)
  const std::string text =
      R"({"Version": 3, "Meta": {"Duration": 4.5, "Fps": 24, "Loop": true, "AreBeziersRestricted": true},
    "Curves": [{"Target": "Parameter", "Id": "ParamB",
                "Segments": [0, 1,  0, 1, 2,  1, 1.25, 3, 1.75, 4, 2, 5,  2, 3, 6,  3, 4, 7]}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e =
      run("m.motion3.json", text, [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_TRUE(report.dropped.empty()) << lines(report);
  ASSERT_EQ(rig.clips.size(), 1u);
  const p2l::Clip& c = rig.clips[0];
  EXPECT_EQ(c.id, "m");
  EXPECT_EQ(c.name, "m");
  EXPECT_EQ(c.group, "Idle");
  EXPECT_EQ(c.duration, 4.5f);
  EXPECT_EQ(c.fps, 24.0f);
  EXPECT_TRUE(c.looping);
  EXPECT_EQ(c.fade_in, -1.0f);
  EXPECT_EQ(c.fade_out, -1.0f);
  ASSERT_EQ(c.curves.size(), 1u);
  const p2l::Curve& cv = c.curves[0];
  EXPECT_EQ(cv.parameter, 1u);
  EXPECT_EQ(cv.start_time, 0.0f);
  EXPECT_EQ(cv.start_value, 1.0f);
  using K = p2l::SegmentKind;
  const std::vector<p2l::CurveSegment> expected = {{K::Linear, {0, 0, 0, 0}, 1, 2},
                                                   {K::Bezier, {1.25f, 3, 1.75f, 4}, 2, 5},
                                                   {K::Stepped, {0, 0, 0, 0}, 3, 6},
                                                   {K::InverseStepped, {0, 0, 0, 0}, 4, 7}};
  EXPECT_EQ(cv.segments, expected);
  // Nothing beyond parameter curves: the record carries only the playback flags.
  ASSERT_EQ(rig.clip_extensions.size(), 1u);
  EXPECT_EQ(rig.clip_extensions[0], (p2l::ClipExtension{0, {}, {}, {}, true, false}));
}

TEST(CubismImport, Motion3FadeComesFromTheModel3EntryThenTheFileThenTheDefault) {
  auto clip = [](const std::string& meta, float ref_in, float ref_out) {
    p2l::Rig rig = base_rig();
    p2l::ImportReport report;
    auto e = run("m.motion3.json", R"({"Meta": {"Duration": 1)" + meta + R"(}, "Curves": []})",
                 [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(ref_in, ref_out), "m", true, rig, report); });
    EXPECT_TRUE(e.ok()) << e.to_string();
    return rig.clips.at(0);
  };
  const std::string both = R"(, "FadeInTime": 0.75, "FadeOutTime": 1.5)";
  EXPECT_EQ(clip(both, 0.25f, 0).fade_in, 0.25f);
  EXPECT_EQ(clip(both, 0.25f, 0).fade_out, 0.0f) << "0 from the entry is a fade of 0, not 'none'";
  EXPECT_EQ(clip(both, 0, 0.25f).fade_in, 0.0f);
  EXPECT_EQ(clip(both, 0, 0.25f).fade_out, 0.25f);
  EXPECT_EQ(clip(both, -1, -1).fade_in, 0.75f);
  EXPECT_EQ(clip(both, -1, -1).fade_out, 1.5f);
  EXPECT_EQ(clip("", -1, -1).fade_in, -1.0f);
  EXPECT_EQ(clip("", -1, -1).fade_out, -1.0f);
  EXPECT_EQ(clip("", -1, -1).fps, 30.0f) << "no Fps: the clip default";
  EXPECT_FALSE(clip("", -1, -1).looping);
}

TEST(CubismImport, Motion3ModelAndPartCurvesEventsAndCurveFadesGoToCext) {
  const std::string text = R"({"Meta": {"Duration": 3, "Fps": 30},
    "Curves": [
      {"Target": "Model", "Id": "Opacity", "Segments": [0, 1, 0, 3, 0.5]},
      {"Target": "Model", "Id": "EyeBlink", "FadeOutTime": 0.5, "Segments": [0, 1, 2, 1, 0]},
      {"Target": "Model", "Id": "LipSync", "Segments": [0, 0, 3, 2, 1]},
      {"Target": "Parameter", "Id": "ParamC", "Segments": [0, 0, 0, 1, 1]},
      {"Target": "Parameter", "Id": "ParamB", "FadeInTime": 0.25, "Segments": [0, 0, 0, 1, 1]},
      {"Target": "PartOpacity", "Id": "Arm2", "Segments": [0, 1, 2, 2, 0]}],
    "UserData": [{"Time": 2, "Value": "b"}, {"Time": 1, "Value": "a"}, {"Time": 2, "Value": "c"}]})";
  p2l::Rig rig = base_rig();
  rig.clips.push_back({});  // so that the extension's clip index is not 0 by chance
  p2l::ImportReport report;
  auto e =
      run("m.motion3.json", text, [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_TRUE(report.dropped.empty()) << lines(report);
  ASSERT_EQ(rig.clips.size(), 2u);
  ASSERT_EQ(rig.clips[1].curves.size(), 2u);
  EXPECT_EQ(rig.clips[1].curves[0].parameter, 2u);
  EXPECT_EQ(rig.clips[1].curves[1].parameter, 1u);
  ASSERT_EQ(rig.clip_extensions.size(), 1u);
  const p2l::ClipExtension& x = rig.clip_extensions[0];
  EXPECT_EQ(x.clip, 1u);
  // Events by time, equal times in file order.
  ASSERT_EQ(x.events.size(), 3u);
  EXPECT_EQ(x.events[0], (p2l::ClipEvent{1, "a"}));
  EXPECT_EQ(x.events[1], (p2l::ClipEvent{2, "b"}));
  EXPECT_EQ(x.events[2], (p2l::ClipEvent{2, "c"}));
  // Only the curve with its own fade gets one: curve 1 of the clip (ParamB), fade-out "use the clip's".
  ASSERT_EQ(x.fades.size(), 1u);
  EXPECT_EQ(x.fades[0], (p2l::ClipCurveFade{1, 0.25f, -1}));
  using T = p2l::ClipCurveTarget;
  using K = p2l::SegmentKind;
  ASSERT_EQ(x.curves.size(), 4u);
  EXPECT_EQ(x.curves[0], (p2l::ClipExtraCurve{T::ModelOpacity, -1, -1, -1, 0, 1, {{K::Linear, {}, 3, 0.5f}}}));
  EXPECT_EQ(x.curves[1], (p2l::ClipExtraCurve{T::EyeBlink, -1, -1, 0.5f, 0, 1, {{K::Stepped, {}, 1, 0}}}));
  EXPECT_EQ(x.curves[2], (p2l::ClipExtraCurve{T::LipSync, -1, -1, -1, 0, 0, {{K::InverseStepped, {}, 2, 1}}}));
  EXPECT_EQ(x.curves[3], (p2l::ClipExtraCurve{T::PartOpacity, 2, -1, -1, 0, 1, {{K::Stepped, {}, 2, 0}}}));
}

// A curve whose segments cannot be read is dropped alone, the line saying where and why; the
// motion imports (as Haru's does, whose lip-sync curves end short).
TEST(CubismImport, Motion3DropsAnUnreadableCurveAlone) {
  const std::string text = R"({"Meta": {"Duration": 1},
    "Curves": [
      {"Target": "Parameter", "Id": "ParamB"},
      {"Target": "Parameter", "Id": "ParamB", "Segments": {"0": 1}},
      {"Target": "Parameter", "Id": "ParamB", "Segments": [0]},
      {"Target": "Parameter", "Id": "ParamB", "Segments": [0, 0, 0, "1", 1]},
      {"Target": "Parameter", "Id": "ParamB", "Segments": [0, 0, 1, 1, 1, 1, 1, 1e39, 1]},
      {"Target": "Parameter", "Id": "ParamD", "Segments": [0, 0, 0, 1, 1]}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e =
      run("m.motion3.json", text, [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(report.dropped.size(), 5u) << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[0].Segments: missing: Parameter curve \"ParamB\" dropped")) << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[1].Segments: expected an array, found object: Parameter curve \"ParamB\" dropped"))
      << lines(report);
  EXPECT_TRUE(has_line(report,
                       "m.motion3.json: Curves[2].Segments: needs at least the first point (time, value): Parameter curve "
                       "\"ParamB\" dropped"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[3].Segments[3]: expected a number, found string: Parameter curve \"ParamB\" dropped"))
      << lines(report);
  EXPECT_TRUE(has_line(report,
                       "m.motion3.json: Curves[4].Segments[7]: the number is not finite as a 32-bit float: Parameter curve "
                       "\"ParamB\" dropped"))
      << lines(report);
  ASSERT_EQ(rig.clips.size(), 1u);
  ASSERT_EQ(rig.clips[0].curves.size(), 1u);
  EXPECT_EQ(rig.clips[0].curves[0].parameter, 3u);
}

TEST(CubismImport, Motion3DropsWhatItCannotPlayAndSaysWhere) {
  const std::string text = R"({"Meta": {"Duration": 1},
    "Curves": [
      {"Target": "Model", "Id": "Wobble", "Segments": [0, 0, 0, 1, 1]},
      {"Target": "Parameter", "Id": "ParamFoo", "Segments": [0, 0, 0, 1, 1]},
      {"Target": "Parameter", "Id": "ParamB", "Segments": [0, 0, 1, 1, 1]},
      {"Target": "Parameter", "Id": "ParamC", "Segments": [0, 0, 7, 1, 1]},
      {"Target": "Parameter", "Id": "ParamD", "Segments": [0, 0, 0, 1, 1]},
      {"Target": "PartOpacity", "Id": "Part01Sketch", "Segments": [0, 0, 0, 1, 1]},
      {"Target": "Texture", "Id": "X", "Segments": [0, 0, 0, 1, 1]}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e =
      run("m.motion3.json", text, [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(report.dropped.size(), 6u) << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[0].Id: unknown Model curve \"Wobble\"")) << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[1].Id: no parameter \"ParamFoo\": curve dropped"))
      << lines(report);
  EXPECT_TRUE(has_line(
      report,
      "m.motion3.json: Curves[2].Segments[2]: the segment needs 6 numbers after its type, the array has 2 left: the "
      "missing ones are read as 0, as Cubism's Framework does"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[3].Segments[2]: unknown segment type 7")) << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[5].Id: no part \"Part01Sketch\"")) << lines(report);
  EXPECT_TRUE(has_line(report, "m.motion3.json: Curves[6].Target: unknown target \"Texture\"")) << lines(report);
  ASSERT_EQ(rig.clips.size(), 1u);
  ASSERT_EQ(rig.clips[0].curves.size(), 2u);
  // The Bezier cut short is kept as Cubism plays it: what is missing is 0.
  EXPECT_EQ(rig.clips[0].curves[0],
            (p2l::Curve{1, 0, 0, {{p2l::SegmentKind::Bezier, {1, 1, 0, 0}, 0, 0}}}));
  EXPECT_EQ(rig.clips[0].curves[1].parameter, 3u);
  // A file without Meta is not a motion: fatal.
  e = run("m.motion3.json", R"({"Curves": []})",
          [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  EXPECT_EQ(e.code, p2l::ErrorCode::BadRecord);
  EXPECT_EQ(e.message, "m.motion3.json: Meta: missing");
}

TEST(CubismImport, Motion3CarriesThePlaybackFlagsInsteadOfReportingBeziers) {
  // Every imported motion plays as Cubism's Framework plays it (CEXT flag bit 0), and its
  // Beziers are unrestricted (bit 1) unless the file says AreBeziersRestricted: true; the
  // unrestricted rule is now played, so nothing is reported.
  auto import = [](const std::string& restricted, bool cubism) {
    const std::string text = R"({"Meta": {"Duration": 2)" + restricted + R"(}, "Curves": [
      {"Target": "Parameter", "Id": "ParamB", "Segments": [0, 0, 1, 0.25, 0, 0.75, 1, 1, 1,  1, 1.25, 1, 2.5, 0, 2, 0]}]})";
    p2l::Rig rig = base_rig();
    p2l::ImportReport report;
    auto e = run("m.motion3.json", text,
                 [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", cubism, rig, report); });
    EXPECT_TRUE(e.ok()) << e.to_string();
    EXPECT_TRUE(report.dropped.empty()) << lines(report);
    return rig;
  };
  auto unrestricted = import(R"(, "AreBeziersRestricted": false)", true);
  ASSERT_EQ(unrestricted.clip_extensions.size(), 1u);
  EXPECT_TRUE(unrestricted.clip_extensions[0].cubism_playback);
  EXPECT_TRUE(unrestricted.clip_extensions[0].unrestricted_beziers);
  EXPECT_TRUE(import("", true).clip_extensions[0].unrestricted_beziers) << "a missing AreBeziersRestricted is false";
  auto restricted = import(R"(, "AreBeziersRestricted": true)", true);
  ASSERT_EQ(restricted.clip_extensions.size(), 1u);
  EXPECT_TRUE(restricted.clip_extensions[0].cubism_playback);
  EXPECT_FALSE(restricted.clip_extensions[0].unrestricted_beziers);
  // p2lrt's own playback: no record at all for a restricted motion without extras.
  EXPECT_TRUE(import(R"(, "AreBeziersRestricted": true)", false).clip_extensions.empty());
  auto own = import("", false);
  ASSERT_EQ(own.clip_extensions.size(), 1u);
  EXPECT_FALSE(own.clip_extensions[0].cubism_playback);
  EXPECT_TRUE(own.clip_extensions[0].unrestricted_beziers);
}

TEST(CubismImport, Motion3CurvesOutOfCubismsOrderAreReported) {
  const std::string text = R"({"Meta": {"Duration": 1}, "Curves": [
      {"Target": "Parameter", "Id": "ParamB", "Segments": [0, 0, 0, 1, 1]},
      {"Target": "Model", "Id": "Opacity", "Segments": [0, 0, 0, 1, 1]}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e =
      run("m.motion3.json", text, [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  ASSERT_EQ(report.dropped.size(), 1u) << lines(report);
  EXPECT_NE(report.dropped[0].find("m.motion3.json: Curves: not in Cubism's order"), std::string::npos)
      << report.dropped[0];
}

// ---- physics3 -------------------------------------------------------------------------------

const char* kPhysics = R"({"Version": 3,
  "Meta": {"PhysicsSettingCount": 1, "Fps": 60,
           "EffectiveForces": {"Gravity": {"X": 0, "Y": -1}, "Wind": {"X": 0, "Y": 0}},
           "PhysicsDictionary": [{"Id": "PhysicsSetting1", "Name": "Hair"}]},
  "PhysicsSettings": [{"Id": "PhysicsSetting1",
    "Input": [{"Source": {"Target": "Parameter", "Id": "ParamAngle"}, "Weight": 60, "Type": "X", "Reflect": false},
              {"Source": {"Target": "Parameter", "Id": "ParamC"}, "Weight": 40, "Type": "Angle", "Reflect": true}],
    "Output": [{"Destination": {"Target": "Parameter", "Id": "ParamB"}, "VertexIndex": 2, "Scale": 1.5,
                "Weight": 100, "Type": "Angle", "Reflect": true}],
    "Vertices": [{"Position": {"X": 0, "Y": 0}, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0},
                 {"Position": {"X": 0, "Y": 8}, "Mobility": 0.75, "Delay": 0.5, "Acceleration": 1.5, "Radius": 8},
                 {"Position": {"X": 3, "Y": 12}, "Mobility": 0.25, "Delay": 0.125, "Acceleration": 2, "Radius": 5}],
    "Normalization": {"Position": {"Minimum": -10, "Default": 0.5, "Maximum": 11},
                      "Angle": {"Minimum": -12, "Default": 1, "Maximum": 13}}}]})";

TEST(CubismImport, Physics3MapsEveryField) {
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("h.physics3.json", kPhysics, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_TRUE(report.dropped.empty()) << lines(report);
  EXPECT_EQ(rig.physics_fps, 60.0f);
  ASSERT_EQ(rig.physics.size(), 1u);
  const p2l::PhysicsGroup& g = rig.physics[0];
  EXPECT_EQ(g.id, "PhysicsSetting1");
  EXPECT_EQ(g.name, "Hair");
  using S = p2l::PhysicsSource;
  EXPECT_EQ(g.inputs, (std::vector<p2l::PhysicsInput>{{0, 60, S::X, false}, {2, 40, S::Angle, true}}));
  EXPECT_EQ(g.outputs, (std::vector<p2l::PhysicsOutput>{{1, 2, 1.5f, 100, S::Angle, true}}));
  // Lengths are the radii (0 for the root); (0,8) -> (3,12) is 5 long, as its Radius says.
  EXPECT_EQ(g.segments,
            (std::vector<p2l::PhysicsSegment>{{0, 1, 1, 1}, {8, 0.75f, 0.5f, 1.5f}, {5, 0.25f, 0.125f, 2}}));
  EXPECT_EQ(g.normalization, (p2l::Normalization{-10, 0.5f, 11, -12, 1, 13}));
  // Without Meta.Fps and the dictionary: fps 0, the group named by its id.
  std::string bare = kPhysics;
  bare.replace(bare.find("\"Fps\": 60,"), 10, "");
  bare.replace(bare.find("\"Name\": \"Hair\""), 14, "\"Name\": \"\"");
  p2l::Rig rig2 = base_rig();
  e = run("h.physics3.json", bare, [&](const Node& n) { p2l::cubism::read_physics3(n, rig2, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(rig2.physics_fps, 0.0f);
  EXPECT_EQ(rig2.physics[0].name, "PhysicsSetting1");
}

TEST(CubismImport, Physics3ReportsWhatPhysHasNoPlaceFor) {
  std::string text = kPhysics;
  text.replace(text.find(R"("Gravity": {"X": 0, "Y": -1})"), 28, R"("Gravity": {"X": 0.5, "Y": -1})");
  text.replace(text.find(R"("Wind": {"X": 0, "Y": 0})"), 24, R"("Wind": {"X": 0, "Y": 2})");
  text.replace(text.find(R"({"X": 3, "Y": 12})"), 17, R"({"X": 3, "Y": 13})");  // 5.66 from (0,8), Radius 5
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("h.physics3.json", text, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  ASSERT_EQ(report.dropped.size(), 3u) << lines(report);
  EXPECT_TRUE(has_line(report, "h.physics3.json: Meta.EffectiveForces.Gravity: (0.5, -1) not carried over"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "h.physics3.json: Meta.EffectiveForces.Wind: (0, 2) not carried over")) << lines(report);
  EXPECT_TRUE(has_line(report, "h.physics3.json: PhysicsSettings[0].Vertices: Position")) << lines(report);
  EXPECT_EQ(rig.physics[0].segments[2].length, 5.0f) << "the radius, which Cubism evaluates";
}

TEST(CubismImport, Physics3UnknownInputIsFatalUnknownOrIdleOutputIsReported) {
  std::string text = kPhysics;
  text.replace(text.find("\"Id\": \"ParamC\""), 14, "\"Id\": \"ParamFoo\"");
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("h.physics3.json", text, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
  EXPECT_EQ(e.code, p2l::ErrorCode::BadReference);
  EXPECT_EQ(e.message, "h.physics3.json: PhysicsSettings[0].Input[1].Source.Id: no parameter \"ParamFoo\"");

  text = kPhysics;
  text.replace(text.find("\"Id\": \"ParamB\""), 14, "\"Id\": \"ParamFoo\"");
  rig = base_rig();
  e = run("h.physics3.json", text, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_TRUE(rig.physics[0].outputs.empty());
  EXPECT_TRUE(has_line(
      report,
      "h.physics3.json: PhysicsSettings[0].Output[0].Destination.Id: no parameter \"ParamFoo\": output dropped"))
      << lines(report);

  // Outputs on points Cubism never moves are kept: Cubism still writes them every frame
  // (quirk 9 of docs/RUNTIME.md "Physics"); an index past the points becomes the point
  // count, the largest the file allows, which acts the same.
  for (const auto& [vertex, kept] : {std::pair{"\"VertexIndex\": 0", 0u}, std::pair{"\"VertexIndex\": 3", 3u},
                                     std::pair{"\"VertexIndex\": 9", 3u}}) {
    text = kPhysics;
    text.replace(text.find("\"VertexIndex\": 2"), 16, vertex);
    rig = base_rig();
    report = {};
    e = run("h.physics3.json", text, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
    ASSERT_TRUE(e.ok()) << e.to_string();
    ASSERT_EQ(rig.physics[0].outputs.size(), 1u) << vertex;
    EXPECT_EQ(rig.physics[0].outputs[0].vertex, kept) << vertex;
    EXPECT_FALSE(has_line(report, "PhysicsSettings[0].Output[0].VertexIndex: ")) << lines(report);
    EXPECT_TRUE(p2l::validate(rig).ok()) << vertex;
  }

  text = kPhysics;
  text.replace(text.find("\"Type\": \"Angle\", \"Reflect\": true}],"), 15, "\"Type\": \"Z\"");
  e = run("h.physics3.json", text, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
  EXPECT_EQ(e.message,
            "h.physics3.json: PhysicsSettings[0].Input[1].Type: unknown type \"Z\" (expected X, Y or Angle)");
}

TEST(CubismImport, Physics3VerticalSourceIsWrittenAsPhysVersion2) {
  auto phys_version = [](const std::string& input_type) {
    std::string text = kPhysics;
    text.replace(text.find("\"Type\": \"X\""), 11, "\"Type\": \"" + input_type + "\"");
    p2l::Rig rig = base_rig();
    p2l::ImportReport report;
    auto e = run("h.physics3.json", text, [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
    EXPECT_TRUE(e.ok()) << e.to_string();
    p2l::WriteResult w = p2l::write(rig);
    EXPECT_TRUE(w) << w.error.to_string();
    p2l::LoadResult back = p2l::load(w.bytes);
    EXPECT_TRUE(back) << back.error.to_string();
    if (back) EXPECT_TRUE(*back.rig == rig);
    for (const auto& c : back.info.chunks)
      if (c.tag == "PHYS") return int(c.version);
    return 0;
  };
  EXPECT_EQ(phys_version("Y"), 2);
  EXPECT_EQ(phys_version("X"), 1);
}

// ---- exp3, pose3, userdata3 -------------------------------------------------------------------

TEST(CubismImport, Exp3FadesBlendsAndUnknownParameters) {
  const std::string text = R"({"Type": "Live2D Expression", "FadeInTime": 0.5,
    "Parameters": [{"Id": "ParamB", "Value": 0.5, "Blend": "Multiply"},
                   {"Id": "ParamC", "Value": -1, "Blend": "Overwrite"},
                   {"Id": "ParamD", "Value": 0.25},
                   {"Id": "ParamAngle", "Value": 10, "Blend": "Add"},
                   {"Id": "ParamAngle", "Value": 2, "Blend": "Screen"},
                   {"Id": "ParamFoo", "Value": 1}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("smile.exp3.json", text, [&](const Node& n) { p2l::cubism::read_exp3(n, "Smile", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  ASSERT_EQ(rig.expressions.size(), 1u);
  const p2l::Expression& x = rig.expressions[0];
  EXPECT_EQ(x.id, "Smile");
  EXPECT_EQ(x.name, "Smile");
  EXPECT_EQ(x.fade_in, 0.5f);
  EXPECT_EQ(x.fade_out, 1.0f) << "Cubism's default";
  using B = p2l::ExpressionBlend;
  EXPECT_EQ(x.values,
            (std::vector<p2l::ExpressionValue>{
                {1, B::Multiply, 0.5f}, {2, B::Overwrite, -1}, {3, B::Add, 0.25f}, {0, B::Add, 10}, {0, B::Add, 2}}));
  ASSERT_EQ(report.dropped.size(), 2u) << lines(report);
  EXPECT_TRUE(has_line(report, "smile.exp3.json: Parameters[4].Blend: unknown blend \"Screen\", read as Add"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "smile.exp3.json: Parameters[5].Id: no parameter \"ParamFoo\": value dropped"))
      << lines(report);
}

TEST(CubismImport, Pose3GroupsLinksAndFade) {
  auto pose = [](const std::string& text, p2l::ImportReport& report, p2l::Error& e) {
    p2l::Rig rig = base_rig();
    e = run("p.pose3.json", text, [&](const Node& n) { p2l::cubism::read_pose3(n, rig, report); });
    return rig.pose;
  };
  p2l::ImportReport report;
  p2l::Error e;
  auto p = pose(R"({"Type": "Live2D Pose", "Groups": [
      [{"Id": "Arm1", "Link": ["Arm3"]}, {"Id": "Arm2", "Link": []}], [], [{"Id": "Body"}]]})",
                report, e);
  ASSERT_TRUE(e.ok()) << e.to_string();
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->fade_in, 0.5f) << "Cubism's default";
  ASSERT_EQ(p->groups.size(), 2u);
  EXPECT_EQ(p->groups[0].entries, (std::vector<p2l::PoseEntry>{{1, {3}}, {2, {}}}));
  EXPECT_EQ(p->groups[1].entries, (std::vector<p2l::PoseEntry>{{0, {}}}));
  ASSERT_EQ(report.dropped.size(), 1u);
  EXPECT_EQ(report.dropped[0], "p.pose3.json: Groups[1]: empty group dropped");
  EXPECT_EQ(pose(R"({"FadeInTime": 0.25, "Groups": []})", report, e)->fade_in, 0.25f);
  EXPECT_EQ(pose(R"({"FadeInTime": -2, "Groups": []})", report, e)->fade_in, 0.5f) << "negative: Cubism's default";
  pose(R"({"Groups": [[{"Id": "Arm1", "Link": ["Leg"]}]]})", report, e);
  EXPECT_EQ(e.code, p2l::ErrorCode::BadReference);
  EXPECT_EQ(e.message, "p.pose3.json: Groups[0][0].Link[0]: no part \"Leg\"");
}

TEST(CubismImport, Userdata3KeepsArtMeshEntries) {
  const std::string text = R"({"Version": 3, "Meta": {"UserDataCount": 3},
    "UserData": [{"Target": "ArtMesh", "Id": "B", "Value": "tap me"},
                 {"Target": "Part", "Id": "Body", "Value": "x"},
                 {"Target": "ArtMesh", "Id": "Z", "Value": "y"}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("u.userdata3.json", text, [&](const Node& n) { p2l::cubism::read_userdata3(n, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(rig.user_data, (std::vector<p2l::UserData>{{0, 1, "tap me"}}));
  ASSERT_EQ(report.dropped.size(), 2u) << lines(report);
  EXPECT_TRUE(has_line(report, "u.userdata3.json: UserData[1].Target: user data for a \"Part\"")) << lines(report);
  EXPECT_TRUE(has_line(report, "u.userdata3.json: UserData[2].Id: no art mesh \"Z\"")) << lines(report);
}

// ---- cdi3 ------------------------------------------------------------------------------------

TEST(CubismImport, Cdi3NamesAndTheGroupTreeInPreOrder) {
  // G2 sits in G1; G4's parent does not exist; G5 and G6 name each other (a cycle).
  const std::string text = R"({"Version": 3,
    "Parameters": [{"Id": "ParamAngle", "GroupId": "G2", "Name": "Angle"},
                   {"Id": "ParamB", "GroupId": "G1", "Name": "Bee"},
                   {"Id": "ParamD", "GroupId": "G3", "Name": ""},
                   {"Id": "ParamGone", "GroupId": "G1", "Name": "x"}],
    "ParameterGroups": [{"Id": "G2", "GroupId": "G1", "Name": "Two"},
                        {"Id": "G1", "GroupId": "", "Name": "One"},
                        {"Id": "G3", "GroupId": "", "Name": "Three"},
                        {"Id": "G4", "GroupId": "Nope", "Name": "Four"},
                        {"Id": "G5", "GroupId": "G6", "Name": "Five"},
                        {"Id": "G6", "GroupId": "G5", "Name": "Six"}],
    "Parts": [{"Id": "Arm2", "Name": "Left arm"}, {"Id": "Part01Sketch", "Name": "Sketch"}],
    "CombinedParameters": [["ParamAngle", "ParamB"], ["ParamC", "ParamFoo"]]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("c.cdi3.json", text, [&](const Node& n) { p2l::cubism::read_cdi3(n, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(rig.parameters[0].name, "Angle");
  EXPECT_EQ(rig.parameters[1].name, "Bee");
  EXPECT_EQ(rig.parameters[2].name, "ParamC") << "not listed: unchanged";
  EXPECT_EQ(rig.parameters[3].name, "ParamD") << "an empty Name keeps the id";
  EXPECT_EQ(rig.parts[2].name, "Left arm");
  EXPECT_EQ(rig.parts[1].name, "Arm1");
  ASSERT_TRUE(rig.gui.has_value());
  EXPECT_EQ(rig.gui->joysticks, (std::vector<p2l::GuiJoystick>{{0, 1}}));
  EXPECT_TRUE(rig.gui->snaps.empty());
  auto group = [](const char* id, const char* name, std::uint32_t children) {
    p2l::GuiNode n;
    n.group = true;
    n.id = id;
    n.name = name;
    n.children = children;
    return n;
  };
  auto leaf = [](std::int32_t parameter) {
    p2l::GuiNode n;
    n.parameter = parameter;
    return n;
  };
  // Top level: the groups in file order (G1, G3, G4, and G6 where the cycle was cut), then
  // the parameters with no group (ParamC) in PARM order. In a group: its groups, then its parameters.
  // clang-format off
  const std::vector<p2l::GuiNode> expected = {
      group("G1", "One", 2), group("G2", "Two", 1), leaf(0), leaf(1),
      group("G3", "Three", 1), leaf(3),
      group("G4", "Four", 0),
      group("G6", "Six", 1), group("G5", "Five", 0),
      leaf(2)};
  // clang-format on
  EXPECT_EQ(rig.gui->nodes, expected);
  ASSERT_EQ(report.dropped.size(), 5u) << lines(report);
  EXPECT_TRUE(has_line(report, "c.cdi3.json: ParameterGroups[3].GroupId: no group \"Nope\": put at the top level"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "c.cdi3.json: ParameterGroups[5].GroupId: groups nest in a cycle: \"G6\""))
      << lines(report);
  EXPECT_TRUE(has_line(report, "c.cdi3.json: Parameters[3].Id: no parameter \"ParamGone\"")) << lines(report);
  EXPECT_TRUE(has_line(report, "c.cdi3.json: Parts[1].Id: no part \"Part01Sketch\"")) << lines(report);
  EXPECT_TRUE(has_line(report, "c.cdi3.json: CombinedParameters[1]: no parameter \"ParamFoo\"")) << lines(report);
  EXPECT_TRUE(p2l::validate(rig).ok()) << p2l::validate(rig).to_string();
}

// ---- model3.json -----------------------------------------------------------------------------

// Exports seen in the wild write "Physics": null; Cubism's Framework reads it as no file.
TEST(CubismImport, Model3NullSideFilesAreNoFiles) {
  const std::string text = R"({"Version": 3, "FileReferences": {"Moc": "m.moc3", "Textures": [], "Physics": null,
                       "Pose": null, "DisplayInfo": null, "UserData": null}})";
  p2l::ImportReport report;
  p2l::cubism::Model3 m;
  auto e = run("x.model3.json", text, [&](const Node& n) { m = p2l::cubism::read_model3(n, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(m.physics, "");
  EXPECT_EQ(m.pose, "");
  EXPECT_EQ(m.display_info, "");
  EXPECT_EQ(m.user_data, "");
  EXPECT_TRUE(report.dropped.empty()) << lines(report);
  // Anything else than a string or null still names the place.
  const std::string bad = R"({"Version": 3, "FileReferences": {"Moc": "m.moc3", "Physics": 3}})";
  e = run("x.model3.json", bad, [&](const Node& n) { m = p2l::cubism::read_model3(n, report); });
  EXPECT_FALSE(e.ok());
  EXPECT_NE(e.to_string().find("FileReferences.Physics"), std::string::npos) << e.to_string();
}

TEST(CubismImport, Model3GroupsBecomeRolesAndHitAreasAreNamedByName) {
  const std::string text = R"({"Version": 3, "FileReferences": {"Moc": "m.moc3"},
    "Groups": [{"Target": "Parameter", "Name": "EyeBlink", "Ids": ["ParamC", "ParamFoo", "ParamD"]},
               {"Target": "Parameter", "Name": "LipSync", "Ids": []},
               {"Target": "Part", "Name": "Arms", "Ids": ["Arm1"]}],
    "HitAreas": [{"Id": "B", "Name": "Body"}, {"Id": "Q", "Name": "Head"}]})";
  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  auto e = run("x.model3.json", text, [&](const Node& n) {
    p2l::cubism::read_groups(n, rig, report);
    p2l::cubism::read_hit_areas(n, rig, report);
  });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(rig.roles, (std::vector<p2l::Role>{{"EyeBlink", {2, 3}}, {"LipSync", {}}}));
  EXPECT_EQ(rig.hit_areas, (std::vector<p2l::HitArea>{{"Body", "Body", {1}}, {"Head", "Head", {}}}));
  ASSERT_EQ(report.dropped.size(), 3u) << lines(report);
  EXPECT_TRUE(
      has_line(report, "x.model3.json: Groups[0].Ids[1]: no parameter \"ParamFoo\": left out of role \"EyeBlink\""))
      << lines(report);
  EXPECT_TRUE(has_line(report, "x.model3.json: Groups[2].Target: group \"Arms\" of target \"Part\" dropped"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "x.model3.json: HitAreas[1].Id: no art mesh \"Q\": hit area \"Head\" has no mesh"))
      << lines(report);
}

TEST(CubismImport, StandardParameterIdsBecomeTheRolesTheFrameworkDrivesUnlessAGroupNamesThem) {
  p2l::Rig rig = base_rig();
  const auto add = [&](const char* id) {
    p2l::Parameter p = rig.parameters.at(0);
    p.id = id;
    rig.parameters.push_back(p);
    return static_cast<std::uint32_t>(rig.parameters.size() - 1);
  };
  const std::uint32_t angle_x = add("ParamAngleX"), eye_x = add("ParamEyeBallX"), breath = add("ParamBreath");
  add("ParamAngleY");
  // The model3.json's own AngleY group wins over the standard id; ParamAngleZ and the rest are absent.
  rig.roles = {{"EyeBlink", {0}}, {"AngleY", {1}}};
  p2l::cubism::add_standard_roles(rig);
  EXPECT_EQ(rig.roles, (std::vector<p2l::Role>{{"EyeBlink", {0}}, {"AngleY", {1}}, {"AngleX", {angle_x}},
                                               {"EyeBallX", {eye_x}}, {"Breath", {breath}}}));
}

TEST(CubismImport, Model3ListsItsFilesAndReportsWhatItDoesNotUse) {
  const std::string text = R"({"Version": 3, "Layout": {"Width": 2},
    "FileReferences": {"Moc": "m.moc3", "Textures": ["t0.png", "t1.png"], "Physics": "p.physics3.json", "Pose": "",
                       "Expressions": [{"Name": "Smile", "File": "e/smile.exp3.json"}],
                       "Motions": {"Tap": [{"File": "a.motion3.json", "FadeInTime": 0.5, "Sound": "a.wav"}],
                                   "Idle": [{"File": "b.motion3.json", "Volume": 2}]},
                       "MotionSync": "x.motionsync3.json"},
    "Extra": 1})";
  p2l::ImportReport report;
  p2l::cubism::Model3 m;
  auto e = run("x.model3.json", text, [&](const Node& n) { m = p2l::cubism::read_model3(n, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  EXPECT_EQ(m.moc, "m.moc3");
  EXPECT_EQ(m.textures, (std::vector<std::string>{"t0.png", "t1.png"}));
  EXPECT_EQ(m.physics, "p.physics3.json");
  EXPECT_EQ(m.pose, "");
  EXPECT_EQ(m.display_info, "");
  ASSERT_EQ(m.expressions.size(), 1u);
  EXPECT_EQ(m.expressions[0].name, "Smile");
  EXPECT_EQ(m.expressions[0].file, "e/smile.exp3.json");
  ASSERT_EQ(m.motions.size(), 2u);
  EXPECT_EQ(m.motions[0].group, "Tap") << "document order, not sorted";
  EXPECT_EQ(m.motions[0].fade_in, 0.5f);
  EXPECT_EQ(m.motions[0].fade_out, -1.0f);
  EXPECT_EQ(m.motions[1].group, "Idle");
  EXPECT_EQ(m.motions[1].file, "b.motion3.json");
  ASSERT_EQ(report.dropped.size(), 5u) << lines(report);
  EXPECT_TRUE(
      has_line(report, "x.model3.json: FileReferences.Motions.Tap[0].Sound: sound file \"a.wav\" not carried over"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "x.model3.json: FileReferences.Motions.Idle[0].Volume: not carried over"))
      << lines(report);
  EXPECT_TRUE(has_line(report, "x.model3.json: FileReferences.MotionSync: not carried over")) << lines(report);
  EXPECT_TRUE(has_line(report, "x.model3.json: Layout: not carried over")) << lines(report);
  EXPECT_TRUE(has_line(report, "x.model3.json: Extra: not carried over")) << lines(report);
}

// ---- the whole importer on a model folder ----------------------------------------------------

// An empty version-1 moc3 as the Editor lays it out (moc3.md): header, 160 section slots, the
// count table at 1984, the canvas at 2112; every array empty, pointing at the end.
std::vector<std::uint8_t> empty_moc3() {
  const std::size_t counts = 1984, canvas = counts + 128, end = canvas + 64, slots = 160;
  std::vector<std::uint8_t> b(end, 0);
  auto put32 = [&](std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); };
  std::memcpy(b.data(), "MOC3", 4);
  b[4] = 1;
  put32(64, static_cast<std::uint32_t>(counts));
  put32(68, static_cast<std::uint32_t>(canvas));
  for (std::size_t s = 2; s < slots; ++s) put32(64 + s * 4, static_cast<std::uint32_t>(end));
  const float info[5] = {1000, 500, 500, 1000, 1000};
  std::memcpy(b.data() + canvas, info, sizeof info);
  return b;
}

// The 33 bytes a PNG starts with: signature and IHDR, here 3 x 2 pixels.
std::string png_head() {
  const unsigned char b[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I',  'H',  'D',  'R', 0,
                             0,    0,   3,   0,   0,    0,    2,    8,    6, 0, 0, 0,  0x12, 0x34, 0x56, 0x78};
  return std::string(reinterpret_cast<const char*>(b), sizeof b);
}

class ModelFolder {
 public:
  explicit ModelFolder(const std::string& name) : dir_(fs::temp_directory_path() / ("p2l_cubism_import_" + name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~ModelFolder() { fs::remove_all(dir_); }
  void put(const std::string& file, const std::string& bytes) const {
    fs::create_directories((dir_ / file).parent_path());
    std::ofstream(dir_ / file, std::ios::binary) << bytes;
  }
  fs::path path(const std::string& file) const { return dir_ / file; }

 private:
  fs::path dir_;
};

const char* kModel3 = R"({"Version": 3,
  "FileReferences": {"Moc": "m.moc3", "Textures": ["tex/t0.png", "tex/../tex/t0.png"],
                     "Motions": {"Idle": [{"File": "mo/idle.motion3.json"}, {"File": "mo/./idle.motion3.json"}],
                                 "Tap": [{"File": "mo/tap.motion3.json", "FadeOutTime": 0.5}]}},
  "Layout": {"Width": 2}})";

void write_model(const ModelFolder& f) {
  const auto moc = empty_moc3();
  f.put("m.moc3", std::string(moc.begin(), moc.end()));
  f.put("tex/t0.png", png_head());
  f.put("mo/idle.motion3.json",
        R"({"Meta": {"Duration": 2, "Loop": true}, "Curves": [], "UserData": [{"Time": 1, "Value": "hi"}]})");
  f.put("mo/tap.motion3.json", R"({"Meta": {"Duration": 1}, "Curves": []})");
  f.put("x.model3.json", kModel3);
}

TEST(CubismImport, AModelFolderImportsWritesAndLoadsBackEqual) {
  ModelFolder f("folder");
  write_model(f);
  p2l::ImportResult r = p2l::import_cubism(f.path("x.model3.json"));
  ASSERT_TRUE(r) << r.error.to_string();
  const p2l::Rig& rig = r.rig;
  ASSERT_EQ(rig.textures.size(), 2u) << "a page for each listing";
  EXPECT_EQ(rig.textures[1], rig.textures[0]);
  EXPECT_EQ(rig.textures[0].kind, p2l::TextureKind::Png);
  EXPECT_EQ(rig.textures[0].width, 3u);
  EXPECT_EQ(rig.textures[0].height, 2u);
  EXPECT_EQ(rig.textures[0].data.size(), 33u);
  ASSERT_EQ(rig.clips.size(), 2u);
  EXPECT_EQ(rig.clips[0].id, "idle");
  EXPECT_EQ(rig.clips[0].group, "Idle");
  EXPECT_EQ(rig.clips[1].id, "tap");
  EXPECT_EQ(rig.clips[1].group, "Tap");
  EXPECT_EQ(rig.clips[1].fade_out, 0.5f);
  // Every motion has a record for its playback flags; the idle's has its event too.
  ASSERT_EQ(rig.clip_extensions.size(), 2u);
  EXPECT_EQ(rig.clip_extensions[0].events, (std::vector<p2l::ClipEvent>{{1, "hi"}}));
  EXPECT_TRUE(rig.clip_extensions[1].events.empty());
  EXPECT_TRUE(rig.clip_extensions[1].cubism_playback);
  // META; the hash covers x.model3.json, m.moc3, tex/t0.png, mo/idle.motion3.json and
  // mo/tap.motion3.json in that order, each once although the texture and the idle motion
  // are named twice (worked out with `cat ... | sha256sum`).
  ASSERT_EQ(rig.meta.size(), 4u);
  EXPECT_EQ(rig.meta[0].key + "=" + rig.meta[0].value, "generator=p2lrt import");
  EXPECT_EQ(rig.meta[1].key, "generator_version");
  EXPECT_TRUE(std::regex_match(rig.meta[1].value, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+"))) << rig.meta[1].value;
  EXPECT_EQ(rig.meta[2].key + "=" + rig.meta[2].value, "source=x.model3.json");
  EXPECT_EQ(rig.meta[3].key, "source_hash");
  EXPECT_EQ(rig.meta[3].value, "sha256:46ccad51daa9870f8803c2e885314dbf15e858974ee7573a82e607981efad840");
  ASSERT_EQ(r.report.dropped.size(), 2u) << lines(r.report);
  EXPECT_TRUE(has_line(r.report, "x.model3.json: Layout: not carried over")) << lines(r.report);
  EXPECT_TRUE(
      has_line(r.report, "x.model3.json: FileReferences.Motions.Idle[1]: \"mo/./idle.motion3.json\" is listed again"))
      << lines(r.report);

  p2l::WriteResult w = p2l::write(rig);
  ASSERT_TRUE(w) << w.error.to_string();
  p2l::LoadResult back = p2l::load(w.bytes);
  ASSERT_TRUE(back) << back.error.to_string();
  EXPECT_TRUE(*back.rig == rig);

  p2l::CubismImportOptions external;
  external.external_textures = true;
  r = p2l::import_cubism(f.path("x.model3.json"), external);
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_EQ(r.rig.textures[0], (p2l::Texture{p2l::TextureKind::External, 3, 2, {}, "tex/t0.png"}));
}

TEST(CubismImport, ABareMoc3GivesTheCoreChunksAndMeta) {
  ModelFolder f("bare");
  const auto moc = empty_moc3();
  f.put("m.moc3", std::string(moc.begin(), moc.end()));
  p2l::ImportResult r = p2l::import_cubism(f.path("m.moc3"));
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(r.rig.clips.empty());
  ASSERT_EQ(r.rig.meta.size(), 4u);
  EXPECT_EQ(r.rig.meta[2].key + "=" + r.rig.meta[2].value, "source=m.moc3");
  EXPECT_EQ(r.rig.meta[3].key, "source_hash");
  EXPECT_EQ(r.rig.meta[3].value, "sha256:0a01bc200f9261ef5faf859a79140db64b1e47632507f1c65a89c26985fb5631")
      << "of the moc3 bytes";
}

TEST(CubismImport, FatalErrorsNameTheFileAndThePath) {
  auto error_of = [](const ModelFolder& f) {
    p2l::ImportResult r = p2l::import_cubism(f.path("x.model3.json"));
    EXPECT_FALSE(r);
    EXPECT_TRUE(r.rig == p2l::Rig{}) << "no half-imported rig";
    return r.error;
  };
  {
    ModelFolder f("missing_model");
    auto e = error_of(f);
    EXPECT_EQ(e.code, p2l::ErrorCode::BadReference);
    EXPECT_EQ(e.message.rfind("x.model3.json: no such file (", 0), 0u) << e.message;
  }
  {
    ModelFolder f("bad_json");
    write_model(f);
    f.put("x.model3.json", R"({"Version": 3, "FileReferences": {"Moc": "m.moc3",}})");
    auto e = error_of(f);
    EXPECT_EQ(e.code, p2l::ErrorCode::BadRecord);
    EXPECT_EQ(e.message.rfind("x.model3.json: not valid JSON: parse error at line 1, column ", 0), 0u) << e.message;
  }
  {
    ModelFolder f("bad_side_json");
    write_model(f);
    f.put("mo/tap.motion3.json", R"({"Meta": {"Duration": 1}, "Curves": [)");
    auto e = error_of(f);
    EXPECT_EQ(e.message.rfind("mo/tap.motion3.json: not valid JSON: ", 0), 0u) << e.message;
  }
  {
    ModelFolder f("wrong_type");
    write_model(f);
    f.put("mo/tap.motion3.json", R"({"Meta": {"Duration": "1"}, "Curves": []})");
    auto e = error_of(f);
    EXPECT_EQ(e.message, "mo/tap.motion3.json: Meta.Duration: expected a number, found string");
  }
  {
    ModelFolder f("missing_side");
    write_model(f);
    fs::remove(f.path("mo/tap.motion3.json"));
    auto e = error_of(f);
    EXPECT_EQ(e.code, p2l::ErrorCode::BadReference);
    EXPECT_EQ(e.message.rfind("mo/tap.motion3.json: no such file (", 0), 0u) << e.message;
  }
  {
    ModelFolder f("not_png");
    write_model(f);
    f.put("tex/t0.png", "GIF89a, honestly not a PNG at all");
    auto e = error_of(f);
    EXPECT_EQ(e.message, "tex/t0.png: not a PNG file");
  }
  {
    ModelFolder f("no_moc");
    write_model(f);
    f.put("x.model3.json", R"({"FileReferences": {}})");
    auto e = error_of(f);
    EXPECT_EQ(e.message, "x.model3.json: FileReferences.Moc: missing");
  }
  {
    ModelFolder f("bad_moc");
    write_model(f);
    f.put("m.moc3", "MOCX and then some bytes");
    auto e = error_of(f);
    EXPECT_EQ(e.message.rfind("m.moc3: ", 0), 0u) << e.message;
  }
}

// The text a person reads is the file, the path and what is wrong; the code stays for programs.
TEST(CubismImport, AMissingModel3KeyReadsAsTheFileAndThePath) {
  ModelFolder f("no_moc_text");
  write_model(f);
  f.put("x.model3.json", R"({"FileReferences": {}})");
  p2l::ImportResult r = p2l::import_cubism(f.path("x.model3.json"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.to_string(), "x.model3.json: FileReferences.Moc: missing");
  EXPECT_EQ(r.error.code, p2l::ErrorCode::BadRecord);
}

// ---- Haru ------------------------------------------------------------------------------------

std::string haru_dir() {
  const char* cache = std::getenv("P2L_CUBISM_CORE");
  std::string dir = cache ? cache : "";
  if (dir.empty()) {
    const char* home = std::getenv("HOME");
    dir = std::string(home ? home : "") + "/.cache/p2lrt/live2dcubismcore-1.0.2";
  }
  return dir + "/package/characters/haru_greeter_pro_jp/runtime";
}

TEST(CubismImport, HaruFromTheCubismCorePackage) {
  const fs::path model = fs::path(haru_dir()) / "haru_greeter_t03.model3.json";
  if (!fs::exists(model)) GTEST_SKIP() << "Haru not fetched (scripts/fetch_cubism_core.sh): " << model.string();
  p2l::ImportResult r = p2l::import_cubism(model);
  ASSERT_TRUE(r) << r.error.to_string();
  const p2l::Rig& rig = r.rig;
  // The counts come from Haru's own files, read here independently of the importer.
  auto json_of = [&](const char* file) {
    std::ifstream in(fs::path(haru_dir()) / file);
    return nlohmann::json::parse(in);
  };
  const auto settings = json_of("haru_greeter_t03.model3.json");
  const auto physics = json_of("haru_greeter_t03.physics3.json");
  const auto pose = json_of("haru_greeter_t03.pose3.json");
  EXPECT_EQ(rig.physics.size(), physics["Meta"]["PhysicsSettingCount"].get<std::size_t>());
  ASSERT_TRUE(rig.pose.has_value());
  EXPECT_EQ(rig.pose->groups.size(), pose["Groups"].size());
  EXPECT_EQ(rig.textures.size(), 2u);
  // 15 motion files, listed 21 times under Idle and Use: one clip each, in its first group.
  ASSERT_EQ(rig.clips.size(), 15u);
  for (const p2l::Clip& c : rig.clips) {
    bool in_group = false;
    for (const auto& entry : settings["FileReferences"]["Motions"][c.group])
      in_group |= entry["File"].get<std::string>() == "motion/" + c.id + ".motion3.json";
    EXPECT_TRUE(in_group) << c.id << " in " << c.group;
  }
  EXPECT_EQ(rig.clips[0].id, "haru_g_m07");
  EXPECT_EQ(rig.clips[0].group, "Idle");
  // cdi3 names differ from the ids.
  const std::int32_t angle = rig.find_parameter("ParamAngleX");
  ASSERT_GE(angle, 0);
  EXPECT_NE(rig.parameters[angle].name, rig.parameters[angle].id);
  EXPECT_FALSE(rig.parameters[angle].name.empty());
  ASSERT_TRUE(rig.gui.has_value());
  // EyeBlink and LipSync from the model3.json's groups, the rest from the standard ids (the head
  // follows the pointer, the body breathes, vowels shape the mouth's form).
  std::vector<std::string> roles;
  for (const p2l::Role& role : rig.roles) roles.push_back(role.role + "=" + rig.parameters.at(role.parameters.at(0)).id);
  EXPECT_EQ(roles, (std::vector<std::string>{"EyeBlink=ParamEyeLOpen", "LipSync=ParamMouthForm", "AngleX=ParamAngleX",
                                             "AngleY=ParamAngleY", "AngleZ=ParamAngleZ", "BodyAngleX=ParamBodyAngleX",
                                             "EyeBallX=ParamEyeBallX", "EyeBallY=ParamEyeBallY", "Breath=ParamBreath",
                                             "MouthForm=ParamMouthForm"}));
  ASSERT_EQ(rig.hit_areas.size(), 2u);
  EXPECT_EQ(rig.hit_areas[0].id, "Head");
  EXPECT_EQ(rig.meshes[rig.hit_areas[0].meshes.at(0)].id, "HitArea");
  EXPECT_TRUE(has_line(r.report, "no part \"Part01Sketch\"")) << lines(r.report);

  p2l::WriteResult w = p2l::write(rig);
  ASSERT_TRUE(w) << w.error.to_string();
  p2l::LoadResult back = p2l::load(w.bytes);
  ASSERT_TRUE(back) << back.error.to_string();
  EXPECT_TRUE(*back.rig == rig);
}

}  // namespace
