// Small rigs for rule tests, built in code: one call per object, validated by the caller
// through p2l::Model::create.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "p2l/eval.hpp"
#include "p2l/rig.hpp"

namespace p2l_test {

inline p2l::Parameter param(const std::string& id, float min, float max, float def, bool repeat = false, bool blend = false) {
  p2l::Parameter p;
  p.id = id;
  p.name = id;
  p.min = min;
  p.max = max;
  p.default_value = def;
  p.repeat = repeat;
  p.blend = blend;
  return p;
}

// A grid of one cell: the form holds at every pose.
template <class F>
p2l::Grid<F> single(F form) {
  p2l::Grid<F> g;
  g.forms.push_back(std::move(form));
  return g;
}

// A grid keyed on one parameter, one form per key.
template <class F>
p2l::Grid<F> keyed(std::uint32_t parameter, std::vector<float> keys, std::vector<F> forms) {
  p2l::Grid<F> g;
  g.axes.push_back({parameter, p2l::Array<float>(std::move(keys))});
  for (std::size_t i = 0; i < forms.size(); ++i) g.coords.push_back(static_cast<std::uint16_t>(i));
  g.forms = std::move(forms);
  return g;
}

inline p2l::Channel scalar_channel(p2l::ChannelType type, std::uint32_t parameter, std::vector<float> keys,
                                   std::vector<float> values) {
  p2l::Channel c;
  c.type = type;
  c.kind = type == p2l::ChannelType::FlipX || type == p2l::ChannelType::FlipY ? p2l::ChannelKind::Flag : p2l::ChannelKind::Scalar;
  std::vector<p2l::Rgb> forms;
  for (float v : values) forms.push_back({v, 0, 0});
  c.grid = keyed(parameter, std::move(keys), std::move(forms));
  return c;
}

inline p2l::Channel color_channel(p2l::ChannelType type, std::uint32_t parameter, std::vector<float> keys,
                                  std::vector<p2l::Rgb> values) {
  p2l::Channel c;
  c.type = type;
  c.kind = p2l::ChannelKind::Color;
  c.grid = keyed(parameter, std::move(keys), std::move(values));
  return c;
}

inline p2l::Deformer rotation(const std::string& id, std::int32_t parent, float base_angle, p2l::Grid<p2l::Pivot> pivot,
                              bool flip_x = false, bool flip_y = false) {
  p2l::Deformer d;
  d.kind = p2l::DeformerKind::Rotation;
  d.id = id;
  d.parent = parent;
  d.base_angle = base_angle;
  d.pivot = std::move(pivot);
  d.flip_x = flip_x;
  d.flip_y = flip_y;
  return d;
}

// A warp with one fixed lattice of (columns + 1) x (rows + 1) points.
inline p2l::Deformer warp(const std::string& id, std::int32_t parent, std::vector<float> points, bool bilinear = true,
                          std::uint32_t columns = 1, std::uint32_t rows = 1) {
  p2l::Deformer d;
  d.kind = p2l::DeformerKind::Warp;
  d.id = id;
  d.parent = parent;
  d.columns = columns;
  d.rows = rows;
  d.bilinear = bilinear;
  d.lattice = single(p2l::Array<float>(std::move(points)));
  return d;
}

// A mesh whose vertices start at [positions]; one triangle for validity.
inline p2l::Mesh mesh(const std::string& id, std::int32_t parent, std::vector<float> positions) {
  p2l::Mesh m;
  m.id = id;
  m.name = id;
  m.parent = parent;
  const std::size_t n = positions.size();
  m.geometry = p2l::Geometry{p2l::Array<float>(std::move(positions)), p2l::Array<float>(std::vector<float>(n, 0.0f)),
                             p2l::IndexArray{0, 1, 2}};
  return m;
}

inline p2l::Rig rig(std::vector<p2l::Parameter> parameters, std::vector<p2l::Deformer> deformers, std::vector<p2l::Mesh> meshes) {
  p2l::Rig r;
  r.canvas = {512, 512, 0, 0, -1};
  r.parameters = std::move(parameters);
  r.deformers = std::move(deformers);
  r.meshes = std::move(meshes);
  for (std::uint32_t m = 0; m < r.meshes.size(); ++m) r.draw_groups[0].children.push_back({p2l::DrawChildKind::Mesh, m});
  return r;
}

// An instance on [r], which must be valid.
inline p2l::Instance instance_of(p2l::Rig r) {
  auto model = p2l::Model::create(std::make_shared<const p2l::Rig>(std::move(r)));
  EXPECT_TRUE(model) << model.error.to_string();
  return p2l::Instance(model.model);
}

inline void set(p2l::Instance& in, std::vector<float> values) {
  for (std::size_t i = 0; i < values.size(); ++i) in.parameters()[i] = values[i];
  in.evaluate();
}

// The first mesh's vertices as a frame: origin, then the images of the 10 px x and y axes
// (the mesh holds (0,0), (10,0), (0,10) in its parent's space).
inline const std::vector<float> kAxes{0, 0, 10, 0, 0, 10};
inline std::vector<float> frame_of(const p2l::Instance& in, std::uint32_t m = 0) {
  auto v = in.vertices(m);
  return {v[0], v[1], v[2] - v[0], v[3] - v[1], v[4] - v[0], v[5] - v[1]};
}
inline float axis_angle(const std::vector<float>& f) { return std::atan2(f[3], f[2]) * 57.29577951308232f; }
inline float axis_length(const std::vector<float>& f) { return std::hypot(f[2], f[3]); }

}  // namespace p2l_test
