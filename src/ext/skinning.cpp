#include "ext/skinning.hpp"

#include <algorithm>
#include <limits>

#include "base/message.hpp"
#include "eval/evaluate.hpp"
#include "eval/grid.hpp"
#include "p2l/eval.hpp"

namespace p2l::ext {
namespace {

// Every deformer or virtual bone in [starts] and above them, ascending.
std::vector<std::uint32_t> with_ancestors(const Rig& rig, const std::vector<std::uint32_t>& starts) {
  std::vector<std::uint8_t> in(rig.deformer_count_with_bones(), 0);
  for (std::uint32_t d : starts)
    for (std::int32_t at = static_cast<std::int32_t>(d); at >= 0 && !in[static_cast<std::size_t>(at)];
         at = rig.deformer_or_bone(static_cast<std::size_t>(at)).parent)
      in[static_cast<std::size_t>(at)] = 1;
  std::vector<std::uint32_t> out;
  for (std::size_t d = 0; d < in.size(); ++d)
    if (in[d]) out.push_back(static_cast<std::uint32_t>(d));
  return out;
}

bool keyed_on(const std::vector<Axis>& axes, const std::vector<std::uint8_t>& moving) {
  return std::any_of(axes.begin(), axes.end(), [&](const Axis& a) { return moving[a.parameter]; });
}
template <class S>
bool bound_to(const std::vector<Binding<S>>& bindings, const std::vector<std::uint8_t>& moving) {
  for (const auto& b : bindings) {
    if (moving[b.parameter]) return true;
    for (const Limit& l : b.limits)
      if (moving[l.parameter]) return true;
  }
  return false;
}

// Whether deformer [d]'s own frame depends on the parameters [moving] marks.
bool frame_moves(const Rig& rig, const eval::ModelPlan& plan, std::size_t d, const std::vector<std::uint8_t>& moving) {
  const Deformer& def = rig.deformer_or_bone(d);
  if (def.lattice && keyed_on(def.lattice->axes, moving)) return true;
  if (def.pivot && keyed_on(def.pivot->axes, moving)) return true;
  for (const Channel& c : def.channels)
    if (keyed_on(c.grid.axes, moving)) return true;
  if (bound_to(def.lattice_shapes, moving) || bound_to(def.pivot_shapes, moving)) return true;
  const std::int32_t arc = plan.arc_of[d];
  return arc >= 0 && moving[plan.arcs[static_cast<std::size_t>(arc)].parameter];
}

Affine scaled_sum(const Affine& m, const Affine& o, float w) {
  return {m.a + o.a * w, m.b + o.b * w, m.c + o.c * w, m.d + o.d * w, m.tx + o.tx * w, m.ty + o.ty * w};
}

}  // namespace

template <class FrameOf>
bool SkinRun::carry(FrameOf&& frame_of, Affine* out) const {
  const auto home = affine_of(frame_of(home_));
  if (!home) return false;
  const Affine home_inverse = inverse(*home);
  for (std::size_t b = 0; b < bones_.size(); ++b) {
    const auto bone = affine_of(frame_of(bones_[b]));
    if (!bone) return false;
    out[b] = compose(compose(home_inverse, *bone), rest_relative_[b]);
  }
  return true;
}

bool SkinRun::prepare(const Model& model, InstanceState& s, std::size_t index, bool arcs_on, std::string& note) {
  const Rig& rig = model.rig();
  const eval::ModelPlan& plan = model.plan();
  const Skin& skin = rig.skins->skins[index];
  const Mesh& mesh = rig.meshes[skin.mesh];
  // Notes name the skin: SKIN skin 2 (mesh "arm"): ...
  auto why = [&](const char* pattern) { return message(pattern, index, mesh.id); };
  if (skin.axes.size() > kMaxSkinAxes || skin.bones.size() > kMaxSkinBones) {
    note = message("SKIN skin {} (mesh \"{}\"): {} axes and {} bones, runtime skinning takes at most {} and {}; the "
                   "mesh stays baked",
                   index, mesh.id, skin.axes.size(), skin.bones.size(), kMaxSkinAxes, kMaxSkinBones);
    return false;
  }
  if (mesh.vertex_count() == 0 || mesh.parent < 0) {
    note = why("SKIN skin {} (mesh \"{}\"): the mesh has no vertices or no home; nothing to skin");
    return false;
  }
  skin_ = index;
  mesh_ = skin.mesh;
  home_ = static_cast<std::uint32_t>(mesh.parent);
  bones_.assign(skin.bones.begin(), skin.bones.end());

  std::vector<std::uint32_t> starts = bones_;
  starts.push_back(home_);
  const std::vector<std::uint32_t> needed = with_ancestors(rig, starts);

  // The rest pose: the defaults, exact links as they are set now.
  const std::vector<float> defaults(plan.default_values.begin(), plan.default_values.end());
  FrameSet rest;
  rest.init(model, needed);
  rest.evaluate(model, s, defaults.data(), arcs_on);
  const auto home_rest = affine_of(rest.frame(model, s, home_));
  if (!home_rest) {
    note = why("SKIN skin {} (mesh \"{}\"): its home is not a rotation");
    return false;
  }
  rest_relative_.resize(bones_.size());
  for (std::size_t b = 0; b < bones_.size(); ++b) {
    const auto bone_rest = affine_of(rest.frame(model, s, bones_[b]));
    if (!bone_rest) {
      note = message("SKIN skin {} (mesh \"{}\"): bone {} is not a rotation", index, mesh.id, bones_[b]);
      return false;
    }
    rest_relative_[b] = compose(inverse(*bone_rest), *home_rest);
  }
  rest_.assign(mesh.vertex_count() * 2, 0.0f);
  eval::mesh_local(mesh, plan.meshes[mesh_], {defaults.data(), s.cells.data()}, rest_.data());

  if (skin.from.empty()) {
    fit(model, s, arcs_on, note);
  } else {
    from_ = skin.from.to_vector();
    to_ = skin.to.to_vector();
    weight_.assign(skin.weight.begin(), skin.weight.end());
  }

  // Only frames that move with the skin's axes need evaluating again at each corner.
  std::vector<std::uint8_t> moving(rig.parameters.size(), 0);
  for (const Axis& a : skin.axes) moving[a.parameter] = 1;
  std::vector<std::uint8_t> moves(rig.deformer_count_with_bones(), 0);
  std::vector<std::uint32_t> dependent;
  for (std::uint32_t d : needed) {
    const std::int32_t parent = rig.deformer_or_bone(d).parent;
    moves[d] = (parent >= 0 && moves[static_cast<std::size_t>(parent)]) || frame_moves(rig, plan, d, moving);
    if (moves[d]) dependent.push_back(d);
  }
  corner_frames_.init(model, std::move(dependent));
  now_.resize(bones_.size());
  blend_.resize(bones_.size());
  corner_.resize(bones_.size());
  corner_values_.resize(rig.parameters.size());
  return true;
}

void SkinRun::fit(const Model& model, InstanceState& s, bool arcs_on, std::string& note) {
  const Rig& rig = model.rig();
  const eval::ModelPlan& plan = model.plan();
  const Skin& skin = rig.skins->skins[skin_];
  const Mesh& mesh = rig.meshes[mesh_];
  const std::size_t vertices = rest_.size() / 2, bones = bones_.size();
  const auto home_index = static_cast<std::uint32_t>(
      static_cast<std::size_t>(std::find(bones_.begin(), bones_.end(), home_) - bones_.begin()) % bones);
  from_.assign(vertices, home_index);
  to_.assign(vertices, home_index);
  weight_.assign(vertices, 0.0f);

  // Samples: every combination of the axis keys (axis 0 fastest), or each axis alone.
  std::uint64_t combinations = 1, singles = 0;
  for (const Axis& a : skin.axes) {
    combinations = std::min<std::uint64_t>(combinations * a.keys.size(), std::uint64_t{1} << 32);
    singles += a.keys.size();
  }
  const std::uint64_t pairs = bones * (bones + 1) / 2;
  bool all = combinations <= 1024;
  if (all && vertices * pairs * combinations > kFitBudget) all = false;
  const std::uint64_t samples = all ? combinations : singles;
  bool pairs_on = vertices * pairs * samples <= kFitBudget;
  if (!pairs_on && vertices * bones * samples > kFitBudget) {
    note = message("SKIN skin {} (mesh \"{}\"): too large to fit weights ({} vertices, {} bones); every vertex follows "
                   "its home",
                   skin_, mesh.id, vertices, bones);
    return;
  }
  if (!all && combinations <= 1024)
    note = message(pairs_on ? "SKIN skin {} (mesh \"{}\"): weights fitted per axis to stay within the fitting budget"
                            : "SKIN skin {} (mesh \"{}\"): weights fitted per axis, single bones only to stay within "
                              "the fitting budget",
                   skin_, mesh.id);

  std::vector<std::vector<float>> raw(samples, std::vector<float>());
  std::vector<float> base(rig.parameters.size());
  for (std::size_t p = 0; p < base.size(); ++p) base[p] = rig.parameters[p].default_value;
  std::size_t k = 0;
  if (all) {
    for (std::uint64_t c = 0; c < combinations; ++c, ++k) {
      raw[k] = base;
      std::uint64_t i = c;
      for (const Axis& a : skin.axes) {
        raw[k][a.parameter] = a.keys[i % a.keys.size()];
        i /= a.keys.size();
      }
    }
  } else {
    for (const Axis& a : skin.axes)
      for (float key : a.keys) {
        raw[k] = base;
        raw[k][a.parameter] = key;
        ++k;
      }
  }

  // Each bone's map at each sample, and the baked mesh, a block of vertices at a time so the
  // memory stays bounded whatever the mesh.
  std::vector<std::uint32_t> starts = bones_;
  starts.push_back(home_);
  FrameSet frames;
  frames.init(model, with_ancestors(rig, starts));
  std::vector<Affine> carried(samples * bones);
  std::vector<std::vector<float>> values(samples, std::vector<float>(rig.parameters.size()));
  for (std::size_t i = 0; i < samples; ++i) {
    for (std::size_t p = 0; p < base.size(); ++p) values[i][p] = eval::normalize(plan.parameters[p], raw[i][p]);
    frames.evaluate(model, s, values[i].data(), arcs_on);
    if (!carry([&](std::size_t d) -> const eval::Frame& { return frames.frame(model, s, d); }, &carried[i * bones])) return;
  }
  const std::size_t block = std::max<std::size_t>(1, std::min<std::size_t>(vertices, (std::size_t{1} << 22) / (2 * samples)));
  std::vector<float> local(vertices * 2), baked(samples * block * 2);
  for (std::size_t first = 0; first < vertices; first += block) {
    const std::size_t count = std::min(block, vertices - first);
    for (std::size_t i = 0; i < samples; ++i) {
      eval::mesh_local(mesh, plan.meshes[mesh_], {values[i].data(), s.cells.data()}, local.data());
      std::copy(local.begin() + static_cast<std::ptrdiff_t>(first * 2),
                local.begin() + static_cast<std::ptrdiff_t>((first + count) * 2), baked.begin() + static_cast<std::ptrdiff_t>(i * block * 2));
    }
    for (std::size_t v = first; v < first + count; ++v) {
      const float x = rest_[v * 2], y = rest_[v * 2 + 1];
      // Calls f(xi, xj, q) per sample: bones bi's and bj's carries of the vertex, and the bake.
      auto each_sample = [&](std::uint32_t bi, std::uint32_t bj, auto&& f) {
        for (std::size_t i = 0; i < samples; ++i) {
          float xi[2], xj[2];
          apply(carried[i * bones + bi], x, y, xi[0], xi[1]);
          apply(carried[i * bones + bj], x, y, xj[0], xj[1]);
          f(xi, xj, &baked[(i * block + (v - first)) * 2]);
        }
      };
      float best_error = std::numeric_limits<float>::infinity();
      for (std::uint32_t bi = 0; bi < bones; ++bi) {
        for (std::uint32_t bj = bi; bj < (pairs_on ? bones : bi + 1); ++bj) {
          // The weight along the segment from bone i's carry to bone j's that best meets the
          // bake over the samples, then its squared error.
          float num = 0, den = 0;
          each_sample(bi, bj, [&](const float* xi, const float* xj, const float* q) {
            for (int c = 0; c < 2; ++c) {
              const float e = xj[c] - xi[c], r = q[c] - xi[c];
              num += r * e;
              den += e * e;
            }
          });
          const float w = (bi == bj || den <= 1e-12f) ? 0.0f : std::clamp(num / den, 0.0f, 1.0f);
          float error = 0;
          each_sample(bi, bj, [&](const float* xi, const float* xj, const float* q) {
            for (int c = 0; c < 2; ++c) {
              const float r = xi[c] + (xj[c] - xi[c]) * w - q[c];
              error += r * r;
            }
          });
          // Ties go to the first found, rigid on one bone: fewer moving parts.
          if (error < best_error - 1e-6f) {
            best_error = error;
            // A pair at weight 1 is bone j alone: stored so, rigid on a single bone.
            from_[v] = w == 1.0f ? bj : bi;
            to_[v] = bj;
            weight_[v] = w == 1.0f ? 0.0f : w;
          }
        }
      }
    }
  }
}

void SkinRun::correct(const Model& model, InstanceState& s, bool arcs_on, float* out) {
  const Rig& rig = model.rig();
  const Skin& skin = rig.skins->skins[skin_];
  ensure_virtual_frames(model, s, arcs_on);
  auto now = [&](std::size_t d) -> const eval::Frame& { return current_frame(model, s, d); };
  if (!carry(now, now_.data())) return;

  // The same blend at every corner of the key cells around the values, weighted as the bake
  // interpolates (keyform snapping included); other parameters keep their values.
  const float* values = s.normalized.data();
  std::copy(s.normalized.begin(), s.normalized.end(), corner_values_.begin());
  std::fill(blend_.begin(), blend_.end(), Affine{0, 0, 0, 0, 0, 0});
  eval::Span spans[kMaxSkinAxes];
  const std::size_t axes = skin.axes.size();
  for (std::size_t i = 0; i < axes; ++i) spans[i] = eval::span_snapped(skin.axes[i].keys, values[skin.axes[i].parameter]);
  for (std::uint32_t corner = 0; corner < (1u << axes); ++corner) {
    float weight = 1.0f;
    for (std::size_t i = 0; i < axes; ++i) {
      const bool upper = (corner >> i) & 1u;
      if (upper && spans[i].hi == spans[i].lo) {
        weight = 0.0f;
        break;
      }
      weight *= upper ? spans[i].t : 1.0f - spans[i].t;
      corner_values_[skin.axes[i].parameter] = skin.axes[i].keys[upper ? spans[i].hi : spans[i].lo];
    }
    if (weight <= 0.0f) continue;
    corner_frames_.evaluate(model, s, corner_values_.data(), arcs_on);
    if (!carry([&](std::size_t d) -> const eval::Frame& { return corner_frames_.frame(model, s, d); }, corner_.data())) return;
    for (std::size_t b = 0; b < bones_.size(); ++b) blend_[b] = scaled_sum(blend_[b], corner_[b], weight);
  }
  for (std::size_t b = 0; b < bones_.size(); ++b) now_[b] = scaled_sum(now_[b], blend_[b], -1.0f);  // the difference
  for (std::size_t v = 0; v < from_.size(); ++v) {
    const float x = rest_[v * 2], y = rest_[v * 2 + 1];
    float ax, ay, bx, by;
    apply(now_[from_[v]], x, y, ax, ay);
    apply(now_[to_[v]], x, y, bx, by);
    const float w = weight_[v];
    out[v * 2] += ax + (bx - ax) * w;
    out[v * 2 + 1] += ay + (by - ay) * w;
  }
}

}  // namespace p2l::ext
