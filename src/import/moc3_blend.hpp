// The moc3 4.2, 5.0 and 5.3 additions: keyform colours (multiply and screen) and blend shapes,
// read with every index checked (moc3.md sections 4.12 and 4.13).
//
// Colours: version 4 gives each warp, rotation and art mesh a first colour entry, and its
// local keyform k uses entry first + k; version 5 gives every keyform (regular or
// blend-shape) its own multiply and screen entries, which take precedence.
// Blend shapes: per target object, bindings of one blend-shape parameter's keys to delta
// keyforms in the target kind's keyform arrays, each weighted by constraints.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "import/moc3_file.hpp"
#include "import/moc3_objects.hpp"

namespace p2l::moc3 {

enum class Kind : std::uint8_t { Warp, Rotation, Mesh, Part, Glue, Offscreen };

struct Constraint {
  std::uint32_t parameter = 0;
  std::vector<std::array<float, 2>> points;  // (parameter value, weight)
};

struct BlendBinding {
  std::uint32_t parameter = 0;  // the blend-shape parameter owning the keys
  std::vector<float> keys;      // ascending
  std::uint32_t base = 0;       // the neutral key
  std::uint32_t first = 0;      // keyforms first .. first + keys.size() of the target kind
  std::vector<Constraint> constraints;
};

struct BlendShapes {
  // Per target, indexed like the target table: warp and rotation rows, meshes, parts, glue.
  std::vector<std::vector<BlendBinding>> warps, rotations, meshes, parts, glues, offscreens;
  bool any() const;
  static bool read(const File& file, const Objects& objects, BlendShapes& out, Error& error);
};

// Colour entries of every warp, rotation and mesh keyform (by global keyform index), or
// empty before version 4.
struct KeyformColors {
  std::vector<std::uint32_t> warp_multiply, warp_screen, rotation_multiply, rotation_screen, mesh_multiply, mesh_screen;
  std::vector<std::int32_t> offscreen_multiply, offscreen_screen;  // version 6; -1: neutral
  bool present() const { return !mesh_multiply.empty() || !warp_multiply.empty() || !rotation_multiply.empty(); }
  static bool read(const File& file, const Objects& objects, KeyformColors& out, Error& error);
};

}  // namespace p2l::moc3
