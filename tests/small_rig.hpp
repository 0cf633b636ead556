// A small valid rig built in code: one parameter, a warp with a rotation under it, one
// part, two meshes (one keyed on the parameter), a draw tree. Tests mutate its bytes.
#pragma once

#include "p2l/rig.hpp"

namespace p2l_test {

inline p2l::Rig make_small_rig() {
  p2l::Rig rig;
  rig.canvas = {200, 100, 100, 50, 100};
  rig.parameters.push_back({"ParamAngle", "Angle", -30, 30, 0, false, false});

  p2l::Deformer warp;
  warp.kind = p2l::DeformerKind::Warp;
  warp.id = "W";
  warp.columns = 1;
  warp.rows = 1;
  p2l::Grid<p2l::Array<float>> lattice;
  lattice.axes.push_back({0, {-30, 30}});
  lattice.coords = {0, 1};
  lattice.forms = {p2l::Array<float>{0, 0, 1, 0, 0, 1, 1, 1}, p2l::Array<float>{0.1f, 0, 1.1f, 0, 0.1f, 1, 1.1f, 1}};
  warp.lattice = lattice;
  rig.deformers.push_back(warp);

  p2l::Deformer rotation;
  rotation.kind = p2l::DeformerKind::Rotation;
  rotation.id = "R";
  rotation.parent = 0;
  p2l::Grid<p2l::Pivot> pivot;
  pivot.axes.push_back({0, {-30, 0, 30}});
  pivot.coords = {0, 1, 2};
  pivot.forms = {{0.5f, 0.5f, -10, 1}, {0.5f, 0.5f, 0, 1}, {0.5f, 0.5f, 10, 1}};
  rotation.pivot = pivot;
  rig.deformers.push_back(rotation);

  p2l::Part part;
  part.id = "Body";
  part.name = "Body part";
  part.children = {{p2l::ChildKind::Mesh, 0}, {p2l::ChildKind::Mesh, 1}};
  rig.parts.push_back(part);

  p2l::Mesh a;
  a.id = "A";
  a.name = "Mesh A";
  a.parent = 1;
  a.geometry = p2l::Geometry{{0, 0, 10, 0, 0, 10, 10, 10}, {0, 0, 1, 0, 0, 1, 1, 1}, {0, 1, 2, 1, 3, 2}};
  p2l::Grid<p2l::Array<float>> keys;
  keys.axes.push_back({0, {-30, 30}});
  keys.coords = {0, 1};
  keys.forms = {p2l::Array<float>{1, 0, 1, 0, 1, 0, 1, 0}, p2l::Array<float>{}};
  a.keyforms = keys;
  rig.meshes.push_back(a);

  p2l::Mesh b;
  b.id = "B";
  b.name = "Mesh B";
  b.geometry = p2l::Geometry{{0, 0, 5, 0, 0, 5}, {0, 0, 1, 0, 0, 1}, {0, 1, 2}};
  rig.meshes.push_back(b);

  rig.draw_groups[0].children = {{p2l::DrawChildKind::Mesh, 0}, {p2l::DrawChildKind::Mesh, 1}};
  return rig;
}

}  // namespace p2l_test
