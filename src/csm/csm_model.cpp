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

const p2l::csm::MocData* moc_of(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? m->moc.get() : nullptr;
}

template <class T>
T* data_or_null(std::vector<T>& v) {
  return v.empty() ? nullptr : v.data();
}
template <class T>
const T* data_or_null(const std::vector<T>& v) {
  return v.empty() ? nullptr : v.data();
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
  const p2l::csm::MocData* d = moc_of(model);
  if (!d) return;
  if (outSizeInPixels) *outSizeInPixels = d->canvas_size;
  if (outOriginInPixels) *outOriginInPixels = d->canvas_origin;
  if (outPixelsPerUnit) *outPixelsPerUnit = d->pixels_per_unit;
}

// ---- Parameters ----

int csmGetParameterCount(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? static_cast<int>(d->parameter_ids.size()) : 0;
}
const char** csmGetParameterIds(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const char**>(data_or_null(d->parameter_ids)) : nullptr;
}
const csmParameterType* csmGetParameterTypes(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->parameter_types) : nullptr;
}
const float* csmGetParameterMinimumValues(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->parameter_min) : nullptr;
}
const float* csmGetParameterMaximumValues(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->parameter_max) : nullptr;
}
const float* csmGetParameterDefaultValues(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->parameter_default) : nullptr;
}
float* csmGetParameterValues(csmModel* model) {
  ModelState* m = state_of(model);
  if (!m || m->instance.parameters().empty()) return nullptr;
  return m->instance.parameters().data();
}
const int* csmGetParameterRepeats(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->parameter_repeats) : nullptr;
}
const int* csmGetParameterKeyCounts(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->parameter_key_counts) : nullptr;
}
const float** csmGetParameterKeyValues(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const float**>(data_or_null(d->parameter_keys)) : nullptr;
}

// ---- Parts ----

int csmGetPartCount(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? static_cast<int>(d->part_ids.size()) : 0;
}
const char** csmGetPartIds(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const char**>(data_or_null(d->part_ids)) : nullptr;
}
float* csmGetPartOpacities(csmModel* model) {
  ModelState* m = state_of(model);
  return m ? data_or_null(m->part_opacities) : nullptr;
}
const int* csmGetPartParentPartIndices(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->part_parents) : nullptr;
}
const int* csmGetPartOffscreenIndices(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->part_offscreens) : nullptr;
}

// ---- Drawables ----

int csmGetDrawableCount(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? static_cast<int>(d->drawable_count()) : 0;
}
const char** csmGetDrawableIds(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const char**>(data_or_null(d->drawable_ids)) : nullptr;
}
const csmFlags* csmGetDrawableConstantFlags(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_flags) : nullptr;
}
const csmFlags* csmGetDrawableDynamicFlags(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->dynamic_flags) : nullptr;
}
const int* csmGetDrawableBlendModes(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_blend_modes) : nullptr;
}
const int* csmGetDrawableTextureIndices(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_textures) : nullptr;
}
const int* csmGetDrawableDrawOrders(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->instance.state().cubism.draw_orders) : nullptr;
}
const int* csmGetDrawableRenderOrders(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->drawable_render_orders) : nullptr;
}
const float* csmGetDrawableOpacities(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->instance.state().opacity) : nullptr;
}
const int* csmGetDrawableMaskCounts(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_mask_counts) : nullptr;
}
const int** csmGetDrawableMasks(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const int**>(data_or_null(d->drawable_masks)) : nullptr;
}
const int* csmGetDrawableVertexCounts(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_vertex_counts) : nullptr;
}
const csmVector2** csmGetDrawableVertexPositions(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? const_cast<const csmVector2**>(data_or_null(m->vertex_positions)) : nullptr;
}
const csmVector2** csmGetDrawableVertexUvs(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const csmVector2**>(data_or_null(d->drawable_uvs)) : nullptr;
}
const int* csmGetDrawableIndexCounts(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_index_counts) : nullptr;
}
const unsigned short** csmGetDrawableIndices(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const unsigned short**>(data_or_null(d->drawable_indices)) : nullptr;
}
const csmVector4* csmGetDrawableMultiplyColors(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->multiply) : nullptr;
}
const csmVector4* csmGetDrawableScreenColors(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->screen) : nullptr;
}
const int* csmGetDrawableParentPartIndices(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->drawable_parents) : nullptr;
}

// ---- Offscreens and render orders ----

int csmGetOffscreenCount(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? static_cast<int>(d->offscreen_count()) : 0;
}
const int* csmGetOffscreenBlendModes(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->offscreen_blend_modes) : nullptr;
}
const float* csmGetOffscreenOpacities(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->offscreen_opacity) : nullptr;
}
const int* csmGetOffscreenOwnerIndices(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->offscreen_owners) : nullptr;
}
const csmVector4* csmGetOffscreenMultiplyColors(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->offscreen_multiply) : nullptr;
}
const csmVector4* csmGetOffscreenScreenColors(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->offscreen_screen) : nullptr;
}
const int* csmGetOffscreenMaskCounts(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->offscreen_mask_counts) : nullptr;
}
const int** csmGetOffscreenMasks(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? const_cast<const int**>(data_or_null(d->offscreen_masks)) : nullptr;
}
const csmFlags* csmGetOffscreenConstantFlags(const csmModel* model) {
  const p2l::csm::MocData* d = moc_of(model);
  return d ? data_or_null(d->offscreen_flags) : nullptr;
}
const int* csmGetRenderOrders(const csmModel* model) {
  const ModelState* m = state_of(model);
  return m ? data_or_null(m->render_orders) : nullptr;
}

}  // extern "C"
