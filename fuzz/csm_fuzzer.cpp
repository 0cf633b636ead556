// libFuzzer target for the Cubism Core C API (include/Live2DCubismCore.h) as a host calls it:
// csmGetMocVersion, csmHasMocConsistency, csmReviveMocInPlace on the bytes, then, when the moc
// revives, a model updated at its defaults, at every parameter's extremes and beyond (and NaN and
// infinities), with part opacities out of range, reading every array the getters hand out to
// its full length (ASan sees a short one). The two answers must agree: a moc that revives is
// consistent and the other way round. Seeds: ./fuzz.sh --csm (the moc3 corpus).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "Live2DCubismCore.h"
#include "p2l/csm_release.h"

namespace {

volatile float sink;

void touch(csmModel* model) {
  const int nd = csmGetDrawableCount(model), np = csmGetParameterCount(model), nparts = csmGetPartCount(model);
  const int no = csmGetOffscreenCount(model);
  float sum = 0;
  const csmVector2** positions = csmGetDrawableVertexPositions(model);
  const csmVector2** uvs = csmGetDrawableVertexUvs(model);
  const int* vertex_counts = csmGetDrawableVertexCounts(model);
  const int* index_counts = csmGetDrawableIndexCounts(model);
  const unsigned short** indices = csmGetDrawableIndices(model);
  const int* mask_counts = csmGetDrawableMaskCounts(model);
  const int** masks = csmGetDrawableMasks(model);
  for (int i = 0; i < nd; ++i) {
    for (int k = 0; k < vertex_counts[i]; ++k) sum += positions[i][k].X + uvs[i][k].Y;
    for (int k = 0; k < index_counts[i]; ++k)
      if (indices[i][k] >= vertex_counts[i]) std::abort();  // an index past the vertices
    for (int k = 0; k < mask_counts[i]; ++k) sum += static_cast<float>(masks[i][k]);
    sum += csmGetDrawableOpacities(model)[i] + csmGetDrawableMultiplyColors(model)[i].W +
           csmGetDrawableScreenColors(model)[i].X;
    sum += static_cast<float>(csmGetDrawableDynamicFlags(model)[i] + csmGetDrawableConstantFlags(model)[i] +
                              csmGetDrawableDrawOrders(model)[i] + csmGetDrawableRenderOrders(model)[i] +
                              csmGetDrawableBlendModes(model)[i] + csmGetDrawableTextureIndices(model)[i] +
                              csmGetDrawableParentPartIndices(model)[i]);
  }
  // The Core hands out no negative render order, even to a drawable no draw-order group lists.
  const int* orders = csmGetRenderOrders(model);
  for (int i = 0; i < nd + no; ++i)
    if (orders[i] < 0) std::abort();
  for (int i = 0; i < nd; ++i)
    if (csmGetDrawableRenderOrders(model)[i] < 0) std::abort();
  for (int i = 0; i < nd + no; ++i) sum += static_cast<float>(orders[i]);
  for (int i = 0; i < no; ++i) {
    sum += csmGetOffscreenOpacities(model)[i] + csmGetOffscreenMultiplyColors(model)[i].X;
    for (int k = 0; k < csmGetOffscreenMaskCounts(model)[i]; ++k) sum += static_cast<float>(csmGetOffscreenMasks(model)[i][k]);
  }
  const int* key_counts = csmGetParameterKeyCounts(model);
  const float** keys = csmGetParameterKeyValues(model);
  for (int i = 0; i < np; ++i) {
    for (int k = 0; k < key_counts[i]; ++k) sum += keys[i][k];
    sum += static_cast<float>(std::strlen(csmGetParameterIds(model)[i]));
  }
  for (int i = 0; i < nparts; ++i)
    sum += csmGetPartOpacities(model)[i] + static_cast<float>(std::strlen(csmGetPartIds(model)[i]) + csmGetPartOffscreenIndices(model)[i]);
  sink = sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 22)) return 0;
  // The Core reads (and may revive) the bytes in place: a buffer of its own, aligned.
  void* block = std::aligned_alloc(csmAlignofMoc, (size + csmAlignofMoc) / csmAlignofMoc * csmAlignofMoc);
  std::memcpy(block, data, size);
  (void)csmGetMocVersion(block, static_cast<unsigned>(size));
  const int consistent = csmHasMocConsistency(block, static_cast<unsigned>(size));
  csmMoc* moc = csmReviveMocInPlace(block, static_cast<unsigned>(size));
  if ((moc != nullptr) != (consistent != 0)) std::abort();  // the two checks disagree
  if (moc) {
    const unsigned bytes = csmGetSizeofModel(moc);
    void* memory = std::aligned_alloc(csmAlignofModel, (bytes + csmAlignofModel) / csmAlignofModel * csmAlignofModel);
    csmModel* model = csmInitializeModelInPlace(moc, memory, bytes);
    if (!model) std::abort();  // a revived moc always makes a model
    const int np = csmGetParameterCount(model), nparts = csmGetPartCount(model);
    float* values = csmGetParameterValues(model);
    float* parts = csmGetPartOpacities(model);
    const float* mins = csmGetParameterMinimumValues(model);
    const float* maxs = csmGetParameterMaximumValues(model);
    const float extremes[] = {0.0f, 1.0f, -1e30f, 1e30f, std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
    csmUpdateModel(model);
    touch(model);
    csmResetDrawableDynamicFlags(model);
    for (int round = 0; round < 4; ++round) {
      for (int i = 0; i < np; ++i) {
        const float range = maxs[i] - mins[i];
        values[i] = round == 0 ? mins[i] : round == 1 ? maxs[i] : round == 2 ? maxs[i] + 4 * range
                                                                             : extremes[(i + round) % 7];
      }
      for (int i = 0; i < nparts; ++i) parts[i] = extremes[(i + round) % 7];
      csmUpdateModel(model);
      touch(model);
      csmResetDrawableDynamicFlags(model);
    }
    p2lcsm_release_model(model);
    std::free(memory);
    p2lcsm_release_moc(moc);
  }
  std::free(block);
  return 0;
}
