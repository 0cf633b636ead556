// What the moc3 importer's stages share: the checked file and its objects, the rig being
// built, the report, and the conversions every stage needs (keyform grids and tables,
// model units to canvas pixels). One stage per file: moc3_import.cpp (objects),
// moc3_tables.cpp (colours composed down the deformer chain, hiding outside keyed
// ranges), moc3_shapes.cpp (blend shapes).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "import/keyed_table.hpp"
#include "import/moc3_bindings.hpp"
#include "import/moc3_blend.hpp"
#include "import/moc3_file.hpp"
#include "import/moc3_objects.hpp"
#include "p2l/import.hpp"

namespace p2l::moc3_slots {

// Keyform slots (moc3.md section 2.9).
inline constexpr std::size_t kPartOrder = 58, kWarpOpacity = 59, kWarpPositions = 60, kRotationOpacity = 61,
                             kRotationAngle = 62, kRotationX = 63, kRotationY = 64, kRotationScale = 65,
                             kRotationReflectX = 66, kRotationReflectY = 67, kMeshOpacity = 68, kMeshOrder = 69,
                             kMeshPositions = 70, kPositions = 71, kUvArray = 78, kIndexArray = 79, kGlueIntensity = 100;

}  // namespace p2l::moc3_slots

namespace p2l::moc3 {

using namespace moc3_slots;

struct Context {
  const File& f;
  const Bindings& bindings;
  const Objects& o;
  const BlendShapes& blend;
  const KeyformColors& colors;
  Rig& rig;
  ImportReport& report;
  // Per deformer: whether a rotation lies above it (its scale then inherits canvas pixels).
  std::vector<bool> rotation_above;
  // Per mesh: enabled by the flags of the mesh, its parts and its deformers (not by part
  // visibility, which only sets opacity).
  std::vector<bool> mesh_enabled;
  // Cells the composed channels (moc3_tables.cpp) may still make, all meshes together, so
  // that a hostile file cannot make the importer allocate without bound.
  std::size_t cell_budget = std::size_t{1} << 22;

  // A grid over the binding's axes (the first varies fastest, as in moc3 and p2lrt), one
  // form per keyform of [k] made by form(global keyform index).
  template <class F>
  Grid<F> grid(const KeyformRange& k, const std::function<F(std::uint32_t)>& form) const {
    return keyform_grid<F>(bindings, k, form);
  }

  // The same keyforms as a table of values.
  KeyedTable table(const KeyformRange& k, const std::function<Rgb(std::uint32_t)>& value) const {
    KeyedTable t;
    for (const auto& a : bindings.axes(k.binding)) t.axes.push_back({a.parameter, std::vector<float>(a.keys.begin(), a.keys.end())});
    for (std::uint32_t local = 0; local < k.count; ++local) t.values.push_back(value(k.first + local));
    return t;
  }

  // 2 * points floats of keyform [j]'s positions (slot 60 or 70), mapped to canvas pixels at
  // the root (moc space is y down in model units about the origin); [offset] false gives a
  // displacement (scaled, not moved), as blend-shape deltas need.
  Array<float> positions(std::size_t slot, std::uint32_t j, std::uint32_t points, bool root, bool offset = true) const;
  Rgb multiply_color(std::uint32_t entry) const { return {f.f32(108, entry), f.f32(109, entry), f.f32(110, entry)}; }
  Rgb screen_color(std::uint32_t entry) const { return {f.f32(111, entry), f.f32(112, entry), f.f32(113, entry)}; }
};

// The whole rig under Cubism's rules (moc3_cubism.cpp).
void build_cubism_rig(const File& f, const Bindings& b, const Objects& o, const BlendShapes& bs, const KeyformColors& kc,
                      ImportResult& result);

// The original rules' stages after the objects are built (rig.deformers, meshes, parts, glues filled).
void compose_mesh_tables(Context& c);  // mesh colours and opacity, glue intensity: moc3_tables.cpp
void add_blend_shapes(Context& c);     // moc3_shapes.cpp

}  // namespace p2l::moc3
