#include "ext/simulation.hpp"

#include <algorithm>

#include "eval/frames.hpp"
#include "eval/grid.hpp"
#include "ext/bones.hpp"
#include "p2l/eval.hpp"

namespace p2l::ext {

SimRun::SimRun(const Model& model, std::size_t index, bool collide)
    : sim_(&model.rig().simulations->simulations[index]), solver_(*sim_), collide_(collide) {
  const std::size_t n = sim_->particle_count() * 2;
  goals_.assign(n, 0.0f);
  anchors_.assign(n, 0.0f);
  previous_.assign(n, 0.0f);
  current_.assign(n, 0.0f);
  colliders_.reserve(collide ? sim_->colliders.size() : 0);
}

void SimRun::place(const Model& model, InstanceState& s) {
  const Rig& rig = model.rig();
  const eval::ModelPlan& plan = model.plan();
  // Goals: each target vertex where this evaluation puts it; world space is y up.
  std::size_t particle = 0;
  for (const SimTarget& t : sim_->targets) {
    const float* v = s.vertices.data() + plan.meshes[t.mesh].vertex_offset;
    for (std::uint32_t j = 0; j < t.vertex_count; ++j, ++particle) {
      goals_[particle * 2] = v[j * 2];
      goals_[particle * 2 + 1] = -v[j * 2 + 1];
    }
  }
  // Anchors: the particle's own goal, or the vertex its pin follows.
  for (std::size_t i = 0; i < sim_->anchor_mesh.size(); ++i) {
    const std::uint32_t m = sim_->anchor_mesh[i];
    if (m == 0xFFFFFFFFu) {
      anchors_[i * 2] = goals_[i * 2];
      anchors_[i * 2 + 1] = goals_[i * 2 + 1];
    } else {
      const float* v = s.vertices.data() + plan.meshes[m].vertex_offset + std::size_t{sim_->anchor_vertex[i]} * 2;
      anchors_[i * 2] = v[0];
      anchors_[i * 2 + 1] = -v[1];
    }
  }
  colliders_.clear();
  if (!collide_) return;
  for (std::uint32_t index : sim_->colliders) {
    const Collider& c = rig.colliders->colliders[index];
    float ax = c.ax, ay = c.ay, bx = c.bx, by = c.by;
    if (c.mesh >= 0) {
      // Riding two vertices of a mesh as this evaluation puts them.
      const float* v = s.vertices.data() + plan.meshes[static_cast<std::size_t>(c.mesh)].vertex_offset;
      ax = v[c.vertex_a * 2];
      ay = v[c.vertex_a * 2 + 1];
      bx = v[c.vertex_b * 2];
      by = v[c.vertex_b * 2 + 1];
    } else if (c.deformer >= 0) {
      // Points in a deformer's (or virtual bone's) local space.
      const eval::Frame& f = current_frame(model, s, static_cast<std::size_t>(c.deformer));
      eval::map_point(f, c.ax, c.ay, ax, ay);
      eval::map_point(f, c.bx, c.by, bx, by);
    }
    if (!c.capsule) {
      bx = ax;
      by = ay;
    }
    colliders_.push_back({ax, -ay, bx, -by, c.radius_a, c.radius_b, c.friction});
  }
}

void SimRun::advance(const Model& model, InstanceState& s, float dt, float wind_x, float wind_y,
                     std::vector<float>& placed) {
  if (dt <= 0.0f) {
    // An evaluation without time shows the last step; never started, the targets stay.
    if (started_) draw(model, s, 1.0f);
    return;
  }
  place(model, s);
  for (const PlacedCollider& c : colliders_)
    placed.insert(placed.end(), {c.ax, -c.ay, c.bx, -c.by, c.radius_a, c.radius_b});
  if (!started_) {
    // The first update starts at rest on the pose it finds.
    solver_.reset(goals_, anchors_);
    solver_.set_targets(goals_, anchors_, colliders_, 0.0f);
    std::copy(goals_.begin(), goals_.end(), current_.begin());
    std::copy(goals_.begin(), goals_.end(), previous_.begin());
    started_ = true;
    remain_ = 0.0f;
  } else {
    solver_.set_targets(goals_, anchors_, colliders_, solver_.frame_angle(anchors_));
    const float h = 1.0f / sim_->fps;
    remain_ = std::min(remain_ + dt, h * static_cast<float>(kMaxSimSteps));
    while (remain_ >= h) {
      previous_.swap(current_);
      solver_.step(h, sim_->wind_x + wind_x, sim_->wind_y + wind_y);
      const auto x = solver_.x(), y = solver_.y();
      for (std::size_t i = 0; i < x.size(); ++i) {
        current_[i * 2] = x[i];
        current_[i * 2 + 1] = y[i];
      }
      remain_ -= h;
    }
  }
  draw(model, s, std::clamp(remain_ * sim_->fps, 0.0f, 1.0f));
}

void SimRun::draw(const Model& model, InstanceState& s, float alpha) const {
  const eval::ModelPlan& plan = model.plan();
  std::size_t particle = 0;
  for (const SimTarget& t : sim_->targets) {
    float* out = s.vertices.data() + plan.meshes[t.mesh].vertex_offset;
    for (std::uint32_t j = 0; j < t.vertex_count; ++j, ++particle) {
      const float px = previous_[particle * 2], py = previous_[particle * 2 + 1];
      const float cx = current_[particle * 2], cy = current_[particle * 2 + 1];
      out[j * 2] = px + (cx - px) * alpha;
      out[j * 2 + 1] = -(py + (cy - py) * alpha);
    }
  }
}

void subtract_statics(const Rig& rig, std::uint32_t m, const float* values, float* out) {
  for (const Simulation& sim : rig.simulations->simulations)
    for (const SimStatic& st : sim.statics)
      for (const SimStaticMesh& sm : st.meshes) {
        if (sm.mesh != m) continue;
        const eval::Span span = eval::span_snapped(st.keys, values[st.parameter]);
        const Array<float>& lo = sm.offsets[span.lo];
        const Array<float>& hi = sm.offsets[span.hi];
        for (std::size_t j = 0; j < lo.size(); ++j) out[j] -= lo[j] + (hi[j] - lo[j]) * span.t;
      }
}

}  // namespace p2l::ext
