// SKIN (H4): a skinned mesh's baked keyforms sample its bones at the keys of its axes and
// interpolate between them along chords. Per vertex, two bones carry the rest position
// (linear blend skinning); the mesh gets LBS(now) - sum_c w_c LBS(c) added over the key
// corners c around the current values, weighted as the bake interpolates. That is zero at
// every key corner (advanced mode equals Cubism mode on every baked key) and, between keys,
// the arc's departure from the chord.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "ext/bones.hpp"
#include "p2l/affine.hpp"

namespace p2l::ext {

// Limits beyond which a skin is left off (the format's writer stays within them).
inline constexpr std::size_t kMaxSkinAxes = 8, kMaxSkinBones = 16;
// Fitting weights costs vertices x bone pairs x samples; past this budget the fit first
// samples each axis alone, then fits single bones only, then leaves every vertex on its home.
inline constexpr std::uint64_t kFitBudget = std::uint64_t{1} << 27;

class SkinRun {
 public:
  // Prepares skin [index] of the rig: rest pose, rest-relative bone maps, weights (fitted to
  // the baked keyforms when the file gives none). False, with [note] saying why, when the
  // skin cannot run.
  bool prepare(const Model& model, InstanceState& s, std::size_t index, bool arcs_on, std::string& note);

  std::uint32_t mesh() const { return mesh_; }

  // Adds the correction to the mesh's vertices in its parent's space ([out]), at s.normalized.
  void correct(const Model& model, InstanceState& s, bool arcs_on, float* out);

  // The per-vertex weights in use (for tests and tools).
  const std::vector<std::uint32_t>& from() const { return from_; }
  const std::vector<std::uint32_t>& to() const { return to_; }
  const std::vector<float>& weight() const { return weight_; }

 private:
  // Each bone's map of a rest vertex (home space) to where it carries it at the frames [f].
  template <class FrameOf>
  bool carry(FrameOf&& f, Affine* out) const;
  void fit(const Model& model, InstanceState& s, bool arcs_on, std::string& note);

  std::size_t skin_ = 0;
  std::uint32_t mesh_ = 0, home_ = 0;
  std::vector<std::uint32_t> bones_;
  std::vector<float> rest_;            // the mesh at the defaults, home space
  std::vector<Affine> rest_relative_;  // per bone: its rest frame inverted, after home's rest frame
  std::vector<std::uint32_t> from_, to_;
  std::vector<float> weight_;
  // Per evaluation: the deformers whose frames move with the skin's axes, re-evaluated at
  // each key corner; the maps now, their corner blend and the corner's values.
  FrameSet corner_frames_;
  std::vector<Affine> now_, blend_, corner_;
  std::vector<float> corner_values_;
};

}  // namespace p2l::ext
