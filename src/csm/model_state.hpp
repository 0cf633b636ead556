// One Cubism Core API model: a p2l::Instance of its moc's model and the arrays the Core's
// getters return, sized once when it is made (csmUpdateModel allocates nothing). The caller's
// model buffer holds a ModelHeader naming it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "Live2DCubismCore.h"
#include "csm/moc_data.hpp"
#include "p2l/eval.hpp"

namespace p2l::csm {

struct ModelState {
  explicit ModelState(std::shared_ptr<const MocData> data);

  std::shared_ptr<const MocData> moc;
  Instance instance;
  std::vector<float> part_opacities;  // the host writes them (csmGetPartOpacities)
  std::vector<csmFlags> dynamic_flags;
  std::vector<const csmVector2*> vertex_positions;
  std::vector<csmVector4> multiply, screen;
  std::vector<int> drawable_render_orders;  // the drawables' places among the drawables
  std::vector<int> render_orders;           // drawables, then offscreens in the file's order
  std::vector<float> offscreen_opacity;
  std::vector<csmVector4> offscreen_multiply, offscreen_screen;

  // The dynamic flags as the Core keeps them (docs/CUBISM_CORE.md "Dynamic flags", measured on
  // Cores 4.2.2 and 6.0.1): an update after csmResetDrawableDynamicFlags writes them anew (each
  // change bit against the update before, the vertex bit for every drawable it evaluated); any
  // other update refreshes the visible bit alone; the reset itself changes nothing visible.
  bool reset_pending = false;
  std::vector<int> render_order_before;  // the other change bits are the instance's own
  std::vector<int> offscreens_before;    // per render place: the offscreen places before it (scratch)
};

// The header csmInitializeModelInPlace writes at the start of the caller's model buffer.
struct ModelHeader {
  std::uint64_t magic;
  ModelState* state;
  std::uint64_t check;  // magic ^ the state's address: a stale or foreign buffer fails it
};
inline constexpr std::uint64_t kModelMagic = 0x4c444f4d4c325000ull;  // "\0P2LMODL"
inline constexpr unsigned kModelBytes = 64;  // the header, rounded up to csmAlignofMoc

// Evaluates at the current parameters and part opacities and fills the arrays and flags.
void update(ModelState& m);
// csmResetDrawableDynamicFlags: the next update writes the flags anew.
void reset_flags(ModelState& m);

}  // namespace p2l::csm
