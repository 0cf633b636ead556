// Random rigs with the extension chunks (RandomRigOptions::extensions): BONE, SKIN, COLL and
// SIMS. For seeds 0..299 the rig is valid, round-trips through version 2 (plain and
// deflate), loses exactly its extension chunks through version 1 (the writer says so),
// compiles into a Model that evaluates to finite numbers, and turning the extensions on
// leaves the rest of the rig unchanged. A coverage test counts what the seeds generate and
// fails when a piece stops occurring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "random_rig.hpp"

namespace {

using p2l_test::make_random_rig;
using p2l_test::RandomRigOptions;
using p2l_test::RigRandom;

constexpr std::uint64_t kSeeds = 300;
constexpr int kMaxFailures = 5;  // seeds reported before a test gives up

RandomRigOptions with_extensions(RandomRigOptions o = {}) {
  o.extensions = true;
  return o;
}

std::string seed_text(std::uint64_t seed) { return "seed " + std::to_string(seed); }

bool dropped_starts(const std::vector<std::string>& dropped, const std::string& prefix) {
  return std::any_of(dropped.begin(), dropped.end(), [&](const std::string& d) { return d.rfind(prefix, 0) == 0; });
}

// Which extension chunk, if any, differs between two rigs.
std::string extension_difference(const p2l::Rig& a, const p2l::Rig& b) {
  if (!(a.bones == b.bones)) return "BONE";
  if (!(a.skins == b.skins)) return "SKIN";
  if (!(a.colliders == b.colliders)) return "COLL";
  if (!(a.simulations == b.simulations)) return "SIMS";
  return "a core or non-extension field";
}

TEST(ExtensionRigs, ValidAndRoundTripV2) {
  int failures = 0;
  for (std::uint64_t seed = 0; seed < kSeeds && failures < kMaxFailures; ++seed) {
    p2l::Rig rig = make_random_rig(seed, with_extensions());
    p2l::Error valid = p2l::validate(rig);
    if (!valid.ok()) {
      ADD_FAILURE() << seed_text(seed) << ": validate refuses the rig: " << valid.to_string();
      ++failures;
      continue;
    }
    for (p2l::Compression compression : {p2l::Compression::None, p2l::Compression::Deflate}) {
      p2l::WriteOptions options;
      options.compression = compression;
      p2l::WriteResult w = p2l::write(rig, options);
      if (!w) {
        ADD_FAILURE() << seed_text(seed) << ": write v2 fails: " << w.error.to_string();
        ++failures;
        break;
      }
      EXPECT_TRUE(w.dropped.empty()) << seed_text(seed) << ": v2 dropped \"" << w.dropped.front() << "\"";
      p2l::LoadOptions load_options;
      load_options.verify_crc = true;
      p2l::LoadResult loaded = p2l::load(w.bytes, load_options);
      if (!loaded) {
        ADD_FAILURE() << seed_text(seed) << ": load v2 fails: " << loaded.error.to_string();
        ++failures;
        break;
      }
      if (!(*loaded.rig == rig)) {
        ADD_FAILURE() << seed_text(seed) << ": the v2 rig loads back different in " << extension_difference(*loaded.rig, rig);
        ++failures;
        break;
      }
      // Writing the loaded rig again gives the same bytes.
      p2l::WriteResult again = p2l::write(*loaded.rig, options);
      EXPECT_TRUE(again && again.bytes == w.bytes) << seed_text(seed) << ": a second write differs";
    }
  }
}

TEST(ExtensionRigs, VersionOneDropsTheExtensionChunks) {
  int failures = 0;
  p2l::WriteOptions v1;
  v1.version = 1;
  for (std::uint64_t seed = 0; seed < kSeeds && failures < kMaxFailures; ++seed) {
    p2l::Rig rig = make_random_rig(seed, with_extensions());
    p2l::WriteResult w = p2l::write(rig, v1);
    if (!w) {
      ADD_FAILURE() << seed_text(seed) << ": write v1 fails: " << w.error.to_string();
      ++failures;
      continue;
    }
    // The writer reports exactly the chunks the rig has, one line each.
    EXPECT_EQ(dropped_starts(w.dropped, "BONE:"), rig.bones.has_value()) << seed_text(seed);
    EXPECT_EQ(dropped_starts(w.dropped, "SKIN:"), rig.skins.has_value()) << seed_text(seed);
    EXPECT_EQ(dropped_starts(w.dropped, "COLL:"), rig.colliders.has_value()) << seed_text(seed);
    EXPECT_EQ(dropped_starts(w.dropped, "SIMS:"), rig.simulations.has_value()) << seed_text(seed);
    std::size_t expected = rig.bones.has_value() + rig.skins.has_value() + rig.colliders.has_value() +
                           rig.simulations.has_value();
    EXPECT_EQ(w.dropped.size(), expected) << seed_text(seed) << ": the default options make nothing else v1 drops";
    p2l::LoadResult loaded = p2l::load(w.bytes);
    if (!loaded) {
      ADD_FAILURE() << seed_text(seed) << ": load v1 fails: " << loaded.error.to_string();
      ++failures;
      continue;
    }
    if (!(*loaded.rig == p2l_test::without_extensions(rig))) {
      ADD_FAILURE() << seed_text(seed) << ": the v1 rig is not the rig without its extension chunks";
      ++failures;
    }
  }
}

// Turning `extensions` on changes nothing else, whatever the other streams do; the same
// seed gives the same rig twice.
TEST(ExtensionRigs, CoreUnchanged) {
  std::vector<RandomRigOptions> variants(4);
  variants[1].motion = false;
  variants[2].non_core = true;
  variants[3].motion = false;
  variants[3].non_core = true;
  int failures = 0;
  for (const RandomRigOptions& base : variants)
    for (std::uint64_t seed = 0; seed < kSeeds && failures < kMaxFailures; ++seed) {
      p2l::Rig plain = make_random_rig(seed, base);
      p2l::Rig extended = make_random_rig(seed, with_extensions(base));
      EXPECT_FALSE(plain.bones || plain.skins || plain.colliders || plain.simulations) << seed_text(seed);
      // Field by field first, for a readable failure; then the whole rig.
      EXPECT_EQ(extended.parameters, plain.parameters) << seed_text(seed);
      EXPECT_EQ(extended.deformers, plain.deformers) << seed_text(seed);
      EXPECT_EQ(extended.parts, plain.parts) << seed_text(seed);
      EXPECT_EQ(extended.meshes, plain.meshes) << seed_text(seed);
      EXPECT_EQ(extended.glues, plain.glues) << seed_text(seed);
      EXPECT_EQ(extended.draw_groups, plain.draw_groups) << seed_text(seed);
      EXPECT_EQ(extended.physics, plain.physics) << seed_text(seed);
      EXPECT_EQ(extended.clips, plain.clips) << seed_text(seed);
      if (!(p2l_test::without_extensions(extended) == plain)) {
        ADD_FAILURE() << seed_text(seed) << ": turning extensions on changes more than the extension chunks";
        ++failures;
      }
      if (!(make_random_rig(seed, with_extensions(base)) == extended)) {
        ADD_FAILURE() << seed_text(seed) << ": the same seed and options give two different rigs";
        ++failures;
      }
    }
}

// The header of each chunk holds what the specification expects.
TEST(ExtensionRigs, HeadersAsSpecified) {
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    p2l::Rig rig = make_random_rig(seed, with_extensions());
    std::size_t defm = rig.deformers.size();
    if (rig.bones) {
      const p2l::ExtensionHeader& h = rig.bones->header;
      EXPECT_EQ(h.feature, 2);
      EXPECT_EQ(h.hooks, p2l::kHookH2 | p2l::kHookH3);
      std::vector<std::uint32_t> with_arc;
      for (const p2l::Arc& a : rig.bones->arcs)
        if (a.deformer < defm) with_arc.push_back(a.deformer);
      std::sort(with_arc.begin(), with_arc.end());
      EXPECT_EQ(h.deformers, with_arc) << seed_text(seed);
      for (std::size_t i = 0; i < rig.bones->virtual_bones.size(); ++i) {
        std::int32_t parent = rig.bones->virtual_bones[i].parent;
        // A DEFM deformer or an earlier virtual bone (the root only when neither exists).
        EXPECT_TRUE(parent >= 0 || defm + i == 0) << seed_text(seed) << " virtual bone " << i;
      }
    }
    if (rig.skins) {
      const p2l::ExtensionHeader& h = rig.skins->header;
      EXPECT_EQ(h.feature, 1);
      EXPECT_EQ(h.hooks, p2l::kHookH4);
      ASSERT_EQ(h.meshes.size(), rig.skins->skins.size()) << seed_text(seed);
      bool virtual_bone = false;
      for (std::size_t i = 0; i < h.meshes.size(); ++i) {
        const p2l::Skin& k = rig.skins->skins[i];
        EXPECT_EQ(h.meshes[i].mesh, k.mesh);
        ASSERT_EQ(h.meshes[i].axes.size(), k.axes.size());
        for (std::size_t a = 0; a < k.axes.size(); ++a) {
          EXPECT_EQ(h.meshes[i].axes[a], k.axes[a].parameter);
          EXPECT_GE(k.axes[a].keys.size(), 2u);
        }
        EXPECT_TRUE(h.meshes[i].bindings.empty());
        for (std::uint32_t b : k.bones) virtual_bone |= b >= defm;
        for (float w : k.weight) EXPECT_TRUE(w >= 0 && w <= 1) << seed_text(seed);
      }
      EXPECT_EQ(h.depends_on, virtual_bone ? std::vector<std::string>{"BONE"} : std::vector<std::string>{})
          << seed_text(seed);
    }
    if (rig.colliders) {
      EXPECT_EQ(rig.colliders->header.feature, 8);
      EXPECT_EQ(rig.colliders->header.hooks, p2l::kHookH6);
      EXPECT_EQ(rig.colliders->header.depends_on, std::vector<std::string>{"SIMS"});
    }
    if (rig.simulations) {
      const p2l::ExtensionHeader& h = rig.simulations->header;
      EXPECT_EQ(h.feature, 4);
      EXPECT_EQ(h.hooks, p2l::kHookH1 | p2l::kHookH4 | p2l::kHookH6);
      std::vector<std::uint32_t> parameters, groups;
      for (const p2l::Simulation& s : rig.simulations->simulations) {
        parameters.insert(parameters.end(), s.parameters.begin(), s.parameters.end());
        groups.insert(groups.end(), s.physics_groups.begin(), s.physics_groups.end());
        EXPECT_TRUE(s.fps == 30 || s.fps == 60 || s.fps == 120);
        EXPECT_TRUE(s.substeps >= 1 && s.substeps <= 8);
        EXPECT_LE(s.particle_count(), 24u) << seed_text(seed) << ": kept small for the sanitizers";
        for (float d : s.long_max_distance) EXPECT_GT(d, 0);
        for (float d : s.stretch_rest) EXPECT_GT(d, 0);
      }
      for (auto* list : {&parameters, &groups}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
      }
      EXPECT_EQ(h.parameters, parameters) << seed_text(seed);
      EXPECT_EQ(h.physics_groups, groups) << seed_text(seed);
    }
  }
}

// Over the seeds every piece of every chunk occurs.
TEST(ExtensionRigs, Coverage) {
  std::map<std::string, int> n;
  std::map<int, int> combinations;  // bit 1 BONE, 2 SKIN, 4 COLL, 8 SIMS
  auto negatives = [&](const char* what, const p2l::Array<float>& a) {
    for (float c : a)
      if (c < 0) ++n[std::string("negative ") + what];
  };
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    p2l::Rig rig = make_random_rig(seed, with_extensions());
    std::size_t defm = rig.deformers.size();
    combinations[(rig.bones ? 1 : 0) | (rig.skins ? 2 : 0) | (rig.colliders ? 4 : 0) | (rig.simulations ? 8 : 0)]++;
    if (rig.bones) {
      ++n["BONE chunks"];
      n["virtual bones"] += static_cast<int>(rig.bones->virtual_bones.size());
      n["attachable bones"] += static_cast<int>(rig.bones->bones.size());
      for (const p2l::BoneRef& b : rig.bones->bones)
        if (b.deformer >= defm) ++n["attachable virtual bones"];
      for (const p2l::Deformer& d : rig.bones->virtual_bones)
        if (d.parent >= static_cast<std::int32_t>(defm)) ++n["virtual bones under virtual bones"];
      for (const p2l::Arc& a : rig.bones->arcs) {
        ++n["arcs"];
        ++n[a.deformer < defm ? "arcs on DEFM rotations" : "arcs on virtual bones"];
        if (rig.deformer_or_bone(a.deformer).pivot->axes[0].keys.size() >= 4) ++n["arcs with 4+ keys"];
      }
    }
    if (rig.skins) {
      ++n["SKIN chunks"];
      for (const p2l::Skin& k : rig.skins->skins) {
        ++n["skins"];
        ++n[k.weight.empty() ? "skins with fitted weights" : "skins with given weights"];
        if (std::any_of(k.bones.begin(), k.bones.end(), [&](std::uint32_t b) { return b >= defm; }))
          ++n["skins with virtual bones"];
        if (k.bones.size() >= 2) ++n["skins with several bones"];
      }
    }
    if (rig.colliders) {
      ++n["COLL chunks"];
      for (const p2l::Collider& c : rig.colliders->colliders) {
        ++n[c.capsule ? "capsule colliders" : "circle colliders"];
        ++n[c.mesh >= 0 ? "colliders on mesh vertices" : c.deformer >= 0 ? "colliders on deformers" : "fixed colliders"];
        if (c.deformer >= static_cast<std::int32_t>(defm)) ++n["colliders on virtual bones"];
      }
    }
    if (rig.simulations) {
      ++n["SIMS chunks"];
      for (const p2l::Simulation& s : rig.simulations->simulations) {
        ++n["simulations"];
        if (s.targets.size() >= 2) ++n["simulations over two meshes"];
        n["statics"] += static_cast<int>(s.statics.size());
        n["stretch constraints"] += static_cast<int>(s.stretch_a.size());
        n["triangles"] += static_cast<int>(s.tri_a.size());
        n["bends"] += static_cast<int>(s.bend_t1.size());
        n["welds"] += static_cast<int>(s.weld_a.size());
        n["long-range attachments"] += static_cast<int>(s.long_particle.size());
        if (!s.parameters.empty()) ++n["simulations holding parameters"];
        if (!s.physics_groups.empty()) ++n["simulations skipping physics groups"];
        if (!s.colliders.empty()) ++n["simulations with colliders"];
        for (float m : s.inv_mass)
          if (m == 0) ++n["particles with inverse mass 0"];
        for (float w : s.pin_weight)
          if (w >= 0.999f) ++n["particles pinned (>= 0.999)"];
        for (std::size_t p = 0; p < s.anchor_mesh.size(); ++p)
          ++n[s.anchor_mesh[p] == 0xFFFFFFFFu ? "anchors on themselves" : "anchors on a mesh vertex"];
        negatives("goal compliances", s.goal_compliance);
        negatives("stretch compliances", s.stretch_compliance);
        negatives("compression compliances", s.compression_compliance);
        negatives("area compliances", s.area_compliance);
        negatives("bend compliances", s.bend_compliance);
        negatives("weld compliances", s.weld_compliance);
      }
    }
  }
  for (const auto& [what, count] : n) std::cout << "  " << what << ": " << count << "\n";
  std::cout << "  seeds per chunk combination (bit 1 BONE, 2 SKIN, 4 COLL, 8 SIMS):";
  for (const auto& [c, count] : combinations) std::cout << " " << c << ":" << count;
  std::cout << "\n";
  for (const char* chunk : {"BONE chunks", "SKIN chunks", "COLL chunks", "SIMS chunks"}) EXPECT_GE(n[chunk], 20) << chunk;
  for (const char* piece :
       {"virtual bones", "virtual bones under virtual bones", "attachable bones", "attachable virtual bones", "arcs",
        "arcs on DEFM rotations", "arcs on virtual bones", "arcs with 4+ keys", "skins", "skins with fitted weights",
        "skins with given weights", "skins with virtual bones", "skins with several bones", "capsule colliders",
        "circle colliders", "colliders on mesh vertices", "colliders on deformers", "fixed colliders",
        "colliders on virtual bones", "simulations", "simulations over two meshes", "statics", "stretch constraints",
        "triangles", "bends", "welds", "long-range attachments", "simulations holding parameters",
        "simulations skipping physics groups", "simulations with colliders", "particles with inverse mass 0",
        "particles pinned (>= 0.999)", "anchors on themselves", "anchors on a mesh vertex",
        "negative goal compliances", "negative stretch compliances", "negative compression compliances",
        "negative area compliances", "negative bend compliances", "negative weld compliances"})
    EXPECT_GE(n[piece], 5) << piece;
  // Every combination of present and absent chunks.
  for (int c = 0; c < 16; ++c) EXPECT_GE(combinations[c], 1) << "chunk combination " << c;
}

// The rigs compile and evaluate to finite numbers at the defaults and at random poses.
TEST(ExtensionRigs, ModelEvaluates) {
  int failures = 0;
  for (std::uint64_t seed = 0; seed < kSeeds && failures < kMaxFailures; ++seed) {
    p2l::Rig rig = make_random_rig(seed, with_extensions());
    p2l::ModelResult made = p2l::Model::create(std::make_shared<const p2l::Rig>(rig));
    if (!made) {
      ADD_FAILURE() << seed_text(seed) << ": Model::create fails: " << made.error.to_string();
      ++failures;
      continue;
    }
    p2l::Instance instance(made.model);
    RigRandom r(seed);
    for (int pose = 0; pose < 4 && failures < kMaxFailures; ++pose) {
      if (pose > 0) {
        for (std::size_t p = 0; p < rig.parameters.size(); ++p)
          instance.parameters()[p] = r.uniform(rig.parameters[p].min, rig.parameters[p].max, 4);
        instance.evaluate();
      }
      bool finite = true;
      for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
        for (float v : instance.vertices(m)) finite &= std::isfinite(v);
        finite &= std::isfinite(instance.opacity(m)) && std::isfinite(instance.draw_order(m));
      }
      if (!finite) {
        ADD_FAILURE() << seed_text(seed) << ": pose " << pose << " evaluates to a NaN or an infinity";
        ++failures;
      }
    }
  }
}

}  // namespace
