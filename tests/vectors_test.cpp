// The original runtime's compatibility vectors: every file it reads loads here into the
// same model whatever its compression, and the three files it refuses are refused, for
// the same reason.
#include <nlohmann/json.hpp>

#include "test_util.hpp"

namespace {

using p2l_test::vector_file;

const char* kAccepted[] = {
    "min_core.p2lrt",         "min_core_deflate.p2lrt",  "min_core_zstd.p2lrt",  "min_half_floats.p2lrt",
    "min_textures.p2lrt",     "min_unknown_optional_chunk.p2lrt", "min_unorm16.p2lrt",
    "chain.p2lrt",            "chain.deflate.p2lrt",     "chain.zstd.p2lrt",     "extras.p2lrt",
    "extras.deflate.p2lrt",   "extras.zstd.p2lrt",       "skin_arc.p2lrt",       "skin_arc.deflate.p2lrt",
    "skin_arc.zstd.p2lrt",    "stress.p2lrt",            "stress.deflate.p2lrt", "stress.zstd.p2lrt",
};

TEST(Vectors, EveryAcceptedFileLoadsWithAndWithoutCrcChecks) {
  P2L_REQUIRE_VECTORS();
  for (const char* name : kAccepted) {
    auto bytes = vector_file(name);
    ASSERT_FALSE(bytes.empty()) << name;
    for (bool crc : {false, true}) {
      p2l::LoadOptions o;
      o.verify_crc = crc;
      auto r = p2l::load(bytes, o);
      EXPECT_TRUE(r) << name << ": " << r.error.to_string();
    }
  }
}

TEST(Vectors, CompressedVariantsLoadIntoTheSameRig) {
  P2L_REQUIRE_VECTORS();
  for (std::string base : {"chain", "extras", "skin_arc", "stress"}) {
    auto plain = p2l::load(vector_file(base + ".p2lrt"));
    ASSERT_TRUE(plain) << base;
    for (std::string variant : {".deflate.p2lrt", ".zstd.p2lrt"}) {
      auto packed = p2l::load(vector_file(base + variant));
      ASSERT_TRUE(packed) << base + variant << ": " << packed.error.to_string();
      EXPECT_TRUE(*packed.rig == *plain.rig) << base + variant;
    }
  }
  auto core = p2l::load(vector_file("min_core.p2lrt"));
  for (const char* name : {"min_core_deflate.p2lrt", "min_core_zstd.p2lrt"}) {
    auto packed = p2l::load(vector_file(name));
    ASSERT_TRUE(packed);
    EXPECT_TRUE(*packed.rig == *core.rig) << name;
  }
}

// The refused files, with the original reader's message in .error.txt: ours must name the
// same chunk and the same reason.
TEST(Vectors, RefusedFilesAreRefusedForTheSameReason) {
  P2L_REQUIRE_VECTORS();
  struct Case {
    const char* file;
    bool crc;
    p2l::ErrorCode code;
    const char* chunk;
  } cases[] = {
      {"bad_crc.p2lrt", true, p2l::ErrorCode::CrcMismatch, "CANV"},
      {"bad_missing_draw.p2lrt", false, p2l::ErrorCode::MissingChunk, "DRAW"},
      {"bad_required_chunk.p2lrt", false, p2l::ErrorCode::RequiredFeature, "XREQ"},
  };
  for (const auto& c : cases) {
    p2l::LoadOptions o;
    o.verify_crc = c.crc;
    auto r = p2l::load(vector_file(c.file), o);
    ASSERT_FALSE(r) << c.file;
    EXPECT_EQ(r.error.code, c.code) << c.file << ": " << r.error.to_string();
    EXPECT_EQ(r.error.chunk, c.chunk) << c.file;
    std::string error_path = p2l_test::vectors_dir() + "/" + c.file;
    error_path.replace(error_path.find(".p2lrt"), 6, ".error.txt");
    auto text = p2l_test::read_bytes(error_path);
    std::string original(text.begin(), text.end());
    // The original says e.g. "This rig requires feature XREQ version 1": the tag is in both.
    EXPECT_NE(original.find(c.chunk), std::string::npos);
    EXPECT_NE(r.error.to_string().find(c.chunk), std::string::npos);
  }
  // Without CRC verification the damaged file is still readable, as the original does.
  EXPECT_TRUE(p2l::load(vector_file("bad_crc.p2lrt")));
}

// Parameter and mesh tables against the original runtime's own account of each file.
TEST(Vectors, ModelsMatchTheOriginalRuntimesAccount) {
  P2L_REQUIRE_VECTORS();
  for (std::string base : {"min_core", "min_half_floats", "min_textures", "min_unknown_optional_chunk", "min_unorm16",
                           "chain", "extras", "skin_arc", "stress"}) {
    auto expected = nlohmann::json::parse(p2l_test::read_bytes(p2l_test::vectors_dir() + "/expected/" + base +
                                                               ".default.c.json"));
    auto r = p2l::load(vector_file(base + ".p2lrt"));
    ASSERT_TRUE(r) << base << ": " << r.error.to_string();
    const p2l::Rig& rig = *r.rig;
    EXPECT_EQ(rig.canvas.width, expected["canvas"][0].get<float>()) << base;
    EXPECT_EQ(rig.canvas.height, expected["canvas"][1].get<float>()) << base;
    ASSERT_EQ(rig.parameters.size(), expected["parameters"].size()) << base;
    for (std::size_t i = 0; i < rig.parameters.size(); ++i) {
      EXPECT_EQ(rig.parameters[i].id, expected["parameters"][i]["id"].get<std::string>()) << base;
      EXPECT_EQ(rig.parameters[i].default_value, expected["parameters"][i]["value"].get<float>()) << base;
    }
    ASSERT_EQ(rig.meshes.size(), expected["meshes"].size()) << base;
    for (std::size_t i = 0; i < rig.meshes.size(); ++i) {
      EXPECT_EQ(rig.meshes[i].id, expected["meshes"][i]["id"].get<std::string>()) << base;
      EXPECT_EQ(rig.meshes[i].vertex_count(), expected["meshes"][i]["vertex_count"].get<std::size_t>()) << base;
    }
  }
}

TEST(Vectors, UnknownOptionalChunkIsSkippedAndKept) {
  P2L_REQUIRE_VECTORS();
  auto r = p2l::load(vector_file("min_unknown_optional_chunk.p2lrt"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r.rig->unknown_chunks.size(), 1u);
  EXPECT_EQ(r.rig->unknown_chunks[0].tag, "XTRA");
  EXPECT_EQ(r.rig->unknown_chunks[0].data.size(), 3u);
  // Skipping it leaves the same rig as the file without it.
  auto core = p2l::load(vector_file("min_core.p2lrt"));
  p2l::Rig without = *r.rig;
  without.unknown_chunks.clear();
  EXPECT_TRUE(without == *core.rig);
}

TEST(Vectors, TexturePagesOfEveryKind) {
  P2L_REQUIRE_VECTORS();
  auto r = p2l::load(vector_file("min_textures.p2lrt"));
  ASSERT_TRUE(r);
  const auto& t = r.rig->textures;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].kind, p2l::TextureKind::Png);
  EXPECT_EQ(t[0].width, 4u);
  EXPECT_EQ(t[0].data.to_vector(), (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(t[1].kind, p2l::TextureKind::Ktx2);
  EXPECT_EQ(t[1].width, 8u);
  EXPECT_EQ(t[1].data.to_vector(), (std::vector<std::uint8_t>{9, 9}));
  EXPECT_EQ(t[2].kind, p2l::TextureKind::External);
  EXPECT_EQ(t[2].uri, "page1.png");
  EXPECT_EQ(t[2].height, 16u);
}

// The f16 and unorm16 files store their positions in those codecs (including a half
// subnormal and the largest half); with no deformer the original runtime reports the
// decoded positions as the vertices, which must be ours to the bit.
TEST(Vectors, LossyCodecFilesDecodeAsTheOriginalDoes) {
  P2L_REQUIRE_VECTORS();
  for (std::string base : {"min_half_floats", "min_unorm16", "min_core"}) {
    auto expected = nlohmann::json::parse(
        p2l_test::read_bytes(p2l_test::vectors_dir() + "/expected/" + base + ".default.rust.json"));
    auto r = p2l::load(vector_file(base + ".p2lrt"));
    ASSERT_TRUE(r) << base;
    const auto& positions = r.rig->meshes[0].geometry->positions;
    const auto& vertices = expected["meshes"][0]["vertices"];
    ASSERT_EQ(positions.size(), vertices.size()) << base;
    for (std::size_t i = 0; i < positions.size(); ++i)
      EXPECT_EQ(positions[i], vertices[i].get<float>()) << base << " position " << i;
  }
}

TEST(Vectors, ExtrasCarriesEveryAttachedChunk) {
  P2L_REQUIRE_VECTORS();
  auto r = p2l::load(vector_file("extras.p2lrt"));
  ASSERT_TRUE(r);
  const p2l::Rig& rig = *r.rig;
  EXPECT_FALSE(rig.physics.empty());
  EXPECT_FALSE(rig.clips.empty());
  EXPECT_FALSE(rig.roles.empty());
  EXPECT_FALSE(rig.expressions.empty());
  EXPECT_EQ(rig.hit_areas.size(), 2u);
  ASSERT_EQ(rig.user_data.size(), 1u);
  EXPECT_EQ(rig.user_data[0].value, "{\"tag\":1}");
  ASSERT_TRUE(rig.pose);
  ASSERT_EQ(rig.clip_extensions.size(), 1u);
  const auto& x = rig.clip_extensions[0];
  ASSERT_EQ(x.events.size(), 2u);
  EXPECT_EQ(x.events[0].value, "start");
  EXPECT_EQ(x.events[1].time, 1.0f);
  ASSERT_EQ(x.curves.size(), 1u);
  EXPECT_EQ(x.curves[0].target, p2l::ClipCurveTarget::ModelOpacity);
  EXPECT_EQ(x.curves[0].fade_out, -1.0f);
  ASSERT_EQ(x.fades.size(), 1u);
  EXPECT_EQ(x.fades[0].curve, 1u);
  ASSERT_NE(rig.find_meta("generator"), nullptr);
}

TEST(Vectors, SkinArcCarriesBonesAndSkins) {
  P2L_REQUIRE_VECTORS();
  auto r = p2l::load(vector_file("skin_arc.p2lrt"));
  ASSERT_TRUE(r);
  ASSERT_TRUE(r.rig->bones);
  ASSERT_TRUE(r.rig->skins);
  EXPECT_FALSE(r.rig->bones->arcs.empty());
  EXPECT_FALSE(r.rig->skins->skins.empty());
  EXPECT_EQ(r.rig->skins->header.feature, 1u);
  EXPECT_EQ(r.rig->bones->header.feature, 2u);
}

}  // namespace
