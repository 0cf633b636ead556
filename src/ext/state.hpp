// Advanced mode's per-instance state: what make_advanced() turned on, read from the chunks'
// headers once, and every buffer the hooks use, sized then.
#pragma once

#include <cstdint>
#include <vector>

#include "ext/simulation.hpp"
#include "ext/skinning.hpp"

namespace p2l::ext {

// H4 as a header declares it: for one mesh, keyform axes evaluated at their defaults and
// blend shapes left out.
struct MeshReplacement {
  std::vector<std::uint32_t> axes;
  std::vector<std::uint8_t> skip_binding;  // per blend-shape binding of the mesh
};

struct AdvancedState {
  const Model* model = nullptr;
  std::uint32_t on = 0;

  // H1.
  std::vector<std::uint32_t> held;          // parameters
  std::vector<std::uint8_t> skip_physics;   // per PHYS group; empty when none is skipped

  // H4: per mesh what acts on it.
  std::vector<std::int32_t> replacement_of;  // into replacements, or -1
  std::vector<MeshReplacement> replacements;
  std::vector<std::uint8_t> has_statics;
  std::vector<std::int32_t> skin_of;  // into skins, or -1
  std::vector<SkinRun> skins;
  std::vector<float> replaced_values;  // scratch: values with an H4 replacement's axes at defaults

  // H6.
  std::vector<SimRun> sims;
  std::vector<float> placed;     // colliders of the last update, canvas pixels
};

}  // namespace p2l::ext
