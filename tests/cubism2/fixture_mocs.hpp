// The Cubism 2 fixtures: small models built in code, one for each structure a rule of Cubism
// 2's evaluation needed (docs/RUNTIME.md, "Cubism 2's rules"), and the poses they are held at.
// scripts/cubism2_fixtures.sh writes each with our own .moc writer, has the Cubism 2.1 runtime
// evaluate it at its poses and commits what it computed (tests/cubism2/fixtures/NAME.json);
// fixtures_test.cpp builds the same model here and checks p2lrt's evaluation against that.
// Changing a model or its poses means recording its fixture again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "import/cubism2/moc_file.hpp"

namespace p2l_test::cubism2 {

using Pose = std::map<std::string, float>;

struct Fixture {
  std::string name;
  p2l::cubism2::Moc moc;
  std::vector<Pose> poses;  // set one after another, each from the defaults
};

namespace fixture_detail {

using namespace p2l::cubism2;

inline std::uint32_t forms(const KeyAxes& a) { return keyform_count(a); }

// A warp over [x0, x0 + w] x [y0, y0 + h] in its parent's space, each keyform bent by k.
inline Deformer warp(std::string id, std::string parent, KeyAxes axes, std::uint32_t rows, std::uint32_t columns, float x0,
                     float y0, float w, float h, float bend, int version) {
  Deformer d;
  d.kind = DeformerKind::Warp;
  d.id = std::move(id);
  d.parent = std::move(parent);
  d.axes = std::move(axes);
  d.rows = rows;
  d.columns = columns;
  for (std::uint32_t k = 0; k < forms(d.axes); ++k) {
    std::vector<float> grid;
    const float kb = bend * static_cast<float>(k);
    for (std::uint32_t r = 0; r <= rows; ++r)
      for (std::uint32_t c = 0; c <= columns; ++c) {
        const float u = static_cast<float>(c) / static_cast<float>(columns), v = static_cast<float>(r) / static_cast<float>(rows);
        grid.push_back(x0 + w * u + kb * v * v + 0.37f * kb * static_cast<float>(c % 2));
        grid.push_back(y0 + h * v - 0.5f * kb * u + 0.21f * kb * static_cast<float>(r % 2));
      }
    d.grids.push_back(std::move(grid));
  }
  if (version >= 10) d.opacities.assign(forms(d.axes), 1.0f);
  return d;
}

inline Deformer rotation(std::string id, std::string parent, KeyAxes axes, float x, float y, float scale, float angle0,
                         float angle_step, int version) {
  Deformer d;
  d.kind = DeformerKind::Rotation;
  d.id = std::move(id);
  d.parent = std::move(parent);
  d.axes = std::move(axes);
  for (std::uint32_t k = 0; k < forms(d.axes); ++k) {
    AffineForm a;
    a.origin_x = x + 0.013f * static_cast<float>(k);
    a.origin_y = y - 0.007f * static_cast<float>(k);
    a.scale = a.scale_y = scale * (1.0f + 0.05f * static_cast<float>(k % 3));
    a.angle = angle0 + angle_step * static_cast<float>(k);
    d.affines.push_back(a);
  }
  if (version >= 10) d.opacities.assign(forms(d.axes), 1.0f);
  return d;
}

// A 3 x 3-vertex mesh (8 triangles) at (x0, y0), size s, each keyform grown and sheared by k.
inline Mesh mesh(std::string id, std::string parent, KeyAxes axes, float x0, float y0, float s) {
  Mesh m;
  m.id = std::move(id);
  m.parent = std::move(parent);
  m.axes = std::move(axes);
  m.average_draw_order = 500;
  m.vertex_count = 9;
  m.indices = {0, 1, 3, 1, 4, 3, 1, 2, 4, 2, 5, 4, 3, 4, 6, 4, 7, 6, 4, 5, 7, 5, 8, 7};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      m.uvs.push_back(0.5f * static_cast<float>(c));
      m.uvs.push_back(0.5f * static_cast<float>(r));
    }
  for (std::uint32_t k = 0; k < forms(m.axes); ++k) {
    std::vector<float> p;
    const float g = s * (1.0f + 0.07f * static_cast<float>(k)), shear = 0.031f * static_cast<float>(k) * s;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        p.push_back(x0 + 0.5f * g * static_cast<float>(c) + shear * static_cast<float>(r));
        p.push_back(y0 + 0.5f * g * static_cast<float>(r));
      }
    m.positions.push_back(std::move(p));
    m.draw_orders.push_back(500);
    m.opacities.push_back(1.0f);
  }
  return m;
}

inline Moc base(int version, std::vector<ParameterDef> parameters) {
  Moc moc;
  moc.version = version;
  moc.canvas_width = 1200;
  moc.canvas_height = 1600;
  moc.parameters = std::move(parameters);
  return moc;
}

// Poses: the defaults, every parameter at each end and at each key (and just beside it) with
// the rest at their defaults, then seeded random poses inside and (one in four) beyond the ranges.
inline std::vector<Pose> poses_for(const Moc& moc, std::size_t count) {
  std::vector<Pose> out(1);
  std::map<std::string, std::vector<float>> keys;
  for (const Part& part : moc.parts) {
    for (const Deformer& d : part.deformers)
      for (const KeyAxis& a : d.axes) keys[a.parameter].insert(keys[a.parameter].end(), a.keys.begin(), a.keys.end());
    for (const Mesh& m : part.meshes)
      for (const KeyAxis& a : m.axes) keys[a.parameter].insert(keys[a.parameter].end(), a.keys.begin(), a.keys.end());
  }
  for (auto& [id, list] : keys) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  for (const ParameterDef& p : moc.parameters) {
    out.push_back({{p.id, p.min}});
    out.push_back({{p.id, p.max}});
    // Each key, and beside it inside and outside the runtime's 0.0001 snap.
    for (float k : keys[p.id]) {
      out.push_back({{p.id, k}});
      out.push_back({{p.id, k + 0.00005f}});
      out.push_back({{p.id, k - 0.00015f}});
    }
  }
  std::uint32_t s = 12345;
  auto random = [&] {
    s = s * 1664525u + 1013904223u;
    return static_cast<float>(s >> 8) / 16777216.0f;
  };
  while (out.size() < count) {
    const bool beyond = out.size() % 4 == 0;
    Pose pose;
    for (const ParameterDef& p : moc.parameters) {
      const float span = p.max - p.min;
      pose[p.id] = beyond ? p.min - 0.5f * span + 2.0f * span * random() : p.min + span * random();
    }
    out.push_back(std::move(pose));
  }
  return out;
}

}  // namespace fixture_detail

inline std::vector<Fixture> cubism2_fixtures() {
  using namespace p2l::cubism2;
  using namespace fixture_detail;
  std::vector<Fixture> out;

  {  // Warps three deep, keyed on one to three parameters, with points in the ring around each.
    Moc moc = base(11, {{"PARAM_A", -30, 30, 0}, {"PARAM_B", -1, 1, 0}, {"PARAM_C", 0, 1, 0.5f}});
    const KeyAxis a{"PARAM_A", {-30, 0, 30}}, b{"PARAM_B", {-1, 0, 1}}, c{"PARAM_C", {0, 1}};
    Part part;
    part.id = "PARTS_01";
    part.deformers.push_back(warp("W_BODY", kRootId, {a}, 3, 2, 200, 300, 800, 1000, 11.5f, 11));
    part.deformers.push_back(warp("W_HEAD", "W_BODY", {a, b}, 2, 3, 0.1f, 0.05f, 0.8f, 0.5f, 0.013f, 11));
    part.deformers.push_back(warp("W_EYE", "W_HEAD", {b, c, a}, 2, 2, 0.2f, 0.3f, 0.3f, 0.2f, 0.009f, 11));
    part.meshes.push_back(mesh("D_BODY", "W_BODY", {a}, 0.1f, 0.5f, 0.7f));
    part.meshes.push_back(mesh("D_RING", "W_BODY", {b}, -0.9f, -0.4f, 2.8f));  // across the ring, and beyond it
    part.meshes.push_back(mesh("D_FACE", "W_HEAD", {a, c}, 0.05f, 0.1f, 0.9f));
    part.meshes.push_back(mesh("D_EYE", "W_EYE", {c, b}, 0.1f, 0.1f, 0.8f));
    moc.parts = {part};
    out.push_back({"nested-warps", moc, poses_for(moc, 60)});
  }
  {  // Rotations under warps and under rotations, reflected at some keyforms, scaled.
    Moc moc = base(10, {{"PARAM_ANGLE", -30, 30, 0}, {"PARAM_ARM", -1, 1, 0}, {"PARAM_BODY", -10, 10, 0}});
    const KeyAxis angle{"PARAM_ANGLE", {-30, 0, 30}}, arm{"PARAM_ARM", {-1, 1}}, body{"PARAM_BODY", {-10, 0, 10}};
    Part part;
    part.id = "PARTS_01";
    part.deformers.push_back(warp("W_BODY", kRootId, {body}, 2, 2, 300, 400, 600, 900, 23.0f, 10));
    part.deformers.push_back(rotation("R_HEAD", "W_BODY", {angle}, 0.5f, 0.2f, 1.0f, -12.0f, 12.0f, 10));
    part.deformers.push_back(rotation("R_ARM", "W_BODY", {arm, body}, 0.8f, 0.4f, 1.0f, -40.0f, 25.0f, 10));
    part.deformers.push_back(rotation("R_HAND", "R_ARM", {arm}, 120.0f, 30.0f, 0.8f, 10.0f, -35.0f, 10));
    part.deformers.back().affines[1].reflect_x = true;
    part.deformers.push_back(rotation("R_ROOT", kRootId, {angle}, 600.0f, 700.0f, 1.2f, 5.0f, -5.0f, 10));
    part.deformers.back().affines[2].reflect_y = true;
    part.deformers.push_back(warp("W_HAIR", "R_HEAD", {angle}, 2, 2, -150, -250, 300, 200, 4.0f, 10));
    part.meshes.push_back(mesh("D_HEAD", "R_HEAD", {angle}, -100, -200, 200));
    part.meshes.push_back(mesh("D_ARM", "R_ARM", {arm}, -20, -10, 150));
    part.meshes.push_back(mesh("D_HAND", "R_HAND", {}, -15, -15, 60));
    part.meshes.push_back(mesh("D_BADGE", "R_ROOT", {angle}, -30, -30, 60));
    part.meshes.push_back(mesh("D_HAIR", "W_HAIR", {angle, arm}, 0.1f, 0.1f, 0.8f));
    moc.parts = {part};
    out.push_back({"rotations", moc, poses_for(moc, 60)});
  }
  {  // Draw orders keyed on three parameters: the runtime truncates after every stage.
    Moc moc = base(9, {{"PARAM_A", 0, 1, 0}, {"PARAM_B", 0, 1, 0}, {"PARAM_C", 0, 1, 0}});
    const KeyAxis a{"PARAM_A", {0, 1}}, b{"PARAM_B", {0, 1}}, c{"PARAM_C", {0, 0.5f, 1}};
    Part part;
    part.id = "PARTS_01";
    for (int i = 0; i < 5; ++i) {
      Mesh m = mesh("D_LAYER." + std::to_string(i), kRootId, {a, b, c}, 100.0f + 40.0f * static_cast<float>(i), 200, 300);
      for (std::size_t k = 0; k < m.draw_orders.size(); ++k)
        m.draw_orders[k] = static_cast<std::int32_t>(300 + ((k * 37 + static_cast<std::size_t>(i) * 53) % 11) * 7 + i);
      part.meshes.push_back(std::move(m));
    }
    moc.parts = {part};
    out.push_back({"draw-order", moc, poses_for(moc, 80)});
  }
  {  // Opacity keyforms on meshes and deformers (version 10), and a part hidden at the start.
    Moc moc = base(10, {{"PARAM_FADE", 0, 1, 0}, {"PARAM_SHOW", -1, 1, 0}});
    const KeyAxis fade{"PARAM_FADE", {0, 0.3f, 1}}, show{"PARAM_SHOW", {-1, 1}};
    Part part;
    part.id = "PARTS_01";
    part.deformers.push_back(warp("W_BODY", kRootId, {fade, show}, 1, 1, 100, 100, 900, 1200, 5.0f, 10));
    part.deformers.back().opacities = {1.0f, 0.6f, 0.0f, 0.9f, 0.35f, 1.0f};
    part.deformers.push_back(rotation("R_ARM", "W_BODY", {show}, 0.5f, 0.5f, 1.0f, 0.0f, 20.0f, 10));
    part.deformers.back().opacities = {0.2f, 0.8f};
    Mesh m1 = mesh("D_ARM", "R_ARM", {fade}, -50, -50, 100);
    m1.opacities = {1.0f, 0.5f, 0.125f};
    Mesh m2 = mesh("D_BODY", "W_BODY", {show, fade}, 0.2f, 0.2f, 0.5f);
    m2.opacities = {0.0f, 1.0f, 0.7f, 0.3f, 1.0f, 0.05f};
    part.meshes = {m1, m2};
    Part hidden;
    hidden.id = "PARTS_02_HIDDEN";
    hidden.visible = false;
    hidden.meshes.push_back(mesh("D_HIDDEN", kRootId, {}, 10, 10, 50));
    moc.parts = {part, hidden};
    out.push_back({"opacity", moc, poses_for(moc, 50)});
  }
  {  // Version 11 masks: one mask, a union of two, a mask under a deformer.
    Moc moc = base(11, {{"PARAM_A", -1, 1, 0}});
    const KeyAxis a{"PARAM_A", {-1, 1}};
    Part part;
    part.id = "PARTS_01";
    part.deformers.push_back(warp("W_FACE", kRootId, {a}, 2, 2, 200, 200, 700, 700, 9.0f, 11));
    part.meshes.push_back(mesh("D_EYE_WHITE", "W_FACE", {a}, 0.2f, 0.2f, 0.3f));
    part.meshes.push_back(mesh("D_CHEEK", kRootId, {}, 300, 600, 200));
    Mesh iris = mesh("D_IRIS", "W_FACE", {a}, 0.25f, 0.25f, 0.2f);
    iris.clip_ids = {"D_EYE_WHITE"};
    Mesh blush = mesh("D_BLUSH", kRootId, {a}, 250, 550, 300);
    blush.clip_ids = {"D_CHEEK", "D_EYE_WHITE"};
    part.meshes.push_back(iris);
    part.meshes.push_back(blush);
    moc.parts = {part};
    out.push_back({"masks", moc, poses_for(moc, 20)});
  }
  {  // Keys that cover part of a range: a deformer outside its keys leaves the warps under it
     // their last frames, rotations under it compose over those, meshes draw through them.
    Moc moc = base(11, {{"PARAM_BODY", -10, 10, 0}, {"PARAM_HEAD", -1, 1, 0}, {"PARAM_BROW", -1, 1, 0}});
    const KeyAxis body{"PARAM_BODY", {0, 10}}, head{"PARAM_HEAD", {-1, 0, 1}}, brow{"PARAM_BROW", {-1, 1}};
    Part part;
    part.id = "PARTS_01";
    part.deformers.push_back(warp("W_BODY", kRootId, {body}, 2, 2, 200, 300, 800, 1000, 30.0f, 11));
    part.deformers.push_back(warp("W_HEAD", "W_BODY", {head}, 2, 2, 0.1f, 0.05f, 0.8f, 0.5f, 0.02f, 11));
    part.deformers.push_back(warp("W_EYE", "W_HEAD", {}, 1, 1, 0.2f, 0.2f, 0.6f, 0.4f, 0.0f, 11));
    part.deformers.push_back(rotation("R_BROW", "W_EYE", {brow}, 0.5f, 0.3f, 1.0f, -8.0f, 16.0f, 11));
    part.deformers.push_back(rotation("R_TAIL", "W_BODY", {head}, 0.5f, 0.9f, 1.0f, -20.0f, 20.0f, 11));
    part.meshes.push_back(mesh("D_BODY", "W_BODY", {}, 0.2f, 0.2f, 0.6f));
    part.meshes.push_back(mesh("D_FACE", "W_HEAD", {}, 0.2f, 0.2f, 0.6f));
    part.meshes.push_back(mesh("D_EYE", "W_EYE", {}, 0.2f, 0.2f, 0.6f));
    part.meshes.push_back(mesh("D_BROW", "R_BROW", {brow}, -40, -10, 80));
    part.meshes.push_back(mesh("D_TAIL", "R_TAIL", {}, -30, 0, 120));
    moc.parts = {part};
    // The first pose puts the body outside its keys before any frame of the head was made.
    Fixture f{"stale-frames", moc, {{{"PARAM_BODY", -5}}}};
    for (Pose& p : poses_for(moc, 60)) f.poses.push_back(std::move(p));
    out.push_back(std::move(f));
  }
  {  // Version 6: the oldest layout (no options, no end marker, no deformer opacity).
    Moc moc = base(6, {{"PARAM_A", -1, 1, 0}, {"PARAM_B", 0, 2, 1}});
    const KeyAxis a{"PARAM_A", {-1, 0, 1}}, b{"PARAM_B", {0, 2}};
    Part part;
    part.id = "PARTS_01";
    part.deformers.push_back(warp("W_BODY", kRootId, {a, b}, 2, 3, 100, 100, 500, 600, 7.0f, 6));
    part.deformers.push_back(rotation("R_HEAD", "W_BODY", {a}, 0.5f, 0.3f, 1.0f, -15.0f, 15.0f, 6));
    part.meshes.push_back(mesh("D_HEAD", "R_HEAD", {b}, -60, -60, 120));
    part.meshes.push_back(mesh("D_BODY", "W_BODY", {a}, 0.1f, 0.1f, 0.8f));
    moc.parts = {part};
    out.push_back({"version-6", moc, poses_for(moc, 30)});
  }
  return out;
}

}  // namespace p2l_test::cubism2
