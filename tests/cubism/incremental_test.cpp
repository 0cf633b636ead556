// Change tracking under Cubism's rules: an evaluation that skips the deformers and meshes its
// changes do not reach gives every output bit for bit as one from scratch. Two instances of
// each model take the same random animation (most parameters holding still from frame to frame,
// as in real playback; sometimes all moving, sometimes none; values past the keys, so objects
// hide and show; part opacities), one incremental, one evaluating everything, and every buffer a
// host or the Core API reads is compared after every evaluation. The models: every fixture of
// tests/cubism/fixtures/LIST.txt and generated models of every version with every feature; and
// any .moc3 files P2L_INCREMENTAL_MODELS lists (colon-separated: the official samples and
// third-party models at development time; none is in the repository). The same file holds the
// blend's two ways of reading keyforms (as a run, form by form) to the same bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "eval/plan.hpp"
#include "eval/state.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "rig_builder.hpp"
#include "synth_model.hpp"

namespace {

struct Source {
  std::string name;
  std::vector<std::uint8_t> moc3;
};

std::vector<Source> generated() {
  std::vector<Source> out;
  std::ifstream list(std::string(P2L_CUBISM_FIXTURES) + "/LIST.txt");
  std::string line;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, features;
    std::uint64_t seed = 0;
    int version = 0;
    fields >> name >> seed >> version >> features;
    p2l_test::synth::Features f;
    for (std::size_t at = 0; at <= features.size();) {
      const std::size_t comma = std::min(features.find(',', at), features.size());
      EXPECT_TRUE(f.set(features.substr(at, comma - at))) << line;
      at = comma + 1;
    }
    out.push_back({name, p2l_test::synth::generate_moc3(seed, version, f).bytes});
  }
  EXPECT_GE(out.size(), 20u) << "tests/cubism/fixtures/LIST.txt";
  const auto add = [&](const char* features, int version, std::uint64_t seed) {
    p2l_test::synth::Features f;
    std::string list = features;
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      EXPECT_TRUE(f.set(list.substr(at, comma - at))) << features;
      at = comma + 1;
    }
    out.push_back({std::string(features) + " v" + std::to_string(version) + " seed " + std::to_string(seed),
                   p2l_test::synth::generate_moc3(seed, version, f).bytes});
  };
  for (int version = 3; version <= 6; ++version)
    for (std::uint64_t seed = 1000; seed < 1004; ++seed) add("all", version, seed);
  // Rotations whose probe cannot move take the direction the last one found: skipped or not,
  // they must leave it as a full evaluation does.
  for (std::uint64_t seed = 1; seed < 13; ++seed) add("none,tiny-scale,rotations,nested-deformers", 4, seed);
  return out;
}

std::vector<Source> from_environment() {
  std::vector<Source> out;
  const char* paths = std::getenv("P2L_INCREMENTAL_MODELS");
  if (paths == nullptr) return out;
  std::string list = paths;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t colon = std::min(list.find(':', at), list.size());
    const std::string path = list.substr(at, colon - at);
    at = colon + 1;
    if (path.empty()) continue;
    std::ifstream in(path, std::ios::binary);
    out.push_back({path, {std::istreambuf_iterator<char>(in), {}}});
  }
  return out;
}

// The parameters' generator: xorshift64*, values in [min - 10 %, max + 10 %] of the range.
struct Random {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
  float unit() { return static_cast<float>(next() >> 40) / 16777216.0f; }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Every buffer the two instances' evaluations write that a host or the Core API reads; the
// first that differs, or empty.
// [pixels]: false for an instance whose canvas-pixel vertices are off (set_pixel_vertices).
std::string first_difference(const p2l::InstanceState& a, const p2l::InstanceState& b, bool pixels = true) {
  const p2l::eval::CubismState &ca = a.cubism, &cb = b.cubism;
  if (pixels && !same_bits(a.vertices, b.vertices)) return "vertices (pixels)";
  if (!same_bits(ca.vertices, cb.vertices)) return "vertices (the Core's buffer)";
  if (!same_bits(a.opacity, b.opacity)) return "opacities";
  if (!same_bits(a.draw_order, b.draw_order)) return "draw orders";
  if (!same_bits(a.multiply, b.multiply)) return "multiply colours";
  if (!same_bits(a.screen, b.screen)) return "screen colours";
  if (!same_bits(a.render_order, b.render_order)) return "render order";
  if (!same_bits(a.render_commands, b.render_commands)) return "render commands";
  if (!same_bits(a.part_draw_order, b.part_draw_order)) return "part draw orders";
  if (!same_bits(a.part_composite, b.part_composite)) return "part composites (offscreens)";
  if (!same_bits(a.mesh_dirty, b.mesh_dirty)) return "vertex change flags";
  if (!same_bits(ca.mesh_on, cb.mesh_on)) return "shown meshes";
  if (!same_bits(ca.part_opacity, cb.part_opacity)) return "part opacities";
  if (!same_bits(ca.draw_orders, cb.draw_orders)) return "the Core's draw orders";
  if (!same_bits(ca.render_orders, cb.render_orders)) return "the Core's render orders";
  if (!same_bits(ca.mesh_opacity, cb.mesh_opacity)) return "the Core's opacities";
  if (!same_bits(ca.glue_intensity, cb.glue_intensity)) return "glue intensities";
  if (std::memcmp(ca.probe_direction, cb.probe_direction, sizeof ca.probe_direction) != 0) return "probe direction";
  return {};
}

// Returns how many deformer evaluations the incremental instance skipped, over all frames.
std::size_t animate_and_compare(const Source& source, int frames, std::uint64_t seed) {
  SCOPED_TRACE(source.name);
  p2l::ImportResult imported = p2l::import_moc3(source.moc3);
  if (!imported) {
    ADD_FAILURE() << imported.error.to_string();
    return 0;
  }
  const auto rig = std::make_shared<p2l::Rig>(std::move(imported.rig));
  p2l::ModelResult made = p2l::Model::create(rig);
  if (!made) {
    ADD_FAILURE() << made.error.to_string();
    return 0;
  }
  // A third instance gives the model vertices only, as the Core API's does: the same buffers
  // but the pixel copy, which it makes again when turned back on.
  p2l::Instance incremental(made.model), full(made.model), model_only(made.model);
  full.state().incremental = false;
  EXPECT_TRUE(model_only.set_pixel_vertices(false));
  Random random{seed};
  const std::size_t np = rig->parameters.size(), nparts = rig->parts.size();
  std::vector<float> pose(np);
  for (std::size_t i = 0; i < np; ++i) pose[i] = rig->parameters[i].default_value;
  std::size_t skipped = 0;
  for (int f = 0; f < frames; ++f) {
    const float roll = random.unit();
    std::size_t moves = roll < 0.25f ? 0 : roll < 0.85f ? 1 + random.below(3) : roll < 0.95f ? np : 1;
    for (std::size_t k = 0; k < moves && np; ++k) {
      const std::size_t i = moves == np ? k : random.below(np);
      const p2l::Parameter& p = rig->parameters[i];
      const float span = p.max - p.min;
      const float pick = random.unit();
      // Mostly inside the range, sometimes at a bound, past it, or back at the default.
      pose[i] = pick < 0.7f   ? p.min + span * random.unit()
                : pick < 0.8f ? (random.unit() < 0.5f ? p.min : p.max)
                : pick < 0.9f ? p.min - 0.1f * span + 1.2f * span * random.unit()
                              : p.default_value;
    }
    if (nparts && random.unit() < 0.05f) {
      const auto part = static_cast<std::uint32_t>(random.below(nparts));
      const float opacity = random.unit() < 0.5f ? 1.0f : random.unit();
      incremental.set_part_opacity(part, opacity);
      full.set_part_opacity(part, opacity);
      model_only.set_part_opacity(part, opacity);
    }
    std::copy(pose.begin(), pose.end(), incremental.parameters().begin());
    std::copy(pose.begin(), pose.end(), full.parameters().begin());
    std::copy(pose.begin(), pose.end(), model_only.parameters().begin());
    incremental.evaluate();
    full.evaluate();
    model_only.evaluate();
    for (const std::uint8_t d : incremental.state().deformer_dirty) skipped += d == 0;
    const std::string differs = first_difference(incremental.state(), full.state());
    if (!differs.empty()) {
      ADD_FAILURE() << differs << " differ after frame " << f << " (" << moves << " parameters moved)";
      return skipped;
    }
    if (const std::string d = first_difference(model_only.state(), full.state(), false); !d.empty()) {
      ADD_FAILURE() << d << " differ after frame " << f << " with the pixel vertices off";
      return skipped;
    }
  }
  // Turned back on: the shown meshes' pixel vertices at once and after the next evaluation,
  // which reports every change. (A hidden mesh's are converted from what its model buffer
  // holds, which glue and blend shapes may have moved since it was last drawn.)
  model_only.set_pixel_vertices(true);
  auto same_shown_pixels = [&](const char* when) {
    for (std::uint32_t m = 0; m < rig->meshes.size(); ++m) {
      if (!full.state().cubism.mesh_on[m]) continue;
      const auto a = model_only.vertices(m), b = full.vertices(m);
      EXPECT_TRUE(std::memcmp(a.data(), b.data(), a.size_bytes()) == 0) << "mesh " << m << " " << when;
    }
  };
  same_shown_pixels("with the pixel vertices on again");
  model_only.evaluate();
  full.evaluate();
  same_shown_pixels("at the evaluation after");
  EXPECT_EQ(first_difference(model_only.state(), full.state(), false), "");
  for (std::uint32_t m = 0; m < rig->meshes.size(); ++m)
    EXPECT_NE(model_only.changes(m) & p2l::kMeshVerticesChanged, 0u) << "mesh " << m;
  return skipped;
}

// The mesh and warp blend reads each object's forms as a run at one stride when they lie so
// (eval/plan.hpp, RowRun): the importer's block (stride n), a .p2lrt read in place (each
// array's header between the forms), else form by form. All three give the same bits.
TEST(CubismIncremental, TheFormsReadAsARunOrFormByFormGiveTheSameBits) {
  std::uint64_t seed = 77;
  std::size_t strided = 0;
  for (const Source& source : generated()) {
    SCOPED_TRACE(source.name);
    p2l::ImportResult imported = p2l::import_moc3(source.moc3);
    ASSERT_TRUE(imported) << imported.error.to_string();
    const auto rig = std::make_shared<p2l::Rig>(std::move(imported.rig));
    const p2l::WriteResult written = p2l::write(*rig);
    ASSERT_TRUE(written) << written.error.to_string();
    const p2l::LoadResult loaded = p2l::load(written.bytes);
    ASSERT_TRUE(loaded) << loaded.error.to_string();
    // Every form in an allocation of its own: no run.
    auto apart = std::make_shared<p2l::Rig>(*rig);
    for (p2l::Mesh& m : apart->meshes)
      if (m.keyforms)
        for (p2l::Array<float>& f : m.keyforms->forms) f = p2l::Array<float>(f.to_vector());
    for (p2l::Deformer& d : apart->deformers)
      if (d.lattice)
        for (p2l::Array<float>& f : d.lattice->forms) f = p2l::Array<float>(f.to_vector());
    std::vector<std::shared_ptr<const p2l::Model>> models;
    for (const std::shared_ptr<const p2l::Rig>& r : {std::shared_ptr<const p2l::Rig>(rig), loaded.rig, std::shared_ptr<const p2l::Rig>(apart)}) {
      p2l::ModelResult made = p2l::Model::create(r);
      ASSERT_TRUE(made) << made.error.to_string();
      models.push_back(made.model);
    }
    for (const auto& mp : models[1]->plan().meshes) strided += mp.rows.first != nullptr && mp.rows.stride > mp.vertex_count * 2u;
    for (const auto& mp : models[2]->plan().meshes) EXPECT_TRUE(mp.rows.first == nullptr || mp.keyforms.cell_count() == 1);
    std::vector<p2l::Instance> instances;
    for (const auto& m : models) instances.emplace_back(m);
    Random random{seed++};
    for (int f = 0; f < 60; ++f) {
      for (std::size_t i = 0; i < rig->parameters.size(); ++i) {
        const p2l::Parameter& q = rig->parameters[i];
        const float v = q.min + (q.max - q.min) * random.unit();
        for (p2l::Instance& in : instances) in.parameters()[i] = v;
      }
      for (p2l::Instance& in : instances) in.evaluate();
      EXPECT_EQ(first_difference(instances[1].state(), instances[0].state()), "") << "read in place, frame " << f;
      EXPECT_EQ(first_difference(instances[2].state(), instances[0].state()), "") << "form by form, frame " << f;
    }
  }
  // The in-place file's stride was taken (headers between the forms), not only the block's.
  EXPECT_GT(strided, 0u);
}

TEST(CubismIncremental, EveryOutputAsFromScratchOnTheFixturesAndGeneratedModels) {
  std::size_t skipped = 0;
  std::uint64_t seed = 1;
  for (const Source& s : generated()) skipped += animate_and_compare(s, 400, seed++);
  // The tracking skips work at all (a test of the comparison, not of speed).
  EXPECT_GT(skipped, 0u);
}

// A rotation whose parent shrinks its probe below a float step takes the direction the last
// rotation found (cubism_frames.hpp). Here rotation B (under R, scaled to 1e-10 far from the
// origin) reads no parameter, and rotation A (under a warp keyed on P) finds a new direction at
// every value of P: B must be evaluated again although nothing it reads moved, and leave A's
// direction behind it, as an evaluation from scratch does.
TEST(CubismIncremental, ARotationThatReusesTheDirectionFollowsTheOneBeforeIt) {
  using namespace p2l_test;
  const std::vector<float> square = {0, 0, 100, 0, 0, 100, 100, 100};
  const std::vector<float> turned = {0, 0, 0, 100, -100, 0, -100, 100};  // the square turned 90 degrees
  p2l::Deformer w = warp("W", -1, square, false);
  w.lattice = keyed(0, {0, 1}, std::vector<p2l::Array<float>>{p2l::Array<float>(square), p2l::Array<float>(turned)});
  const p2l::Deformer a = rotation("A", 0, 0, single(p2l::Pivot{0.5f, 0.5f, 0, 1}));
  const p2l::Deformer r = rotation("R", -1, 0, single(p2l::Pivot{1000, 1000, 0, 1e-10f}));
  const p2l::Deformer b = rotation("B", 2, 0, single(p2l::Pivot{0, 0, 0, 1}));
  p2l::Rig rig_b = rig({param("P", 0, 1, 0)}, {w, a, r, b}, {mesh("M", 3, {0, 0, 10, 0, 0, 10})});
  rig_b.rules = p2l::CoreRules::Cubism;
  rig_b.canvas.pixels_per_unit = 100;
  p2l::ModelResult made = p2l::Model::create(std::make_shared<const p2l::Rig>(std::move(rig_b)));
  ASSERT_TRUE(made) << made.error.to_string();
  p2l::Instance incremental(made.model), full(made.model);
  full.state().incremental = false;
  for (int f = 0; f < 40; ++f) {
    const float p = static_cast<float>(f % 11) / 10.0f;
    incremental.parameters()[0] = full.parameters()[0] = p;
    incremental.evaluate();
    full.evaluate();
    ASSERT_TRUE(full.state().cubism.frames[3].reused_direction) << "B must reuse the direction for this test";
    const std::string differs = first_difference(incremental.state(), full.state());
    ASSERT_TRUE(differs.empty()) << differs << " differ after frame " << f;
  }
}

TEST(CubismIncremental, EveryOutputAsFromScratchOnTheModelsListed) {
  const std::vector<Source> models = from_environment();
  if (models.empty()) GTEST_SKIP() << "P2L_INCREMENTAL_MODELS lists no .moc3 files";
  std::uint64_t seed = 7;
  for (const Source& s : models) animate_and_compare(s, 300, seed++);
}

}  // namespace
