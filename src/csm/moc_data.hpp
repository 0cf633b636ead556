// What one revived moc3 gives every model made from it: the compiled p2lrt model (the
// evaluator's input) and the constant arrays the Cubism Core API hands out, laid out as the
// Core's getters return them. Built once by csmReviveMocInPlace, immutable after, shared by
// its models (each holds a reference, so a model outlives the moc it came from).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "Live2DCubismCore.h"
#include "p2l/eval.hpp"

namespace p2l::csm {

struct MocData {
  std::shared_ptr<const Model> model;
  std::uint32_t moc_version = 0;
  csmVector2 canvas_size{}, canvas_origin{};
  float pixels_per_unit = 0;

  // Parameters.
  std::vector<std::string> parameter_id_text;
  std::vector<const char*> parameter_ids;
  std::vector<csmParameterType> parameter_types;
  std::vector<float> parameter_min, parameter_max, parameter_default;
  std::vector<int> parameter_repeats, parameter_key_counts;
  std::vector<float> parameter_key_storage;
  std::vector<const float*> parameter_keys;

  // Parts.
  std::vector<std::string> part_id_text;
  std::vector<const char*> part_ids;
  std::vector<int> part_parents, part_offscreens;
  std::vector<float> part_initial_opacity;

  // Drawables.
  std::vector<std::string> drawable_id_text;
  std::vector<const char*> drawable_ids;
  std::vector<csmFlags> drawable_flags;
  std::vector<int> drawable_blend_modes, drawable_textures, drawable_parents;
  std::vector<int> drawable_vertex_counts, drawable_index_counts, drawable_mask_counts;
  std::vector<float> uv_storage;
  std::vector<const csmVector2*> drawable_uvs;
  std::vector<unsigned short> index_storage;
  std::vector<const unsigned short*> drawable_indices;
  std::vector<int> mask_storage;  // every mask list (a drawable's without the file's -1 entries)
  std::vector<const int*> drawable_masks;

  // Offscreens (moc3 version 6), in the file's order.
  std::vector<int> offscreen_owners, offscreen_blend_modes, offscreen_mask_counts;
  std::vector<csmFlags> offscreen_flags;
  std::vector<const int*> offscreen_masks;
  // Offscreen k's place in the evaluator's render orders (after the drawables): its owner part's
  // position among the plan's offscreen parts.
  std::vector<std::uint32_t> offscreen_slot;

  std::size_t parameter_count() const { return parameter_ids.size(); }
  std::size_t part_count() const { return part_ids.size(); }
  std::size_t drawable_count() const { return drawable_ids.size(); }
  std::size_t offscreen_count() const { return offscreen_owners.size(); }
};

struct MocResult {
  std::shared_ptr<const MocData> moc;  // null on failure
  std::string error;                  // why, naming the field at fault
};

// Checks the moc3 completely (what p2lrt's importer checks: every offset, count, index and range)
// and builds its data. Nothing here throws; out of memory is reported as an error.
MocResult build_moc(std::span<const std::uint8_t> bytes);

// The moc3 header's version byte, 0 when the bytes do not start like a moc3.
std::uint32_t moc_version_of(std::span<const std::uint8_t> bytes);

}  // namespace p2l::csm
