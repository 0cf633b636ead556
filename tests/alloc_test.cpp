// No file makes the reader allocate more than a small multiple of its own decompressed
// size. This binary replaces the global allocator with a counting one and measures the
// peak during load() for real files and for files built to be as costly per byte as the
// format allows (long runs of the smallest records the model stores).
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <cstdlib>
#include <new>

#include "format/container.hpp"
#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "random_rig.hpp"
#include "small_rig.hpp"
#include "test_util.hpp"

namespace {
std::atomic<std::size_t> g_current{0}, g_peak{0}, g_allocations{0};

void* counted_alloc(std::size_t n) {
  // A 16-byte header keeps the size and the 16-byte alignment malloc gives.
  auto* p = static_cast<unsigned char*>(std::malloc(n + 16));
  if (!p) return nullptr;
  *reinterpret_cast<std::size_t*>(p) = n;
  g_allocations.fetch_add(1);
  std::size_t now = g_current.fetch_add(n) + n;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return p + 16;
}
void counted_free(void* q) {
  if (!q) return;
  auto* p = static_cast<unsigned char*>(q) - 16;
  g_current.fetch_sub(*reinterpret_cast<std::size_t*>(p));
  std::free(p);
}
void* checked(void* p) {
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return checked(counted_alloc(n)); }
void* operator new[](std::size_t n) { return checked(counted_alloc(n)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t) { return checked(counted_alloc(n)); }  // alignment <= 16 here
void* operator new[](std::size_t n, std::align_val_t) { return checked(counted_alloc(n)); }
void* operator new(std::size_t n, std::align_val_t, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, std::align_val_t, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }

namespace {

using namespace p2l_test;

// The bound the reader promises: this many times the decompressed size, plus a small
// constant for fixed costs (the Rig, tables, error strings).
constexpr double kMultiple = 16.0;
constexpr std::size_t kConstant = 64 * 1024;

std::size_t decompressed_size(const std::vector<std::uint8_t>& file) {
  p2l::FileInfo info;
  p2l::Error e;
  if (!p2l::read_file_info(file, info, e) || info.major != 2) return file.size();
  std::size_t n = 32 + 40 * info.chunks.size();
  for (const auto& c : info.chunks) n += c.raw_length;
  return n;
}

struct Measured {
  std::size_t peak = 0;
  bool loaded = false;
};

Measured measure(const std::vector<std::uint8_t>& file) {
  std::size_t before = g_current.load();
  g_peak.store(before);
  Measured m;
  {
    auto r = p2l::load(file);
    m.loaded = static_cast<bool>(r);
  }
  m.peak = g_peak.load() - before;
  return m;
}

void expect_bounded(const std::vector<std::uint8_t>& file, const std::string& what) {
  Measured m = measure(file);
  std::size_t size = decompressed_size(file);
  double ratio = static_cast<double>(m.peak) / static_cast<double>(size);
  std::printf("%-44s %9zu bytes decompressed, peak %10zu bytes allocated (%5.2fx)%s\n", what.c_str(), size, m.peak,
              ratio, m.loaded ? "" : " [refused]");
  EXPECT_LE(m.peak, static_cast<std::size_t>(kMultiple * static_cast<double>(size)) + kConstant) << what;
}

TEST(Allocation, RealFilesStayWithinTheBound) {
  P2L_REQUIRE_VECTORS();
  for (const char* name : {"chain.p2lrt", "extras.zstd.p2lrt", "skin_arc.deflate.p2lrt", "stress.p2lrt",
                           "stress.zstd.p2lrt", "min_textures.p2lrt"})
    expect_bounded(vector_file(name), name);
}

// The model's costliest records per byte, in files that are valid.
TEST(Allocation, CostliestValidRecordsStayWithinTheBound) {
  // Many minimal rotation deformers.
  p2l::Rig many_deformers = make_small_rig();
  p2l::Deformer rotation;
  rotation.kind = p2l::DeformerKind::Rotation;
  many_deformers.deformers.assign(20000, rotation);
  many_deformers.meshes[0].parent = -1;
  expect_bounded(p2l::write(many_deformers).bytes, "20000 minimal rotations");

  // Many minimal meshes without geometry.
  p2l::Rig many_meshes = make_small_rig();
  many_meshes.meshes.resize(2);
  p2l::Mesh empty;
  for (int i = 0; i < 20000; ++i) many_meshes.meshes.push_back(empty);
  expect_bounded(p2l::write(many_meshes).bytes, "20000 meshes without geometry");

  // A blend binding with many keys and no shapes (one flag byte a key).
  p2l::Rig sparse = make_small_rig();
  p2l::Binding<p2l::MeshShape> b;
  std::vector<float> keys(50000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<float>(i);
  b.keys = keys;
  b.shapes.assign(keys.size(), std::nullopt);
  sparse.meshes[0].shapes.push_back(b);
  expect_bounded(p2l::write(sparse).bytes, "binding of 50000 absent shapes");

  // A two-axis flag channel with a cell at every combination (three bytes a cell).
  p2l::Rig flags = make_small_rig();
  p2l::Channel ch{p2l::ChannelType::FlipX, p2l::ChannelKind::Flag, {}};
  std::vector<float> k(250);
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<float>(i);
  ch.grid.axes = {{0, k}, {0, k}};
  for (std::uint16_t x = 0; x < 250; ++x)
    for (std::uint16_t y = 0; y < 250; ++y) {
      ch.grid.coords.insert(ch.grid.coords.end(), {x, y});
      ch.grid.forms.push_back({1, 0, 0});
    }
  flags.meshes[0].channels.push_back(ch);
  expect_bounded(p2l::write(flags).bytes, "62500-cell flag channel");
}

// Hostile files: declared sizes and counts that the bytes do not back.
TEST(Allocation, LyingLengthsAndCountsCostNothing) {
  p2l::Rig rig = make_small_rig();
  auto plain = p2l::write(rig).bytes;
  // A count of 2^32-1 parameters in a 25-byte chunk.
  auto f = plain;
  int e = find_entry(f, "PARM");
  put_u32(f, static_cast<std::size_t>(get_u64(f, entry_at(static_cast<std::size_t>(e)) + 8)), 0xFFFFFFFFu);
  expect_bounded(f, "PARM count 2^32-1");
  // A compressed chunk that claims 1 GiB after decompression.
  for (auto c : {p2l::Compression::Deflate, p2l::Compression::Zstd}) {
    f = p2l::write(rig, {.compression = c}).bytes;
    e = find_entry(f, "MESH");
    put_u64(f, entry_at(static_cast<std::size_t>(e)) + 24, std::uint64_t{1} << 30);
    Measured m = measure(f);
    std::printf("%-44s peak %zu bytes allocated\n", "MESH claiming raw_length 1 GiB", m.peak);
    EXPECT_FALSE(m.loaded);
    EXPECT_LT(m.peak, std::size_t{1} << 20);
  }
}

// A compression bomb: a tiny zstd frame of one long run, honestly declared.
TEST(Allocation, HonestBombIsCappedByTheChunkLimit) {
  p2l::Rig rig = make_small_rig();
  rig.unknown_chunks.push_back({"bomb", 1, false, std::vector<std::uint8_t>(std::size_t{64} << 20, 0)});
  auto f = p2l::write(rig, {.compression = p2l::Compression::Zstd}).bytes;
  std::printf("64 MiB of zeros compress to a %zu-byte file\n", f.size());
  p2l::LoadOptions o;
  o.max_chunk_bytes = 16 << 20;
  std::size_t before = g_current.load();
  g_peak.store(before);
  auto r = p2l::load(f, o);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error.code, p2l::ErrorCode::TooLarge);
  EXPECT_LT(g_peak.load() - before, std::size_t{1} << 20);
}

}  // namespace

namespace {

// Evaluation allocates nothing: every buffer is sized when the instance is made. Each
// rig is evaluated 1000 times at poses that change every frame (so every grid, blend
// shape, flip and sort path runs), and not one allocation may happen.
std::size_t allocations_during_evaluations(const std::shared_ptr<const p2l::Rig>& rig, std::uint64_t seed) {
  auto model = p2l::Model::create(rig);
  EXPECT_TRUE(model) << model.error.to_string();
  if (!model) return 0;
  p2l::Instance instance(model.model);
  instance.set_advanced(instance.advanced_available());  // advanced mode's hooks allocate nothing either
  p2l_test::SplitMix64 random(seed);
  // Poses drawn before counting: the loop itself must not allocate either.
  std::vector<float> poses(1000 * rig->parameters.size());
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const p2l::Parameter& p = rig->parameters[i % rig->parameters.size()];
    const double u = static_cast<double>(random.next() >> 11) / 9007199254740992.0;
    poses[i] = static_cast<float>(p.min - 0.2 * (p.max - p.min) + u * 1.4 * (p.max - p.min));
  }
  const std::size_t before = g_allocations.load();
  for (std::size_t frame = 0; frame < 1000; ++frame) {
    auto values = instance.parameters();
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = poses[frame * values.size() + i];
    instance.evaluate();
  }
  return g_allocations.load() - before;
}

TEST(EvaluationAllocations, NoneInAThousandEvaluationsOfTheVectors) {
  P2L_REQUIRE_VECTORS();
  for (const char* name : {"chain.p2lrt", "extras.p2lrt", "skin_arc.p2lrt", "stress.p2lrt"}) {
    auto loaded = p2l::load(vector_file(name));
    ASSERT_TRUE(loaded) << name << ": " << loaded.error.to_string();
    EXPECT_EQ(allocations_during_evaluations(loaded.rig, 7), 0u) << name;
  }
}

TEST(EvaluationAllocations, NoneInAThousandEvaluationsOfRandomRigs) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto rig = std::make_shared<const p2l::Rig>(p2l_test::make_random_rig(seed));
    if (rig->parameters.empty()) continue;
    EXPECT_EQ(allocations_during_evaluations(rig, seed), 0u) << "seed " << seed;
  }
}

// Updating allocates nothing either: every animation buffer is sized when the animator is
// made. A character runs a looping clip on layer 0 and a one-shot on layer 1 (restarted on a
// schedule, so replaced clips fade out), an expression switched now and then, every
// behavior, pose switches, overrides and physics, for 1000 frames of varying length.
std::size_t allocations_during_updates(const std::shared_ptr<const p2l::Rig>& rig) {
  auto model = p2l::Model::create(rig);
  EXPECT_TRUE(model) << model.error.to_string();
  if (!model) return 0;
  p2l::Instance instance(model.model);
  p2l::Animator animator(model.model);
  // Every advanced feature the file carries on: skinning, exact links, simulations, collisions.
  instance.set_advanced(instance.advanced_available());
  animator.evaluate(instance);
  animator.set_behaviors(p2l::kBehaviorBlink | p2l::kBehaviorBreath | p2l::kBehaviorLook | p2l::kBehaviorLipSync);
  const auto clips = static_cast<std::int32_t>(rig->clips.size());
  const auto expressions = static_cast<std::int32_t>(rig->expressions.size());
  if (clips > 0) animator.play(0);
  if (expressions > 0) animator.expression(0);
  // Warm up: the first switches may size what the host's habits need.
  for (int frame = 0; frame < 10; ++frame) animator.update(instance, 1.0f / 60);
  const std::size_t before = g_allocations.load();
  float audio[64];
  for (int frame = 0; frame < 1000; ++frame) {
    if (clips > 0 && frame % 97 == 0) animator.play_layer(1, frame % clips, 1);
    if (clips > 0 && frame % 300 == 150) animator.play(frame % clips);
    if (expressions > 0 && frame % 211 == 0) animator.expression(frame % expressions);
    if (rig->pose && !rig->pose->groups.empty() && frame % 133 == 0)
      animator.pose_show(0, static_cast<std::uint32_t>(frame / 133) % static_cast<std::uint32_t>(rig->pose->groups[0].entries.size()));
    if (!rig->parameters.empty()) animator.set_override(0, 1.0f, frame % 2 == 0 ? 0.5f : 0.0f);
    for (int i = 0; i < 64; ++i) audio[i] = std::sin(static_cast<float>(frame * 64 + i) * 0.1f);
    animator.lip_sync_samples(audio, 2.0f);
    animator.look_at(std::sin(static_cast<float>(frame) * 0.05f), 0.3f);
    animator.update(instance, frame % 3 == 0 ? 1.0f / 30 : 1.0f / 144);
  }
  return g_allocations.load() - before;
}

TEST(UpdateAllocations, NoneInAThousandUpdatesOfTheVectors) {
  P2L_REQUIRE_VECTORS();
  for (const char* name : {"chain.p2lrt", "extras.p2lrt", "skin_arc.p2lrt", "stress.p2lrt"}) {
    auto loaded = p2l::load(vector_file(name));
    ASSERT_TRUE(loaded) << name << ": " << loaded.error.to_string();
    EXPECT_EQ(allocations_during_updates(loaded.rig), 0u) << name;
  }
}

// Random rigs with extension chunks: skins (fitted or given), arcs, simulations stepping,
// colliders on meshes, deformers and virtual bones, every feature on.
TEST(UpdateAllocations, NoneWithEveryAdvancedFeatureOnRandomRigs) {
  p2l_test::RandomRigOptions options;
  options.extensions = true;
  int advanced = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    auto rig = std::make_shared<const p2l::Rig>(p2l_test::make_random_rig(seed, options));
    advanced += rig->skins || rig->simulations || rig->bones;
    EXPECT_EQ(allocations_during_updates(rig), 0u) << "seed " << seed;
  }
  EXPECT_GE(advanced, 15);
}

TEST(UpdateAllocations, NoneInAThousandUpdatesOfHaru) {
  const char* home = std::getenv("HOME");
  const std::string path = std::string(home ? home : "") +
                           "/.cache/p2lrt/live2dcubismcore-1.0.2/package/characters/haru_greeter_pro_jp/runtime/"
                           "haru_greeter_t03.model3.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "Haru is fetched by scripts/fetch_cubism_core.sh; not found at " << path;
  p2l::ImportResult imported = p2l::import_cubism(path);
  ASSERT_TRUE(imported) << imported.error.to_string();
  EXPECT_EQ(allocations_during_updates(std::make_shared<const p2l::Rig>(std::move(imported.rig))), 0u);
}

}  // namespace
