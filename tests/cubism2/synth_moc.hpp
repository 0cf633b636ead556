// A small Cubism 2 model built in code, for the .moc reader's tests and the fuzzer's seeds:
// parameters, two parts, a warp under the root, a rotation under it, a warp under the rotation,
// meshes under each (keyed on one to three parameters, with opacity and draw-order keyforms),
// a mask (version 11), Cubism 2's add and multiply blends, culling off on one mesh.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "import/cubism2/moc_file.hpp"

namespace p2l_test::cubism2 {

inline p2l::cubism2::Moc synth_moc(int version = 11) {
  using namespace p2l::cubism2;
  Moc moc;
  moc.version = version;
  moc.canvas_width = 800;
  moc.canvas_height = 1000;
  moc.parameters = {{"PARAM_ANGLE_X", -30, 30, 0}, {"PARAM_EYE_L_OPEN", 0, 1, 1}, {"PARAM_BODY", -10, 10, 0}};
  const KeyAxis angle{"PARAM_ANGLE_X", {-30, 0, 30}}, eye{"PARAM_EYE_L_OPEN", {0, 1}}, body{"PARAM_BODY", {-10, 10}};
  auto forms = [](const KeyAxes& a) { return keyform_count(a); };

  auto warp = [&](std::string id, std::string parent, KeyAxes axes, std::uint32_t rows, std::uint32_t columns,
                  float x0, float y0, float w, float h) {
    Deformer d;
    d.kind = DeformerKind::Warp;
    d.id = std::move(id);
    d.parent = std::move(parent);
    d.axes = std::move(axes);
    d.rows = rows;
    d.columns = columns;
    for (std::uint32_t k = 0; k < forms(d.axes); ++k) {
      std::vector<float> grid;
      for (std::uint32_t r = 0; r <= rows; ++r)
        for (std::uint32_t c = 0; c <= columns; ++c) {
          grid.push_back(x0 + w * static_cast<float>(c) / static_cast<float>(columns) + 3.0f * static_cast<float>(k));
          grid.push_back(y0 + h * static_cast<float>(r) / static_cast<float>(rows) - 2.0f * static_cast<float>(k % 2));
        }
      d.grids.push_back(std::move(grid));
    }
    if (moc.version >= 10)
      for (std::uint32_t k = 0; k < forms(d.axes); ++k) d.opacities.push_back(k == 0 ? 0.5f : 1.0f);
    return d;
  };
  auto mesh = [&](std::string id, std::string parent, KeyAxes axes, float x0, float y0, float size) {
    Mesh m;
    m.id = std::move(id);
    m.parent = std::move(parent);
    m.axes = std::move(axes);
    m.average_draw_order = 500;
    m.vertex_count = 4;
    m.indices = {0, 1, 2, 2, 1, 3};
    m.uvs = {0, 0, 1, 0, 0, 1, 1, 1};
    for (std::uint32_t k = 0; k < forms(m.axes); ++k) {
      const float s = size * (1.0f + 0.1f * static_cast<float>(k));
      m.positions.push_back({x0, y0, x0 + s, y0, x0, y0 + s, x0 + s, y0 + s});
      m.draw_orders.push_back(static_cast<std::int32_t>(400 + 100 * (k % 3)));
      m.opacities.push_back(k == 1 ? 0.25f : 1.0f);
    }
    return m;
  };

  Part body_part;
  body_part.id = "PARTS_01_BODY";
  body_part.deformers.push_back(warp("D_BODY", kRootId, {body}, 2, 3, 100, 200, 600, 700));
  Deformer head;
  head.kind = DeformerKind::Rotation;
  head.id = "D_HEAD_ROT";
  head.parent = "D_BODY";
  head.axes = {angle};
  for (int k = 0; k < 3; ++k) {
    AffineForm a;
    a.origin_x = 0.5f;
    a.origin_y = 0.3f;
    a.scale = a.scale_y = 1.0f;
    a.angle = -10.0f + 10.0f * static_cast<float>(k);
    a.reflect_x = version >= 10 && k == 2;
    head.affines.push_back(a);
    if (version >= 10) head.opacities.push_back(1.0f);
  }
  body_part.deformers.push_back(head);
  body_part.deformers.push_back(warp("D_FACE", "D_HEAD_ROT", {angle, eye}, 3, 3, -150, -200, 300, 250));
  body_part.meshes.push_back(mesh("D_BODY.00", "D_BODY", {body}, 0.2f, 0.3f, 0.4f));
  Mesh plain = mesh("D_BACK.00", kRootId, {}, 50, 60, 200);
  plain.culling = false;
  body_part.meshes.push_back(plain);

  Part face;
  face.id = "PARTS_01_FACE";
  face.locked = true;
  Mesh eye_white = mesh("D_EYE_L.00", "D_FACE", {eye, angle}, 0.3f, 0.4f, 0.2f);
  Mesh iris = mesh("D_EYE_L.01", "D_FACE", {eye, angle, body}, 0.35f, 0.45f, 0.1f);
  iris.blend = kBlendMultiply;
  if (version >= 11) iris.clip_ids = {"D_EYE_L.00"};
  Mesh shine = mesh("D_EYE_L.02", "D_HEAD_ROT", {angle}, -20, -30, 40);
  shine.blend = kBlendAdd;
  shine.texture = 1;
  if (version >= 11) shine.clip_ids = {"D_EYE_L.00", "D_BODY.00"};
  face.meshes = {eye_white, iris, shine};
  Part hidden;
  hidden.id = "PARTS_01_ARM_B";
  hidden.visible = false;
  moc.parts = {body_part, face, hidden};
  if (version < 8)
    for (Part& p : moc.parts)
      for (Mesh& m : p.meshes) m.blend = kBlendNormal, m.culling = true;
  return moc;
}

}  // namespace p2l_test::cubism2
