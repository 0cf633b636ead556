#include "import/moc3_file.hpp"

#include "format/record_reader.hpp"

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

namespace p2l::moc3 {
namespace {

using E = Element;

// Slot -> (first version, element, count entry), from moc3.md section 2.9.
constexpr SlotSpec kSlots[] = {
    {1, E::U32, kParts}, {1, E::U32, kParts},  // 0, 1: count table, canvas (not arrays)
    // 2-9 parts
    {1, E::Runtime8, kParts}, {1, E::Id64, kParts}, {1, E::I32, kParts}, {1, E::I32, kParts}, {1, E::I32, kParts},
    {1, E::Bool32, kParts}, {1, E::Bool32, kParts}, {1, E::I32, kParts},
    // 10-18 deformers
    {1, E::Runtime8, kDeformers}, {1, E::Id64, kDeformers}, {1, E::I32, kDeformers}, {1, E::Bool32, kDeformers},
    {1, E::Bool32, kDeformers}, {1, E::I32, kDeformers}, {1, E::I32, kDeformers}, {1, E::U32, kDeformers},
    {1, E::I32, kDeformers},
    // 19-24 warps
    {1, E::I32, kWarps}, {1, E::I32, kWarps}, {1, E::I32, kWarps}, {1, E::I32, kWarps}, {1, E::U32, kWarps},
    {1, E::U32, kWarps},
    // 25-28 rotations
    {1, E::I32, kRotations}, {1, E::I32, kRotations}, {1, E::I32, kRotations}, {1, E::F32, kRotations},
    // 29-48 art meshes
    {1, E::Runtime8, kArtMeshes}, {1, E::Runtime8, kArtMeshes}, {1, E::Runtime8, kArtMeshes},
    {1, E::Runtime8, kArtMeshes}, {1, E::Id64, kArtMeshes}, {1, E::I32, kArtMeshes}, {1, E::I32, kArtMeshes},
    {1, E::I32, kArtMeshes}, {1, E::Bool32, kArtMeshes}, {1, E::Bool32, kArtMeshes}, {1, E::I32, kArtMeshes},
    {1, E::I32, kArtMeshes}, {1, E::U32, kArtMeshes}, {1, E::U8, kArtMeshes}, {1, E::I32, kArtMeshes},
    {1, E::I32, kArtMeshes}, {1, E::I32, kArtMeshes}, {1, E::I32, kArtMeshes}, {1, E::I32, kArtMeshes},
    {1, E::I32, kArtMeshes},
    // 49-57 parameters
    {1, E::Runtime8, kParameters}, {1, E::Id64, kParameters}, {1, E::F32, kParameters}, {1, E::F32, kParameters},
    {1, E::F32, kParameters}, {1, E::Bool32, kParameters}, {1, E::U32, kParameters}, {1, E::I32, kParameters},
    {1, E::I32, kParameters},
    // 58 part keyforms; 59-60 warp keyforms; 61-67 rotation keyforms; 68-70 art-mesh keyforms
    {1, E::F32, kPartKeyforms}, {1, E::F32, kWarpKeyforms}, {1, E::I32, kWarpKeyforms},
    {1, E::F32, kRotationKeyforms}, {1, E::F32, kRotationKeyforms}, {1, E::F32, kRotationKeyforms},
    {1, E::F32, kRotationKeyforms}, {1, E::F32, kRotationKeyforms}, {1, E::Bool32, kRotationKeyforms},
    {1, E::Bool32, kRotationKeyforms}, {1, E::F32, kArtMeshKeyforms}, {1, E::F32, kArtMeshKeyforms},
    {1, E::I32, kArtMeshKeyforms},
    // 71 positions, 72 binding indices, 73-74 keyform bindings, 75-76 parameter bindings, 77 keys
    {1, E::F32, kKeyformPositions}, {1, E::I32, kParameterBindingIndices}, {1, E::I32, kKeyformBindings},
    {1, E::I32, kKeyformBindings}, {1, E::I32, kParameterBindings}, {1, E::I32, kParameterBindings},
    {1, E::F32, kKeys},
    // 78 UVs, 79 triangle indices, 80 masks
    {1, E::F32, kUvs}, {1, E::U16, kPositionIndices}, {1, E::I32, kDrawableMasks},
    // 81-85 draw-order groups, 86-88 their objects
    {1, E::I32, kDrawOrderGroups}, {1, E::I32, kDrawOrderGroups}, {1, E::I32, kDrawOrderGroups},
    {1, E::U32, kDrawOrderGroups}, {1, E::U32, kDrawOrderGroups}, {1, E::U32, kDrawOrderGroupObjects},
    {1, E::I32, kDrawOrderGroupObjects}, {1, E::I32, kDrawOrderGroupObjects},
    // 89-97 glue, 98-99 glue info, 100 glue keyforms
    {1, E::Runtime8, kGlue}, {1, E::Id64, kGlue}, {1, E::I32, kGlue}, {1, E::I32, kGlue}, {1, E::I32, kGlue},
    {1, E::I32, kGlue}, {1, E::I32, kGlue}, {1, E::I32, kGlue}, {1, E::I32, kGlue}, {1, E::F32, kGlueInfo},
    {1, E::U16, kGlueInfo}, {1, E::F32, kGlueKeyforms},
    // 101 (3.3) warp isQuadSource
    {2, E::Bool32, kWarps},
    // 102-104 (4.2) parameter key lists; 105-107 first colour entries; 108-113 colours
    {4, E::Runtime8, kParameters}, {4, E::I32, kParameters}, {4, E::I32, kParameters}, {4, E::I32, kWarps},
    {4, E::I32, kRotations}, {4, E::I32, kArtMeshes}, {4, E::F32, kMultiplyColors}, {4, E::F32, kMultiplyColors},
    {4, E::F32, kMultiplyColors}, {4, E::F32, kScreenColors}, {4, E::F32, kScreenColors}, {4, E::F32, kScreenColors},
    // 114-116 parameter type and blend-shape bindings; 117-119; 120-124
    {4, E::U32, kParameters}, {4, E::I32, kParameters}, {4, E::I32, kParameters},
    {4, E::I32, kBlendShapeParameterBindings}, {4, E::I32, kBlendShapeParameterBindings},
    {4, E::I32, kBlendShapeParameterBindings}, {4, E::I32, kBlendShapeKeyformBindings},
    {4, E::I32, kBlendShapeKeyformBindings}, {4, E::I32, kBlendShapeKeyformBindings},
    {4, E::I32, kBlendShapeKeyformBindings}, {4, E::I32, kBlendShapeKeyformBindings},
    // 125-130 blend shapes on warps and art meshes; 131 constraint indices; 132-134; 135-136
    {4, E::I32, kBlendShapesWarps}, {4, E::I32, kBlendShapesWarps}, {4, E::I32, kBlendShapesWarps},
    {4, E::I32, kBlendShapesArtMeshes}, {4, E::I32, kBlendShapesArtMeshes}, {4, E::I32, kBlendShapesArtMeshes},
    {4, E::I32, kBlendShapeConstraintIndices}, {4, E::I32, kBlendShapeConstraints},
    {4, E::I32, kBlendShapeConstraints}, {4, E::I32, kBlendShapeConstraints},
    {4, E::F32, kBlendShapeConstraintValues}, {4, E::F32, kBlendShapeConstraintValues},
    // 137-142 (5.0) keyform colour entries; 143-151 blend shapes on parts, rotations, glue
    {5, E::I32, kWarpKeyforms}, {5, E::I32, kWarpKeyforms}, {5, E::I32, kRotationKeyforms},
    {5, E::I32, kRotationKeyforms}, {5, E::I32, kArtMeshKeyforms}, {5, E::I32, kArtMeshKeyforms},
    {5, E::I32, kBlendShapesParts}, {5, E::I32, kBlendShapesParts}, {5, E::I32, kBlendShapesParts},
    {5, E::I32, kBlendShapesRotations}, {5, E::I32, kBlendShapesRotations}, {5, E::I32, kBlendShapesRotations},
    {5, E::I32, kBlendShapesGlue}, {5, E::I32, kBlendShapesGlue}, {5, E::I32, kBlendShapesGlue},
    // 152 (5.3) part -> offscreen, 153 art-mesh blend mode; 154-159 offscreens (mask runtime
    // space, owner part, flags, blend mode, first mask, mask count); 160 per part keyform its
    // offscreen keyform; 161-163 offscreen keyforms (opacity, colour entries); 164-166 blend
    // shapes on offscreens
    {6, E::I32, kParts}, {6, E::I32, kArtMeshes}, {6, E::Runtime8, kOffscreens}, {6, E::I32, kOffscreens},
    {6, E::U8, kOffscreens}, {6, E::I32, kOffscreens}, {6, E::I32, kOffscreens}, {6, E::I32, kOffscreens},
    {6, E::I32, kPartKeyforms}, {6, E::F32, kOffscreenKeyforms}, {6, E::I32, kOffscreenKeyforms},
    {6, E::I32, kOffscreenKeyforms}, {6, E::I32, kBlendShapesOffscreens}, {6, E::I32, kBlendShapesOffscreens},
    {6, E::I32, kBlendShapesOffscreens},
};

static_assert(std::size(kSlots) == kSlotCount, "one entry per slot 0..166");

constexpr std::size_t kHeaderSize = 64;
constexpr std::size_t kSlotTableSlots = 160;     // versions 1-5
constexpr std::size_t kSlotTableSlotsV6 = 480;   // version 6 (Cubism 5.3)
constexpr int kNewestVersion = 6;
constexpr std::size_t kCanvasSize = 64;
constexpr std::uint32_t kCountLimit = 0x80000000u;
constexpr float kMaxMagnitude = 1e12f;

// Count entries each version defines (the rest read as zero).
std::size_t count_entries(int version) {
  return version >= 6 ? kCountEntries : version == 5 ? kOffscreens : version == 4 ? kBlendShapesParts : kMultiplyColors;
}

const char* count_name(Count c) {
  static const char* const names[kCountEntries] = {
      "parts", "deformers", "warp deformers", "rotation deformers", "art meshes", "parameters", "part keyforms",
      "warp keyforms", "rotation keyforms", "art-mesh keyforms", "keyform positions", "parameter-binding indices",
      "keyform bindings", "parameter bindings", "keys", "UVs", "triangle indices", "mask entries",
      "draw-order groups", "draw-order group objects", "glue", "glue info", "glue keyforms", "multiply colours",
      "screen colours", "blend-shape parameter bindings", "blend-shape keyform bindings", "warp blend shapes",
      "art-mesh blend shapes", "blend-shape constraint indices", "blend-shape constraints",
      "blend-shape constraint values", "part blend shapes", "rotation blend shapes", "glue blend shapes",
      "offscreens", "offscreen keyforms", "offscreen blend shapes"};
  return names[c];
}

std::uint32_t get_u32(std::span<const std::uint8_t> b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

bool fail(Error& error, ErrorCode code, std::int64_t offset, std::string message) {
  error = Error{code, "moc3", offset, false, std::move(message)};
  return false;
}

}  // namespace

std::size_t element_size(Element e) {
  switch (e) {
    case Element::Runtime8: return 8;
    case Element::Id64: return 64;
    case Element::U8: return 1;
    case Element::U16: return 2;
    default: return 4;
  }
}

const SlotSpec& slot_spec(std::size_t slot) { return kSlots[slot]; }

bool File::open(std::span<const std::uint8_t> bytes, File& out, Error& error) {
  out = File{};
  const std::size_t size = bytes.size();
  if (size >= 4 && std::memcmp(bytes.data(), "moc", 3) == 0 && bytes[3] <= 11)
    return fail(error, ErrorCode::NotP2lrt, 0,
                "a Cubism 2 .moc (version " + std::to_string(bytes[3]) +
                    "), not a .moc3: p2l::import_cubism (p2lrt import) imports a Cubism 2 .moc");
  if (size < 4 || std::memcmp(bytes.data(), "MOC3", 4) != 0)
    return fail(error, ErrorCode::NotP2lrt, 0, "not a .moc3 file: it does not start with \"MOC3\"");
  if (size < kHeaderSize + kSlotTableSlots * 4)
    return fail(error, ErrorCode::Truncated, 0,
                "the file ends at " + std::to_string(size) + " bytes, inside the header and section table (" +
                    std::to_string(kHeaderSize + kSlotTableSlots * 4) + " bytes)");
  const int version = bytes[4];
  if (version < 1 || version > kNewestVersion)
    return fail(error, ErrorCode::UnsupportedVersion, 4,
                "moc3 version " + std::to_string(version) +
                    " is not supported: p2lrt reads versions 1-6 (Cubism 3.0-5.3)" +
                    (version > kNewestVersion ? "; this file comes from a newer Cubism Editor" : ""));
  const std::size_t table_slots = version >= 6 ? kSlotTableSlotsV6 : kSlotTableSlots;
  if (size < kHeaderSize + table_slots * 4)
    return fail(error, ErrorCode::Truncated, 0,
                "the file ends at " + std::to_string(size) + " bytes, inside the version " + std::to_string(version) +
                    " section table (" + std::to_string(kHeaderSize + table_slots * 4) + " bytes)");
  if (bytes[5] != 0)
    return fail(error, ErrorCode::UnsupportedVersion, 5, "big-endian moc3 files are not supported");
  out.version_ = version;
  out.bytes_ = bytes;
  // Slots past the version's table (160 slots before version 6) are never read: has() says so.
  for (std::size_t s = 0; s < kSlotCount && s < table_slots; ++s) out.offsets_[s] = get_u32(bytes, kHeaderSize + s * 4);

  // The count table, then the canvas block.
  const std::uint32_t counts_at = out.offsets_[0];
  const std::size_t entries = count_entries(version);
  if (counts_at > size || size - counts_at < entries * 4)
    return fail(error, ErrorCode::Truncated, kHeaderSize,
                "the count table at offset " + std::to_string(counts_at) + " needs " + std::to_string(entries * 4) +
                    " bytes; the file has " + std::to_string(size));
  for (std::size_t c = 0; c < entries; ++c) {
    const std::uint32_t n = get_u32(bytes, counts_at + c * 4);
    if (n >= kCountLimit)
      return fail(error, ErrorCode::TooLarge, static_cast<std::int64_t>(counts_at + c * 4),
                  std::string("count of ") + count_name(static_cast<Count>(c)) + " is " + std::to_string(n) +
                      ", beyond 2^31");
    out.counts_[c] = n;
  }
  if (std::uint64_t{out.counts_[kWarps]} + out.counts_[kRotations] != out.counts_[kDeformers])
    return fail(error, ErrorCode::BadStructure, counts_at + kDeformers * 4,
                std::to_string(out.counts_[kDeformers]) + " deformers, but " + std::to_string(out.counts_[kWarps]) +
                    " warps and " + std::to_string(out.counts_[kRotations]) + " rotations");
  const std::uint32_t canvas_at = out.offsets_[1];
  if (canvas_at > size || size - canvas_at < kCanvasSize)
    return fail(error, ErrorCode::Truncated, kHeaderSize + 4,
                "the canvas block at offset " + std::to_string(canvas_at) + " runs past the end of the file");
  float c[5];
  std::memcpy(c, bytes.data() + canvas_at, sizeof c);
  out.canvas_ = {c[0], c[1], c[2], c[3], c[4], bytes[canvas_at + 20]};
  for (float v : c)
    if (!(std::fabs(v) <= kMaxMagnitude))
      return fail(error, ErrorCode::NonFinite, canvas_at, "the canvas holds " + std::to_string(v) +
                                                             "; expected finite numbers within ±1e12");

  // Every array of the version inside the file, whatever its count claims.
  for (std::size_t s = 2; s < kSlotCount; ++s) {
    const SlotSpec& spec = kSlots[s];
    if (spec.since > version) continue;
    const std::uint64_t n = out.counts_[spec.count];
    if (n == 0) continue;  // an empty array's offset is meaningless (often the end of the file)
    const std::uint64_t need = n * element_size(spec.element);
    const std::uint64_t at = out.offsets_[s];
    if (at > size || size - at < need)
      return fail(error, ErrorCode::Truncated, static_cast<std::int64_t>(kHeaderSize + s * 4),
                  "section slot " + std::to_string(s) + " (" + count_name(spec.count) + ", " + std::to_string(n) +
                      " elements) at offset " + std::to_string(at) + " needs " + std::to_string(need) +
                      " bytes; the file has " + std::to_string(size));
    // p2lrt holds finite numbers only (moc3.md section 7, item 6), and the importer forms
    // products of them (positions times pixels per unit, colours down a chain): values
    // beyond kMaxMagnitude, which no Cubism quantity comes near, are refused as well.
    if (spec.element == Element::F32)
      for (std::uint64_t i = 0; i < n; ++i) {
        float v;
        std::memcpy(&v, bytes.data() + at + i * 4, 4);
        if (!(std::fabs(v) <= kMaxMagnitude))
          return fail(error, ErrorCode::NonFinite, static_cast<std::int64_t>(at + i * 4),
                      "element " + std::to_string(i) + " of section slot " + std::to_string(s) + " (" +
                          count_name(spec.count) + ") is " + std::to_string(v) + "; expected a finite number within ±1e12");
      }
    if (spec.element == Element::Id64)
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint8_t* field = bytes.data() + at + i * 64;
        if (std::memchr(field, 0, 64) == nullptr)
          return fail(error, ErrorCode::BadString, static_cast<std::int64_t>(at + i * 64),
                      std::string("ID ") + std::to_string(i) + " of the " + count_name(spec.count) +
                          " has no terminator within its 64 bytes");
        if (!format::valid_utf8({reinterpret_cast<const char*>(field), ::strnlen(reinterpret_cast<const char*>(field), 64)}))
          return fail(error, ErrorCode::BadString, static_cast<std::int64_t>(at + i * 64),
                      std::string("ID ") + std::to_string(i) + " of the " + count_name(spec.count) + " is not UTF-8");
      }
  }
  return true;
}

std::string_view File::id(std::size_t slot, std::size_t i) const {
  const char* field = reinterpret_cast<const char*>(bytes_.data() + offsets_[slot] + i * 64);
  return {field, ::strnlen(field, 64)};
}

}  // namespace p2l::moc3
