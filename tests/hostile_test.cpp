// Hostile files and calls, one test each: the fuzzers' findings turned into regression tests
// (fuzz/seeds holds their inputs), the bounds every reader keeps (docs/RELIABILITY.md
// "Bounds"), and the sample models' real defects. Each test names what it guards.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "base/decimal.hpp"
#include "format/container.hpp"
#include "hostile_files.hpp"
#include "import/cubism/document.hpp"
#include "import/cubism/limits.hpp"
#include "import/cubism/side_files.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "p2l/p2l.h"
#include "side_file_rig.hpp"
#include "small_rig.hpp"
#include "test_util.hpp"

namespace {

namespace fs = std::filesystem;

std::int32_t parameter_index(const p2l::Rig& rig, const std::string& id) {
  for (std::size_t i = 0; i < rig.parameters.size(); ++i)
    if (rig.parameters[i].id == id) return static_cast<std::int32_t>(i);
  return -1;
}

std::vector<std::uint8_t> file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ---- .p2lrt ----------------------------------------------------------------------------------

// The load fuzzer's first finding (issue 24): the validator worded its error for a descending
// key through p2l::decimal, which converted -3.99e37 to an unsigned 64-bit integer (undefined).
TEST(Hostile, ADescendingKeyOfAnyMagnitudeIsNamed) {
  for (const float key : {-3.99e37f, -std::numeric_limits<float>::max(), -1e-40f}) {
    const p2l::LoadResult loaded = p2l::load(p2l_test::descending_snap_file(key));
    ASSERT_FALSE(loaded) << key;
    EXPECT_EQ(loaded.error.code, p2l::ErrorCode::BadStructure) << loaded.error.to_string();
    EXPECT_NE(loaded.error.message.find(p2l::decimal(key)), std::string::npos) << loaded.error.to_string();
  }
}

// The entries of [bytes]' chunk table that are compressed.
std::vector<std::size_t> compressed_entries(const std::vector<std::uint8_t>& bytes) {
  p2l::FileInfo info;
  p2l::Error error;
  EXPECT_TRUE(p2l::read_file_info(bytes, info, error)) << error.to_string();
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < info.chunks.size(); ++i)
    if (info.chunks[i].compression() != p2l::Compression::None) out.push_back(i);
  return out;
}

// A decompression bomb is refused from the chunk table, before anything is decompressed: a
// chunk declaring 2^40 bytes, and chunks each within the per-chunk limit that together pass
// the per-file one.
TEST(Hostile, ADecompressionBombIsRefusedFromTheChunkTable) {
  p2l::WriteOptions zstd;
  zstd.compression = p2l::Compression::Zstd;
  zstd.crc = false;
  const std::vector<std::uint8_t> file = p2l::write(p2l_test::make_full_rig(), zstd).bytes;
  const std::vector<std::size_t> entries = compressed_entries(file);
  ASSERT_GE(entries.size(), 3u);

  std::vector<std::uint8_t> bomb = file;
  p2l_test::put_u64(bomb, p2l_test::entry_at(entries[0]) + 24, std::uint64_t{1} << 40);
  p2l::LoadResult loaded = p2l::load(bomb);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error.code, p2l::ErrorCode::TooLarge);
  EXPECT_EQ(loaded.error.offset, static_cast<std::int64_t>(p2l_test::entry_at(entries[0]) + 24)) << loaded.error.to_string();
  EXPECT_NE(loaded.error.message.find("raw_length 1099511627776 exceeds the reader's limit"), std::string::npos)
      << loaded.error.to_string();

  // Every compressed chunk declares 600 MiB: each within the 1 GiB a chunk, the second past
  // the 1 GiB a file.
  bomb = file;
  for (std::size_t e : entries) p2l_test::put_u64(bomb, p2l_test::entry_at(e) + 24, std::uint64_t{600} << 20);
  loaded = p2l::load(bomb);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error.code, p2l::ErrorCode::TooLarge);
  EXPECT_EQ(loaded.error.offset, static_cast<std::int64_t>(p2l_test::entry_at(entries[1]) + 24)) << loaded.error.to_string();
  EXPECT_NE(loaded.error.message.find("past the reader's limit of 1073741824 bytes a file"), std::string::npos)
      << loaded.error.to_string();

  // The honest file loads under the defaults and is refused under a budget smaller than it.
  ASSERT_TRUE(p2l::load(file)) << p2l::load(file).error.to_string();
  p2l::LoadOptions tight;
  tight.max_total_bytes = 64;
  loaded = p2l::load(file, tight);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error.code, p2l::ErrorCode::TooLarge);
}

// ---- The C API: the call-sequence fuzzer's findings ---------------------------------------

struct CapiRig {
  P2lModel* model = nullptr;
  P2lRig* rig = nullptr;
  explicit CapiRig(const p2l::Rig& from) : CapiRig(p2l::write(from).bytes) {}
  explicit CapiRig(const std::vector<std::uint8_t>& bytes) {
    char error[256] = "";
    model = p2l_model_load(bytes.data(), bytes.size(), 0, error, sizeof error);
    EXPECT_NE(model, nullptr) << error;
    rig = p2l_rig_create(model, error, sizeof error);
  }
  ~CapiRig() {
    p2l_rig_free(rig);
    p2l_model_free(model);
  }
  bool finite_vertices() const {
    for (std::uint32_t m = 0; m < p2l_mesh_count(rig); ++m) {
      const float* v = p2l_mesh_vertices(rig, m);
      for (std::uint32_t k = 0; k < 2 * p2l_mesh_vertex_count(rig, m); ++k)
        if (!std::isfinite(v[k])) return false;
    }
    return true;
  }
};

// A host's simulation wind of -1.6e29 overflowed the cloth to infinity and left NaN in it
// for good (fuzz/seeds/capi/regress-sim-wind-1e29): such a step is dropped now.
TEST(Hostile, AHugeSimulationWindLeavesTheOutputsFinite) {
  CapiRig r(file_bytes(fs::path(P2L_SOURCE_DIR) / "examples/character/character.p2lrt"));
  ASSERT_NE(r.rig, nullptr);
  ASSERT_NE(p2l_set_advanced(r.rig, P2L_SIM) & P2L_SIM, 0u);
  p2l_sim_wind(r.rig, 3.0f, -1.58456e29f);
  for (int frame = 0; frame < 10; ++frame) {
    p2l_update(r.rig, 1.0f / 30.0f);
    ASSERT_TRUE(r.finite_vertices()) << "frame " << frame;
  }
  // And the cloth still moves once the wind is sane again.
  p2l_sim_wind(r.rig, 0.0f, 0.0f);
  for (int frame = 0; frame < 10; ++frame) p2l_update(r.rig, 1.0f / 30.0f);
  EXPECT_TRUE(r.finite_vertices());
}

// A file may give a parameter a range as wide as float's. Under Cubism's rules the lip sync
// adds 0.8 × (max - min) × level: inf × 0 made NaN in the first update (a capi fuzzer finding,
// CI on a661cc0); the breath, the sways and the gaze scaled the same width.
TEST(Hostile, ARangeAsWideAsFloatsLeavesTheParametersFinite) {
  constexpr float kMax = std::numeric_limits<float>::max();
  p2l::Rig rig = p2l_test::make_full_rig();
  for (p2l::Parameter& p : rig.parameters) {
    p.min = -kMax;
    p.max = kMax;
    p.repeat = false;
  }
  rig.parameters[0].default_value = kMax;
  rig.roles = {p2l::Role{"LipSync", {0, 1}}, p2l::Role{"Breath", {2}},   p2l::Role{"AngleX", {0}},
               p2l::Role{"AngleY", {1}},     p2l::Role{"EyeBallX", {3}}, p2l::Role{"BodyAngleX", {2}}};
  rig.expressions[0].cubism_playback = true;  // the rig plays by Cubism's rules: the lip mix is add
  CapiRig r(rig);
  ASSERT_NE(r.rig, nullptr);
  p2l_set_cubism_playback(r.rig, true);
  p2l_behaviors(r.rig, 15);
  for (const float strength : {0.0f, 1.0f}) {
    ASSERT_TRUE(p2l_behavior_strength(r.rig, strength, strength, 1.0f));
    for (const float level : {0.0f, 1.0f}) {
      p2l_lip_sync(r.rig, level);
      p2l_look_at(r.rig, level, -level);
      for (int frame = 0; frame < 5; ++frame) {
        p2l_update(r.rig, 1.0f / 30.0f);
        const float* current = p2l_parameter_current(r.rig);
        for (std::uint32_t p = 0; p < p2l_parameter_count(r.rig); ++p)
          ASSERT_TRUE(std::isfinite(current[p])) << "parameter " << p << ", strength " << strength << ", level " << level
                                                  << ", frame " << frame << ": " << current[p];
      }
    }
  }
}

// NaN colours went through every blend into the outputs (fuzz/seeds/capi/regress-nan-mesh-colours).
TEST(Hostile, NonFiniteColoursAreRefused) {
  CapiRig r(p2l_test::make_small_rig());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float good[3] = {1.0f, 0.5f, 0.25f}, bad[3] = {0.1f, nan, 0.1f};
  EXPECT_FALSE(p2l_set_mesh_colors(r.rig, 0, good, bad));
  EXPECT_FALSE(p2l_set_part_colors(r.rig, 0, bad, nullptr));
  const float inf[3] = {std::numeric_limits<float>::infinity(), 0.0f, 0.0f};
  EXPECT_FALSE(p2l_set_mesh_colors(r.rig, 0, inf, nullptr));
  EXPECT_TRUE(p2l_set_mesh_colors(r.rig, 0, good, nullptr));
  p2l_update(r.rig, 0.1f);
  float multiply[3], screen[3];
  p2l_mesh_colors(r.rig, 0, multiply, screen);
  EXPECT_EQ(multiply[1], 0.5f);
  EXPECT_EQ(screen[1], 0.0f);
}

// ---- Cubism side files -------------------------------------------------------------------

using p2l::cubism::Document;
using p2l::cubism::Node;

template <class Read>
p2l::Error read_text(const std::string& file, const std::string& text, Read read) {
  return p2l::cubism::guarded([&] {
    const Document d = p2l::cubism::parse_document(
        file, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    read(Node(d));
  });
}

p2l::Rig side_file_rig() { return p2l_test::make_side_file_rig(); }

// The side-file fuzzer's finding: a number past a double escaped as the JSON library's own
// message, naming no file (fuzz/seeds/json/regress-number-overflow).
TEST(Hostile, ANumberPastADoubleIsNamedWithItsFile) {
  p2l::Rig rig = side_file_rig();
  p2l::ImportReport report;
  const p2l::Error e = read_text("h.physics3.json", R"({"Version": 3, "Meta": {"Fps": 9.9e900000001}})",
                                 [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); });
  EXPECT_EQ(e.code, p2l::ErrorCode::BadRecord);
  EXPECT_EQ(e.message.rfind("h.physics3.json: not valid JSON: number overflow", 0), 0u) << e.message;
}

std::string particles_json(std::size_t n) {
  std::string vertices;
  vertices.reserve(n * 80);
  for (std::size_t i = 0; i < n; ++i)
    vertices += std::string(i ? "," : "") +
                R"({"Position":{"X":0,"Y":1},"Mobility":1,"Delay":1,"Acceleration":1,"Radius":1})";
  return R"({"Version":3,"PhysicsSettings":[{"Id":"P","Input":[{"Source":{"Target":"Parameter","Id":"ParamAngle"},"Weight":100,"Type":"X"}],"Output":[],"Vertices":[)" +
         vertices + R"(],"Normalization":{"Position":{"Minimum":-1,"Default":0,"Maximum":1},"Angle":{"Minimum":-1,"Default":0,"Maximum":1}}}]})";
}

// A physics3.json with a million particles is refused by its size before it is parsed; one
// small enough to parse but past the particle limit, before anything is built.
TEST(Hostile, PhysicsWithAMillionParticlesIsRefused) {
  p2l::Rig rig = side_file_rig();
  p2l::ImportReport report;
  auto read = [&](const Node& n) { p2l::cubism::read_physics3(n, rig, report); };
  p2l::Error e = read_text("h.physics3.json", particles_json(1'000'000), read);
  EXPECT_EQ(e.code, p2l::ErrorCode::TooLarge);
  EXPECT_NE(e.message.find("h.physics3.json: "), std::string::npos);
  EXPECT_NE(e.message.find("bytes; p2lrt reads Cubism JSON files of up to 33554432 bytes"), std::string::npos) << e.message;

  e = read_text("h.physics3.json", particles_json(p2l::cubism::kMaxPhysicsParticles + 1), read);
  EXPECT_EQ(e.code, p2l::ErrorCode::TooLarge);
  EXPECT_EQ(e.message, "h.physics3.json: PhysicsSettings: 16385 particles; p2lrt imports physics of up to 16384 particles");
  EXPECT_TRUE(rig.physics.empty());

  e = read_text("h.physics3.json", particles_json(8), read);
  EXPECT_TRUE(e.ok()) << e.to_string();
  ASSERT_EQ(rig.physics.size(), 1u);
  EXPECT_EQ(rig.physics[0].segments.size(), 8u);
}

// [points] linear points on one curve, Meta declaring [declared] of them.
std::string motion_json(std::size_t points, std::size_t declared) {
  std::string segments = "0,0";
  segments.reserve(points * 12);
  for (std::size_t i = 1; i < points; ++i) segments += ",0," + std::to_string(i) + ",1";
  return R"({"Version":3,"Meta":{"Duration":)" + std::to_string(points) + R"(,"Fps":30,"CurveCount":1,"TotalSegmentCount":)" +
         std::to_string(declared ? declared - 1 : 0) + R"(,"TotalPointCount":)" + std::to_string(declared) +
         R"(},"Curves":[{"Target":"Parameter","Id":"ParamAngle","Segments":[)" + segments + "]}]}";
}

p2l::cubism::MotionRef motion_ref() { return {"Idle", "m.motion3.json", -1, -1, "model.model3.json: FileReferences.Motions.Idle[0]"}; }

TEST(Hostile, AMotionWithAMillionPointsIsRefused) {
  p2l::Rig rig = side_file_rig();
  p2l::ImportReport report;
  auto read = [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); };
  const p2l::Error e = read_text("m.motion3.json", motion_json(1'000'000, 1'000'000), read);
  EXPECT_EQ(e.code, p2l::ErrorCode::TooLarge);
  EXPECT_EQ(e.message, "m.motion3.json: Curves: 1000000 points; p2lrt imports motions of up to 524288 points");
  EXPECT_TRUE(rig.clips.empty());
}

// Haru's motions declare fewer points in Meta than their curves hold; Cubism's
// Native Framework sizes its arrays by Meta and writes past them. p2lrt never reads those
// counts: the curve is imported whole.
TEST(Hostile, AMotionDeclaringFewerPointsThanItHoldsIsImportedWhole) {
  p2l::Rig rig = side_file_rig();
  p2l::ImportReport report;
  const p2l::Error e = read_text("m.motion3.json", motion_json(40, 2),
                                 [&](const Node& n) { p2l::cubism::read_motion3(n, motion_ref(), "m", true, rig, report); });
  ASSERT_TRUE(e.ok()) << e.to_string();
  ASSERT_EQ(rig.clips.size(), 1u);
  ASSERT_EQ(rig.clips[0].curves.size(), 1u);
  EXPECT_EQ(rig.clips[0].curves[0].segments.size(), 39u);
}

// The same on the real files: every motion of Haru (npm package, cached outside the
// repository), its Meta counts against what its curves hold, and the clips the importer made.
TEST(Hostile, HaruMotionsWithWrongMetaCountsImportWhole) {
  const char* home = std::getenv("HOME");
  const fs::path runtime = fs::path(std::getenv("P2L_CACHE") ? std::getenv("P2L_CACHE") : (home ? std::string(home) + "/.cache/p2lrt" : "")) /
                           "live2dcubismcore-1.0.2/package/characters/haru_greeter_pro_jp/runtime";
  if (!fs::exists(runtime / "haru_greeter_t03.model3.json"))
    GTEST_SKIP() << "Haru is not cached (scripts/fetch_cubism_core.sh fetches it): " << runtime;
  const p2l::ImportResult imported = p2l::import_cubism(runtime / "haru_greeter_t03.model3.json");
  ASSERT_TRUE(imported) << imported.error.to_string();
  int understated = 0, motions = 0;
  for (const auto& entry : fs::directory_iterator(runtime / "motion")) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".motion3.json")) continue;
    ++motions;
    const std::vector<std::uint8_t> bytes = file_bytes(entry.path());
    const Document d = p2l::cubism::parse_document(name, bytes);
    const std::size_t declared = d.root["Meta"]["TotalPointCount"].get<std::size_t>();
    const std::string id = name.substr(0, name.size() - std::string(".motion3.json").size());
    const p2l::Clip* clip = nullptr;
    for (const p2l::Clip& c : imported.rig.clips)
      if (c.id == id) clip = &c;
    ASSERT_NE(clip, nullptr) << id;
    std::size_t held = 0;  // points, as Cubism counts them: the first, then 1 or 3 a segment
    for (const auto& curve : d.root["Curves"]) {
      const auto& s = curve["Segments"];
      std::size_t segments = 0;
      held += 1;
      for (std::size_t i = 2; i < s.size(); i += s[i].get<double>() == 1.0 ? 7 : 3) {
        ++segments;
        held += s[i].get<double>() == 1.0 ? 3 : 1;
      }
      if (curve["Target"] != "Parameter") continue;
      // Each parameter curve comes over with every segment it holds.
      const std::int32_t parameter = parameter_index(imported.rig, curve["Id"].get<std::string>());
      ASSERT_GE(parameter, 0) << id;
      const p2l::Curve* found = nullptr;
      for (const p2l::Curve& c : clip->curves)
        if (c.parameter == static_cast<std::uint32_t>(parameter)) found = &c;
      ASSERT_NE(found, nullptr) << id << " " << curve["Id"];
      EXPECT_EQ(found->segments.size(), segments) << id << " " << curve["Id"];
    }
    understated += declared < held;
  }
  EXPECT_GT(motions, 0);
  EXPECT_GT(understated, 0) << "Haru's motions no longer understate their counts";
}

}  // namespace
