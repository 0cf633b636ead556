#include "moc3_writer.hpp"

#include <cstring>

namespace p2l_test::moc3w {
namespace {

// One slot of moc3.md section 2.9: first version, element type, count entry.
// Types: r runtime space (8 zero bytes an element), d ID (char[64]), i i32, u u32, f f32,
// b bool32, s u16, c u8.
struct Slot {
  int since;
  char type;
  Count count;
};

// Slots 2..166 (version 1 up to version 6); slot 0 is the count table, slot 1 the canvas.
constexpr Slot kSlots[] = {
    // 2-9 parts: runtime, ID, keyform binding, first keyform, keyform count, visible, enabled, parent
    {1, 'r', kParts}, {1, 'd', kParts}, {1, 'i', kParts}, {1, 'i', kParts}, {1, 'i', kParts}, {1, 'b', kParts},
    {1, 'b', kParts}, {1, 'i', kParts},
    // 10-18 deformers: runtime, ID, binding, visible, enabled, parent part, parent deformer, type, row
    {1, 'r', kDeformers}, {1, 'd', kDeformers}, {1, 'i', kDeformers}, {1, 'b', kDeformers}, {1, 'b', kDeformers},
    {1, 'i', kDeformers}, {1, 'i', kDeformers}, {1, 'u', kDeformers}, {1, 'i', kDeformers},
    // 19-24 warps: binding, first keyform, keyform count, point count, rows, columns
    {1, 'i', kWarps}, {1, 'i', kWarps}, {1, 'i', kWarps}, {1, 'i', kWarps}, {1, 'u', kWarps}, {1, 'u', kWarps},
    // 25-28 rotations: binding, first keyform, keyform count, base angle
    {1, 'i', kRotations}, {1, 'i', kRotations}, {1, 'i', kRotations}, {1, 'f', kRotations},
    // 29-48 art meshes: 4 runtime spaces, ID, binding, first keyform, keyform count, visible, enabled,
    // parent part, parent deformer, texture, flags, vertex count, first UV, first index, index count,
    // first mask, mask count
    {1, 'r', kArtMeshes}, {1, 'r', kArtMeshes}, {1, 'r', kArtMeshes}, {1, 'r', kArtMeshes}, {1, 'd', kArtMeshes},
    {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes}, {1, 'b', kArtMeshes}, {1, 'b', kArtMeshes},
    {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes}, {1, 'u', kArtMeshes}, {1, 'c', kArtMeshes}, {1, 'i', kArtMeshes},
    {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes}, {1, 'i', kArtMeshes},
    // 49-57 parameters: runtime, ID, max, min, default, repeat, decimals, first binding, binding count
    {1, 'r', kParameters}, {1, 'd', kParameters}, {1, 'f', kParameters}, {1, 'f', kParameters},
    {1, 'f', kParameters}, {1, 'b', kParameters}, {1, 'u', kParameters}, {1, 'i', kParameters},
    {1, 'i', kParameters},
    // 58 part keyform draw order; 59-60 warp keyform opacity, first position
    {1, 'f', kPartKeyforms}, {1, 'f', kWarpKeyforms}, {1, 'i', kWarpKeyforms},
    // 61-67 rotation keyforms: opacity, angle, origin x, origin y, scale, reflect x, reflect y
    {1, 'f', kRotationKeyforms}, {1, 'f', kRotationKeyforms}, {1, 'f', kRotationKeyforms},
    {1, 'f', kRotationKeyforms}, {1, 'f', kRotationKeyforms}, {1, 'b', kRotationKeyforms},
    {1, 'b', kRotationKeyforms},
    // 68-70 art-mesh keyforms: opacity, draw order, first position
    {1, 'f', kArtMeshKeyforms}, {1, 'f', kArtMeshKeyforms}, {1, 'i', kArtMeshKeyforms},
    // 71 positions; 72 binding-index list; 73-74 keyform bindings; 75-76 parameter bindings; 77 keys
    {1, 'f', kKeyformPositions}, {1, 'i', kParameterBindingIndices}, {1, 'i', kKeyformBindings},
    {1, 'i', kKeyformBindings}, {1, 'i', kParameterBindings}, {1, 'i', kParameterBindings}, {1, 'f', kKeys},
    // 78 UVs; 79 triangle indices; 80 mask entries
    {1, 'f', kUvs}, {1, 's', kPositionIndices}, {1, 'i', kDrawableMasks},
    // 81-85 draw-order groups: first object, object count, meshes in subtree, maximum, minimum
    {1, 'i', kDrawOrderGroups}, {1, 'i', kDrawOrderGroups}, {1, 'i', kDrawOrderGroups}, {1, 'u', kDrawOrderGroups},
    {1, 'u', kDrawOrderGroups},
    // 86-88 group objects: type, index, owned group
    {1, 'u', kDrawOrderGroupObjects}, {1, 'i', kDrawOrderGroupObjects}, {1, 'i', kDrawOrderGroupObjects},
    // 89-97 glue: runtime, ID, binding, first keyform, keyform count, mesh A, mesh B, first info, info count
    {1, 'r', kGlue}, {1, 'd', kGlue}, {1, 'i', kGlue}, {1, 'i', kGlue}, {1, 'i', kGlue}, {1, 'i', kGlue},
    {1, 'i', kGlue}, {1, 'i', kGlue}, {1, 'i', kGlue},
    // 98-99 glue info: weight, vertex; 100 glue keyform intensity
    {1, 'f', kGlueInfo}, {1, 's', kGlueInfo}, {1, 'f', kGlueKeyforms},
    // 101 (version 2) warp isQuadSource
    {2, 'b', kWarps},
    // 102-104 (version 4) parameter key lists: runtime, first key, key count
    {4, 'r', kParameters}, {4, 'i', kParameters}, {4, 'i', kParameters},
    // 105-107 first colour entry of warps, rotations, art meshes; 108-113 multiply RGB, screen RGB
    {4, 'i', kWarps}, {4, 'i', kRotations}, {4, 'i', kArtMeshes}, {4, 'f', kMultiplyColors},
    {4, 'f', kMultiplyColors}, {4, 'f', kMultiplyColors}, {4, 'f', kScreenColors}, {4, 'f', kScreenColors},
    {4, 'f', kScreenColors},
    // 114-116 parameter type, first blend-shape parameter binding, count
    {4, 'u', kParameters}, {4, 'i', kParameters}, {4, 'i', kParameters},
    // 117-119 blend-shape parameter bindings: first key, key count, base key
    {4, 'i', kBlendShapeParameterBindings}, {4, 'i', kBlendShapeParameterBindings},
    {4, 'i', kBlendShapeParameterBindings},
    // 120-124 blend-shape keyform bindings: parameter binding, first keyform, keyform count, first
    // constraint index, constraint index count
    {4, 'i', kBlendShapeKeyformBindings}, {4, 'i', kBlendShapeKeyformBindings},
    {4, 'i', kBlendShapeKeyformBindings}, {4, 'i', kBlendShapeKeyformBindings},
    {4, 'i', kBlendShapeKeyformBindings},
    // 125-127 blend shapes on warps, 128-130 on art meshes: target, first keyform binding, count
    {4, 'i', kBlendShapesWarps}, {4, 'i', kBlendShapesWarps}, {4, 'i', kBlendShapesWarps},
    {4, 'i', kBlendShapesArtMeshes}, {4, 'i', kBlendShapesArtMeshes}, {4, 'i', kBlendShapesArtMeshes},
    // 131 constraint indices; 132-134 constraints: parameter, first value, value count; 135-136 values
    {4, 'i', kBlendShapeConstraintIndices}, {4, 'i', kBlendShapeConstraints}, {4, 'i', kBlendShapeConstraints},
    {4, 'i', kBlendShapeConstraints}, {4, 'f', kBlendShapeConstraintValues},
    {4, 'f', kBlendShapeConstraintValues},
    // 137-142 (version 5) multiply and screen colour entry of every warp, rotation and art-mesh
    // keyform (regular and blend-shape keyforms alike)
    {5, 'i', kWarpKeyforms}, {5, 'i', kWarpKeyforms}, {5, 'i', kRotationKeyforms}, {5, 'i', kRotationKeyforms},
    {5, 'i', kArtMeshKeyforms}, {5, 'i', kArtMeshKeyforms},
    // 143-145 blend shapes on parts, 146-148 on rotations, 149-151 on glue: target, first keyform
    // binding, count
    {5, 'i', kBlendShapesParts}, {5, 'i', kBlendShapesParts}, {5, 'i', kBlendShapesParts},
    {5, 'i', kBlendShapesRotations}, {5, 'i', kBlendShapesRotations}, {5, 'i', kBlendShapesRotations},
    {5, 'i', kBlendShapesGlue}, {5, 'i', kBlendShapesGlue}, {5, 'i', kBlendShapesGlue},
    // 152 (version 6) part -> offscreen (-1 none); 153 art-mesh blend mode (colour | alpha << 8)
    {6, 'i', kParts}, {6, 'i', kArtMeshes},
    // 154-159 offscreens: runtime (mask list pointers), owner part, constant flags, blend mode,
    // first mask entry, mask entry count
    {6, 'r', kOffscreens}, {6, 'i', kOffscreens}, {6, 'c', kOffscreens}, {6, 'i', kOffscreens},
    {6, 'i', kOffscreens}, {6, 'i', kOffscreens},
    // 160 per part keyform: its offscreen keyform (-1 when the part owns none)
    {6, 'i', kPartKeyforms},
    // 161-163 offscreen keyforms: opacity, multiply colour entry, screen colour entry
    {6, 'f', kOffscreenKeyforms}, {6, 'i', kOffscreenKeyforms}, {6, 'i', kOffscreenKeyforms},
    // 164-166 blend shapes on offscreens: target, first blend-shape keyform binding, count
    {6, 'i', kBlendShapesOffscreens}, {6, 'i', kBlendShapesOffscreens}, {6, 'i', kBlendShapesOffscreens},
};
constexpr int kFirstSlot = 2;
constexpr int kLastSlot = kFirstSlot + static_cast<int>(std::size(kSlots)) - 1;
static_assert(kLastSlot == 166, "slots 2..166");

constexpr std::size_t kHeaderSize = 64, kCanvasSize = 64, kAlign = 64;

// The offset table holds 160 slots up to version 5 and 480 in version 6; an 8-byte runtime
// slot per table slot follows it (zero in the file), then the count table: at 64 + 160 x 12 =
// 1984, or 64 + 480 x 12 = 5824 in version 6 (moc3.md sections 2.2-2.3, 4.15).
std::size_t table_slots(int version) { return version >= 6 ? 480 : 160; }
std::size_t count_table_at(int version) { return kHeaderSize + table_slots(version) * 12; }

// The count table grew from 128 to 256 bytes in version 5 (moc3.md section 2.4), which moves
// the canvas block and everything after it.
std::size_t count_table_size(int version) { return version >= 5 ? 256 : 128; }
std::size_t count_entries(int version) {
  return version >= 6 ? kCountEntries : version == 5 ? kOffscreens : version == 4 ? kBlendShapesParts : kGlueKeyforms + 1;
}

std::size_t element_size(char type) {
  switch (type) {
    case 'r': return 8;
    case 'd': return 64;
    case 's': return 2;
    case 'c': return 1;
    default: return 4;
  }
}

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

}  // namespace

void Writer::put(int slot, char type, const void* data, std::size_t bytes) {
  Array& a = arrays_[slot];
  a.type = type;
  a.bytes.resize(bytes);
  if (bytes != 0) std::memcpy(a.bytes.data(), data, bytes);
}

void Writer::bool32(int slot, const std::vector<bool>& v) {
  std::vector<std::uint32_t> words(v.begin(), v.end());
  put(slot, 'b', words.data(), words.size() * 4);
}

void Writer::ids(int slot, const std::vector<std::string>& v) {
  std::vector<std::uint8_t> bytes(v.size() * 64, 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].size() >= 64) id_error_ = "ID \"" + v[i] + "\" does not fit in 63 bytes";
    else std::memcpy(bytes.data() + i * 64, v[i].data(), v[i].size());
  }
  put(slot, 'd', bytes.data(), bytes.size());
}

std::vector<std::uint8_t> Writer::build(const Canvas& canvas, std::string& error) const {
  if (!id_error_.empty()) {
    error = id_error_;
    return {};
  }
  if (version_ < 1 || version_ > 6) {
    error = "the writer lays out versions 1-6 only";
    return {};
  }
  const std::size_t entries = count_entries(version_), table_size = count_table_size(version_);
  const std::size_t slots = table_slots(version_), count_at = count_table_at(version_);
  for (const auto& [slot, array] : arrays_)
    if (slot < kFirstSlot || slot > kLastSlot || kSlots[slot - kFirstSlot].since > version_) {
      error = "slot " + std::to_string(slot) + " is not part of moc3 version " + std::to_string(version_);
      return {};
    }

  std::vector<std::uint8_t> b(count_at + table_size + kCanvasSize, 0);
  std::memcpy(b.data(), "MOC3", 4);
  b[4] = static_cast<std::uint8_t>(version_);  // b[5] = 0: little endian
  put32(b, kHeaderSize, static_cast<std::uint32_t>(count_at));
  put32(b, kHeaderSize + 4, static_cast<std::uint32_t>(count_at + table_size));
  for (std::size_t c = 0; c < entries; ++c) put32(b, count_at + c * 4, counts_[c]);
  const std::size_t canvas_at = count_at + table_size;
  const float info[5] = {canvas.pixels_per_unit, canvas.origin_x, canvas.origin_y, canvas.width, canvas.height};
  std::memcpy(b.data() + canvas_at, info, sizeof info);
  b[canvas_at + 20] = canvas.flags;

  auto align = [&] { b.resize((b.size() + kAlign - 1) / kAlign * kAlign, 0); };
  std::vector<std::uint32_t> offsets(slots, 0);
  for (int slot = kFirstSlot; slot <= kLastSlot; ++slot) {
    const Slot& spec = kSlots[slot - kFirstSlot];
    if (spec.since > version_) continue;
    const std::size_t bytes = std::size_t{counts_[spec.count]} * element_size(spec.type);
    if (spec.type != 'd') align();  // IDs follow their runtime space directly
    offsets[static_cast<std::size_t>(slot)] = static_cast<std::uint32_t>(b.size());
    if (spec.type == 'r') {
      b.resize(b.size() + bytes, 0);
      continue;
    }
    const auto it = arrays_.find(slot);
    if (it == arrays_.end() && bytes == 0) continue;
    if (it == arrays_.end() || it->second.type != spec.type || it->second.bytes.size() != bytes) {
      error = "slot " + std::to_string(slot) + ": expected " + std::to_string(bytes) + " bytes of type '" +
              spec.type + "' (count entry " + std::to_string(spec.count) + " = " +
              std::to_string(counts_[spec.count]) + ")";
      if (it != arrays_.end())
        error += ", got " + std::to_string(it->second.bytes.size()) + " of type '" + it->second.type + "'";
      return {};
    }
    b.insert(b.end(), it->second.bytes.begin(), it->second.bytes.end());
  }
  align();
  for (std::size_t s = kFirstSlot; s < slots; ++s) put32(b, kHeaderSize + s * 4, offsets[s]);
  return b;
}

}  // namespace p2l_test::moc3w
