// A Cubism 2 `.moc` file as the Cubism 2.1 runtime reads it (versions 6 to 11): the model's
// parameters, parts, deformers (warp and rotation) and meshes with their keyforms, as stored.
//
// The file is "moc", a version byte, then one serialised object graph, big-endian: each object
// is a compact type tag and its payload; every object read except a back-reference (tag 33, an
// index into the objects read so far, counted when each is complete, so an object's parts come
// before it) can be named again later. From version 8 four bytes 0x88 end the stream. The layouts
// are in ../shared/research/cubism-2.md section 2.1; docs/IMPORT.md ("Cubism 2 models") says
// how the reader was held against the Cubism 2.1 runtime.
//
// Nothing here trusts the file: every count is checked against the bytes left before anything
// is allocated for it, nesting is bounded, back-references must name an object already read
// of the kind the field takes, shared objects cannot expand past a budget set by the file's
// size, and each keyed object's arrays must agree with its keys, grid and vertex count. What is
// refused gets a message naming the object, the field and the byte offset.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "p2l/format.hpp"

namespace p2l::cubism2 {

// The versions the 2.1 runtime names (6, 7, 8: texture options and the end marker, 9,
// 10: keyform opacities of deformers and reflection flags, 11: clipping masks).
inline constexpr int kFirstVersion = 6;
inline constexpr int kLastVersion = 11;

// The id that names the root as a parent.
inline constexpr const char* kRootId = "DST_BASE";

// One parameter an object is keyed on, and its key values in ascending order.
struct KeyAxis {
  std::string parameter;
  std::vector<float> keys;
};
// An object's keyform index runs over its axes as a mixed-radix number, the first axis
// varying fastest.
using KeyAxes = std::vector<KeyAxis>;

struct ParameterDef {
  std::string id;
  float min = 0, max = 0, value = 0;  // value: the default
};

// A rotation deformer's keyform: origin in the parent's space, scale, angle in degrees.
struct AffineForm {
  float origin_x = 0, origin_y = 0, scale = 1, scale_y = 1, angle = 0;
  bool reflect_x = false, reflect_y = false;  // version 10 on
};

enum class DeformerKind : std::uint8_t { Warp, Rotation };

struct Deformer {
  DeformerKind kind = DeformerKind::Warp;
  std::string id, parent;  // parent: kRootId for the root
  KeyAxes axes;
  std::uint32_t rows = 0, columns = 0;      // warp: cells down and across
  std::vector<std::vector<float>> grids;    // warp, per keyform: (rows + 1)(columns + 1) points, x then y, row by row
  std::vector<AffineForm> affines;          // rotation, per keyform
  std::vector<float> opacities;             // per keyform, version 10 on (else none: 1)
};

// Blend modes of a mesh's options.
enum : std::uint8_t { kBlendNormal = 0, kBlendAdd = 1, kBlendMultiply = 2 };

struct Mesh {
  std::string id, parent;
  KeyAxes axes;
  std::int32_t average_draw_order = 0;         // an editor value; evaluation does not read it
  std::vector<std::int32_t> draw_orders;       // per keyform
  std::vector<float> opacities;                // per keyform
  std::vector<std::string> clip_ids;           // version 11: the meshes whose union masks this one
  std::int32_t texture = 0;
  std::uint32_t vertex_count = 0;
  std::vector<std::uint16_t> indices;          // three per triangle
  std::vector<std::vector<float>> positions;   // per keyform: x, y per vertex
  std::vector<float> uvs;                      // u, v per vertex, as stored (v downwards in the page)
  std::uint32_t options = 0;                   // version 8 on, as stored
  std::int32_t colour_group = -1;              // options bit 0
  std::uint8_t blend = kBlendNormal;           // options bits 1-4
  bool culling = true;                         // off with options bit 5
};

struct Part {
  std::string id;
  bool locked = false, visible = true;
  std::vector<Deformer> deformers;
  std::vector<Mesh> meshes;
};

struct Moc {
  int version = 0;
  // What the reader read differently from the file's letter, one line each (for the import
  // report): lists longer than their keys need, of which the runtime reads the first.
  std::vector<std::string> notes;
  std::vector<ParameterDef> parameters;
  std::vector<Part> parts;
  std::int32_t canvas_width = 0, canvas_height = 0;
};

// Reads [bytes] into [out]; false with [error] (code, offset, message) for anything refused.
bool read_moc(std::span<const std::uint8_t> bytes, Moc& out, Error& error);

// How many keyforms [axes] make: the product of their key counts (1 for none); 0 past 2^20.
std::uint32_t keyform_count(const KeyAxes& axes);

}  // namespace p2l::cubism2
