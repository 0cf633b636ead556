#include "csm/moc_data.hpp"

#include <algorithm>
#include <new>

#include "base/exceptions.hpp"
#include "eval/plan.hpp"
#include "import/moc3_bindings.hpp"
#include "import/moc3_file.hpp"
#include "import/moc3_objects.hpp"
#include "p2l/import.hpp"

namespace p2l::csm {
namespace {

using moc3::File;

// Slots the Core API reads as they are (../shared/research/moc3.md section 2.9).
constexpr std::size_t kMeshFirstMask = 47, kMeshMaskCount = 48, kMaskEntries = 80;
constexpr std::size_t kParameterFirstBinding = 56, kParameterBindingCount = 57;
constexpr std::size_t kBindingFirstKey = 75, kBindingKeyCount = 76, kKeyValues = 77;
constexpr std::size_t kParameterFirstKey = 103, kParameterKeyCount = 104;  // version 4 (Cubism 4.2) and later
constexpr std::size_t kUvs = 78, kIndices = 79;
constexpr std::size_t kOffscreenFirstMask = 158, kOffscreenMaskCount = 159;

// A parameter's keys: the file's own list from version 4 on (the sorted union of its bindings'
// keys, which is what older files get computed).
void parameter_keys(const File& f, std::uint32_t p, std::vector<float>& out) {
  const std::uint32_t keys = f.count(moc3::kKeys);
  auto in_range = [&](std::int32_t first, std::int32_t count) {
    return first >= 0 && count >= 0 && std::uint64_t(first) + std::uint64_t(count) <= keys;
  };
  if (f.has(kParameterFirstKey)) {
    const std::int32_t first = f.i32(kParameterFirstKey, p), count = f.i32(kParameterKeyCount, p);
    if (in_range(first, count))
      for (std::int32_t k = 0; k < count; ++k) out.push_back(f.f32(kKeyValues, static_cast<std::size_t>(first + k)));
    return;
  }
  const std::int32_t first = f.i32(kParameterFirstBinding, p), count = f.i32(kParameterBindingCount, p);
  const std::size_t start = out.size();
  // (the importer checked the binding ranges)
  for (std::int32_t q = first; count > 0 && q < first + count; ++q) {
    const std::int32_t k0 = f.i32(kBindingFirstKey, static_cast<std::size_t>(q));
    const std::int32_t n = f.i32(kBindingKeyCount, static_cast<std::size_t>(q));
    if (!in_range(k0, n)) continue;
    for (std::int32_t k = 0; k < n; ++k) out.push_back(f.f32(kKeyValues, static_cast<std::size_t>(k0 + k)));
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(start), out.end());
  out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(start), out.end()), out.end());
}

// A mask list; the importer checked the range and every entry. The Core leaves out the -1
// entries the Editor writes in a drawable's list, and keeps them in an offscreen's (Core 6.0.1).
void mask_list(const File& f, std::int32_t first, std::int32_t count, bool keep_none, std::vector<int>& out) {
  for (std::int32_t k = 0; k < count; ++k) {
    const std::int32_t mask = f.i32(kMaskEntries, static_cast<std::size_t>(first + k));
    if (mask != -1 || keep_none) out.push_back(mask);
  }
}

void build(std::span<const std::uint8_t> bytes, MocData& d, std::string& error) {
  ImportResult imported = import_moc3(bytes, {CoreRules::Cubism});
  if (!imported) {
    error = imported.error.to_string();
    return;
  }
  File f;
  moc3::Bindings bindings;
  moc3::Objects o;
  Error e;
  if (!File::open(bytes, f, e) || !moc3::Bindings::read(f, bindings, e) || !moc3::Objects::read(f, bindings, o, e)) {
    error = e.to_string();  // (the importer read the same file: not reached)
    return;
  }
  ModelResult made = Model::create(std::make_shared<const Rig>(std::move(imported.rig)));
  if (!made) {
    error = made.error.to_string();
    return;
  }
  d.model = made.model;
  const Rig& rig = d.model->rig();
  if (rig.meshes.size() != o.meshes.size() || rig.parameters.size() != o.parameters.size() ||
      rig.parts.size() != o.parts.size()) {
    error = "the imported model does not keep the moc3's objects one for one";
    return;
  }
  d.moc_version = static_cast<std::uint32_t>(f.version());
  const auto& canvas = f.canvas();
  d.canvas_size = {canvas.width, canvas.height};
  d.canvas_origin = {canvas.origin_x, canvas.origin_y};
  d.pixels_per_unit = canvas.pixels_per_unit;

  const std::size_t np = o.parameters.size();
  d.parameter_id_text.reserve(np);
  std::vector<std::size_t> key_start(np + 1, 0);
  for (std::uint32_t i = 0; i < np; ++i) {
    const moc3::Parameter& p = o.parameters[i];
    d.parameter_id_text.push_back(p.id);
    d.parameter_types.push_back(p.blend_shape ? csmParameterType_BlendShape : csmParameterType_Normal);
    d.parameter_min.push_back(p.min);
    d.parameter_max.push_back(p.max);
    d.parameter_default.push_back(p.default_value);
    d.parameter_repeats.push_back(p.repeat ? 1 : 0);
    key_start[i] = d.parameter_key_storage.size();
    parameter_keys(f, i, d.parameter_key_storage);
    d.parameter_key_counts.push_back(static_cast<int>(d.parameter_key_storage.size() - key_start[i]));
  }
  for (std::uint32_t i = 0; i < np; ++i) {
    d.parameter_ids.push_back(d.parameter_id_text[i].c_str());
    d.parameter_keys.push_back(d.parameter_key_storage.data() + key_start[i]);
  }

  const std::size_t parts = o.parts.size();
  d.part_id_text.reserve(parts);
  for (const moc3::Part& p : o.parts) {
    d.part_id_text.push_back(p.id);
    d.part_parents.push_back(p.parent);
    d.part_offscreens.push_back(p.offscreen);
    d.part_initial_opacity.push_back(p.visible ? 1.0f : 0.0f);
  }
  for (const std::string& id : d.part_id_text) d.part_ids.push_back(id.c_str());

  const std::size_t nd = o.meshes.size();
  d.drawable_id_text.reserve(nd);
  std::vector<std::size_t> uv_start, index_start, mask_start;
  for (std::uint32_t i = 0; i < nd; ++i) {
    const moc3::Mesh& m = o.meshes[i];
    d.drawable_id_text.push_back(m.id);
    // Core 6 gives every drawable a blend mode; before version 6 the flags' blend bits make it.
    d.drawable_flags.push_back(m.flags);
    d.drawable_blend_modes.push_back(f.has(153) ? f.i32(153, i) : (m.blend | (m.alpha_blend << 8)));
    d.drawable_textures.push_back(static_cast<int>(m.texture));
    d.drawable_parents.push_back(m.parent_part);
    d.drawable_vertex_counts.push_back(static_cast<int>(m.vertex_count));
    d.drawable_index_counts.push_back(static_cast<int>(m.index_count));
    uv_start.push_back(d.uv_storage.size());
    // The Core gives v flipped (1 - v): the file's v runs down the texture, the API's up.
    for (std::uint32_t k = 0; k < m.vertex_count; ++k) {
      d.uv_storage.push_back(f.f32(kUvs, m.first_uv + 2 * k));
      d.uv_storage.push_back(1.0f - f.f32(kUvs, m.first_uv + 2 * k + 1));
    }
    index_start.push_back(d.index_storage.size());
    // Each triangle with its first and last corner swapped, as the Core gives them: the flip of
    // y (model units point up) would otherwise turn the winding around.
    for (std::uint32_t k = 0; k + 2 < m.index_count; k += 3) {
      d.index_storage.push_back(f.u16(kIndices, m.first_index + k + 2));
      d.index_storage.push_back(f.u16(kIndices, m.first_index + k + 1));
      d.index_storage.push_back(f.u16(kIndices, m.first_index + k));
    }
    mask_start.push_back(d.mask_storage.size());
    const std::int32_t mask_count = f.i32(kMeshMaskCount, i);
    if (mask_count > 0) mask_list(f, f.i32(kMeshFirstMask, i), mask_count, false, d.mask_storage);
    d.drawable_mask_counts.push_back(static_cast<int>(d.mask_storage.size() - mask_start.back()));
  }
  const std::size_t no = o.offscreens.size();
  std::vector<std::size_t> offscreen_mask_start;
  for (std::uint32_t k = 0; k < no; ++k) {
    const moc3::Offscreen& x = o.offscreens[k];
    d.offscreen_owners.push_back(static_cast<int>(x.owner));
    d.offscreen_flags.push_back(x.flags);
    d.offscreen_blend_modes.push_back(f.i32(157, k));
    offscreen_mask_start.push_back(d.mask_storage.size());
    const std::int32_t mask_count = f.i32(kOffscreenMaskCount, k);
    if (mask_count > 0) mask_list(f, f.i32(kOffscreenFirstMask, k), mask_count, true, d.mask_storage);
    d.offscreen_mask_counts.push_back(static_cast<int>(d.mask_storage.size() - offscreen_mask_start.back()));
  }
  // Pointers only now: the storage no longer grows.
  for (std::uint32_t i = 0; i < nd; ++i) {
    d.drawable_ids.push_back(d.drawable_id_text[i].c_str());
    d.drawable_uvs.push_back(reinterpret_cast<const csmVector2*>(d.uv_storage.data() + uv_start[i]));
    d.drawable_indices.push_back(d.index_storage.data() + index_start[i]);
    d.drawable_masks.push_back(d.mask_storage.data() + mask_start[i]);
  }
  for (std::uint32_t k = 0; k < no; ++k) d.offscreen_masks.push_back(d.mask_storage.data() + offscreen_mask_start[k]);

  // The evaluator numbers offscreens by their parts in part order; the file may not.
  const auto& offscreen_parts = d.model->plan().cubism_plan.offscreen_parts;
  if (offscreen_parts.size() != no) {
    error = "the imported model has " + std::to_string(offscreen_parts.size()) + " isolated parts for the moc3's " +
            std::to_string(no) + " offscreens";
    return;
  }
  for (std::uint32_t k = 0; k < no; ++k) {
    const auto at = std::find(offscreen_parts.begin(), offscreen_parts.end(), static_cast<std::uint32_t>(d.offscreen_owners[k]));
    if (at == offscreen_parts.end()) {
      error = "offscreen " + std::to_string(k) + ": its part is not an isolated part of the imported model";
      return;
    }
    d.offscreen_slot.push_back(static_cast<std::uint32_t>(at - offscreen_parts.begin()));
  }
}

}  // namespace

std::uint32_t moc_version_of(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 64 || bytes[0] != 'M' || bytes[1] != 'O' || bytes[2] != 'C' || bytes[3] != '3') return 0;
  return bytes[4];
}

MocResult build_moc(std::span<const std::uint8_t> bytes) {
  MocResult result;
  P2L_TRY {
    auto d = std::make_shared<MocData>();
    build(bytes, *d, result.error);
    if (result.error.empty()) result.moc = std::move(d);
  }
  P2L_CATCH_ALL {
    result.moc.reset();
    result.error = "out of memory while reading the moc3";
  }
  return result;
}

}  // namespace p2l::csm
