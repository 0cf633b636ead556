// The objects of a moc3 (parts, deformers, art meshes, parameters, draw-order groups,
// glue) read into plain structs, with every index, range and count checked: after read()
// succeeds, an importer can follow any reference without a bounds check. Keyform values
// stay in the File; their ranges are checked here. moc3.md sections 4.1-4.10.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/moc3_bindings.hpp"
#include "import/moc3_file.hpp"
#include "p2l/import.hpp"

namespace p2l::moc3 {

struct KeyformRange {
  std::uint32_t binding = 0, first = 0, count = 0;  // count = the binding's key product
};

struct Part {
  std::string id;
  KeyformRange keyforms;
  bool visible = true, enabled = true;
  std::int32_t parent = -1;     // an earlier part
  std::int32_t offscreen = -1;  // version 6: the offscreen the part owns
};

// Version 6 (Cubism 5.3): a part drawn into a surface of its own, then composited. Its
// keyforms follow its owner part's binding: offscreen keyform keyforms.first + k goes with the
// part's keyform k. Without keyforms (the part's first keyform names none) it composites at
// opacity 1 with neutral colours.
struct Offscreen {
  std::uint32_t owner = 0;  // the part
  std::uint8_t flags = 0;   // as an art mesh's: bit2 double-sided, bit3 inverted mask
  std::uint8_t blend = 0, alpha_blend = 0;
  std::vector<std::uint32_t> masks;  // art meshes; -1 entries dropped
  bool keyed = false;
  KeyformRange keyforms;  // the owner's binding, the offscreen keyforms
};

struct Deformer {
  std::string id;
  bool warp = true;
  bool visible = true, enabled = true;
  std::int32_t parent_part = -1, parent = -1;  // parent: an earlier deformer
  std::uint32_t specific = 0;                  // row of the warp or rotation table
  KeyformRange keyforms;
  // Warps: cells and the interpolation of each cell (version 1: triangles).
  std::uint32_t rows = 0, columns = 0;
  bool bilinear = false;
  // Rotations.
  float base_angle = 0;
};

struct Mesh {
  std::string id;
  KeyformRange keyforms;
  bool visible = true, enabled = true;
  std::int32_t parent_part = -1, parent = -1;
  std::uint32_t texture = 0;
  std::uint8_t flags = 0;  // bit0 additive, bit1 multiplicative, bit2 double-sided, bit3 inverted mask
  std::uint8_t blend = 0, alpha_blend = 0;  // version 6's blend mode; before, from the flags
  std::uint32_t vertex_count = 0, first_uv = 0, first_index = 0, index_count = 0;
  std::vector<std::uint32_t> masks;  // -1 entries dropped
};

struct Parameter {
  std::string id;
  float min = 0, max = 0, default_value = 0;
  bool repeat = false, blend_shape = false;
  std::uint32_t decimals = 3;
};

struct DrawObject {
  bool part = false;
  std::uint32_t index = 0;
  std::int32_t group = -1;  // the group a part object owns
};
struct DrawGroup {
  std::vector<DrawObject> objects;
  std::uint32_t meshes_in_subtree = 0, max_order = 0, min_order = 0;
};

struct GluePair {
  std::uint32_t a = 0, b = 0;
  float weight_a = 0, weight_b = 0;
};
struct Glue {
  std::string id;
  KeyformRange keyforms;
  std::uint32_t mesh_a = 0, mesh_b = 0;
  std::vector<GluePair> pairs;
};

struct Objects {
  std::vector<Part> parts;
  std::vector<Deformer> deformers;
  std::vector<Mesh> meshes;
  std::vector<Parameter> parameters;
  std::vector<DrawGroup> draw_groups;
  std::vector<Glue> glues;
  std::vector<Offscreen> offscreens;
  // What the reader kept but p2lrt cannot honour (blend codes it does not know, bits of a
  // blend mode beyond its two bytes), for the import report.
  std::vector<std::string> notes;

  static bool read(const File& file, const Bindings& bindings, Objects& out, Error& error);
};

// A grid over the binding's axes (the first varies fastest, as in moc3 and p2lrt), one form
// per keyform of [k], made by form(global keyform index).
template <class F, class Form>
Grid<F> keyform_grid(const Bindings& bindings, const KeyformRange& k, Form form) {
  Grid<F> g;
  const auto axes = bindings.axes(k.binding);
  for (const auto& a : axes) g.axes.push_back({a.parameter, Array<float>(std::vector<float>(a.keys.begin(), a.keys.end()))});
  for (std::uint32_t local = 0; local < k.count; ++local) {
    std::uint32_t rest = local;
    for (const auto& a : axes) {
      g.coords.push_back(static_cast<std::uint16_t>(rest % a.keys.size()));
      rest /= static_cast<std::uint32_t>(a.keys.size());
    }
    g.forms.push_back(form(k.first + local));
  }
  return g;
}

// A mesh's UVs and triangles, with rest positions at zero: its keyforms hold absolute positions.
Geometry zero_rest_geometry(const File& f, const Mesh& m);
// What a p2lrt mesh takes from the moc's as it is: id, parent, blend mode, masks, culling
// (the flag byte's double-sided bit negated), texture page.
p2l::Mesh mesh_record(const Mesh& m);

// Cubism 5.3's blend codes: colour 0-17 (Normal ... Color), alpha 0-4 (Over ... DisjointOver).
inline constexpr std::uint8_t kColorBlends = 18, kAlphaBlends = 5;

// The moc3's draw-order groups as p2lrt's draw tree (rig.draw_groups, pre-order), with each
// group's minimum draw order as its floor when [floor_orders] (Cubism's rules). Reports groups
// no part owns.
void build_draw_tree(const Objects& o, bool floor_orders, Rig& rig, ImportReport& report);

}  // namespace p2l::moc3
