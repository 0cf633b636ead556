// What a host needs to draw Cubism 5.3 offscreens itself, through the C API, on a synthetic
// moc3 version 6 (tests/cubism/synth_model.hpp; no Cubism file needed): which parts are
// offscreens (isolated groups) and how they composite, where their layers open and close in the
// render commands, their masks, and their opacity, which carries the part opacities above the
// offscreen instead of its meshes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "p2l/p2l.h"
#include "synth_model.hpp"

namespace {

struct Handle {
  P2lRig* rig = nullptr;
  ~Handle() { p2l_rig_free(rig); }
};

// The seed and features of the v6-masks fixture: nested offscreens, masked and inverted ones.
p2l::Rig imported_rig(std::uint64_t seed, const char* features) {
  p2l_test::synth::Features f;
  std::string list = features;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    EXPECT_TRUE(f.set(list.substr(at, comma - at))) << list.substr(at, comma - at);
    at = comma + 1;
  }
  const auto moc = p2l_test::synth::generate_moc3(seed, 6, f);
  EXPECT_FALSE(moc.bytes.empty()) << moc.error;
  p2l::ImportResult imported = p2l::import_moc3(moc.bytes);
  EXPECT_TRUE(imported) << imported.error.to_string();
  return std::move(imported.rig);
}

void load(const p2l::Rig& rig, Handle& h) {
  const p2l::WriteResult written = p2l::write(rig, {});
  ASSERT_TRUE(written) << written.error.to_string();
  char error[256] = {0};
  h.rig = p2l_rig_load(written.bytes.data(), written.bytes.size(), error, sizeof error);
  ASSERT_NE(h.rig, nullptr) << error;
}

std::vector<int32_t> commands(const P2lRig* rig) {
  std::vector<int32_t> out(p2l_render_commands(rig, nullptr, 0));
  p2l_render_commands(rig, out.data(), static_cast<uint32_t>(out.size()));
  return out;
}

bool under(const P2lRig* rig, int32_t part, int32_t ancestor) {
  for (; part >= 0; part = p2l_part_parent(rig, static_cast<uint32_t>(part)))
    if (part == ancestor) return true;
  return false;
}

TEST(CubismOffscreens, TheCApiShowsWhereEachLayerOpensAndWhatItHolds) {
  const p2l::Rig rig = imported_rig(14, "default,offscreens,offscreen-masks");
  Handle h;
  load(rig, h);
  std::vector<uint32_t> isolated;
  for (uint32_t p = 0; p < p2l_part_count(h.rig); ++p) {
    int32_t blend = -1, alpha = -1;
    bool invert = false;
    if (p2l_part_group(h.rig, p, &blend, &alpha, &invert) == P2L_GROUP_ISOLATED) {
      isolated.push_back(p);
      EXPECT_EQ(blend, rig.parts[p].composite.blend);
      EXPECT_EQ(alpha, rig.parts[p].composite.alpha_blend);
      EXPECT_EQ(invert, rig.parts[p].composite.invert_mask);
      std::vector<uint32_t> masks(p2l_part_masks(h.rig, p, nullptr, 0));
      p2l_part_masks(h.rig, p, masks.data(), static_cast<uint32_t>(masks.size()));
      EXPECT_EQ(masks.size(), rig.parts[p].composite.mask_meshes.size()) << "part " << p;
    }
  }
  ASSERT_GE(isolated.size(), 2u) << "the generator made too few offscreens to test";
  bool masked = false;
  for (uint32_t p : isolated) masked = masked || !rig.parts[p].composite.mask_meshes.empty();
  EXPECT_TRUE(masked) << "no masked offscreen";

  p2l_evaluate(h.rig);
  // Layers nest like the parts: every mesh drawn inside a layer, and every layer opened inside
  // another, lies under that layer's part; each opened layer is closed.
  std::vector<int32_t> open;
  std::size_t layers = 0;
  for (int32_t c : commands(h.rig)) {
    if (P2L_RENDER_IS_GROUP(c)) {
      const auto part = static_cast<int32_t>(P2L_RENDER_GROUP_PART(c));
      EXPECT_EQ(p2l_part_group(h.rig, static_cast<uint32_t>(part), nullptr, nullptr, nullptr), P2L_GROUP_ISOLATED);
      if (!open.empty()) EXPECT_TRUE(under(h.rig, part, open.back())) << "layer of part " << part;
      open.push_back(part);
      ++layers;
    } else if (c == P2L_RENDER_END_GROUP) {
      ASSERT_FALSE(open.empty());
      open.pop_back();
    } else if (!open.empty()) {
      EXPECT_TRUE(under(h.rig, p2l_mesh_part(h.rig, static_cast<uint32_t>(c)), open.back())) << "mesh " << c;
    }
  }
  EXPECT_TRUE(open.empty());
  EXPECT_GE(layers, 1u);
}

TEST(CubismOffscreens, PartOpacityAboveAnOffscreenDimsTheOffscreenNotItsMeshes) {
  const p2l::Rig rig = imported_rig(65, "default,offscreens,offscreen-keyforms");
  Handle h;
  load(rig, h);
  // An offscreen part with a parent part: the parent's opacity reaches the offscreen (its
  // product stops there), and its meshes keep theirs.
  for (uint32_t p = 0; p < p2l_part_count(h.rig); ++p) {
    const int32_t parent = p2l_part_parent(h.rig, p);
    if (parent < 0 || p2l_part_group(h.rig, p, nullptr, nullptr, nullptr) != P2L_GROUP_ISOLATED ||
        p2l_part_group(h.rig, static_cast<uint32_t>(parent), nullptr, nullptr, nullptr) == P2L_GROUP_ISOLATED)
      continue;
    std::vector<uint32_t> meshes;
    for (uint32_t m = 0; m < p2l_mesh_count(h.rig); ++m)
      if (p2l_mesh_part(h.rig, m) == static_cast<int32_t>(p)) meshes.push_back(m);
    p2l_evaluate(h.rig);
    float before = 0, after = 0;
    ASSERT_TRUE(p2l_part_composite(h.rig, p, &before, nullptr, nullptr));
    if (!(before > 0.0f) || p2l_part_opacity(h.rig, static_cast<uint32_t>(parent)) == 0.0f) continue;
    std::vector<float> mesh_before;
    for (uint32_t m : meshes) mesh_before.push_back(p2l_mesh_opacity(h.rig, m));
    const float parent_opacity = p2l_part_opacity(h.rig, static_cast<uint32_t>(parent));
    ASSERT_TRUE(p2l_set_part_opacity(h.rig, static_cast<uint32_t>(parent), parent_opacity * 0.5f));
    p2l_evaluate(h.rig);
    ASSERT_TRUE(p2l_part_composite(h.rig, p, &after, nullptr, nullptr));
    EXPECT_FLOAT_EQ(after, before * 0.5f) << "part " << p;
    for (std::size_t k = 0; k < meshes.size(); ++k)
      EXPECT_EQ(p2l_mesh_opacity(h.rig, meshes[k]), mesh_before[k]) << "mesh " << meshes[k] << " under part " << p;
    p2l_set_part_opacity(h.rig, static_cast<uint32_t>(parent), parent_opacity);
    return;
  }
  FAIL() << "no shown offscreen part under a plain part";
}

}  // namespace
