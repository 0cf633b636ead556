// Every reader rule, each shown by a file that breaks exactly that rule: the reader must
// refuse it with the right error code, naming the chunk (and an offset where one exists).
// Each test starts from a valid file written by p2l::write, so the mutation is the only
// thing wrong with it.
#include <algorithm>
#include <cstring>

#include "format/compression.hpp"
#include "format/container.hpp"
#include "small_rig.hpp"
#include "test_util.hpp"

namespace {

using namespace p2l_test;
using p2l::ErrorCode;

std::vector<std::uint8_t> small_file(p2l::Compression c = p2l::Compression::None) {
  p2l::WriteOptions o;
  o.compression = c;
  auto w = p2l::write(make_small_rig(), o);
  EXPECT_TRUE(w) << w.error.to_string();
  return w.bytes;
}

std::size_t chunk_offset(const std::vector<std::uint8_t>& f, const char* tag) {
  int e = find_entry(f, tag);
  EXPECT_GE(e, 0) << tag;
  return static_cast<std::size_t>(get_u64(f, entry_at(static_cast<std::size_t>(e)) + 8));
}

// Rewrites a chunk's stored bytes in place and fixes its CRC, so only the content is wrong.
void refresh_crc(std::vector<std::uint8_t>& f, const char* tag) {
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, tag)));
  std::size_t off = get_u64(f, e + 8), len = get_u64(f, e + 16);
  put_u32(f, e + 32, p2l::format::crc32({f.data() + off, len}));
}

p2l::LoadResult load(const std::vector<std::uint8_t>& f, bool crc = true) {
  p2l::LoadOptions o;
  o.verify_crc = crc;
  return p2l::load(f, o);
}

void expect_refused(const std::vector<std::uint8_t>& f, ErrorCode code, const std::string& chunk,
                    const std::string& words = "") {
  auto r = load(f);
  ASSERT_FALSE(r) << "expected " << p2l::error_code_name(code) << " in " << chunk;
  EXPECT_EQ(r.error.code, code) << r.error.to_string();
  EXPECT_EQ(r.error.chunk, chunk) << r.error.to_string();
  if (!words.empty()) {
    EXPECT_NE(r.error.to_string().find(words), std::string::npos) << r.error.to_string();
  }
}

TEST(ReaderRules, TheUnmodifiedFixtureLoads) {
  auto f = small_file();
  auto r = load(f);
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(*r.rig == make_small_rig());
}

TEST(ReaderRules, VersionOneIsAccepted) {
  p2l::WriteOptions o;
  o.version = 1;
  auto w = p2l::write(make_small_rig(), o);
  ASSERT_TRUE(w);
  EXPECT_EQ(get_u32(w.bytes, 8), 1u);
  auto r = p2l::load(w.bytes);
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_EQ(r.info.major, 1);
  EXPECT_TRUE(*r.rig == make_small_rig());
}

TEST(ReaderRules, MajorOtherThanOneOrTwoIsRefused) {
  for (std::uint16_t major : {0, 3, 0xFFFF}) {
    auto f = small_file();
    put_u16(f, 8, major);
    auto r = load(f);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error.code, ErrorCode::UnsupportedVersion) << major;
  }
  // The minor is information only.
  auto f = small_file();
  put_u16(f, 10, 7);
  EXPECT_TRUE(load(f));
}

TEST(ReaderRules, NotAP2lrtFileIsRefused) {
  auto f = small_file();
  f[0] = 'X';
  EXPECT_EQ(load(f).error.code, ErrorCode::NotP2lrt);
  EXPECT_EQ(load(std::vector<std::uint8_t>{'P', '2'}).error.code, ErrorCode::NotP2lrt);
  EXPECT_FALSE(load(std::vector<std::uint8_t>{}));
}

TEST(ReaderRules, UnknownOptionalChunkIsSkippedAndRequiredOneRefusedByTag) {
  // The writer keeps unknown chunks: write one, optional then required.
  p2l::Rig rig = make_small_rig();
  rig.unknown_chunks.push_back({"XOPT", 1, false, p2l::Array<std::uint8_t>{1, 2, 3}});
  auto w = p2l::write(rig);
  auto r = load(w.bytes);
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_EQ(r.rig->unknown_chunks.size(), 1u);
  rig.unknown_chunks[0].required = true;
  rig.unknown_chunks[0].tag = "XREQ";
  w = p2l::write(rig);
  expect_refused(w.bytes, ErrorCode::RequiredFeature, "XREQ", "requires feature XREQ");
}

TEST(ReaderRules, KnownTagAtNewerVersionIsTreatedAsUnknown) {
  p2l::Rig rig = make_small_rig();
  rig.roles.push_back({"EyeBlink", {0}});
  auto f = p2l::write(rig).bytes;
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "ROLE")));
  // Required (as written): a newer version is a feature this reader lacks.
  put_u16(f, e + 4, 2);
  expect_refused(f, ErrorCode::RequiredFeature, "ROLE", "requires feature ROLE version 2");
  // Optional: skipped, so the rig loads without roles.
  put_u16(f, e + 6, static_cast<std::uint16_t>(f[e + 6] & ~1));
  auto r = load(f);
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(r.rig->roles.empty());
  EXPECT_TRUE(r.rig->unknown_chunks.empty());  // not kept: its layout is not ours
}

TEST(ReaderRules, ChunkOutsideTheFileIsRefused) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "DRAW")));
  // DRAW is the last chunk: a length past the end is what a file cut short looks like.
  put_u64(f, e + 16, get_u64(f, e + 16) + 4096);
  put_u64(f, e + 24, get_u64(f, e + 16));
  expect_refused(f, ErrorCode::Truncated, "DRAW", "the file is truncated");
  // An earlier chunk's length past the end runs over the chunks after it: the table is wrong.
  f = small_file();
  std::size_t canv = entry_at(static_cast<std::size_t>(find_entry(f, "CANV")));
  put_u64(f, canv + 16, get_u64(f, canv + 16) + 4096);
  put_u64(f, canv + 24, get_u64(f, canv + 16));
  auto r = load(f);
  EXPECT_EQ(r.error.code, ErrorCode::BadChunkTable) << r.error.to_string();
  EXPECT_NE(r.error.message.find("overlaps"), std::string::npos) << r.error.to_string();
  f = small_file();
  put_u64(f, e + 8, std::uint64_t{1} << 40);  // offset past the end
  expect_refused(f, ErrorCode::BadChunkTable, "DRAW", "outside the file");
  f = small_file();
  put_u64(f, e + 8, 0xFFFFFFFFFFFFFFF0ull);  // offset + length wraps around
  put_u64(f, e + 16, 0x20);
  put_u64(f, e + 24, 0x20);
  expect_refused(f, ErrorCode::BadChunkTable, "DRAW", "outside the file");
  f = small_file();
  put_u64(f, e + 8, 16);  // inside the header and table
  expect_refused(f, ErrorCode::BadChunkTable, "DRAW", "outside the file");
}

// A file cut short past its chunk table (a download or a copy stopped early) is truncated,
// not a bad table: the error names the chunk the file ends in (or before), its offset, the
// bytes it needs and how many are there. Cut inside each chunk, one byte short of its end,
// and where it starts; stored plain and compressed.
TEST(ReaderRules, AFileCutInsideItsDataAreaIsTruncated) {
  for (p2l::Compression c : {p2l::Compression::None, p2l::Compression::Zstd}) {
    const auto whole = small_file(c);
    p2l::FileInfo info;
    p2l::Error table;
    ASSERT_TRUE(p2l::read_file_info(whole, info, table)) << table.to_string();
    for (const p2l::ChunkEntry& e : info.chunks) {
      if (e.length == 0) continue;  // nothing of it can be missing
      for (std::uint64_t cut : {e.offset + e.length / 2, e.offset + e.length - 1, e.offset}) {
        const std::vector<std::uint8_t> f(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut));
        const std::uint64_t present = cut - e.offset;
        const std::string where = present > 0 ? std::to_string(present) + " bytes into it" : "before it";
        const std::string words = "the file is truncated: the chunk's data needs " + std::to_string(e.length) +
                                  " bytes, the file ends " + where + " (at " + std::to_string(cut) + ")";
        SCOPED_TRACE(e.tag + " cut at " + std::to_string(cut));
        expect_refused(f, ErrorCode::Truncated, e.tag, words);
        EXPECT_EQ(load(f).error.offset, static_cast<std::int64_t>(e.offset));
      }
    }
  }
}

TEST(ReaderRules, TheChunkTableMustFitTheFile) {
  auto f = small_file();
  put_u32(f, 16, 1000);
  auto r = load(f);
  EXPECT_EQ(r.error.code, ErrorCode::Truncated) << r.error.to_string();
  f = small_file();
  put_u32(f, 20, 64);  // toc_offset must be 32
  EXPECT_EQ(load(f).error.code, ErrorCode::BadHeader);
}

TEST(ReaderRules, OverlappingChunksAreRefused) {
  auto f = small_file();
  std::size_t canv = entry_at(static_cast<std::size_t>(find_entry(f, "CANV")));
  std::size_t parm = entry_at(static_cast<std::size_t>(find_entry(f, "PARM")));
  put_u64(f, parm + 8, get_u64(f, canv + 8));  // PARM now starts where CANV does
  auto r = load(f);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.code, ErrorCode::BadChunkTable);
  EXPECT_NE(r.error.message.find("overlaps"), std::string::npos) << r.error.to_string();
}

TEST(ReaderRules, UnalignedChunkIsRefused) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "PARM")));
  put_u64(f, e + 8, get_u64(f, e + 8) + 4);
  expect_refused(f, ErrorCode::BadChunkTable, "PARM", "16-byte aligned");
}

TEST(ReaderRules, DataAfterTheLastChunkBeyondZeroPaddingIsRefused) {
  auto f = small_file();
  auto padded = f;
  padded.insert(padded.end(), 15, 0);  // up to 15 zero bytes after the last chunk are padding
  EXPECT_TRUE(load(padded)) << load(padded).error.to_string();
  auto extra = f;
  extra.insert(extra.end(), 16, 0);
  EXPECT_EQ(load(extra).error.code, ErrorCode::BadChunkTable);
  auto junk = f;
  junk.push_back(7);
  EXPECT_EQ(load(junk).error.code, ErrorCode::BadChunkTable);
  EXPECT_NE(load(junk).error.message.find("end after the last chunk"), std::string::npos);
}

TEST(ReaderRules, NonZeroBytesBetweenChunksAreRefused) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "CANV")));
  std::size_t end = get_u64(f, e + 8) + get_u64(f, e + 16);  // CANV is 20 bytes: 12 bytes of padding follow
  ASSERT_EQ(f[end], 0);
  f[end] = 1;
  auto r = load(f);
  EXPECT_EQ(r.error.code, ErrorCode::BadChunkTable) << r.error.to_string();
}

TEST(ReaderRules, DuplicateCanonicalTagIsRefused) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "DEFM")));
  std::memcpy(f.data() + e, "PART", 4);
  expect_refused(f, ErrorCode::DuplicateChunk, "PART");
}

TEST(ReaderRules, MissingRequiredCoreChunkIsRefused) {
  for (const char* tag : {"STRS", "CANV", "PARM", "DEFM", "PART", "MESH", "DRAW"}) {
    auto f = small_file();
    std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, tag)));
    // Relabel it as an optional vendor chunk: the core chunk is then missing.
    std::string vendor = tag;
    vendor[3] = static_cast<char>(vendor[3] - 'A' + 'a');
    std::memcpy(f.data() + e, vendor.data(), 4);
    put_u16(f, e + 6, static_cast<std::uint16_t>(f[e + 6] & ~1));
    expect_refused(f, ErrorCode::MissingChunk, tag, std::string("Missing chunk ") + tag);
  }
}

TEST(ReaderRules, RecordOverReadIsRefused) {
  // DRAW is the last chunk: drop its last byte from the chunk and the file.
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "DRAW")));
  std::size_t end = get_u64(f, e + 8) + get_u64(f, e + 16);
  ASSERT_EQ(end, f.size());
  put_u64(f, e + 16, get_u64(f, e + 16) - 1);
  put_u64(f, e + 24, get_u64(f, e + 24) - 1);
  f.pop_back();
  refresh_crc(f, "DRAW");
  expect_refused(f, ErrorCode::Truncated, "DRAW", "past the end of the chunk");
  // A count larger than the chunk can hold is refused before anything is read.
  f = small_file();
  std::size_t parm = chunk_offset(f, "PARM");
  put_u32(f, parm, 2);
  refresh_crc(f, "PARM");
  expect_refused(f, ErrorCode::Truncated, "PARM", "parameter count 2 needs at least 42 bytes");
}

TEST(ReaderRules, RecordUnderReadIsRefused) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "CANV")));
  put_u64(f, e + 16, 24);  // four zero padding bytes become part of the chunk
  put_u64(f, e + 24, 24);
  refresh_crc(f, "CANV");
  expect_refused(f, ErrorCode::BadRecord, "CANV", "4 bytes before the chunk does");
}

TEST(ReaderRules, NonFiniteFloatIsRefused) {
  for (std::uint32_t bits : {0x7FC00000u, 0x7F800000u, 0xFF800000u}) {
    auto f = small_file();
    std::size_t canv = chunk_offset(f, "CANV");
    put_u32(f, canv + 4, bits);  // canvas height
    refresh_crc(f, "CANV");
    auto r = load(f);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error.code, ErrorCode::NonFinite);
    EXPECT_EQ(r.error.chunk, "CANV");
    EXPECT_EQ(r.error.offset, static_cast<std::int64_t>(canv + 4));
  }
}

TEST(ReaderRules, ReferenceOutOfRangeIsRefused) {
  // MESH record 0: u32 count, sref id, sref name, i32 parent.
  auto f = small_file();
  std::size_t mesh = chunk_offset(f, "MESH");
  put_u32(f, mesh + 12, 9);  // parent deformer 9 of 2
  refresh_crc(f, "MESH");
  expect_refused(f, ErrorCode::BadReference, "MESH", "out of range");
  EXPECT_EQ(load(f).error.offset, static_cast<std::int64_t>(mesh + 4));  // the record's start
  // A string reference past STRS.
  f = small_file();
  put_u32(f, mesh + 4, 5000);
  refresh_crc(f, "MESH");
  expect_refused(f, ErrorCode::BadReference, "MESH", "string reference 5000");
}

TEST(ReaderRules, DeformerParentAfterChildIsRefused) {
  // DEFM record 0 (the warp): u32 count, u8 kind, sref id, i32 parent.
  auto f = small_file();
  std::size_t defm = chunk_offset(f, "DEFM");
  put_u32(f, defm + 9, 1);  // the warp's parent becomes the rotation after it
  refresh_crc(f, "DEFM");
  expect_refused(f, ErrorCode::BadStructure, "DEFM", "must come before it");
}

TEST(ReaderRules, AMeshListedTwiceInTheDrawTreeIsRefused) {
  // One place each in the render order: a second listing would draw the mesh twice.
  p2l::Rig rig = make_small_rig();
  rig.draw_groups[0].children.push_back({p2l::DrawChildKind::Mesh, 0});
  const p2l::Error e = p2l::validate(rig);
  EXPECT_EQ(e.code, ErrorCode::BadStructure) << e.to_string();
  EXPECT_EQ(e.chunk, "DRAW") << e.to_string();
  EXPECT_NE(e.to_string().find("mesh 0 is already listed in the draw tree"), std::string::npos) << e.to_string();
  EXPECT_FALSE(p2l::write(rig, {}));
}

TEST(ReaderRules, KeysThatDescendAreRefusedNamingTheKey) {
  // Mesh A's keyform axis has keys -30, 30 (two f32s in MESH); 30 becomes -40.5.
  auto f = small_file();
  std::size_t mesh = chunk_offset(f, "MESH");
  std::size_t len = get_u64(f, entry_at(static_cast<std::size_t>(find_entry(f, "MESH"))) + 16);
  std::uint8_t keys[8];
  const float pair[2] = {-30.0f, 30.0f};
  std::memcpy(keys, pair, sizeof keys);
  auto it = std::search(f.begin() + static_cast<long>(mesh), f.begin() + static_cast<long>(mesh + len),
                        std::begin(keys), std::end(keys));
  ASSERT_NE(it, f.begin() + static_cast<long>(mesh + len));
  const float lower = -40.5f;
  std::memcpy(&*(it + 4), &lower, 4);
  refresh_crc(f, "MESH");
  expect_refused(f, ErrorCode::BadStructure, "MESH", "key 1 (-40.5) is below the one before it");
}

TEST(ReaderRules, MeshIndexOutOfRangeIsRefused) {
  p2l::Rig rig = make_small_rig();
  auto f = p2l::write(rig).bytes;
  // Find mesh B's index array (u16 codec 16, three indices 0 1 2) and point one past its vertices.
  std::size_t mesh = chunk_offset(f, "MESH");
  std::size_t len = get_u64(f, entry_at(static_cast<std::size_t>(find_entry(f, "MESH"))) + 16);
  const std::uint8_t pattern[] = {16, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 2, 0};
  auto it = std::search(f.begin() + static_cast<long>(mesh), f.begin() + static_cast<long>(mesh + len),
                        std::begin(pattern), std::end(pattern));
  ASSERT_NE(it, f.begin() + static_cast<long>(mesh + len));
  *(it + 12) = 3;  // index 2 -> 3 of 3 vertices
  refresh_crc(f, "MESH");
  expect_refused(f, ErrorCode::BadReference, "MESH", "index 3 is out of range for 3 vertices");
}

TEST(ReaderRules, KeyformSizeMismatchIsRefused) {
  // The warp's columns (after kind, id, parent, part, flags, opacity, multiply, screen).
  auto f = small_file();
  std::size_t defm = chunk_offset(f, "DEFM");
  ASSERT_EQ(get_u32(f, defm + 4 + 42), 1u);
  put_u32(f, defm + 4 + 42, 2);  // a 2x1 lattice needs 12 floats, the keyforms have 8
  refresh_crc(f, "DEFM");
  expect_refused(f, ErrorCode::BadStructure, "DEFM", "lattice needs 12");
}

TEST(ReaderRules, GridWithMoreCellsThanKeyCombinationsIsRefused) {
  // The warp's lattice: u16 axes (1), the axis (parameter, 2 keys), then the u32 cell count.
  auto f = small_file();
  std::size_t cells_at = chunk_offset(f, "DEFM") + 4 + 42 + 8 + 2 + 4 + 8 + 8;
  ASSERT_EQ(get_u32(f, cells_at), 2u);
  put_u32(f, cells_at, 3);
  refresh_crc(f, "DEFM");
  expect_refused(f, ErrorCode::BadStructure, "DEFM", "at most one per key combination (2)");
}

TEST(ReaderRules, GridCellsAtTheSameCoordinateAreRefused) {
  p2l::Rig rig = make_small_rig();
  rig.deformers[0].lattice->coords = {1, 1};
  auto w = p2l::write(rig);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error.message.find("share a coordinate"), std::string::npos) << w.error.to_string();
}

TEST(ReaderRules, ReservedCompressionMethodIsRefused) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "PARM")));
  put_u16(f, e + 6, static_cast<std::uint16_t>(f[e + 6] | (3 << 2)));
  expect_refused(f, ErrorCode::BadCompression, "PARM", "reserved");
}

// A deflate and a zstd copy of the fixture: their MESH chunks are compressed.
class CompressedRules : public ::testing::TestWithParam<p2l::Compression> {
 protected:
  std::vector<std::uint8_t> file() {
    auto f = small_file(GetParam());
    std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "MESH")));
    EXPECT_EQ((f[e + 6] >> 2) & 3, static_cast<int>(GetParam()));
    return f;
  }
  std::size_t mesh_entry(const std::vector<std::uint8_t>& f) { return entry_at(static_cast<std::size_t>(find_entry(f, "MESH"))); }
};

TEST_P(CompressedRules, CompressedFixtureLoadsAsTheOriginal) {
  auto r = load(file());
  ASSERT_TRUE(r) << r.error.to_string();
  EXPECT_TRUE(*r.rig == make_small_rig());
}

TEST_P(CompressedRules, FailedDecompressionIsRefused) {
  auto f = file();
  std::size_t e = mesh_entry(f);
  std::size_t off = get_u64(f, e + 8), len = get_u64(f, e + 16);
  for (std::size_t k = off + 4; k < off + len - 4; ++k) f[k] ^= 0x5A;  // keep the frame header, ruin the rest
  refresh_crc(f, "MESH");
  expect_refused(f, ErrorCode::BadCompression, "MESH", "does not decompress");
}

TEST_P(CompressedRules, RawLengthMismatchIsRefused) {
  for (int delta : {-1, 1, 1000}) {
    auto f = file();
    std::size_t e = mesh_entry(f);
    put_u64(f, e + 24, static_cast<std::uint64_t>(static_cast<std::int64_t>(get_u64(f, e + 24)) + delta));
    expect_refused(f, ErrorCode::BadCompression, "MESH");
  }
}

TEST_P(CompressedRules, TruncatedStreamIsRefused) {
  // Cut the stream's tail, turning the cut bytes into padding (which must stay under 16).
  auto f = file();
  std::size_t e = mesh_entry(f);
  std::size_t off = get_u64(f, e + 8), len = get_u64(f, e + 16);
  std::size_t gap = (16 - (off + len) % 16) % 16;
  std::size_t cut = std::min<std::size_t>(5, 15 - gap);
  ASSERT_GE(cut, 1u);
  std::fill(f.begin() + static_cast<long>(off + len - cut), f.begin() + static_cast<long>(off + len), 0);
  put_u64(f, e + 16, len - cut);
  refresh_crc(f, "MESH");
  expect_refused(f, ErrorCode::BadCompression, "MESH");
}

TEST_P(CompressedRules, DeclaredLengthBeyondTheLimitIsRefusedBeforeAllocating) {
  auto f = file();
  std::size_t e = mesh_entry(f);
  put_u64(f, e + 24, std::uint64_t{1} << 40);
  expect_refused(f, ErrorCode::TooLarge, "MESH");
}

INSTANTIATE_TEST_SUITE_P(Methods, CompressedRules, ::testing::Values(p2l::Compression::Deflate, p2l::Compression::Zstd),
                         [](const auto& info) { return info.param == p2l::Compression::Deflate ? "Deflate" : "Zstd"; });

TEST(ReaderRules, CrcMismatchIsRefusedOnlyWhenVerificationIsAsked) {
  auto f = small_file();
  std::size_t e = entry_at(static_cast<std::size_t>(find_entry(f, "PARM")));
  put_u32(f, e + 32, get_u32(f, e + 32) ^ 0x10);
  EXPECT_TRUE(load(f, false));
  expect_refused(f, ErrorCode::CrcMismatch, "PARM", "fails its CRC");
}

TEST(ReaderRules, OffsetsBeyondTheAddressWidthAreRefusedNotTruncated) {
  std::uint32_t small = 0;
  EXPECT_TRUE(p2l::format::to_address<std::uint32_t>(0xFFFFFFFFull, small));
  EXPECT_EQ(small, 0xFFFFFFFFu);
  // 2^32 + 16 would truncate to 16 on a 32-bit reader, inside the table: it must be refused.
  EXPECT_FALSE(p2l::format::to_address<std::uint32_t>((std::uint64_t{1} << 32) + 16, small));
  std::size_t native = 0;
  EXPECT_TRUE(p2l::format::to_address<std::size_t>(std::uint64_t{1} << 40, native) || sizeof(std::size_t) < 8);
}

TEST(ReaderRules, ErrorsNameChunkOffsetAndExpectation) {
  auto f = small_file();
  std::size_t canv = chunk_offset(f, "CANV");
  put_u32(f, canv, 0x7F800000u);
  refresh_crc(f, "CANV");
  auto r = load(f);
  ASSERT_FALSE(r);
  std::string text = r.error.to_string();
  EXPECT_NE(text.find("chunk CANV"), std::string::npos) << text;
  EXPECT_NE(text.find("offset " + std::to_string(canv)), std::string::npos) << text;
  EXPECT_NE(text.find("expected a finite f32 for canvas width"), std::string::npos) << text;
}

TEST(ReaderRules, NoHalfBuiltHandleOnFailure) {
  auto f = small_file();
  f.resize(f.size() - 3);
  auto r = load(f);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.rig, nullptr);
}

}  // namespace
