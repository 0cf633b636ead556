// The Cubism Core API's per-model calls: update, canvas, and the getters of parameters, parts,
// drawables and offscreens (include/Live2DCubismCore.h). A getter returns a pointer into the
// model's own arrays (nothing is copied); a NULL or foreign model gives 0 or NULL.
#include <cstdint>
#include <cstring>

#include "Live2DCubismCore.h"
#include "base/exceptions.hpp"
#include "csm/log.hpp"
#include "csm/model_state.hpp"
#include "eval/state.hpp"

namespace {

using p2l::csm::MocData;
using p2l::csm::ModelHeader;
using p2l::csm::ModelState;

// The model a handle names: its buffer's header, checked.
ModelState* state_of(const csmModel* model) {
  if (!model) return nullptr;
  ModelHeader h;
  std::memcpy(&h, model, sizeof h);
  if (h.magic != p2l::csm::kModelMagic || h.check != (p2l::csm::kModelMagic ^ reinterpret_cast<std::uintptr_t>(h.state)))
    return nullptr;
  return h.state;
}

const MocData* moc_of(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? m->moc.get() : nullptr;
}

// A moc's constant array (NULL for an empty one, or a NULL or foreign model), and a model's own.
template <class T>
const T* moc_array(const csmModel* model, std::vector<T> MocData::*field) {
  const MocData* d = moc_of(model);
  return d && !(d->*field).empty() ? (d->*field).data() : nullptr;
}
template <class T>
T* model_array(const csmModel* model, std::vector<T> ModelState::*field) {
  ModelState* m = state_of(model);
  return m && !(m->*field).empty() ? (m->*field).data() : nullptr;
}
// The pointer tables (ids, keys, masks, UVs, indices) as the C API types them.
template <class T>
const T** moc_table(const csmModel* model, std::vector<const T*> MocData::*field) {
  return const_cast<const T**>(moc_array(model, field));
}
int count_of(const csmModel* model, std::size_t (MocData::*count)() const) {
  const MocData* d = moc_of(model);
  return d ? static_cast<int>((d->*count)()) : 0;
}

}  // namespace

extern "C" {

void csmUpdateModel(csmModel* model) {
  ModelState* m = state_of(model);
  if (!m) {
    p2l::csm::log_error("csmUpdateModel", "not a model made by csmInitializeModelInPlace");
    return;
  }
  p2l::csm::update(*m);
}

void csmResetDrawableDynamicFlags(csmModel* model) {
  if (ModelState* m = state_of(model)) p2l::csm::reset_flags(*m);
}

void csmReadCanvasInfo(const csmModel* model, csmVector2* outSizeInPixels, csmVector2* outOriginInPixels,
                       float* outPixelsPerUnit) {
  const MocData* d = moc_of(model);
  if (!d) return;
  if (outSizeInPixels) *outSizeInPixels = d->canvas_size;
  if (outOriginInPixels) *outOriginInPixels = d->canvas_origin;
  if (outPixelsPerUnit) *outPixelsPerUnit = d->pixels_per_unit;
}

// ---- Parameters ----

int csmGetParameterCount(const csmModel* model) { return count_of(model, &MocData::parameter_count); }
const char** csmGetParameterIds(const csmModel* model) { return moc_table(model, &MocData::parameter_ids); }
const csmParameterType* csmGetParameterTypes(const csmModel* model) { return moc_array(model, &MocData::parameter_types); }
const float* csmGetParameterMinimumValues(const csmModel* model) { return moc_array(model, &MocData::parameter_min); }
const float* csmGetParameterMaximumValues(const csmModel* model) { return moc_array(model, &MocData::parameter_max); }
const float* csmGetParameterDefaultValues(const csmModel* model) { return moc_array(model, &MocData::parameter_default); }
// The instance's own values: what the host writes is what the next update evaluates.
float* csmGetParameterValues(csmModel* model) {
  ModelState* m = state_of(model);
  if (!m || m->instance.parameters().empty()) return nullptr;
  return m->instance.parameters().data();
}
const int* csmGetParameterRepeats(const csmModel* model) { return moc_array(model, &MocData::parameter_repeats); }
const int* csmGetParameterKeyCounts(const csmModel* model) { return moc_array(model, &MocData::parameter_key_counts); }
const float** csmGetParameterKeyValues(const csmModel* model) { return moc_table(model, &MocData::parameter_keys); }

// ---- Parts ----

int csmGetPartCount(const csmModel* model) { return count_of(model, &MocData::part_count); }
const char** csmGetPartIds(const csmModel* model) { return moc_table(model, &MocData::part_ids); }
float* csmGetPartOpacities(csmModel* model) { return model_array(model, &ModelState::part_opacities); }
const int* csmGetPartParentPartIndices(const csmModel* model) { return moc_array(model, &MocData::part_parents); }
const int* csmGetPartOffscreenIndices(const csmModel* model) { return moc_array(model, &MocData::part_offscreens); }

// ---- Drawables ----

int csmGetDrawableCount(const csmModel* model) { return count_of(model, &MocData::drawable_count); }
const char** csmGetDrawableIds(const csmModel* model) { return moc_table(model, &MocData::drawable_ids); }
const csmFlags* csmGetDrawableConstantFlags(const csmModel* model) { return moc_array(model, &MocData::drawable_flags); }
const csmFlags* csmGetDrawableDynamicFlags(const csmModel* model) { return model_array(model, &ModelState::dynamic_flags); }
const int* csmGetDrawableBlendModes(const csmModel* model) { return moc_array(model, &MocData::drawable_blend_modes); }
const int* csmGetDrawableTextureIndices(const csmModel* model) { return moc_array(model, &MocData::drawable_textures); }
// Draw orders and opacities are the evaluator's own arrays, read in place.
const int* csmGetDrawableDrawOrders(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m && !m->instance.state().cubism.draw_orders.empty() ? m->instance.state().cubism.draw_orders.data() : nullptr;
}
const int* csmGetDrawableRenderOrders(const csmModel* model) { return model_array(model, &ModelState::drawable_render_orders); }
const float* csmGetDrawableOpacities(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m && !m->instance.state().opacity.empty() ? m->instance.state().opacity.data() : nullptr;
}
const int* csmGetDrawableMaskCounts(const csmModel* model) { return moc_array(model, &MocData::drawable_mask_counts); }
const int** csmGetDrawableMasks(const csmModel* model) { return moc_table(model, &MocData::drawable_masks); }
const int* csmGetDrawableVertexCounts(const csmModel* model) { return moc_array(model, &MocData::drawable_vertex_counts); }
const csmVector2** csmGetDrawableVertexPositions(const csmModel* model) {
  return const_cast<const csmVector2**>(model_array(model, &ModelState::vertex_positions));
}
const csmVector2** csmGetDrawableVertexUvs(const csmModel* model) { return moc_table(model, &MocData::drawable_uvs); }
const int* csmGetDrawableIndexCounts(const csmModel* model) { return moc_array(model, &MocData::drawable_index_counts); }
const unsigned short** csmGetDrawableIndices(const csmModel* model) { return moc_table(model, &MocData::drawable_indices); }
const csmVector4* csmGetDrawableMultiplyColors(const csmModel* model) { return model_array(model, &ModelState::multiply); }
const csmVector4* csmGetDrawableScreenColors(const csmModel* model) { return model_array(model, &ModelState::screen); }
const int* csmGetDrawableParentPartIndices(const csmModel* model) { return moc_array(model, &MocData::drawable_parents); }

// ---- Offscreens and render orders ----

int csmGetOffscreenCount(const csmModel* model) { return count_of(model, &MocData::offscreen_count); }
const int* csmGetOffscreenBlendModes(const csmModel* model) { return moc_array(model, &MocData::offscreen_blend_modes); }
const float* csmGetOffscreenOpacities(const csmModel* model) { return model_array(model, &ModelState::offscreen_opacity); }
const int* csmGetOffscreenOwnerIndices(const csmModel* model) { return moc_array(model, &MocData::offscreen_owners); }
const csmVector4* csmGetOffscreenMultiplyColors(const csmModel* model) {
  return model_array(model, &ModelState::offscreen_multiply);
}
const csmVector4* csmGetOffscreenScreenColors(const csmModel* model) { return model_array(model, &ModelState::offscreen_screen); }
const int* csmGetOffscreenMaskCounts(const csmModel* model) { return moc_array(model, &MocData::offscreen_mask_counts); }
const int** csmGetOffscreenMasks(const csmModel* model) { return moc_table(model, &MocData::offscreen_masks); }
const csmFlags* csmGetOffscreenConstantFlags(const csmModel* model) { return moc_array(model, &MocData::offscreen_flags); }
const int* csmGetRenderOrders(const csmModel* model) { return model_array(model, &ModelState::render_orders); }

}  // extern "C"
