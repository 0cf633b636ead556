// Model -> bytes -> model: every field of every chunk survives, in every container form;
// the writer is reproducible; compression changes storage only; borrowing is zero-copy.
#include "format/aligned_buffer.hpp"
#include "format/compression.hpp"
#include "format/byte_reader.hpp"
#include "format/container.hpp"
#include "full_rig.hpp"
#include "small_rig.hpp"
#include "test_util.hpp"

namespace {

using namespace p2l_test;

p2l::Rig full_rig() {
  p2l::Rig rig = make_full_rig();
  rig.names_stripped = false;
  return rig;
}

// What a rig looks like after writing with strip_names: names empty, ids kept.
p2l::Rig without_names(p2l::Rig rig) {
  rig.names_stripped = true;
  for (auto& p : rig.parameters) p.name.clear();
  for (auto& p : rig.parts) p.name.clear();
  for (auto& m : rig.meshes) m.name.clear();
  for (auto& g : rig.physics) g.name.clear();
  for (auto& c : rig.clips) c.name.clear();
  for (auto& e : rig.expressions) e.name.clear();
  for (auto& h : rig.hit_areas) h.name.clear();
  for (auto& h : rig.hairs) h.name.clear();
  if (rig.gui)
    for (auto& n : rig.gui->nodes) n.name.clear();
  return rig;
}

const char* compression_name(p2l::Compression c) {
  return c == p2l::Compression::None ? "none" : c == p2l::Compression::Deflate ? "deflate" : "zstd";
}

TEST(RoundTrip, FullRigFixtureIsValid) {
  auto e = p2l::validate(full_rig());
  EXPECT_TRUE(e.ok()) << e.to_string();
}

TEST(RoundTrip, EveryFieldSurvivesVersion2InEveryForm) {
  const p2l::Rig rig = full_rig();
  for (auto c : {p2l::Compression::None, p2l::Compression::Deflate, p2l::Compression::Zstd}) {
    for (bool strip : {false, true}) {
      p2l::WriteOptions o;
      o.compression = c;
      o.strip_names = strip;
      auto w = p2l::write(rig, o);
      ASSERT_TRUE(w) << w.error.to_string();
      EXPECT_TRUE(w.dropped.empty());
      auto r = p2l::load(w.bytes, {.verify_crc = true});
      ASSERT_TRUE(r) << compression_name(c) << ": " << r.error.to_string();
      p2l::Rig expected = strip ? without_names(rig) : rig;
      EXPECT_TRUE(*r.rig == expected) << compression_name(c) << (strip ? " stripped" : "");
      EXPECT_EQ(r.info.flags & 1, strip ? 1u : 0u);
      // Spot checks that a broken operator== could not hide.
      EXPECT_EQ(r.rig->textures.size(), 3u);
      EXPECT_EQ(r.rig->meshes.size(), rig.meshes.size());
      EXPECT_EQ(r.rig->parameters[0].name, strip ? "" : rig.parameters[0].name);
    }
  }
}

TEST(RoundTrip, TexturePagesOfEveryKindKeepKindSizeAndPayload) {
  auto w = p2l::write(full_rig());
  auto r = p2l::load(w.bytes);
  ASSERT_TRUE(r);
  const auto& in = full_rig().textures;
  const auto& out = r.rig->textures;
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i].kind, in[i].kind);
    EXPECT_EQ(out[i].width, in[i].width);
    EXPECT_EQ(out[i].height, in[i].height);
    EXPECT_EQ(out[i].data.to_vector(), in[i].data.to_vector());
    EXPECT_EQ(out[i].uri, in[i].uri);
  }
}

// Version 1 keeps the core chunks; everything else is reported, not silently lost.
TEST(RoundTrip, Version1KeepsCoreFieldsAndReportsTheRest) {
  const p2l::Rig rig = full_rig();
  p2l::WriteOptions o;
  o.version = 1;
  auto w = p2l::write(rig, o);
  ASSERT_TRUE(w) << w.error.to_string();
  auto r = p2l::load(w.bytes);
  ASSERT_TRUE(r) << r.error.to_string();

  p2l::Rig core = rig;
  core.gui.reset();
  core.meta.clear();
  core.bones.reset();
  core.skins.reset();
  core.colliders.reset();
  core.simulations.reset();
  core.expressions.clear();
  core.hit_areas.clear();
  core.user_data.clear();
  core.pose.reset();
  core.clip_extensions.clear();
  core.hairs.clear();
  core.unknown_chunks.clear();
  for (auto& t : core.textures) {
    if (t.kind != p2l::TextureKind::Png) t = {p2l::TextureKind::Png, t.width, t.height, {}, ""};
  }
  for (auto& g : core.physics) {
    std::erase_if(g.inputs, [](const auto& in) { return in.source == p2l::PhysicsSource::Y; });
    std::erase_if(g.outputs, [](const auto& out) { return out.source == p2l::PhysicsSource::Y; });
  }
  EXPECT_TRUE(*r.rig == core);

  std::string all;
  for (const auto& d : w.dropped) all += d + "\n";
  for (const char* tag : {"PGUI", "META", "BONE", "SKIN", "COLL", "SIMS", "EXPR", "HITA", "UDAT", "POSE", "CEXT",
                          "HAIR", "TEXR", "PHYS", "VNDR"})
    EXPECT_NE(all.find(tag), std::string::npos) << "the v1 loss report does not mention " << tag << ":\n" << all;
}

TEST(RoundTrip, Version1WithManyShortParametersReadsBack) {
  // Regression: the v1 parameter count bound assumed 25 bytes a parameter, the minimum is 21.
  p2l::Rig rig = make_small_rig();
  for (int i = 0; i < 40; ++i) rig.parameters.push_back({"p" + std::to_string(i), "", 0, 1, 0, false, false});
  auto w = p2l::write(rig, {.version = 1});
  auto r = p2l::load(w.bytes);
  EXPECT_TRUE(r) << r.error.to_string();
}

TEST(RoundTrip, TheWriterRefusesCountsTheFormatCannotHold) {
  p2l::Rig rig = make_small_rig();
  p2l::Channel ch;
  ch.grid.forms = {p2l::Rgb{1, 0, 0}};
  rig.meshes[0].channels.assign(256, ch);  // stored as a u8 count
  auto w = p2l::write(rig);
  EXPECT_FALSE(w);
  EXPECT_EQ(w.error.code, p2l::ErrorCode::TooLarge) << w.error.to_string();
  rig.meshes[0].channels.resize(255);
  EXPECT_TRUE(p2l::write(rig));
}

// Found by the importer's fuzzer: a string the reader refuses must not be written.
TEST(RoundTrip, TheWriterRefusesStringsThatAreNotUtf8) {
  for (int version : {1, 2}) {
    p2l::Rig rig = make_small_rig();
    rig.meshes[0].id = "mesh\xC3";  // a truncated two-byte sequence
    p2l::WriteOptions options;
    options.version = version;
    auto w = p2l::write(rig, options);
    EXPECT_FALSE(w) << version;
    EXPECT_EQ(w.error.code, p2l::ErrorCode::BadString) << w.error.to_string();
    EXPECT_NE(w.error.to_string().find("mesh\\xc3"), std::string::npos) << w.error.to_string();
    EXPECT_TRUE(w.bytes.empty());
  }
}

// Found by the importer's fuzzer: nor a number the reader refuses.
TEST(RoundTrip, TheWriterRefusesNumbersThatAreNotFinite) {
  for (int version : {1, 2}) {
    p2l::Rig rig = make_small_rig();
    rig.meshes[0].multiply[1] = std::numeric_limits<float>::infinity();
    p2l::WriteOptions options;
    options.version = version;
    auto w = p2l::write(rig, options);
    EXPECT_FALSE(w) << version;
    EXPECT_EQ(w.error.code, p2l::ErrorCode::NonFinite) << w.error.to_string();
    rig = make_small_rig();
    rig.meshes[0].geometry->uvs = p2l::Array<float>(std::vector<float>(rig.meshes[0].geometry->uvs.size(), std::numeric_limits<float>::quiet_NaN()));
    EXPECT_EQ(p2l::write(rig, options).error.code, p2l::ErrorCode::NonFinite) << version;
  }
}

TEST(RoundTrip, KeptChunksMustHaveTagsThatCanBeWritten) {
  for (const char* tag : {"MESH", "ab", "a b!", "VNDR"}) {
    p2l::Rig rig = make_small_rig();
    rig.unknown_chunks = {{"VNDR", 1, false, {}}, {tag, 1, false, {}}};
    EXPECT_FALSE(p2l::write(rig)) << tag;  // a known tag, too short, not alphanumeric, or a repeat
  }
  // Vendor (lower-case) tags may repeat, as the reader allows: such a file rewrites as it was.
  p2l::Rig rig = make_small_rig();
  rig.unknown_chunks = {{"vndr", 1, false, p2l::Array<std::uint8_t>{1}}, {"vndr", 2, false, p2l::Array<std::uint8_t>{2}}};
  auto w = p2l::write(rig);
  ASSERT_TRUE(w) << w.error.to_string();
  auto r = p2l::load(w.bytes);
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(*r.rig == rig);
}

TEST(Reproducible, SameModelAndOptionsGiveTheSameBytes) {
  for (auto c : {p2l::Compression::None, p2l::Compression::Deflate, p2l::Compression::Zstd}) {
    p2l::WriteOptions o;
    o.compression = c;
    auto a = p2l::write(full_rig(), o);
    auto b = p2l::write(full_rig(), o);
    EXPECT_EQ(a.bytes, b.bytes) << compression_name(c);
  }
  auto v1a = p2l::write(full_rig(), {.version = 1});
  auto v1b = p2l::write(full_rig(), {.version = 1});
  EXPECT_EQ(v1a.bytes, v1b.bytes);
}

std::vector<std::uint8_t> chunk_bytes(const std::vector<std::uint8_t>& file, const char* tag) {
  p2l::FileInfo info;
  std::vector<p2l::format::ChunkBytes> chunks;
  p2l::Error error;
  EXPECT_TRUE(p2l::format::read_container(file, nullptr, {}, info, chunks, error)) << error.to_string();
  for (const auto& c : chunks)
    if (c.entry.tag == tag) return {c.bytes.begin(), c.bytes.end()};
  return {};
}

TEST(Reproducible, StringTableDoesNotDependOnTheOrderStringsWereAdded) {
  // The same strings met in opposite orders: STRS is identical, PARM is not.
  p2l::Rig a = make_small_rig(), b = make_small_rig();
  a.parameters = {{"zeta", "Zeta", 0, 1, 0}, {"alpha", "Alpha", 0, 1, 0}};
  b.parameters = {{"alpha", "Alpha", 0, 1, 0}, {"zeta", "Zeta", 0, 1, 0}};
  auto fa = p2l::write(a).bytes, fb = p2l::write(b).bytes;
  EXPECT_EQ(chunk_bytes(fa, "STRS"), chunk_bytes(fb, "STRS"));
  EXPECT_NE(chunk_bytes(fa, "PARM"), chunk_bytes(fb, "PARM"));
  // Each string is stored once.
  auto strs = chunk_bytes(fa, "STRS");
  std::string blob(strs.begin(), strs.end());
  EXPECT_EQ(blob.find("zeta"), blob.rfind("zeta"));
}

TEST(Reproducible, NoTimestampsOrEnvironment) {
  // Two writes a moment apart and from different working directories agree byte for byte.
  auto a = p2l::write(full_rig()).bytes;
  auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::temp_directory_path());
  auto b = p2l::write(full_rig()).bytes;
  std::filesystem::current_path(cwd);
  EXPECT_EQ(a, b);
}

TEST(Compression, DecompressedChunksAreIdenticalInEveryForm) {
  const auto plain = p2l::write(full_rig()).bytes;
  for (auto c : {p2l::Compression::Deflate, p2l::Compression::Zstd}) {
    p2l::WriteOptions o;
    o.compression = c;
    auto packed = p2l::write(full_rig(), o).bytes;
    p2l::FileInfo pi, ci;
    std::vector<p2l::format::ChunkBytes> pc, cc;
    p2l::Error e;
    ASSERT_TRUE(p2l::format::read_container(plain, nullptr, {}, pi, pc, e));
    ASSERT_TRUE(p2l::format::read_container(packed, nullptr, {}, ci, cc, e)) << e.to_string();
    ASSERT_EQ(pc.size(), cc.size());
    std::size_t compressed = 0;
    for (std::size_t i = 0; i < pc.size(); ++i) {
      EXPECT_EQ(pc[i].entry.tag, cc[i].entry.tag);
      EXPECT_TRUE(std::equal(pc[i].bytes.begin(), pc[i].bytes.end(), cc[i].bytes.begin(), cc[i].bytes.end()))
          << compression_name(c) << " " << pc[i].entry.tag;
      if (cc[i].entry.compression() != p2l::Compression::None) {
        ++compressed;
        EXPECT_EQ(cc[i].entry.compression(), c);
        EXPECT_LT(cc[i].entry.length, cc[i].entry.raw_length) << "compressed only when smaller";
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(cc[i].bytes.data()) % 16, 0u) << "16-byte aligned";
      } else {
        // Left uncompressed: TEXR always, others only because compression did not help.
        auto try_packed = p2l::format::compress(c, pc[i].bytes, 0);
        EXPECT_TRUE(pc[i].entry.tag == "TEXR" || try_packed.size() >= pc[i].bytes.size()) << pc[i].entry.tag;
      }
    }
    EXPECT_GT(compressed, 3u) << compression_name(c);
  }
}

TEST(Compression, TexturePagesAreNeverCompressed) {
  p2l::Rig rig = make_small_rig();
  rig.textures.push_back({p2l::TextureKind::Png, 64, 64, std::vector<std::uint8_t>(4096, 0), ""});  // very compressible
  for (auto c : {p2l::Compression::Deflate, p2l::Compression::Zstd}) {
    auto f = p2l::write(rig, {.compression = c}).bytes;
    std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "TEXR")));
    EXPECT_EQ((f[e + 6] >> 2) & 3, 0);
  }
}

TEST(ZeroCopy, BorrowModeUsesTheCallersArraysInPlace) {
  const auto bytes = p2l::write(make_small_rig()).bytes;
  // The vector's storage is aligned for any scalar, as the borrow mode needs.
  auto borrowed = p2l::load(bytes, {.borrow = true});
  ASSERT_TRUE(borrowed);
  const auto& g = *borrowed.rig->meshes[0].geometry;
  auto inside = [&](const void* p) {
    auto q = static_cast<const std::uint8_t*>(p);
    return q >= bytes.data() && q < bytes.data() + bytes.size();
  };
  EXPECT_TRUE(inside(g.positions.data()));
  EXPECT_TRUE(inside(g.uvs.data()));
  EXPECT_TRUE(inside(g.indices.u16().data()));
  // Pointer identity: the positions are exactly the floats at their place in the file.
  std::size_t at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(static_cast<const void*>(g.positions.data())) -
                                            bytes.data());
  EXPECT_EQ(std::memcmp(bytes.data() + at, g.positions.data(), g.positions.size() * 4), 0);
  EXPECT_EQ(g.positions[2], 10.0f);

  // The default mode copies once: nothing points into the caller's bytes.
  auto copied = p2l::load(bytes);
  ASSERT_TRUE(copied);
  EXPECT_FALSE(inside(copied.rig->meshes[0].geometry->positions.data()));
  EXPECT_TRUE(*copied.rig == *borrowed.rig);
}

TEST(ZeroCopy, CopiedRigOutlivesTheInput) {
  std::shared_ptr<const p2l::Rig> rig;
  {
    auto bytes = p2l::write(make_small_rig()).bytes;
    rig = p2l::load(bytes).rig;
    std::fill(bytes.begin(), bytes.end(), 0xEE);
  }
  ASSERT_TRUE(rig);
  EXPECT_TRUE(*rig == make_small_rig());
}

TEST(ZeroCopy, MisalignedBorrowedBytesStillLoadCorrectly) {
  auto bytes = p2l::write(make_small_rig()).bytes;
  std::vector<std::uint8_t> shifted(bytes.size() + 1);
  std::memcpy(shifted.data() + 1, bytes.data(), bytes.size());
  auto r = p2l::load(std::span<const std::uint8_t>(shifted.data() + 1, bytes.size()), {.borrow = true});
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(*r.rig == make_small_rig());
}

// The original runtime's string, but for the chunk versions only p2lrt reads: the core
// geometry chunks at version 2 (Cubism's rules) and 3 (Cubism 2's), and EXPR, POSE, CEXT at
// version 2 (Cubism playback); the original's has "CANV/1 PARM/1 DEFM/1 PART/1 MESH/1 GLUE/1
// DRAW/1 ... EXPR/1 ... POSE/1 CEXT/1".
TEST(FormatSupport, TheOriginalRuntimesStringWithCubismRules) {
  EXPECT_STREQ(p2l::format_support(),
               "1,2 STRS/1 CANV/3 PARM/3 DEFM/3 PART/3 MESH/3 GLUE/3 DRAW/3 TEXR/1 PHYS/2 CLIP/1 ROLE/1 PGUI/1 "
               "META/1 BONE/1 SKIN/1 COLL/1 SIMS/1 EXPR/2 HITA/1 UDAT/1 POSE/2 CEXT/2 HAIR/1");
  EXPECT_EQ(p2l::known_chunks().size(), 24u);
}

// CANV version 2 ends in its flags (docs/FORMAT.md 8.13): both read back, an unknown bit is
// refused with a message naming it rather than dropped.
TEST(CubismRules, CanvasFlagsReadBackAndAnUnknownBitIsRefused) {
  p2l::Rig rig = make_small_rig();
  rig.rules = p2l::CoreRules::Cubism;
  rig.canvas.pixels_per_unit = 100.0f;
  rig.canvas.y_up = true;
  rig.canvas.blend_clamp = true;
  rig.canvas.keyform_colors = true;
  const auto bytes = p2l::write(rig).bytes;
  ASSERT_FALSE(bytes.empty());
  auto back = p2l::load(bytes);
  ASSERT_TRUE(back) << back.error.to_string();
  EXPECT_TRUE(back.rig->canvas.y_up);
  EXPECT_TRUE(back.rig->canvas.blend_clamp);
  EXPECT_TRUE(back.rig->canvas.keyform_colors);
  auto bad = bytes;
  const std::size_t e = entry_at(static_cast<std::size_t>(find_entry(bad, "CANV")));
  ASSERT_EQ(bad[e + 4], 2);
  const std::uint32_t offset = p2l::format::ByteReader::load_u32(&bad[e + 8]);
  const std::uint32_t size = p2l::format::ByteReader::load_u32(&bad[e + 16]);
  ASSERT_EQ(size, 21u);
  bad[offset + size - 1] = 0x0F;
  auto refused = p2l::load(bad);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error.chunk, "CANV");
  EXPECT_NE(refused.error.message.find("canvas flags 15 set unknown bits"), std::string::npos) << refused.error.to_string();
}

TEST(Physics, VerticalSourceIsWrittenAsPhysVersion2) {
  auto f = p2l::write(full_rig()).bytes;  // the fixture uses a Y output
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "PHYS")));
  EXPECT_EQ(f[e + 4], 2);
  p2l::Rig rig = make_small_rig();
  rig.physics.push_back({"g", "", {{0, 1, p2l::PhysicsSource::X, false}}, {}, {}, {}});
  f = p2l::write(rig).bytes;
  e = entry_at(static_cast<std::size_t>(find_entry(f, "PHYS")));
  EXPECT_EQ(f[e + 4], 1);
  // A Y source in a version-1 PHYS chunk is refused rather than misread.
  rig.physics[0].inputs[0].source = p2l::PhysicsSource::Y;
  f = p2l::write(rig).bytes;
  e = entry_at(static_cast<std::size_t>(find_entry(f, "PHYS")));
  f[e + 4] = 1;
  auto r = p2l::load(f);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.chunk, "PHYS");
  EXPECT_NE(r.error.message.find("Y needs version 2"), std::string::npos) << r.error.to_string();
}

TEST(PlaybackFlags, CextExprAndPoseAreVersion2OnlyWithAFlagAndReadBack) {
  // Without flags the three chunks stay version 1, byte for byte as before the flags existed.
  const p2l::Rig plain = full_rig();
  const auto before = p2l::write(plain).bytes;
  auto version_of = [](const std::vector<std::uint8_t>& f, const char* tag) {
    return f[entry_at(static_cast<std::size_t>(find_entry(f, tag))) + 4];
  };
  for (const char* tag : {"CEXT", "EXPR", "POSE"}) EXPECT_EQ(version_of(before, tag), 1) << tag;
  p2l::Rig flagged = plain;
  flagged.clip_extensions[0].cubism_playback = true;
  flagged.clip_extensions[0].unrestricted_beziers = true;
  flagged.expressions[0].cubism_playback = true;
  flagged.pose->cubism_playback = true;
  flagged.pose->cubism2 = true;
  const auto after = p2l::write(flagged).bytes;
  for (const char* tag : {"CEXT", "EXPR", "POSE"}) EXPECT_EQ(version_of(after, tag), 2) << tag;
  auto back = p2l::load(after);
  ASSERT_TRUE(back) << back.error.to_string();
  EXPECT_EQ(*back.rig, flagged);
  // Each flag alone round-trips too, and the others stay false.
  p2l::Rig one = plain;
  one.clip_extensions[0].unrestricted_beziers = true;
  auto one_back = p2l::load(p2l::write(one).bytes);
  ASSERT_TRUE(one_back) << one_back.error.to_string();
  EXPECT_EQ(*one_back.rig, one);
  // An unknown flag bit is refused.
  auto bad = after;
  const std::size_t e = entry_at(static_cast<std::size_t>(find_entry(bad, "POSE")));
  const std::uint32_t offset = p2l::format::ByteReader::load_u32(&bad[e + 8]);
  const std::uint32_t size = p2l::format::ByteReader::load_u32(&bad[e + 16]);
  bad[offset + size - 1] = 0x80;
  EXPECT_FALSE(p2l::load(bad));
}

}  // namespace

namespace {

// HAIR's kind bytes are checked as they are read: an unknown one is refused naming it.
TEST(Hair, AnUnknownInputSourceIsRefusedNamingIt) {
  auto f = p2l::write(full_rig()).bytes;
  ASSERT_FALSE(f.empty());
  const std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "HAIR")));
  EXPECT_EQ(f[e + 4], 1);
  const std::uint32_t offset = p2l::format::ByteReader::load_u32(&f[e + 8]);
  // hair count, name, length, resistance, mass, input count, the first input's parameter.
  const std::size_t source = offset + 4 + 4 + 12 + 4 + 4;
  ASSERT_EQ(f[source], 0) << "the full rig's first hair input is x";
  f[source] = 7;
  const auto refused = p2l::load(f, {.verify_crc = false});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error.chunk, "HAIR");
  EXPECT_NE(refused.error.message.find("hair input kind 7 is unknown (expected 0 x, 1 y, 2 gravity angle)"),
            std::string::npos)
      << refused.error.to_string();
}

}  // namespace
