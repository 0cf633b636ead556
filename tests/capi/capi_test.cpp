// The C API over the static library: loading and its errors, handle lifetimes, every
// accessor against the Rig p2l::load reads from the same bytes, the host layer, array
// capacities and hit testing.
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eval/hit_test.hpp"
#include "full_rig.hpp"
#include "p2l/format.hpp"
#include "p2l/p2l.h"
#include "small_rig.hpp"
#include "test_util.hpp"

namespace {

using p2l_test::vector_file;

struct RigDeleter {
  void operator()(P2lRig* rig) const { p2l_rig_free(rig); }
};
struct ModelDeleter {
  void operator()(P2lModel* model) const { p2l_model_free(model); }
};
using RigPtr = std::unique_ptr<P2lRig, RigDeleter>;
using ModelPtr = std::unique_ptr<P2lModel, ModelDeleter>;

RigPtr load_rig(const std::vector<std::uint8_t>& bytes, std::string* error = nullptr) {
  char buffer[512] = "untouched";
  RigPtr rig(p2l_rig_load(bytes.data(), bytes.size(), buffer, sizeof buffer));
  if (error != nullptr) *error = buffer;
  return rig;
}

std::vector<std::uint8_t> bytes_of(const p2l::Rig& rig) {
  auto written = p2l::write(rig);
  EXPECT_TRUE(written) << written.error.to_string();
  return written.bytes;
}

std::string error_text_of(const std::string& file) {
  std::string path = p2l_test::vectors_dir() + "/" + file;
  path.replace(path.find(".p2lrt"), 6, ".error.txt");
  auto text = p2l_test::read_bytes(path);
  return {text.begin(), text.end()};
}

// --- loading and errors ---

TEST(CapiLoad, NullBytesAreRefusedWithAMessage) {
  char error[64] = "";
  EXPECT_EQ(p2l_rig_load(nullptr, 100, error, sizeof error), nullptr);
  EXPECT_STREQ(error, "No rig bytes");
  std::strcpy(error, "x");
  EXPECT_EQ(p2l_rig_load_ex(nullptr, 0, P2L_LOAD_VERIFY_CRC, error, sizeof error), nullptr);
  EXPECT_STREQ(error, "No rig bytes");
  std::strcpy(error, "x");
  EXPECT_EQ(p2l_model_load(nullptr, 0, 0, error, sizeof error), nullptr);
  EXPECT_STREQ(error, "No rig bytes");
  std::strcpy(error, "x");
  EXPECT_EQ(p2l_rig_create(nullptr, error, sizeof error), nullptr);
  EXPECT_STREQ(error, "No model");
}

TEST(CapiLoad, TruncatedFileGivesTheReadersMessage) {
  auto bytes = bytes_of(p2l_test::make_small_rig());
  for (std::size_t keep : {std::size_t{7}, std::size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(keep));
    auto expected = p2l::load(cut);
    ASSERT_FALSE(expected) << keep;
    std::string error;
    EXPECT_EQ(load_rig(cut, &error), nullptr) << keep;
    EXPECT_EQ(error, expected.error.to_string()) << keep;
    EXPECT_NE(error.find(p2l::error_code_name(expected.error.code)), std::string::npos) << error;
  }
}

TEST(CapiLoad, RefusedVectorsNameTheSameChunkAsTheOriginal) {
  P2L_REQUIRE_VECTORS();
  struct Case {
    const char* file;
    std::uint32_t flags;
    const char* key;
  } cases[] = {
      {"bad_crc.p2lrt", P2L_LOAD_VERIFY_CRC, "CRC"},
      {"bad_crc.p2lrt", P2L_LOAD_VERIFY_CRC, "CANV"},
      {"bad_missing_draw.p2lrt", 0, "DRAW"},
      {"bad_required_chunk.p2lrt", 0, "XREQ"},
  };
  for (const auto& c : cases) {
    auto bytes = vector_file(c.file);
    ASSERT_FALSE(bytes.empty()) << c.file;
    EXPECT_NE(error_text_of(c.file).find(c.key), std::string::npos) << c.file;
    char error[512] = "";
    EXPECT_EQ(p2l_rig_load_ex(bytes.data(), bytes.size(), c.flags, error, sizeof error), nullptr) << c.file;
    EXPECT_NE(std::string(error).find(c.key), std::string::npos) << c.file << ": " << error;
    std::strcpy(error, "");
    EXPECT_EQ(p2l_model_load(bytes.data(), bytes.size(), c.flags, error, sizeof error), nullptr) << c.file;
    EXPECT_NE(std::string(error).find(c.key), std::string::npos) << c.file << ": " << error;
  }
  // Without the flag the CRC is not checked, and the file loads.
  auto bytes = vector_file("bad_crc.p2lrt");
  RigPtr rig(p2l_rig_load_ex(bytes.data(), bytes.size(), 0, nullptr, 0));
  EXPECT_NE(rig, nullptr);
}

TEST(CapiLoad, ErrorBufferIsCutToItsCapacity) {
  char error[8];
  std::memset(error, '#', sizeof error);
  EXPECT_EQ(p2l_rig_load(nullptr, 0, error, 5), nullptr);
  EXPECT_STREQ(error, "No r");
  EXPECT_EQ(error[5], '#');

  std::memset(error, '#', sizeof error);
  EXPECT_EQ(p2l_rig_load(nullptr, 0, error, 1), nullptr);
  EXPECT_EQ(error[0], '\0');
  EXPECT_EQ(error[1], '#');

  std::memset(error, '#', sizeof error);
  EXPECT_EQ(p2l_rig_load(nullptr, 0, error, 0), nullptr);
  EXPECT_EQ(error[0], '#');

  EXPECT_EQ(p2l_rig_load(nullptr, 0, nullptr, 100), nullptr);
  const std::uint8_t junk[] = {1, 2, 3};
  EXPECT_EQ(p2l_rig_load(junk, sizeof junk, nullptr, 100), nullptr);
  EXPECT_EQ(p2l_model_load(junk, sizeof junk, 0, nullptr, 0), nullptr);
}

std::vector<std::string> logged;
void remember(std::int32_t level, const char* message, void* user) {
  EXPECT_EQ(level, P2L_LOG_ERROR);
  EXPECT_EQ(user, &logged);
  logged.emplace_back(message);
}

TEST(CapiLoad, FailedLoadsReachTheLog) {
  logged.clear();
  p2l_set_log(remember, &logged);
  const std::uint8_t junk[] = {'P', '2', 'L'};
  char error[256];
  EXPECT_EQ(p2l_rig_load(junk, sizeof junk, error, sizeof error), nullptr);
  p2l_set_log(nullptr, nullptr);
  EXPECT_EQ(p2l_rig_load(junk, sizeof junk, error, sizeof error), nullptr);
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0], error);
}

TEST(CapiLoad, LoadedRigIsEvaluatedAndKeepsNoReferenceToTheBytes) {
  auto bytes = bytes_of(p2l_test::make_small_rig());
  RigPtr rig(p2l_rig_load(bytes.data(), bytes.size(), nullptr, 0));
  ASSERT_NE(rig, nullptr);
  std::vector<float> before(p2l_mesh_vertices(rig.get(), 0), p2l_mesh_vertices(rig.get(), 0) + 8);
  std::fill(bytes.begin(), bytes.end(), std::uint8_t{0xEE});
  bytes.clear();
  bytes.shrink_to_fit();
  EXPECT_STREQ(p2l_mesh_id(rig.get(), 0), "A");
  p2l_evaluate(rig.get());
  EXPECT_EQ(std::vector<float>(p2l_mesh_vertices(rig.get(), 0), p2l_mesh_vertices(rig.get(), 0) + 8), before);
  EXPECT_EQ(p2l_rig_failure(rig.get()), nullptr);
}

// --- versions and memory ---

TEST(CapiLibrary, VersionsAndAllocator) {
  EXPECT_TRUE(P2L_ABI_COMPATIBLE(p2l_abi_version()));
  EXPECT_EQ(p2l_abi_version(), (1u << 16) | 4u);
  EXPECT_STREQ(p2l_version(), "0.1.0");
  EXPECT_STREQ(p2l_format_support(), p2l::format_support());
  EXPECT_FALSE(p2l_set_allocator(nullptr, nullptr, nullptr));
}

TEST(CapiLibrary, AllocGivesZeroedBytes) {
  std::uint8_t* p = p2l_alloc(1000);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], 0) << i;
  p[999] = 1;
  p2l_dealloc(p, 1000);
  std::uint8_t* a = p2l_alloc(0);
  std::uint8_t* b = p2l_alloc(0);
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  p2l_dealloc(a, 0);
  p2l_dealloc(b, 0);
  p2l_dealloc(nullptr, 0);
}

// --- models and rigs ---

TEST(CapiModel, TwoRigsShareAModelAndOutliveIt) {
  auto bytes = bytes_of(p2l_test::make_small_rig());
  char error[128] = "";
  ModelPtr model(p2l_model_load(bytes.data(), bytes.size(), P2L_LOAD_VERIFY_CRC, error, sizeof error));
  ASSERT_NE(model, nullptr) << error;
  RigPtr a(p2l_rig_create(model.get(), error, sizeof error));
  RigPtr b(p2l_rig_create(model.get(), error, sizeof error));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  // The strings come from the shared model.
  EXPECT_EQ(p2l_mesh_id(a.get(), 0), p2l_mesh_id(b.get(), 0));
  EXPECT_EQ(p2l_mesh_uvs(a.get(), 0), p2l_mesh_uvs(b.get(), 0));

  const float* vb = p2l_mesh_vertices(b.get(), 0);
  std::vector<float> b_before(vb, vb + 8);
  p2l_set_parameter(a.get(), 0, 30.0f);
  p2l_evaluate(a.get());
  p2l_evaluate(b.get());
  EXPECT_EQ(p2l_parameter_values(b.get())[0], 0.0f);
  EXPECT_EQ(std::vector<float>(p2l_mesh_vertices(b.get(), 0), p2l_mesh_vertices(b.get(), 0) + 8), b_before);
  EXPECT_NE(std::vector<float>(p2l_mesh_vertices(a.get(), 0), p2l_mesh_vertices(a.get(), 0) + 8), b_before);

  // The model goes first; the rigs and everything they handed out stay valid.
  const char* id = p2l_mesh_id(a.get(), 0);
  model.reset();
  EXPECT_STREQ(id, "A");
  a.reset();
  EXPECT_STREQ(p2l_mesh_id(b.get(), 0), "A");
  p2l_set_parameter(b.get(), 0, -30.0f);
  p2l_evaluate(b.get());
  EXPECT_EQ(p2l_parameter_current(b.get())[0], -30.0f);
  EXPECT_EQ(p2l_rig_failure(b.get()), nullptr);
}

// --- accessors against the Rig ---

std::string str(const char* s) { return s != nullptr ? s : "<null>"; }

std::int32_t part_holding_mesh(const p2l::Rig& rig, std::uint32_t mesh) {
  for (std::size_t p = 0; p < rig.parts.size(); ++p)
    for (const auto& child : rig.parts[p].children)
      if (child.kind == p2l::ChildKind::Mesh && child.index == mesh) return static_cast<std::int32_t>(p);
  return -1;
}

std::int32_t part_holding_part(const p2l::Rig& rig, std::uint32_t part) {
  for (std::size_t p = 0; p < rig.parts.size(); ++p)
    for (const auto& child : rig.parts[p].children)
      if (child.kind == p2l::ChildKind::Part && child.index == part) return static_cast<std::int32_t>(p);
  return -1;
}

// Every accessor of [c] against [rig], the same file read by p2l::load.
void expect_matches(const P2lRig* c, const p2l::Rig& rig) {
  float w = 0, h = 0, x = 0, y = 0, ppu = 0;
  p2l_canvas(c, &w, &h);
  p2l_canvas_origin(c, &x, &y, &ppu);
  EXPECT_EQ(w, rig.canvas.width);
  EXPECT_EQ(h, rig.canvas.height);
  EXPECT_EQ(x, rig.canvas.origin_x);
  EXPECT_EQ(y, rig.canvas.origin_y);
  EXPECT_EQ(ppu, rig.canvas.pixels_per_unit < 0 ? 0.0f : rig.canvas.pixels_per_unit);

  // Parameters.
  ASSERT_EQ(p2l_parameter_count(c), rig.parameters.size());
  for (std::uint32_t i = 0; i < rig.parameters.size(); ++i) {
    const auto& p = rig.parameters[i];
    EXPECT_EQ(str(p2l_parameter_id(c, i)), p.id);
    EXPECT_EQ(str(p2l_parameter_name(c, i)), p.name);
    EXPECT_EQ(p2l_parameter_index(c, p.id.c_str()), rig.find_parameter(p.id));
    float lo = 0, hi = 0, def = 0;
    EXPECT_TRUE(p2l_parameter_range(c, i, &lo, &hi, &def));
    EXPECT_EQ(lo, p.min);
    EXPECT_EQ(hi, p.max);
    EXPECT_EQ(def, p.default_value);
    EXPECT_EQ(p2l_parameter_flags(c, i), (p.repeat ? P2L_PARAMETER_REPEAT : 0u) | (p.blend ? P2L_PARAMETER_BLEND_SHAPE : 0u));
    std::vector<float> snaps;
    if (rig.gui)
      for (const auto& s : rig.gui->snaps)
        if (s.parameter == i) {
          snaps = s.values.to_vector();
          break;
        }
    std::vector<float> got(snaps.size() + 1, -99.0f);
    EXPECT_EQ(p2l_parameter_snaps(c, i, got.data(), static_cast<std::uint32_t>(got.size())), snaps.size());
    got.pop_back();
    EXPECT_EQ(got, snaps);
  }
  for (const auto& role : rig.roles) {
    std::vector<std::uint32_t> expected;
    for (const auto& r : rig.roles)
      if (r.role == role.role) expected.insert(expected.end(), r.parameters.begin(), r.parameters.end());
    std::vector<std::uint32_t> got(expected.size());
    EXPECT_EQ(p2l_role_parameters(c, role.role.c_str(), got.data(), static_cast<std::uint32_t>(got.size())),
              expected.size());
    EXPECT_EQ(got, expected) << role.role;
  }
  EXPECT_EQ(p2l_role_parameters(c, "NoSuchRole", nullptr, 0), 0u);
  EXPECT_EQ(p2l_role_parameters(c, nullptr, nullptr, 0), 0u);

  // Meshes.
  ASSERT_EQ(p2l_mesh_count(c), rig.meshes.size());
  std::vector<std::string> user_data(rig.meshes.size());
  for (const auto& u : rig.user_data)
    if (u.kind == 0) user_data[u.target] = u.value;
  for (std::uint32_t i = 0; i < rig.meshes.size(); ++i) {
    const auto& m = rig.meshes[i];
    EXPECT_EQ(str(p2l_mesh_id(c, i)), m.id);
    EXPECT_EQ(str(p2l_mesh_name(c, i)), m.name);
    EXPECT_EQ(p2l_mesh_vertex_count(c, i), m.vertex_count());
    std::uint32_t count = 99;
    const std::uint32_t* indices = p2l_mesh_indices(c, i, &count);
    if (m.geometry) {
      const float* uvs = p2l_mesh_uvs(c, i);
      ASSERT_NE(uvs, nullptr);
      EXPECT_EQ(std::vector<float>(uvs, uvs + m.geometry->uvs.size()), m.geometry->uvs.to_vector());
      ASSERT_EQ(count, m.geometry->indices.size());
      EXPECT_EQ(std::vector<std::uint32_t>(indices, indices + count), m.geometry->indices.to_vector());
    } else {
      EXPECT_EQ(p2l_mesh_uvs(c, i), nullptr);
      EXPECT_EQ(indices, nullptr);
      EXPECT_EQ(count, 0u);
    }
    EXPECT_EQ(p2l_mesh_texture(c, i), m.texture_page);
    bool culling = !m.culling;
    EXPECT_EQ(p2l_mesh_blend(c, i, &culling), m.blend);
    EXPECT_EQ(culling, m.culling);
    EXPECT_EQ(p2l_mesh_alpha_blend(c, i), m.alpha_blend);
    EXPECT_EQ(p2l_mesh_part(c, i), part_holding_mesh(rig, i));
    bool inverted = !m.invert_mask;
    std::vector<std::uint32_t> masks(m.mask_meshes.size());
    EXPECT_EQ(p2l_mesh_masks(c, i, masks.data(), static_cast<std::uint32_t>(masks.size()), &inverted),
              m.mask_meshes.size());
    EXPECT_EQ(masks, m.mask_meshes);
    EXPECT_EQ(inverted, m.invert_mask);
    EXPECT_EQ(str(p2l_mesh_user_data(c, i)), user_data[i]);
    if (m.vertex_count() > 0) EXPECT_NE(p2l_mesh_vertices(c, i), nullptr);
    EXPECT_FALSE(std::isnan(p2l_mesh_opacity(c, i)));
    EXPECT_FALSE(std::isnan(p2l_mesh_draw_order(c, i)));
  }

  // Parts.
  ASSERT_EQ(p2l_part_count(c), rig.parts.size());
  for (std::uint32_t i = 0; i < rig.parts.size(); ++i) {
    const auto& p = rig.parts[i];
    EXPECT_EQ(str(p2l_part_id(c, i)), p.id);
    EXPECT_EQ(str(p2l_part_name(c, i)), p.name);
    EXPECT_EQ(p2l_part_parent(c, i), part_holding_part(rig, i));
    EXPECT_EQ(p2l_part_flags(c, i), (p.visible ? P2L_PART_VISIBLE : 0u) | (p.sketch ? P2L_PART_SKETCH : 0u));
    std::int32_t blend = -9, alpha = -9;
    bool invert = false;
    EXPECT_EQ(p2l_part_group(c, i, &blend, &alpha, &invert), p.group_mode);
    EXPECT_GE(blend, 0);
    EXPECT_GE(alpha, 0);
    EXPECT_EQ(p2l_part_opacity(c, i), 1.0f);
    float opacity = -1;
    EXPECT_TRUE(p2l_part_composite(c, i, &opacity, nullptr, nullptr));
    EXPECT_FALSE(std::isnan(opacity));
    std::uint32_t total = p2l_part_masks(c, i, nullptr, 0);
    std::vector<std::uint32_t> masks(total);
    EXPECT_EQ(p2l_part_masks(c, i, masks.data(), total), total);
    for (std::uint32_t m : masks) EXPECT_LT(m, rig.meshes.size());
  }

  // Texture pages.
  ASSERT_EQ(p2l_texture_count(c), rig.textures.size());
  for (std::uint32_t i = 0; i < rig.textures.size(); ++i) {
    const auto& t = rig.textures[i];
    std::size_t len = 99;
    std::uint32_t tw = 0, th = 0;
    const std::uint8_t* png = p2l_texture_png(c, i, &len, &tw, &th);
    EXPECT_EQ(tw, t.width);
    EXPECT_EQ(th, t.height);
    if (t.kind == p2l::TextureKind::Png) {
      ASSERT_EQ(len, t.data.size());
      EXPECT_EQ(std::vector<std::uint8_t>(png, png + len), t.data.to_vector());
    } else {
      EXPECT_EQ(png, nullptr);
      EXPECT_EQ(len, 0u);
    }
    std::int32_t kind = -9;
    const std::uint8_t* data = reinterpret_cast<const std::uint8_t*>(1);
    len = 99;
    const char* uri = p2l_texture_info(c, i, &kind, &tw, &th, &data, &len);
    EXPECT_EQ(kind, static_cast<std::int32_t>(t.kind));
    EXPECT_EQ(str(uri), t.uri);
    if (t.kind == p2l::TextureKind::External) {
      EXPECT_EQ(data, nullptr);
      EXPECT_EQ(len, 0u);
    } else {
      ASSERT_EQ(len, t.data.size());
      EXPECT_EQ(std::vector<std::uint8_t>(data, data + len), t.data.to_vector());
      EXPECT_EQ(str(uri), "");
    }
  }

  // Hit areas.
  ASSERT_EQ(p2l_hit_area_count(c), rig.hit_areas.size());
  for (std::uint32_t i = 0; i < rig.hit_areas.size(); ++i) {
    const auto& a = rig.hit_areas[i];
    EXPECT_EQ(str(p2l_hit_area_id(c, i)), a.id);
    EXPECT_EQ(str(p2l_hit_area_name(c, i)), a.name);
    std::vector<std::uint32_t> meshes(a.meshes.size());
    EXPECT_EQ(p2l_hit_area_meshes(c, i, meshes.data(), static_cast<std::uint32_t>(meshes.size())), a.meshes.size());
    EXPECT_EQ(meshes, a.meshes);
  }

  // Generator information.
  ASSERT_EQ(p2l_meta_count(c), rig.meta.size());
  for (std::uint32_t i = 0; i < rig.meta.size(); ++i) {
    EXPECT_EQ(str(p2l_meta_key(c, i)), rig.meta[i].key);
    EXPECT_EQ(str(p2l_meta_value(c, i)), rig.meta[i].value);
  }

  // Parameter panel.
  const std::size_t nodes = rig.gui ? rig.gui->nodes.size() : 0;
  ASSERT_EQ(p2l_gui_node_count(c), nodes);
  for (std::uint32_t i = 0; i < nodes; ++i) {
    const auto& n = rig.gui->nodes[i];
    EXPECT_EQ(str(p2l_gui_node_id(c, i)), n.id);
    EXPECT_EQ(str(p2l_gui_node_name(c, i)), n.name);
    std::int32_t parameter = -9;
    std::uint32_t children = 99;
    bool open = !n.open;
    EXPECT_TRUE(p2l_gui_node(c, i, &parameter, &children, &open));
    EXPECT_EQ(parameter, n.group ? -1 : n.parameter);
    EXPECT_EQ(children, n.children);
    EXPECT_EQ(open, n.open);
    const char* preset = nullptr;
    std::uint32_t argb = 7;
    EXPECT_EQ(p2l_gui_node_label(c, i, &preset, &argb), static_cast<std::int32_t>(n.label));
    EXPECT_EQ(str(preset), n.label == p2l::GuiLabel::Preset ? n.preset : "");
    EXPECT_EQ(argb, n.label == p2l::GuiLabel::Custom ? n.argb : 0u);
  }
  const std::size_t joysticks = rig.gui ? rig.gui->joysticks.size() : 0;
  std::vector<std::uint32_t> pairs(2 * joysticks + 2, 77u);
  EXPECT_EQ(p2l_gui_joysticks(c, pairs.data(), static_cast<std::uint32_t>(joysticks)), joysticks);
  for (std::size_t j = 0; j < joysticks; ++j) {
    EXPECT_EQ(pairs[2 * j], rig.gui->joysticks[j].horizontal);
    EXPECT_EQ(pairs[2 * j + 1], rig.gui->joysticks[j].vertical);
  }
  EXPECT_EQ(pairs[2 * joysticks], 77u);  // capacity counts pairs
}

// Out-of-range indices on a working rig: NULL, -1, NaN, false, 0.
void expect_out_of_range_defaults(P2lRig* c) {
  const std::uint32_t n = 1u << 30;
  float f = 5, rgb[3] = {5, 5, 5};
  std::uint32_t u = 5;
  std::int32_t i = 5;
  bool b = true;
  std::size_t len = 5;
  const std::uint8_t* data = nullptr;
  const char* s = nullptr;
  EXPECT_EQ(p2l_parameter_id(c, n), nullptr);
  EXPECT_EQ(p2l_parameter_name(c, n), nullptr);
  EXPECT_FALSE(p2l_parameter_range(c, n, &f, &f, &f));
  EXPECT_EQ(p2l_parameter_flags(c, n), 0u);
  EXPECT_EQ(p2l_parameter_snaps(c, n, &f, 1), 0u);
  p2l_set_parameter(c, n, 1.0f);
  EXPECT_FALSE(p2l_gui_node(c, n, &i, &u, &b));
  EXPECT_EQ(p2l_gui_node_id(c, n), nullptr);
  EXPECT_EQ(p2l_gui_node_label(c, n, &s, &u), -1);
  EXPECT_EQ(p2l_mesh_id(c, n), nullptr);
  EXPECT_EQ(p2l_mesh_vertex_count(c, n), 0u);
  EXPECT_EQ(p2l_mesh_uvs(c, n), nullptr);
  EXPECT_EQ(p2l_mesh_indices(c, n, &u), nullptr);
  EXPECT_EQ(u, 0u);
  EXPECT_EQ(p2l_mesh_texture(c, n), -1);
  EXPECT_EQ(p2l_mesh_blend(c, n, &b), -1);
  EXPECT_EQ(p2l_mesh_alpha_blend(c, n), -1);
  EXPECT_EQ(p2l_mesh_part(c, n), -1);
  EXPECT_EQ(p2l_mesh_masks(c, n, &u, 1, &b), 0u);
  EXPECT_EQ(p2l_mesh_vertices(c, n), nullptr);
  EXPECT_TRUE(std::isnan(p2l_mesh_opacity(c, n)));
  EXPECT_TRUE(std::isnan(p2l_mesh_draw_order(c, n)));
  p2l_mesh_colors(c, n, rgb, rgb);
  EXPECT_EQ(rgb[0], 5.0f);
  EXPECT_EQ(p2l_mesh_changes(c, n), 0u);
  EXPECT_FALSE(p2l_set_mesh_colors(c, n, rgb, nullptr));
  EXPECT_FALSE(p2l_set_part_colors(c, n, rgb, nullptr));
  EXPECT_EQ(p2l_part_id(c, n), nullptr);
  EXPECT_EQ(p2l_part_parent(c, n), -1);
  EXPECT_EQ(p2l_part_flags(c, n), 0u);
  EXPECT_EQ(p2l_part_group(c, n, &i, &i, &b), -1);
  EXPECT_EQ(p2l_part_masks(c, n, &u, 1), 0u);
  EXPECT_FALSE(p2l_part_composite(c, n, &f, rgb, rgb));
  EXPECT_TRUE(std::isnan(p2l_part_opacity(c, n)));
  EXPECT_FALSE(p2l_set_part_opacity(c, n, 0.5f));
  EXPECT_EQ(p2l_hit_area_id(c, n), nullptr);
  EXPECT_EQ(p2l_hit_area_name(c, n), nullptr);
  EXPECT_EQ(p2l_hit_area_meshes(c, n, &u, 1), 0u);
  EXPECT_EQ(p2l_mesh_user_data(c, n), nullptr);
  EXPECT_EQ(p2l_meta_key(c, n), nullptr);
  EXPECT_EQ(p2l_meta_value(c, n), nullptr);
  EXPECT_EQ(p2l_texture_png(c, n, &len, &u, &u), nullptr);
  EXPECT_EQ(len, 0u);
  i = 5;
  EXPECT_EQ(p2l_texture_info(c, n, &i, &u, &u, &data, &len), nullptr);
  EXPECT_EQ(i, -1);
  EXPECT_EQ(p2l_parameter_index(c, "NoSuchParameter"), -1);
  EXPECT_EQ(p2l_parameter_index(c, nullptr), -1);
  EXPECT_EQ(p2l_rig_failure(c), nullptr);
}

TEST(CapiAccessors, FullHandMadeRig) {
  auto bytes = bytes_of(p2l_test::make_full_rig());
  auto loaded = p2l::load(bytes);
  ASSERT_TRUE(loaded) << loaded.error.to_string();
  std::string error;
  RigPtr rig = load_rig(bytes, &error);
  ASSERT_NE(rig, nullptr) << error;
  ASSERT_TRUE(loaded.rig->gui);  // the panel, texture kinds and user data are all covered
  expect_matches(rig.get(), *loaded.rig);
  expect_out_of_range_defaults(rig.get());
}

TEST(CapiAccessors, CompatibilityVectors) {
  P2L_REQUIRE_VECTORS();
  for (const char* name : {"extras.p2lrt", "min_textures.p2lrt", "chain.p2lrt", "min_core.p2lrt"}) {
    SCOPED_TRACE(name);
    auto bytes = vector_file(name);
    ASSERT_FALSE(bytes.empty());
    auto loaded = p2l::load(bytes);
    ASSERT_TRUE(loaded) << loaded.error.to_string();
    std::string error;
    RigPtr rig = load_rig(bytes, &error);
    ASSERT_NE(rig, nullptr) << error;
    expect_matches(rig.get(), *loaded.rig);
    expect_out_of_range_defaults(rig.get());
  }
}

TEST(CapiAccessors, StringsWithNulBytesLoseThem) {
  p2l::Rig rig = p2l_test::make_small_rig();
  rig.meta = {p2l::MetaEntry{std::string("a\0b", 3), "value"}};
  auto bytes = bytes_of(rig);
  if (!p2l::load(bytes)) GTEST_SKIP() << "the reader refuses NUL bytes in strings";
  RigPtr c = load_rig(bytes);
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(p2l_meta_key(c.get(), 0), "ab");
}

// --- evaluation and the host layer ---

std::vector<float> opacities(const P2lRig* rig) {
  std::vector<float> out;
  for (std::uint32_t m = 0; m < p2l_mesh_count(rig); ++m) out.push_back(p2l_mesh_opacity(rig, m));
  return out;
}

// chain when present (nested parts, an isolated group, a hidden mesh), else the small rig.
std::vector<std::uint8_t> layered_rig_bytes() {
  auto bytes = vector_file("chain.p2lrt");
  return bytes.empty() ? bytes_of(p2l_test::make_small_rig()) : bytes;
}

TEST(CapiHostLayer, RigOpacityScalesEveryMesh) {
  RigPtr rig = load_rig(layered_rig_bytes());
  ASSERT_NE(rig, nullptr);
  EXPECT_EQ(p2l_opacity(rig.get()), 1.0f);
  auto before = opacities(rig.get());
  p2l_set_opacity(rig.get(), 0.5f);
  EXPECT_EQ(p2l_opacity(rig.get()), 0.5f);
  p2l_evaluate(rig.get());
  auto after = opacities(rig.get());
  for (std::size_t m = 0; m < before.size(); ++m) EXPECT_NEAR(after[m], before[m] * 0.5f, 1e-6f) << m;
  p2l_set_opacity(rig.get(), NAN);  // ignored
  EXPECT_EQ(p2l_opacity(rig.get()), 0.5f);
  p2l_set_opacity(rig.get(), 7.0f);  // clamped
  EXPECT_EQ(p2l_opacity(rig.get()), 1.0f);
  p2l_evaluate(rig.get());
  EXPECT_EQ(opacities(rig.get()), before);
}

TEST(CapiHostLayer, PartOpacityScalesTheMeshesUnderThePart) {
  RigPtr rig = load_rig(layered_rig_bytes());
  ASSERT_NE(rig, nullptr);
  ASSERT_GT(p2l_part_count(rig.get()), 0u);
  // The part holding mesh 0, and every mesh under it (through parts, at any depth).
  std::int32_t part = p2l_mesh_part(rig.get(), 0);
  ASSERT_GE(part, 0);
  auto under = [&](std::uint32_t m) {
    for (std::int32_t p = p2l_mesh_part(rig.get(), m); p >= 0; p = p2l_part_parent(rig.get(), static_cast<std::uint32_t>(p)))
      if (p == part) return true;
    return false;
  };
  auto before = opacities(rig.get());
  EXPECT_TRUE(p2l_set_part_opacity(rig.get(), static_cast<std::uint32_t>(part), 0.25f));
  EXPECT_EQ(p2l_part_opacity(rig.get(), static_cast<std::uint32_t>(part)), 0.25f);
  p2l_evaluate(rig.get());
  auto after = opacities(rig.get());
  for (std::uint32_t m = 0; m < before.size(); ++m)
    EXPECT_NEAR(after[m], under(m) ? before[m] * 0.25f : before[m], 1e-6f) << m;
  EXPECT_TRUE(p2l_set_part_opacity(rig.get(), static_cast<std::uint32_t>(part), -3.0f));
  EXPECT_EQ(p2l_part_opacity(rig.get(), static_cast<std::uint32_t>(part)), 0.0f);
  EXPECT_TRUE(p2l_set_part_opacity(rig.get(), static_cast<std::uint32_t>(part), 1.0f));
  p2l_evaluate(rig.get());
  EXPECT_EQ(opacities(rig.get()), before);
}

TEST(CapiHostLayer, ColorOverridesReplaceAndRestoreTheEvaluatedColors) {
  RigPtr rig = load_rig(layered_rig_bytes());
  ASSERT_NE(rig, nullptr);
  const std::uint32_t meshes = p2l_mesh_count(rig.get());
  std::vector<std::array<float, 6>> own(meshes);
  for (std::uint32_t m = 0; m < meshes; ++m) p2l_mesh_colors(rig.get(), m, own[m].data(), own[m].data() + 3);

  const float multiply[3] = {0.25f, 0.5f, 0.75f};
  const float screen[3] = {0.1f, 0.2f, 0.3f};
  EXPECT_TRUE(p2l_set_mesh_colors(rig.get(), 0, multiply, nullptr));  // null screen: black
  p2l_evaluate(rig.get());
  float m0[3], s0[3];
  p2l_mesh_colors(rig.get(), 0, m0, s0);
  EXPECT_EQ(std::vector<float>(m0, m0 + 3), std::vector<float>(multiply, multiply + 3));
  EXPECT_EQ(std::vector<float>(s0, s0 + 3), std::vector<float>(3, 0.0f));
  EXPECT_NE(p2l_mesh_changes(rig.get(), 0) & P2L_MESH_COLORS_CHANGED, 0u);

  EXPECT_TRUE(p2l_set_mesh_colors(rig.get(), 0, nullptr, screen));  // null multiply: white
  p2l_evaluate(rig.get());
  p2l_mesh_colors(rig.get(), 0, m0, s0);
  EXPECT_EQ(std::vector<float>(m0, m0 + 3), std::vector<float>(3, 1.0f));
  EXPECT_EQ(std::vector<float>(s0, s0 + 3), std::vector<float>(screen, screen + 3));

  // A part's colours reach its meshes without their own; the mesh's own override wins.
  std::int32_t part = p2l_mesh_part(rig.get(), 0);
  if (part >= 0) {
    EXPECT_TRUE(p2l_set_part_colors(rig.get(), static_cast<std::uint32_t>(part), multiply, screen));
    p2l_evaluate(rig.get());
    for (std::uint32_t m = 1; m < meshes; ++m) {
      if (p2l_mesh_part(rig.get(), m) != part) continue;
      float mm[3], ss[3];
      p2l_mesh_colors(rig.get(), m, mm, ss);
      EXPECT_EQ(std::vector<float>(mm, mm + 3), std::vector<float>(multiply, multiply + 3)) << m;
      EXPECT_EQ(std::vector<float>(ss, ss + 3), std::vector<float>(screen, screen + 3)) << m;
    }
    p2l_mesh_colors(rig.get(), 0, m0, s0);
    EXPECT_EQ(std::vector<float>(m0, m0 + 3), std::vector<float>(3, 1.0f));
    EXPECT_TRUE(p2l_set_part_colors(rig.get(), static_cast<std::uint32_t>(part), nullptr, nullptr));
  }

  EXPECT_TRUE(p2l_set_mesh_colors(rig.get(), 0, nullptr, nullptr));  // both null: the mesh's own again
  p2l_evaluate(rig.get());
  for (std::uint32_t m = 0; m < meshes; ++m) {
    std::array<float, 6> now{};
    p2l_mesh_colors(rig.get(), m, now.data(), now.data() + 3);
    EXPECT_EQ(now, own[m]) << m;
  }
}

TEST(CapiEvaluate, RenderOrderAndCommandsHonourTheCapacity) {
  RigPtr rig = load_rig(layered_rig_bytes());
  ASSERT_NE(rig, nullptr);
  const std::uint32_t total = p2l_render_order(rig.get(), nullptr, 0);
  ASSERT_GE(total, 2u);
  std::vector<std::uint32_t> all(total);
  EXPECT_EQ(p2l_render_order(rig.get(), all.data(), total), total);
  std::vector<std::uint32_t> some(total, 0xDEADu);
  EXPECT_EQ(p2l_render_order(rig.get(), some.data(), 1), total);
  EXPECT_EQ(some[0], all[0]);
  for (std::uint32_t k = 1; k < total; ++k) EXPECT_EQ(some[k], 0xDEADu);
  EXPECT_EQ(p2l_render_order(rig.get(), some.data(), 0), total);
  for (std::uint32_t m : all) EXPECT_NE(p2l_mesh_changes(rig.get(), m) & P2L_MESH_VISIBLE, 0u) << m;

  const std::uint32_t commands = p2l_render_commands(rig.get(), nullptr, 1000);
  ASSERT_GE(commands, total);
  std::vector<std::int32_t> cmd(commands + 1, 12345);
  EXPECT_EQ(p2l_render_commands(rig.get(), cmd.data(), commands + 1), commands);
  EXPECT_EQ(cmd[commands], 12345);
  std::vector<std::uint32_t> meshes_in_commands;
  int depth = 0;
  for (std::uint32_t k = 0; k < commands; ++k) {
    if (cmd[k] >= 0) {
      meshes_in_commands.push_back(static_cast<std::uint32_t>(cmd[k]));
    } else if (cmd[k] == P2L_RENDER_END_GROUP) {
      --depth;
    } else {
      ASSERT_TRUE(P2L_RENDER_IS_GROUP(cmd[k]));
      EXPECT_LT(P2L_RENDER_GROUP_PART(cmd[k]), p2l_part_count(rig.get()));
      ++depth;
    }
  }
  EXPECT_EQ(depth, 0);
  std::vector<std::int32_t> first(commands, 12345);
  EXPECT_EQ(p2l_render_commands(rig.get(), first.data(), 2), commands);
  EXPECT_EQ(first[0], cmd[0]);
  EXPECT_EQ(first[1], cmd[1]);
  if (commands > 2) EXPECT_EQ(first[2], 12345);
}

TEST(CapiEvaluate, ChainRunAMatchesTheOriginal) {
  P2L_REQUIRE_VECTORS();
  RigPtr rig = load_rig(vector_file("chain.p2lrt"));
  ASSERT_NE(rig, nullptr);
  const std::pair<const char*, float> pose[] = {
      {"ParamAngleX", 12.5f}, {"ParamB", 0.7f}, {"ParamSmile", 0.4f}, {"ParamSpin", 200.0f}};
  for (const auto& [id, value] : pose) {
    std::int32_t i = p2l_parameter_index(rig.get(), id);
    ASSERT_GE(i, 0) << id;
    p2l_set_parameter(rig.get(), static_cast<std::uint32_t>(i), value);
  }
  p2l_evaluate(rig.get());
  std::uint32_t order[8];
  ASSERT_EQ(p2l_render_order(rig.get(), order, 8), 4u);
  EXPECT_EQ(std::vector<std::uint32_t>(order, order + 4), (std::vector<std::uint32_t>{4, 2, 1, 0}));
  std::int32_t commands[8];
  ASSERT_EQ(p2l_render_commands(rig.get(), commands, 8), 6u);
  EXPECT_EQ(std::vector<std::int32_t>(commands, commands + 6), (std::vector<std::int32_t>{4, -3, 2, -1, 1, 0}));
  EXPECT_NEAR(p2l_mesh_opacity(rig.get(), 0), 0.92f, 1e-5f);
  EXPECT_NEAR(p2l_mesh_vertices(rig.get(), 0)[0], 145.41667f, 1e-3f);
  EXPECT_NEAR(p2l_mesh_vertices(rig.get(), 0)[1], 144.08333f, 1e-3f);
  EXPECT_EQ(p2l_mesh_changes(rig.get(), 0), 125u);
  EXPECT_EQ(p2l_mesh_changes(rig.get(), 3), 0u);
  std::int32_t blend = -1, alpha = -1;
  bool invert = true;
  EXPECT_EQ(p2l_part_group(rig.get(), 1, &blend, &alpha, &invert), P2L_GROUP_ISOLATED);
  float opacity = 0, multiply[3] = {}, screen[3] = {};
  EXPECT_TRUE(p2l_part_composite(rig.get(), 1, &opacity, multiply, screen));
  EXPECT_NEAR(opacity, 0.8833333f, 1e-5f);
  EXPECT_NEAR(multiply[2], 0.9f, 1e-5f);
}

// --- hit testing ---

TEST(CapiHitTest, MeshContainsCountsEdgesAndBothWindings) {
  const float square[] = {0, 0, 10, 0, 0, 10, 10, 10};
  const std::uint32_t ccw[] = {0, 1, 2, 1, 3, 2};
  const std::uint32_t cw[] = {0, 2, 1, 1, 2, 3};
  for (auto indices : {std::span<const std::uint32_t>(ccw), std::span<const std::uint32_t>(cw)}) {
    EXPECT_TRUE(p2l::mesh_contains(square, indices, 5, 5));
    EXPECT_TRUE(p2l::mesh_contains(square, indices, 10, 5));   // on an edge
    EXPECT_TRUE(p2l::mesh_contains(square, indices, 0, 0));    // a corner
    EXPECT_TRUE(p2l::mesh_contains(square, indices, 5, 5.0f));  // on the shared diagonal
    EXPECT_FALSE(p2l::mesh_contains(square, indices, 10.01f, 5));
    EXPECT_FALSE(p2l::mesh_contains(square, indices, -1, -1));
    EXPECT_FALSE(p2l::mesh_contains(square, indices, NAN, 5));
  }
  const float line[] = {0, 0, 5, 5, 10, 10};
  const std::uint32_t degenerate[] = {0, 1, 2};
  EXPECT_TRUE(p2l::mesh_contains(line, degenerate, 2, 2));
  EXPECT_FALSE(p2l::mesh_contains(line, degenerate, 20, 20));  // on the line, past the ends
  const std::uint32_t missing[] = {0, 1, 7};
  EXPECT_FALSE(p2l::mesh_contains(square, missing, 1, 1));
  const std::uint32_t partial[] = {0, 1};
  EXPECT_FALSE(p2l::mesh_contains(square, partial, 1, 1));
  const float with_nan[] = {0, 0, NAN, 0, 0, 10};
  EXPECT_FALSE(p2l::mesh_contains(with_nan, degenerate, 1, 1));
}

// Two hit areas over one quad mesh and one triangle mesh at different places.
p2l::Rig hit_rig() {
  p2l::Rig rig;
  rig.canvas = {100, 100, 0, 0, -1};
  rig.parameters.push_back({"P", "P", 0, 1, 0, false, false});
  p2l::Mesh quad;
  quad.id = "Quad";
  quad.geometry = p2l::Geometry{{0, 0, 10, 0, 0, 10, 10, 10}, {0, 0, 1, 0, 0, 1, 1, 1}, {0, 1, 2, 1, 3, 2}};
  p2l::Mesh tri;
  tri.id = "Tri";
  tri.geometry = p2l::Geometry{{20, 20, 30, 20, 20, 30}, {0, 0, 1, 0, 0, 1}, {0, 1, 2}};
  rig.meshes = {quad, tri};
  rig.draw_groups[0].children = {{p2l::DrawChildKind::Mesh, 0}, {p2l::DrawChildKind::Mesh, 1}};
  rig.hit_areas = {p2l::HitArea{"HitTri", "Tri", {1}}, p2l::HitArea{"HitBoth", "Both", {0, 1}}};
  return rig;
}

// A point inside triangle [t] of mesh [m] as the last evaluation placed it, and one of its corners.
std::array<float, 2> centroid(const P2lRig* rig, std::uint32_t m, std::uint32_t t) {
  std::uint32_t count = 0;
  const std::uint32_t* idx = p2l_mesh_indices(rig, m, &count);
  const float* v = p2l_mesh_vertices(rig, m);
  float x = 0, y = 0;
  for (int k = 0; k < 3; ++k) {
    x += v[2 * idx[3 * t + k]] / 3;
    y += v[2 * idx[3 * t + k] + 1] / 3;
  }
  return {x, y};
}

TEST(CapiHitTest, FirstAreaWithAVisibleMeshUnderThePoint) {
  auto bytes = bytes_of(hit_rig());
  std::string error;
  RigPtr rig = load_rig(bytes, &error);
  ASSERT_NE(rig, nullptr) << error;
  ASSERT_EQ(p2l_hit_area_count(rig.get()), 2u);
  ASSERT_NE(p2l_mesh_changes(rig.get(), 0) & P2L_MESH_VISIBLE, 0u);
  ASSERT_NE(p2l_mesh_changes(rig.get(), 1) & P2L_MESH_VISIBLE, 0u);

  auto in_quad = centroid(rig.get(), 0, 1);
  auto in_tri = centroid(rig.get(), 1, 0);
  EXPECT_EQ(p2l_hit_test(rig.get(), in_quad[0], in_quad[1]), 1);
  EXPECT_EQ(p2l_hit_test(rig.get(), in_tri[0], in_tri[1]), 0);  // both areas hold it: the first wins
  const float* quad = p2l_mesh_vertices(rig.get(), 0);
  EXPECT_EQ(p2l_hit_test(rig.get(), quad[6], quad[7]), 1);  // a corner
  EXPECT_EQ(p2l_hit_test(rig.get(), (quad[0] + quad[2]) / 2, quad[1]), 1);  // an edge
  float w = 0, h = 0;
  p2l_canvas(rig.get(), &w, &h);
  EXPECT_EQ(p2l_hit_test(rig.get(), -1000 * w, -1000 * h), -1);
  EXPECT_EQ(p2l_hit_test(rig.get(), NAN, 0), -1);

  // A mesh that is not visible at the last evaluation does not count.
  p2l_set_part_opacity(rig.get(), 0, 0);  // no parts: false, nothing changes
  p2l_set_opacity(rig.get(), 0);
  p2l_evaluate(rig.get());
  EXPECT_EQ(p2l_mesh_changes(rig.get(), 0) & P2L_MESH_VISIBLE, 0u);
  EXPECT_EQ(p2l_hit_test(rig.get(), in_quad[0], in_quad[1]), -1);
  EXPECT_EQ(p2l_hit_test(rig.get(), in_tri[0], in_tri[1]), -1);
  p2l_set_opacity(rig.get(), 1);
  p2l_evaluate(rig.get());
  EXPECT_EQ(p2l_hit_test(rig.get(), in_tri[0], in_tri[1]), 0);
}

}  // namespace

namespace {

// --- Cubism playback, poses and part opacities (additions to ABI 1.4) ---
TEST(CapiCubismPlayback, FlagsLoopingPoseSwitchAndPartOpacities) {
  p2l::Rig source = p2l_test::make_full_rig();
  source.clip_extensions[0].cubism_playback = true;
  source.clip_extensions[0].unrestricted_beziers = true;
  source.pose->cubism_playback = true;
  const std::uint32_t clip = source.clip_extensions[0].clip;
  source.clips[clip].looping = true;
  RigPtr rig = load_rig(bytes_of(source));
  ASSERT_NE(rig, nullptr);
  P2lRig* r = rig.get();
  EXPECT_TRUE(p2l_cubism_playback(r));
  // The file's loop flag is not applied to a clip played by Cubism's rules; the host's is.
  EXPECT_EQ(p2l_clip_playback(r, clip), P2L_CLIP_CUBISM | P2L_CLIP_UNRESTRICTED);
  EXPECT_TRUE(p2l_set_clip_looping(r, clip, true));
  EXPECT_EQ(p2l_clip_playback(r, clip), P2L_CLIP_CUBISM | P2L_CLIP_UNRESTRICTED | P2L_CLIP_LOOPING);
  EXPECT_FALSE(p2l_set_clip_looping(r, p2l_clip_count(r), true));
  EXPECT_EQ(p2l_clip_playback(r, p2l_clip_count(r)), 0u);
  // p2lrt's own rules: no Cubism bit, the file's loop flag again.
  p2l_set_cubism_playback(r, false);
  EXPECT_FALSE(p2l_cubism_playback(r));
  EXPECT_EQ(p2l_clip_playback(r, clip), P2L_CLIP_UNRESTRICTED | P2L_CLIP_LOOPING);
  p2l_set_cubism_playback(r, true);

  // The pose hides all but each group's first entry; switched off, every part is at 1.
  auto hidden = [&] {
    std::uint32_t n = 0;
    for (std::uint32_t p = 0; p < p2l_part_count(r); ++p) n += p2l_part_animation_opacity(r, p) != 1.0f;
    return n;
  };
  p2l_update(r, 1.0f / 60);
  EXPECT_GT(hidden(), 0u);
  EXPECT_TRUE(p2l_pose_enabled(r));
  p2l_set_pose_enabled(r, false);
  EXPECT_FALSE(p2l_pose_enabled(r));
  p2l_update(r, 1.0f / 60);
  EXPECT_EQ(hidden(), 0u);
  p2l_set_pose_enabled(r, true);
  p2l_update(r, 1.0f / 60);
  EXPECT_GT(hidden(), 0u);
  EXPECT_TRUE(std::isnan(p2l_part_animation_opacity(r, p2l_part_count(r))));
  // NULL handles give the documented defaults.
  EXPECT_EQ(p2l_part_animation_opacity(nullptr, 0), 0.0f);
  EXPECT_FALSE(p2l_pose_enabled(nullptr));
  EXPECT_EQ(p2l_clip_playback(nullptr, 0), 0u);
  EXPECT_FALSE(p2l_set_clip_looping(nullptr, 0, true));
  p2l_set_cubism_playback(nullptr, false);
  p2l_set_pose_enabled(nullptr, false);
}

}  // namespace

namespace {

// --- What a host reads under Cubism playback (issue 34) ---

// The small rig (ParamAngle -30..30 keys mesh 1) with a repeat parameter Turn (-180..180), a
// clip [clip_value] on ParamAngle for 0.5 s and an expression adding 50 to ParamAngle and 200
// to Turn, all without fades and marked for Cubism playback as the importer marks them.
p2l::Rig cubism_marked_rig(float clip_value) {
  p2l::Rig rig = p2l_test::make_small_rig();
  p2l::Parameter turn;
  turn.id = turn.name = "Turn";
  turn.min = -180;
  turn.max = 180;
  turn.repeat = true;
  rig.parameters.push_back(turn);
  p2l::Clip clip;
  clip.id = clip.name = "hold";
  clip.duration = 0.5f;
  clip.fade_in = clip.fade_out = 0;
  clip.curves.push_back({0, 0, clip_value, {}});
  rig.clips.push_back(clip);
  p2l::ClipExtension marked;
  marked.clip = 0;
  marked.cubism_playback = true;
  rig.clip_extensions.push_back(marked);
  p2l::Expression wide;
  wide.id = wide.name = "wide";
  wide.fade_in = wide.fade_out = 0;
  wide.values = {{0, p2l::ExpressionBlend::Add, 50}, {1, p2l::ExpressionBlend::Add, 200}};
  wide.cubism_playback = true;
  rig.expressions.push_back(wide);
  return rig;
}

std::vector<float> mesh_vertices(const P2lRig* rig, std::uint32_t mesh) {
  const float* v = p2l_mesh_vertices(rig, mesh);
  return {v, v + 2 * p2l_mesh_vertex_count(rig, mesh)};
}

TEST(CapiCubismPlayback, ParameterCurrentAfterAnExpressionPastTheRange) {
  RigPtr rig = load_rig(bytes_of(cubism_marked_rig(0)));
  ASSERT_NE(rig, nullptr);
  P2lRig* r = rig.get();
  p2l_set_parameter(r, 0, 10);
  // Cubism's model stores 10 + 50 as 30, the end of the range, and 0 + 200 on the repeat
  // parameter wrapped into it as -160: p2l_parameter_current reads what Cubism reads.
  p2l_expression(r, 0);
  p2l_update(r, 1.0f / 60);
  EXPECT_EQ(p2l_parameter_current(r)[0], 30.0f);
  EXPECT_EQ(p2l_parameter_current(r)[1], -160.0f);
  const std::vector<float> cubism = mesh_vertices(r, 1);
  // p2lrt's own rules store the sums raw; the evaluation reads them clamped (wrapped), so the
  // mesh is the same.
  p2l_set_cubism_playback(r, false);
  p2l_expression(r, 0);
  p2l_update(r, 1.0f / 60);
  EXPECT_EQ(p2l_parameter_current(r)[0], 60.0f);
  EXPECT_EQ(p2l_parameter_current(r)[1], 200.0f);
  EXPECT_EQ(mesh_vertices(r, 1), cubism);
}

TEST(CapiCubismPlayback, KeepClipValuesAfterTheClipEnds) {
  RigPtr rig = load_rig(bytes_of(cubism_marked_rig(20)));
  ASSERT_NE(rig, nullptr);
  P2lRig* r = rig.get();
  EXPECT_TRUE(p2l_keep_clip_values(r)) << "Cubism's behaviour by default";
  p2l_play(r, 0);
  for (int k = 0; k < 40; ++k) p2l_update(r, 1.0f / 60);
  ASSERT_EQ(p2l_clip_playing(r), -1) << "the clip ended";
  EXPECT_EQ(p2l_parameter_current(r)[0], 20.0f) << "what it left stays";
  p2l_set_parameter(r, 0, 5);
  p2l_update(r, 1.0f / 60);
  EXPECT_EQ(p2l_parameter_current(r)[0], 20.0f) << "the host's pose of a parameter a Cubism clip wrote is not read";
  // The option: the host's pose shows again once nothing plays.
  p2l_set_keep_clip_values(r, false);
  EXPECT_FALSE(p2l_keep_clip_values(r));
  p2l_update(r, 1.0f / 60);
  EXPECT_EQ(p2l_parameter_current(r)[0], 5.0f);
  // It outlives p2l_set_cubism_playback, which starts everything afresh.
  p2l_set_cubism_playback(r, true);
  EXPECT_FALSE(p2l_keep_clip_values(r));
  EXPECT_FALSE(p2l_keep_clip_values(nullptr));
  p2l_set_keep_clip_values(nullptr, true);
}

}  // namespace

// --- framing ---

// p2l_framing places the canvas, or what is drawn, in an image: aspect kept, centred, the
// drawn bounds at exactly the margin from the image's edge on their longer side.
TEST(CapiFraming, CanvasOrDrawnBoundsFitCentredAndFlipped) {
  RigPtr rig = load_rig(layered_rig_bytes());
  ASSERT_NE(rig, nullptr);
  float cw = 0, ch = 0, t[6] = {0}, flipped[6] = {0}, drawn[6] = {0};
  p2l_canvas(rig.get(), &cw, &ch);
  ASSERT_TRUE(p2l_framing(rig.get(), 300, 200, 0, 0.0f, t));
  EXPECT_EQ(t[0], t[3]) << "the aspect is kept";
  EXPECT_EQ(t[1], 0.0f);
  EXPECT_EQ(t[2], 0.0f);
  // The canvas's corners land symmetrically inside the image, one pair of edges touching it.
  const float left = t[4], right = cw * t[0] + t[4], top = t[5], bottom = ch * t[3] + t[5];
  EXPECT_NEAR(left, 300.0f - right, 1e-3f);
  EXPECT_NEAR(top, 200.0f - bottom, 1e-3f);
  EXPECT_TRUE(std::fabs(left) < 1e-3f || std::fabs(top) < 1e-3f) << left << " " << top;
  // Rows bottom first: the same picture upside down.
  ASSERT_TRUE(p2l_framing(rig.get(), 300, 200, P2L_FRAME_FLIP_Y, 0.0f, flipped));
  EXPECT_EQ(flipped[3], -t[3]);
  EXPECT_EQ(flipped[5], 200.0f - t[5]);
  // What is drawn: every shown vertex inside, the bounds' longer side at the margin.
  const float margin = 0.1f;
  ASSERT_TRUE(p2l_framing(rig.get(), 300, 200, P2L_FRAME_DRAWN, margin, drawn));
  float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  std::vector<std::uint32_t> order(p2l_render_order(rig.get(), nullptr, 0));
  p2l_render_order(rig.get(), order.data(), static_cast<std::uint32_t>(order.size()));
  for (std::uint32_t m : order) {
    if (!(p2l_mesh_opacity(rig.get(), m) > 0.0f)) continue;
    const float* v = p2l_mesh_vertices(rig.get(), m);
    for (std::uint32_t i = 0; i < p2l_mesh_vertex_count(rig.get(), m); ++i) {
      x0 = std::min(x0, v[2 * i] * drawn[0] + drawn[4]), x1 = std::max(x1, v[2 * i] * drawn[0] + drawn[4]);
      y0 = std::min(y0, v[2 * i + 1] * drawn[3] + drawn[5]), y1 = std::max(y1, v[2 * i + 1] * drawn[3] + drawn[5]);
    }
  }
  ASSERT_TRUE(x1 > x0 && y1 > y0) << "the rig draws something";
  const float side = std::max(x1 - x0, y1 - y0);
  // The axis that binds the fit keeps exactly the margin (of the bounds' longer side) free.
  EXPECT_NEAR(std::min(x0, y0), margin * side, 1e-2f) << "the margin";
  EXPECT_NEAR(x0, 300.0f - x1, 1e-2f) << "centred";
  EXPECT_NEAR(y0, 200.0f - y1, 1e-2f) << "centred";
  EXPECT_GE(x0, 0.0f);
  EXPECT_LE(x1, 300.0f);
  EXPECT_GE(y0, 0.0f);
  EXPECT_LE(y1, 200.0f);
  EXPECT_FALSE(p2l_framing(nullptr, 300, 200, 0, 0.0f, t));
  EXPECT_FALSE(p2l_framing(rig.get(), 0, 200, 0, 0.0f, t));
  EXPECT_FALSE(p2l_framing(rig.get(), 300, 200, 0, 0.0f, nullptr));
}
