// The .moc3 container: header, section offset table, count table and canvas, with every
// array a version defines checked against the buffer before anything reads it.
//
// A moc3 file is the Cubism Core's memory image: after a 64-byte header, a table of u32
// file offsets ("slots"), each pointing at one field of one object kind for every object
// of that kind (structure of arrays); the count table says how many. Nothing here trusts
// the file: open() verifies the header, that every slot of the version lies inside the
// buffer for its element count (overflow-safe), the count table's bounds and consistency,
// and refuses what p2lrt does not read (big-endian files, versions other than 1-6) with a
// message naming the field. Readers then index arrays through at(), which bounds-checks.
// Layout facts: ../shared/research/moc3.md sections 2.1-2.9 and 4.15 (version 6).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "p2l/format.hpp"

namespace p2l::moc3 {

// Entries of the count table.
enum Count : std::uint8_t {
  kParts = 0, kDeformers, kWarps, kRotations, kArtMeshes, kParameters, kPartKeyforms, kWarpKeyforms,
  kRotationKeyforms, kArtMeshKeyforms, kKeyformPositions, kParameterBindingIndices, kKeyformBindings,
  kParameterBindings, kKeys, kUvs, kPositionIndices, kDrawableMasks, kDrawOrderGroups, kDrawOrderGroupObjects,
  kGlue, kGlueInfo, kGlueKeyforms, kMultiplyColors, kScreenColors, kBlendShapeParameterBindings,
  kBlendShapeKeyformBindings, kBlendShapesWarps, kBlendShapesArtMeshes, kBlendShapeConstraintIndices,
  kBlendShapeConstraints, kBlendShapeConstraintValues, kBlendShapesParts, kBlendShapesRotations, kBlendShapesGlue,
  // version 6 (Cubism 5.3)
  kOffscreens, kOffscreenKeyforms, kBlendShapesOffscreens,
  kCountEntries
};

// How a slot's elements are stored.
enum class Element : std::uint8_t { Runtime8, Id64, I32, U32, F32, Bool32, U8, U16 };
std::size_t element_size(Element e);

struct SlotSpec {
  std::uint8_t since;  // first moc version with the slot
  Element element;
  Count count;
};

// Slots 2..166 (versions 1-6); 0 and 1 are the count table and the canvas.
inline constexpr std::size_t kSlotCount = 167;
const SlotSpec& slot_spec(std::size_t slot);

struct Moc3Canvas {
  float pixels_per_unit = 0, origin_x = 0, origin_y = 0, width = 0, height = 0;
  std::uint8_t flags = 0;  // bit 0: y is already reversed
};

class File {
 public:
  // Checks and indexes [bytes] (kept by reference: they must outlive the File).
  static bool open(std::span<const std::uint8_t> bytes, File& out, Error& error);

  int version() const { return version_; }
  std::uint32_t count(Count c) const { return counts_[c]; }
  const Moc3Canvas& canvas() const { return canvas_; }
  // Whether this file's version has the slot.
  bool has(std::size_t slot) const { return slot < kSlotCount && slot_spec(slot).since <= version_; }

  // Element [i] of [slot]; the caller keeps i below the slot's count (readers loop over it).
  std::int32_t i32(std::size_t slot, std::size_t i) const { return read<std::int32_t>(slot, i); }
  std::uint32_t u32(std::size_t slot, std::size_t i) const { return read<std::uint32_t>(slot, i); }
  float f32(std::size_t slot, std::size_t i) const { return read<float>(slot, i); }
  bool bool32(std::size_t slot, std::size_t i) const { return read<std::uint32_t>(slot, i) != 0; }
  std::uint8_t u8(std::size_t slot, std::size_t i) const { return read<std::uint8_t>(slot, i); }
  std::uint16_t u16(std::size_t slot, std::size_t i) const { return read<std::uint16_t>(slot, i); }
  // A 64-byte ID field up to its terminator (open() checked there is one).
  std::string_view id(std::size_t slot, std::size_t i) const;

 private:
  template <class T>
  T read(std::size_t slot, std::size_t i) const {
    T v{};
    std::memcpy(&v, bytes_.data() + offsets_[slot] + i * sizeof(T), sizeof(T));
    return v;
  }

  std::span<const std::uint8_t> bytes_;
  int version_ = 0;
  std::uint32_t counts_[kCountEntries]{};
  std::uint32_t offsets_[kSlotCount]{};
  Moc3Canvas canvas_;
};

}  // namespace p2l::moc3
