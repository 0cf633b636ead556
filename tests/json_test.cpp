// The JSON form (docs/JSON.md): lossless round trips, canonical text, float and base64
// spelling, defaults for left-out keys, and errors that name where in the document they are.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/decimal.hpp"
#include "base/shortest_decimal.hpp"
#include "full_rig.hpp"
#include "p2l/format.hpp"
#include "p2l/json.hpp"

namespace {

// EXPECT_TRUE(Contains(text, part)) without gmock, which the test target does not link.
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected to find\n  " << part << "\nin\n  " << text;
}

// The full rig plus the values a valid file may not hold but the model (and so the JSON
// form) must still carry.
p2l::Rig model_only_rig() {
  p2l::Rig rig = p2l_test::make_full_rig();
  rig.user_data[0].kind = 7;
  rig.unknown_chunks[0].required = true;
  p2l::Deformer& rotation = rig.deformers[1];
  rotation.columns = 5;
  rotation.rows = 6;
  rig.deformers[0].base_angle = 33.0f;
  rig.textures[0].uri = "unused.png";
  return rig;
}

p2l::Rig parse_ok(const std::string& json) {
  p2l::Rig rig;
  std::string error;
  EXPECT_TRUE(p2l::rig_from_json(json, rig, error)) << error;
  return rig;
}

std::string parse_error(const std::string& json) {
  p2l::Rig rig;
  std::string error;
  EXPECT_FALSE(p2l::rig_from_json(json, rig, error)) << "accepted: " << json;
  return error;
}

// A document: the header keys, then `body` (more keys, or nothing).
std::string doc(const std::string& body) {
  return R"({"format": "p2lrt-json", "version": 1)" + (body.empty() ? "" : ", " + body) + "}";
}

// One triangle, as a "meshes" key.
constexpr const char* kMeshDoc =
    R"("meshes": [{"id": "m", "geometry": )"
    R"({"positions": [0, 0, 1, 0, 0, 1], "uvs": [0, 0, 1, 0, 0, 1], "indices": [0, 1, 2]}}])";

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

TEST(FullRig, Validates) {
  p2l::Error error = p2l::validate(p2l_test::make_full_rig());
  EXPECT_TRUE(error.ok()) << error.to_string();
}

// A key below the one before it is refused with its value in the message, whatever its size:
// the load fuzzer found -3.99e37 there, whose text was made by an undefined float-to-integer
// conversion before p2l::decimal used std::to_chars.
TEST(FullRig, AKeyOutOfOrderIsNamedWhateverItsMagnitude) {
  for (const float key : {-3.99e37f, -std::numeric_limits<float>::max(), -std::numeric_limits<float>::infinity(),
                          -1e-40f, -12.5f}) {
    p2l::Rig rig = p2l_test::make_full_rig();
    rig.gui->snaps[0].values = {30.0f, key};
    const p2l::Error error = p2l::validate(rig);
    EXPECT_EQ(error.code, p2l::ErrorCode::BadStructure) << key;
    EXPECT_NE(error.message.find("(" + p2l::decimal(key) + ")"), std::string::npos) << error.message;
  }
}

TEST(Decimal, EveryFloatHasShortText) {
  EXPECT_EQ(p2l::decimal(-3.99e37f), "-3.99e+37");
  EXPECT_EQ(p2l::decimal(std::numeric_limits<float>::max()), "3.4028235e+38");
  EXPECT_EQ(p2l::decimal(1e19f), "1e+19");
  EXPECT_EQ(p2l::decimal(-12.5f), "-12.5");
  EXPECT_EQ(p2l::decimal(0.3f), "0.3");
  EXPECT_EQ(p2l::decimal(-0.0f), "0");
  EXPECT_EQ(p2l::decimal(std::numeric_limits<float>::denorm_min()), "1e-45");
  EXPECT_EQ(p2l::decimal(std::numeric_limits<float>::infinity()), "inf");
  EXPECT_EQ(p2l::decimal(-std::numeric_limits<float>::infinity()), "-inf");
  EXPECT_EQ(p2l::decimal(std::numeric_limits<float>::quiet_NaN()), "nan");
}

TEST(JsonRoundTrip, FullRigIsLossless) {
  const p2l::Rig rig = model_only_rig();
  const std::string text = p2l::rig_to_json(rig);
  ASSERT_FALSE(text.empty());
  p2l::Rig back = parse_ok(text);
  EXPECT_TRUE(back == rig);
  // The texts also catch what == cannot: -0.0 in a plain float member compares equal to 0.
  EXPECT_EQ(p2l::rig_to_json(back), text);
}

TEST(JsonRoundTrip, ValidFullRigIsLossless) {
  const p2l::Rig rig = p2l_test::make_full_rig();
  p2l::Rig back = parse_ok(p2l::rig_to_json(rig));
  EXPECT_TRUE(back == rig);
}

TEST(JsonRoundTrip, DefaultRig) {
  const p2l::Rig rig;
  const std::string text = p2l::rig_to_json(rig);
  p2l::Rig back = parse_ok(text);
  EXPECT_TRUE(back == rig);
  EXPECT_EQ(p2l::rig_to_json(back), text);
}

TEST(JsonRoundTrip, EmptyOptionalsAreNullAndEveryKeyIsWritten) {
  const std::string text = p2l::rig_to_json(p2l::Rig{});
  EXPECT_TRUE(Contains(text, R"("format": "p2lrt-json")"));
  EXPECT_TRUE(Contains(text, R"("version": 1)"));
  EXPECT_TRUE(Contains(text, R"("gui": null)"));
  EXPECT_TRUE(Contains(text, R"("pose": null)"));
  EXPECT_TRUE(Contains(text, R"("unknown_chunks": [])"));
  EXPECT_TRUE(Contains(text, R"("pixels_per_unit": -1.0)"));
  // The default draw tree: one root group with every key.
  EXPECT_TRUE(Contains(text, R"("composite": null)"));
  EXPECT_EQ(text.back(), '\n');
}

TEST(JsonRoundTrip, IndexWidthIsNotPartOfTheForm) {
  p2l::Rig narrow, wide;
  narrow.meshes.resize(1);
  wide.meshes.resize(1);
  narrow.meshes[0].geometry = p2l::Geometry{{}, {}, p2l::IndexArray::narrow(p2l::Array<std::uint16_t>{0, 1, 2})};
  wide.meshes[0].geometry = p2l::Geometry{{}, {}, p2l::IndexArray::wide(p2l::Array<std::uint32_t>{0, 1, 2})};
  EXPECT_EQ(p2l::rig_to_json(narrow), p2l::rig_to_json(wide));
  EXPECT_TRUE(Contains(p2l::rig_to_json(narrow), R"("indices": [0, 1, 2])"));
  EXPECT_TRUE(parse_ok(p2l::rig_to_json(narrow)) == narrow);
}

TEST(JsonFloats, ShortestSpelling) {
  p2l::Rig rig;
  rig.canvas = p2l::Canvas{0.1f, -0.0f, 1e-30f, 3.4e38f, 500.0f};
  rig.physics_fps = std::numeric_limits<float>::denorm_min();
  const std::string text = p2l::rig_to_json(rig);
  EXPECT_TRUE(Contains(text, R"("width": 0.1,)"));
  EXPECT_TRUE(Contains(text, R"("height": -0.0,)"));
  EXPECT_TRUE(Contains(text, R"("origin_x": 1e-30,)"));
  EXPECT_TRUE(Contains(text, R"("origin_y": 3.4e+38,)"));
  EXPECT_TRUE(Contains(text, R"("pixels_per_unit": 500.0)"));
  EXPECT_TRUE(Contains(text, R"("physics_fps": 1e-45,)"));
  p2l::Rig back = parse_ok(text);
  EXPECT_EQ(bits(back.canvas.height), bits(-0.0f));
  EXPECT_EQ(bits(back.canvas.origin_x), bits(1e-30f));
  EXPECT_EQ(bits(back.physics_fps), bits(std::numeric_limits<float>::denorm_min()));
}

TEST(JsonFloats, RandomBitPatternsRoundTrip) {
  std::mt19937 random(20240521);
  std::vector<float> values = {std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::lowest(),
                               std::numeric_limits<float>::min(),
                               std::numeric_limits<float>::denorm_min(),
                               -0.0f,
                               0.0f,
                               16777217.0f,
                               0.3f};
  while (values.size() < 20000) {
    float f = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
    if (std::isfinite(f)) values.push_back(f);
  }
  p2l::Rig rig;
  rig.parameters.resize(1);
  rig.gui = p2l::Gui{{p2l::GuiSnap{0, p2l::Array<float>(values)}}, {}, {}};
  p2l::Rig back = parse_ok(p2l::rig_to_json(rig));
  ASSERT_TRUE(back.gui.has_value());
  ASSERT_EQ(back.gui->snaps.size(), 1u);
  EXPECT_TRUE(back.gui->snaps[0].values == rig.gui->snaps[0].values);  // bitwise
}

TEST(JsonFloats, IntegersAreAcceptedForFloats) {
  p2l::Rig rig = parse_ok(doc(R"("canvas": {"width": 500, "height": -3, "pixels_per_unit": 18446744073709551615})"));
  EXPECT_EQ(rig.canvas.width, 500.0f);
  EXPECT_EQ(rig.canvas.height, -3.0f);
  EXPECT_EQ(rig.canvas.pixels_per_unit, 18446744073709551615.0f);
}

TEST(JsonBase64, EveryPaddingLength) {
  p2l::Rig rig;
  std::vector<std::uint8_t> bytes;
  for (int n = 0; n < 8; ++n) {
    rig.unknown_chunks.push_back(p2l::RawChunk{"TEST", 1, false, p2l::Array<std::uint8_t>(bytes)});
    bytes.push_back(static_cast<std::uint8_t>(0xF0 + n));
  }
  EXPECT_TRUE(parse_ok(p2l::rig_to_json(rig)) == rig);
}

TEST(JsonBase64, StandardAlphabet) {
  p2l::Rig rig;
  rig.unknown_chunks = {p2l::RawChunk{"TEST", 1, false, p2l::Array<std::uint8_t>{'f', 'o', 'o', 'b', 'a'}},
                        p2l::RawChunk{"TEST", 1, false, p2l::Array<std::uint8_t>{0xFB, 0xFF, 0xBF}}};
  const std::string text = p2l::rig_to_json(rig);
  EXPECT_TRUE(Contains(text, R"("data": "Zm9vYmE=")"));
  EXPECT_TRUE(Contains(text, R"("data": "+/+/")"));
}

TEST(JsonDefaults, MinimalDocument) {
  std::string text = R"({
    "format": "p2lrt-json",
    "parameters": [{"id": "ParamA", "max": 10}],
    )" + std::string(kMeshDoc) +
                     R"(,
    "draw_groups": [{"children": [{"kind": "mesh", "index": 0}]}]
  })";
  p2l::Rig rig = parse_ok(text);
  ASSERT_EQ(rig.parameters.size(), 1u);
  EXPECT_EQ(rig.parameters[0].id, "ParamA");
  EXPECT_EQ(rig.parameters[0].min, 0.0f);
  EXPECT_EQ(rig.parameters[0].max, 10.0f);
  EXPECT_EQ(rig.canvas.pixels_per_unit, -1.0f);
  ASSERT_EQ(rig.meshes.size(), 1u);
  const p2l::Mesh& m = rig.meshes[0];
  EXPECT_EQ(m.parent, -1);
  EXPECT_EQ(m.texture_page, -1);
  EXPECT_TRUE(m.visible);
  EXPECT_EQ(m.draw_order, 500.0f);
  EXPECT_EQ(m.opacity, 1.0f);
  EXPECT_EQ(m.multiply, p2l::kWhite);
  EXPECT_EQ(m.vertex_count(), 3u);
  EXPECT_FALSE(m.keyforms.has_value());
  ASSERT_EQ(rig.draw_groups.size(), 1u);
  EXPECT_EQ(rig.draw_groups[0].part, -1);
  EXPECT_FALSE(rig.gui.has_value());
  p2l::Error error = p2l::validate(rig);
  EXPECT_TRUE(error.ok()) << error.to_string();
}

TEST(JsonDefaults, KeyOrderIsFree) {
  p2l::Rig rig = parse_ok(R"({"canvas": {"height": 2, "width": 1}, "version": 1, "format": "p2lrt-json"})");
  EXPECT_EQ(rig.canvas.width, 1.0f);
  EXPECT_EQ(rig.canvas.height, 2.0f);
}

TEST(JsonDefaults, LeftOutDrawTreeIsTheDefaultRoot) {
  p2l::Rig rig = parse_ok(R"({"format": "p2lrt-json"})");
  EXPECT_TRUE(rig == p2l::Rig{});
}

TEST(JsonDefaults, NullAndMissingOptionalsAreAbsent) {
  EXPECT_FALSE(parse_ok(doc(R"("gui": null)")).gui.has_value());
  p2l::Rig rig = parse_ok(doc(R"("gui": {}, "pose": {"groups": [{"entries": [{"part": 0}]}]})"));
  ASSERT_TRUE(rig.gui.has_value());
  EXPECT_TRUE(*rig.gui == p2l::Gui{});
  ASSERT_TRUE(rig.pose.has_value());
  EXPECT_EQ(rig.pose->fade_in, 0.5f);
}

TEST(JsonDefaults, GridsAndBindings) {
  p2l::Rig rig = parse_ok(doc(R"("parameters": [{"id": "a"}, {"id": "b"}],
    "deformers": [{"kind": "rotation",
                   "pivot": {"axes": [{"parameter": 0, "keys": [0, 1]}, {"parameter": 1, "keys": [-1, 1]}],
                             "cells": [{"at": [0, 1], "form": {"angle": 5}}, {"at": [1, 0]}]},
                   "pivot_shapes": [{"parameter": 1, "keys": [0, 1], "shapes": [null, {"flip_x": true}]}]}])"));
  ASSERT_EQ(rig.deformers.size(), 1u);
  const p2l::Deformer& d = rig.deformers[0];
  ASSERT_TRUE(d.pivot.has_value());
  EXPECT_EQ(d.pivot->coords, (std::vector<std::uint16_t>{0, 1, 1, 0}));
  ASSERT_EQ(d.pivot->forms.size(), 2u);
  EXPECT_EQ(d.pivot->forms[0].angle, 5.0f);
  EXPECT_EQ(d.pivot->forms[0].scale, 1.0f);
  EXPECT_TRUE(d.pivot->forms[1] == p2l::Pivot{});
  ASSERT_EQ(d.pivot_shapes.size(), 1u);
  ASSERT_EQ(d.pivot_shapes[0].shapes.size(), 2u);
  EXPECT_FALSE(d.pivot_shapes[0].shapes[0].has_value());
  ASSERT_TRUE(d.pivot_shapes[0].shapes[1].has_value());
  EXPECT_TRUE(d.pivot_shapes[0].shapes[1]->flip_x);
}

TEST(JsonErrors, Syntax) {
  std::string error = parse_error("{\"format\": \"p2lrt-json\",\n \"canvas\": {\"width\": tru}}");
  EXPECT_TRUE(Contains(error, "JSON syntax"));
  EXPECT_TRUE(Contains(error, "line 2"));
  EXPECT_TRUE(Contains(parse_error(doc("") + " trailing"), "JSON syntax"));
  EXPECT_TRUE(Contains(parse_error(""), "JSON syntax"));
}

TEST(JsonErrors, Format) {
  EXPECT_TRUE(Contains(parse_error(R"({"format": "gltf"})"), "format: \"gltf\" is not \"p2lrt-json\""));
  EXPECT_TRUE(Contains(parse_error(R"({"canvas": {}})"), "format: missing"));
  EXPECT_TRUE(Contains(parse_error(R"({"format": 1})"), "format: expected a string"));
  EXPECT_TRUE(Contains(parse_error(R"([1, 2])"), "document: expected an object"));
  EXPECT_TRUE(
      Contains(parse_error(R"({"format": "p2lrt-json", "version": 2})"), "version: version 2 is not supported"));
}

TEST(JsonErrors, UnknownKey) {
  EXPECT_TRUE(Contains(parse_error(doc(R"("canvass": {})")), "canvass: unknown key"));
  std::string mesh = kMeshDoc;
  mesh.insert(mesh.find("\"indices\""), R"("uvz": [], )");
  std::string error = parse_error(doc(mesh));
  EXPECT_TRUE(Contains(error, "meshes[0].geometry.uvz: unknown key"));
  EXPECT_TRUE(Contains(error, "positions, uvs, indices"));
}

TEST(JsonErrors, WrongType) {
  std::string mesh = kMeshDoc;
  mesh.replace(mesh.find("\"uvs\": [0, 0"), 12, R"("uvs": [0, "x")");
  EXPECT_TRUE(Contains(parse_error(doc(mesh)), "meshes[0].geometry.uvs[1]: expected a number"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("parameters": {})")), "parameters: expected an array"));
  EXPECT_TRUE(
      Contains(parse_error(doc(R"("parameters": [{}, {"blend": 1}])")), "parameters[1].blend: expected true or false"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("parameters": [{"id": 5}])")), "parameters[0].id: expected a string"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("canvas": [])")), "canvas: expected an object"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("deformers": [{"multiply": [1, 1]}])")),
                       "deformers[0].multiply: expected an array of 3 numbers"));
}

TEST(JsonErrors, Integers) {
  EXPECT_TRUE(
      Contains(parse_error(doc(R"("deformers": [{"columns": 1.5}])")), "deformers[0].columns: expected an integer"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("deformers": [{"columns": -1}])")),
                       "deformers[0].columns: expected an integer in 0..4294967295"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("meshes": [{"parent": 3000000000}])")),
                       "meshes[0].parent: expected an integer in -2147483648..2147483647"));
  EXPECT_TRUE(
      Contains(parse_error(doc(R"("meshes": [{"blend": 256}])")), "meshes[0].blend: expected an integer in 0..255"));
}

TEST(JsonErrors, BadEnum) {
  EXPECT_TRUE(Contains(parse_error(doc(R"("deformers": [{"kind": "bend"}])")),
                       R"(deformers[0].kind: unknown value "bend" (expected one of "warp", "rotation"))"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("deformers": [{"kind": 0}])")), "deformers[0].kind: expected one of"));
  EXPECT_TRUE(
      Contains(parse_error(doc(R"("textures": [{"kind": "PNG"}])")), "textures[0].kind: unknown value \"PNG\""));
}

TEST(JsonErrors, BadBase64) {
  auto texture = [](const std::string& data) { return doc(R"("textures": [{}, {"data": ")" + data + R"("}])"); };
  parse_ok(texture("QQ=="));
  EXPECT_TRUE(Contains(parse_error(texture("QQ=")), "textures[1].data: base64 length 3 is not a multiple of 4"));
  EXPECT_TRUE(Contains(parse_error(texture("Q$==")), "textures[1].data: base64 has an invalid character at offset 1"));
  EXPECT_TRUE(Contains(parse_error(texture("Q=Q=")), "textures[1].data: base64 has an invalid character"));
  EXPECT_TRUE(Contains(parse_error(texture("QR==")), "textures[1].data: base64 padding bits are not zero"));
  EXPECT_TRUE(Contains(parse_error(texture("QQ")), "textures[1].data"));
  EXPECT_TRUE(
      Contains(parse_error(doc(R"("textures": [{"data": [1, 2]}])")), "textures[0].data: expected a base64 string"));
}

TEST(JsonErrors, NonFinite) {
  EXPECT_TRUE(Contains(parse_error(doc(R"("canvas": {"width": 1e39})")), "canvas.width: the number is not finite"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("canvas": {"width": -3.5e38})")), "canvas.width: the number is not finite"));
  EXPECT_TRUE(Contains(parse_error(doc(R"("canvas": {"width": null})")), "canvas.width: expected a number"));
  // Past the double range nlohmann itself refuses the number.
  EXPECT_TRUE(Contains(parse_error(doc(R"("canvas": {"width": 1e400})")), "number overflow"));
  // Just below the rounding midpoint, the largest float is still reached.
  p2l::Rig rig = parse_ok(doc(R"("canvas": {"width": 3.4028235e38})"));
  EXPECT_EQ(rig.canvas.width, std::numeric_limits<float>::max());
}

TEST(JsonErrors, NonFiniteModelValueDoesNotReadBack) {
  p2l::Rig rig;
  rig.canvas.width = std::numeric_limits<float>::infinity();
  const std::string text = p2l::rig_to_json(rig);
  EXPECT_TRUE(Contains(text, R"("width": null)"));
  EXPECT_TRUE(Contains(parse_error(text), "canvas.width: expected a number"));
}

TEST(JsonErrors, GridCellsNeedOneCoordinatePerAxis) {
  std::string error = parse_error(doc(R"("parts": [{"channels": [{"grid": {"axes": [{"parameter": 0, "keys": [0, 1]}],
                                  "cells": [{"at": [0], "form": [1, 0, 0]}, {"at": [0, 1], "form": [1, 0, 0]}]}}]}])"));
  EXPECT_TRUE(Contains(error, "parts[0].channels[0].grid.cells[1].at: expected 1 coordinates (one per axis), found 2"));
}

TEST(JsonErrors, RigIsUntouchedOnFailure) {
  p2l::Rig rig = p2l_test::make_full_rig();
  const p2l::Rig before = rig;
  std::string error;
  EXPECT_FALSE(p2l::rig_from_json(doc(R"("parameters": [{"id": "x"}], "canvas": {"width": "wide"})"), rig, error));
  EXPECT_TRUE(Contains(error, "canvas.width"));
  EXPECT_TRUE(rig == before);
}

// The example in docs/JSON.md is a complete, valid rig.
TEST(JsonDocs, ExampleParsesAndValidates) {
  auto path = std::filesystem::path(__FILE__).parent_path().parent_path() / "docs" / "JSON.md";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  const std::string md = text.str();
  std::size_t section = md.find("\n## Example");
  ASSERT_NE(section, std::string::npos);
  std::size_t begin = md.find("```json\n", section);
  ASSERT_NE(begin, std::string::npos);
  begin += 8;
  std::size_t end = md.find("\n```", begin);
  ASSERT_NE(end, std::string::npos);
  p2l::Rig rig = parse_ok(md.substr(begin, end - begin));
  EXPECT_EQ(rig.parameters.size(), 1u);
  EXPECT_EQ(rig.meshes.size(), 1u);
  p2l::Error error = p2l::validate(rig);
  EXPECT_TRUE(error.ok()) << error.to_string();
}

}  // namespace

// p2l::shortest_decimal_double (how motion times are read, on every platform) gives the double
// std::from_chars reads from the float's shortest decimal, across magnitudes 1e-14..1e22.
TEST(ShortestDecimal, IsTheDoubleOfTheShortestDecimal) {
  std::mt19937 random(20);
  std::uniform_real_distribution<float> exponent(-14.0f, 22.0f), mantissa(1.0f, 10.0f);
  std::vector<float> values = {3.1f, 0.1f, 1.0f / 3.0f, 0.0f, -2.5f, 16777216.0f, 1e-14f, 9.9e21f};
  for (int i = 0; i < 200000; ++i)
    values.push_back((i % 2 ? -1.0f : 1.0f) * mantissa(random) * std::pow(10.0f, std::floor(exponent(random))));
  for (float f : values) {
    char text[32];
    const char* end = std::to_chars(text, text + sizeof text, f).ptr;
    double expected = 0;
    std::from_chars(text, end, expected);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(p2l::shortest_decimal_double(f)), std::bit_cast<std::uint64_t>(expected))
        << std::string(text, static_cast<std::size_t>(end - text));
  }
  EXPECT_EQ(p2l::shortest_decimal_double(3.1f), 3.1);  // not 3.0999999046325684
}

// Floats of up to four decimal places (motion times; every frame samples them) take a shortcut
// without formatting; it gives the same double, on every such float of -200..200 and around
// 2^24, where it stops.
TEST(ShortestDecimal, FewPlacesGiveTheSameDoubleWithoutFormatting) {
  const auto from_text = [](float f) {
    char text[32];
    const char* end = std::to_chars(text, text + sizeof text, f).ptr;
    double d = 0;
    std::from_chars(text, end, d);
    return d;
  };
  std::vector<float> values = {16777215.0f, 16777216.0f, 16777218.0f, 8388607.5f, 1e7f, 123456.7f, -0.0f, 0.00005f};
  for (int n = -2000000; n <= 2000000; ++n) values.push_back(static_cast<float>(n / 10000.0));
  for (float f : values)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(p2l::shortest_decimal_double(f)), std::bit_cast<std::uint64_t>(from_text(f)))
        << f;
  double d = 0;
  EXPECT_TRUE(p2l::few_places_decimal(4.3f, d));
  EXPECT_EQ(d, 4.3);
  EXPECT_FALSE(p2l::few_places_decimal(1.0f / 3.0f, d));
  EXPECT_FALSE(p2l::few_places_decimal(16777216.0f, d));
}
