// Lays out a .moc3 file (versions 1-6) from per-slot arrays and the count table, as the
// Cubism Editor does: 64-byte header, 160-slot offset table (480 in version 6), zeroed runtime
// area of 8 bytes a slot up to the count table (at 1984; 5824 in version 6), the count table
// (128 bytes, 256 from version 5), the 64-byte canvas block, then every array
// of the version in slot order, each on a 64-byte boundary except ID arrays (which follow
// their runtime-space array directly), runtime spaces zero-filled at 8 bytes an element,
// empty arrays pointing where the next array would start, the file padded to 64 bytes.
//
// Written from shared/research/moc3.md sections 2.1-2.9 and 4.15 (not from p2lrt's reader,
// which it exists to check; version 6 checked against the spans of a real Editor 5.3 file). build() refuses an array whose length disagrees with its count entry.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace p2l_test::moc3w {

// Count-table entries (moc3.md section 2.4).
enum Count : std::uint8_t {
  kParts = 0, kDeformers, kWarps, kRotations, kArtMeshes, kParameters, kPartKeyforms, kWarpKeyforms,
  kRotationKeyforms, kArtMeshKeyforms, kKeyformPositions, kParameterBindingIndices, kKeyformBindings,
  kParameterBindings, kKeys, kUvs, kPositionIndices, kDrawableMasks, kDrawOrderGroups, kDrawOrderGroupObjects,
  kGlue, kGlueInfo, kGlueKeyforms,
  // version 4 (Cubism 4.2)
  kMultiplyColors, kScreenColors, kBlendShapeParameterBindings, kBlendShapeKeyformBindings, kBlendShapesWarps,
  kBlendShapesArtMeshes, kBlendShapeConstraintIndices, kBlendShapeConstraints, kBlendShapeConstraintValues,
  // version 5 (Cubism 5.0)
  kBlendShapesParts, kBlendShapesRotations, kBlendShapesGlue,
  // version 6 (Cubism 5.3)
  kOffscreens, kOffscreenKeyforms, kBlendShapesOffscreens,
  kCountEntries
};

struct Canvas {
  float pixels_per_unit = 1000, origin_x = 500, origin_y = 500, width = 1000, height = 1000;
  std::uint8_t flags = 0;
};

class Writer {
 public:
  explicit Writer(int version) : version_(version) {}

  void count(Count c, std::size_t n) { counts_[c] = static_cast<std::uint32_t>(n); }
  std::uint32_t count(Count c) const { return counts_[c]; }

  // One array for [slot]; its element type must be the slot's (checked by build()).
  void i32(int slot, const std::vector<std::int32_t>& v) { put(slot, 'i', v.data(), v.size() * 4); }
  void u32(int slot, const std::vector<std::uint32_t>& v) { put(slot, 'u', v.data(), v.size() * 4); }
  void f32(int slot, const std::vector<float>& v) { put(slot, 'f', v.data(), v.size() * 4); }
  void u16(int slot, const std::vector<std::uint16_t>& v) { put(slot, 's', v.data(), v.size() * 2); }
  void u8(int slot, const std::vector<std::uint8_t>& v) { put(slot, 'c', v.data(), v.size()); }
  void bool32(int slot, const std::vector<bool>& v);
  void ids(int slot, const std::vector<std::string>& v);

  // The file, or an empty vector and a message in [error] when an array is missing, of the
  // wrong type or length, or an ID does not fit in 63 bytes.
  std::vector<std::uint8_t> build(const Canvas& canvas, std::string& error) const;

 private:
  void put(int slot, char type, const void* data, std::size_t bytes);

  int version_;
  std::uint32_t counts_[kCountEntries]{};
  struct Array {
    char type;
    std::vector<std::uint8_t> bytes;
  };
  std::map<int, Array> arrays_;
  std::string id_error_;
};

}  // namespace p2l_test::moc3w
