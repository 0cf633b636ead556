// Array codecs: the exact ones are exact, the lossy ones stay within their precision, and
// the "publish" option uses them only where they fit. The measured maximum errors are
// printed so a change in precision shows up in the test log.
#include <cmath>
#include <random>

#include "format/array_codec.hpp"
#include "full_rig.hpp"
#include "test_util.hpp"

namespace {

using namespace p2l::format;

TEST(Codecs, EveryHalfValueConvertsExactlyAndBack) {
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    float f = half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) continue;
    EXPECT_EQ(float_to_half(f), h) << "half 0x" << std::hex << h;
  }
  EXPECT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(half_to_float(0x8000), -0.0f);
  EXPECT_TRUE(std::signbit(half_to_float(0x8000)));
}

TEST(Codecs, HalfRoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10): ties go to even (1).
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(float_to_half(65520.0f), 0x7C00);  // rounds past the largest half
  EXPECT_FALSE(fits_half(1e6f));
  EXPECT_TRUE(fits_half(65504.0f));
}

TEST(Codecs, LossyCodecsStayWithinTheirPrecision) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> position(-4000.0f, 4000.0f), uv(0.0f, 1.0f);
  double max_half_relative = 0, max_unorm = 0;
  for (int i = 0; i < 200000; ++i) {
    float p = position(rng);
    float back = half_to_float(float_to_half(p));
    if (std::fabs(p) >= std::ldexp(1.0f, -14))  // normal halves: relative error at most 2^-11
      max_half_relative = std::max(max_half_relative, std::fabs(double(back) - p) / std::fabs(double(p)));
    float u = uv(rng);
    max_unorm = std::max(max_unorm, std::fabs(double(unorm16_to_float(float_to_unorm16(u))) - u));
  }
  std::printf("f16 max relative error %.3g (bound %.3g); unorm16 max absolute error %.3g (bound %.3g)\n",
              max_half_relative, std::ldexp(1.0, -11), max_unorm, 0.5 / 65535);
  EXPECT_LE(max_half_relative, std::ldexp(1.0, -11));
  EXPECT_LE(max_unorm, 0.5 / 65535 + 1e-7);
  EXPECT_GT(max_half_relative, 0);  // the codec really is lossy: the test measures something
}

TEST(Codecs, PublishWritesF16PositionsAndUnorm16UvsWithinPrecision) {
  p2l::Rig rig = p2l_test::make_full_rig();
  // A mesh of random vertices, which f16 and unorm16 cannot hold exactly.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> position(-500.0f, 500.0f), uv(0.0f, 1.0f);
  std::vector<float> pos(2000), uvs(2000);
  for (auto& v : pos) v = position(rng);
  for (auto& v : uvs) v = uv(rng);
  std::vector<std::uint32_t> tris;
  for (std::uint32_t i = 0; i + 2 < 1000; ++i) tris.insert(tris.end(), {i, i + 1, i + 2});
  p2l::Mesh noisy;
  noisy.id = "noisy";
  noisy.geometry = p2l::Geometry{pos, uvs, tris};
  rig.meshes.push_back(noisy);
  rig.draw_groups[0].children.push_back({p2l::DrawChildKind::Mesh, static_cast<std::uint32_t>(rig.meshes.size() - 1)});
  auto exact = p2l::write(rig);
  auto published = p2l::write(rig, {.publish = true});
  ASSERT_TRUE(published) << published.error.to_string();
  EXPECT_LT(published.bytes.size(), exact.bytes.size());
  auto r = p2l::load(published.bytes);
  ASSERT_TRUE(r) << r.error.to_string();
  double worst_position = 0, worst_uv = 0;
  for (std::size_t m = 0; m < rig.meshes.size(); ++m) {
    if (!rig.meshes[m].geometry) continue;
    const auto& a = *rig.meshes[m].geometry;
    const auto& b = *r.rig->meshes[m].geometry;
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
      double tolerance = std::max(std::fabs(double(a.positions[i])) * std::ldexp(1.0, -11), std::ldexp(1.0, -25));
      double err = std::fabs(double(a.positions[i]) - b.positions[i]);
      worst_position = std::max(worst_position, err);
      EXPECT_LE(err, tolerance) << "mesh " << m << " position " << i;
    }
    bool uvs_in_range = std::all_of(a.uvs.begin(), a.uvs.end(), [](float v) { return v >= 0 && v <= 1; });
    for (std::size_t i = 0; i < a.uvs.size(); ++i) {
      double err = std::fabs(double(a.uvs[i]) - b.uvs[i]);
      worst_uv = std::max(worst_uv, err);
      EXPECT_LE(err, uvs_in_range ? 0.5 / 65535 + 1e-7 : 0.0) << "mesh " << m << " uv " << i;
    }
  }
  std::printf("publish: %zu -> %zu bytes; worst position error %.3g, worst UV error %.3g\n", exact.bytes.size(),
              published.bytes.size(), worst_position, worst_uv);
  EXPECT_GT(worst_position, 0);  // f16 was really used
  EXPECT_GT(worst_uv, 0);        // and unorm16
  // Everything that is not a position, offset or UV is untouched.
  EXPECT_TRUE(r.rig->parameters == rig.parameters);
  EXPECT_TRUE(r.rig->deformers == rig.deformers);
}

TEST(Codecs, IndicesAreU16UpTo65535VerticesAndU32Beyond) {
  for (std::uint32_t vertices : {3u, 65535u, 65536u}) {
    p2l::Rig rig;
    p2l::Mesh m;
    m.id = "big";
    std::vector<float> pos(std::size_t{vertices} * 2, 0.0f), uv(std::size_t{vertices} * 2, 0.0f);
    m.geometry = p2l::Geometry{pos, uv, {0, 1, vertices - 1}};
    rig.meshes.push_back(m);
    rig.draw_groups[0].children = {{p2l::DrawChildKind::Mesh, 0}};
    auto w = p2l::write(rig);
    ASSERT_TRUE(w) << w.error.to_string();
    auto r = p2l::load(w.bytes);
    ASSERT_TRUE(r) << r.error.to_string();
    const auto& idx = r.rig->meshes[0].geometry->indices;
    EXPECT_EQ(idx.u16().empty(), vertices > 65535) << vertices;
    EXPECT_EQ(idx[2], vertices - 1);
  }
}

}  // namespace
