// The Core's state carried from one update to the next (hidden meshes' buffers that glue and
// blend shapes keep moving, a glue's last intensity) reproduced through every door: the C++
// Instance (every drawable, hidden ones too, in model units) and the C API (every shown mesh,
// in canvas pixels), pose after pose against what Core 6.0.1 computed for the committed
// fixtures (tests/cubism/fixtures; the models are made here by the generator, no Cubism file).
// The drop-in Core is held to the same dumps by tests/csm/run_fixtures.sh.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "p2l/p2l.h"
#include "synth_model.hpp"

namespace {

std::vector<char> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// One fixture: its model made as LIST.txt says, and the Core's dump of it.
struct Fixture {
  p2l::Rig rig;
  nlohmann::json core;
  std::vector<float> floats;  // per pose: vertices, opacities, colours, ... (core_dump.js)
  std::size_t per_pose = 0, vertex_floats = 0;

  Fixture(const char* name, std::uint64_t seed, int version, const char* features) {
    p2l_test::synth::Features f;
    std::string list = features;
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      EXPECT_TRUE(f.set(list.substr(at, comma - at)));
      at = comma + 1;
    }
    const auto moc = p2l_test::synth::generate_moc3(seed, version, f);
    p2l::ImportResult imported = p2l::import_moc3(moc.bytes);
    EXPECT_TRUE(imported) << imported.error.to_string();
    rig = std::move(imported.rig);
    const std::string prefix = std::string(P2L_CUBISM_FIXTURES) + "/" + name;
    const auto text = read(prefix + ".json");
    core = nlohmann::json::parse(text.begin(), text.end());
    const auto raw = read(prefix + ".bin");
    floats.resize(raw.size() / 4);
    std::memcpy(floats.data(), raw.data(), floats.size() * 4);
    for (const auto& d : core["drawables"]) vertex_floats += 2 * d["vertexCount"].get<std::size_t>();
    const std::size_t nd = core["drawables"].size();
    per_pose = vertex_floats + nd * 9 + core["parameters"].size() + core["parts"].size();
  }
  const float* pose(std::size_t k) const { return floats.data() + k * per_pose; }
  bool shown(std::size_t k, std::size_t m) const { return (core["poses"][k]["dynamicFlags"][m].get<int>() & 1) != 0; }
  float part_opacity(std::size_t k, std::size_t i) const {
    const auto& p = core["poses"][k];
    return p.contains("partOpacities") ? p["partOpacities"][i].get<float>() : core["parts"][i]["opacity"].get<float>();
  }
};

// The glue-stale fixtures hide glued meshes (v5 also moves them by blend shapes while hidden);
// v5-glue-shapes keeps a glue outside its keys with blend shapes on its intensity.
struct Case {
  const char* name;
  std::uint64_t seed;
  int version;
  const char* features;
};
const Case kCases[] = {{"v3-glue-stale", 1, 3, "default,glue-stale"},
                       {"v5-glue-stale", 114, 5, "default,glue-stale"},
                       {"v5-glue-shapes", 1, 5, "all"}};

TEST(CubismHiddenState, TheInstanceHoldsTheCoresBuffersForEveryDrawable) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const Fixture fx(c.name, c.seed, c.version, c.features);
    auto made = p2l::Model::create(std::make_shared<const p2l::Rig>(fx.rig));
    ASSERT_TRUE(made) << made.error.to_string();
    p2l::Instance in(made.model);
    std::size_t hidden_seen = 0;
    for (std::size_t k = 0; k < fx.core["poses"].size(); ++k) {
      for (std::size_t i = 0; i < fx.core["parameters"].size(); ++i)
        in.parameters()[i] = fx.core["poses"][k]["values"][i].get<float>();
      for (std::uint32_t i = 0; i < fx.core["parts"].size(); ++i) in.set_part_opacity(i, fx.part_opacity(k, i));
      in.evaluate();
      const float* at = fx.pose(k);
      for (std::uint32_t m = 0; m < fx.rig.meshes.size(); ++m) {
        const auto v = in.model_vertices(m);
        hidden_seen += !fx.shown(k, m);
        ASSERT_EQ(0, std::memcmp(v.data(), at, v.size_bytes()))
            << "pose " << k << ", " << fx.rig.meshes[m].id << (fx.shown(k, m) ? " (shown)" : " (hidden)");
        at += v.size();
      }
    }
    EXPECT_GT(hidden_seen, 0u) << "the fixture hides some mesh";
  }
}

TEST(CubismHiddenState, TheCApiDrawsWhatTheCoreGivesAfterMeshesHide) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const Fixture fx(c.name, c.seed, c.version, c.features);
    const p2l::WriteResult written = p2l::write(fx.rig, {});
    ASSERT_TRUE(written) << written.error.to_string();
    char error[256] = {0};
    std::unique_ptr<P2lRig, void (*)(P2lRig*)> rig(p2l_rig_load(written.bytes.data(), written.bytes.size(), error, sizeof error),
                                                   p2l_rig_free);
    ASSERT_NE(rig, nullptr) << error;
    const float ox = fx.rig.canvas.origin_x, oy = fx.rig.canvas.origin_y, ppu = fx.rig.canvas.pixels_per_unit;
    for (std::size_t k = 0; k < fx.core["poses"].size(); ++k) {
      float* values = p2l_parameter_values(rig.get());
      for (std::size_t i = 0; i < fx.core["parameters"].size(); ++i) values[i] = fx.core["poses"][k]["values"][i].get<float>();
      for (std::uint32_t i = 0; i < fx.core["parts"].size(); ++i) p2l_set_part_opacity(rig.get(), i, fx.part_opacity(k, i));
      p2l_update(rig.get(), 1.0f / 60);
      const float* at = fx.pose(k);
      for (std::uint32_t m = 0; m < fx.rig.meshes.size(); ++m) {
        const std::size_t n = 2 * std::size_t{p2l_mesh_vertex_count(rig.get(), m)};
        if (fx.shown(k, m)) {
          const float* v = p2l_mesh_vertices(rig.get(), m);
          for (std::size_t j = 0; j + 1 < n; j += 2) {
            // Canvas pixels as p2lrt writes them from the Core's model units (y up).
            ASSERT_EQ(v[j], ox + at[j] * ppu) << "pose " << k << ", " << fx.rig.meshes[m].id << " vertex " << j / 2;
            ASSERT_EQ(v[j + 1], oy - at[j + 1] * ppu) << "pose " << k << ", " << fx.rig.meshes[m].id << " vertex " << j / 2;
          }
        }
        at += n;
      }
    }
  }
}

}  // namespace
