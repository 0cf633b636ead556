// The importer's keyed tables: lookups at and between keys, and products of tables merged
// into one grid (exact for factors of different parameters, flagged when they share one).
#include <gtest/gtest.h>

#include <random>

#include "import/keyed_table.hpp"

namespace {

using p2l::Rgb;
using p2l::moc3::KeyedTable;

KeyedTable table(std::uint32_t parameter, std::vector<float> keys, std::vector<float> values) {
  KeyedTable t;
  t.axes.push_back({parameter, std::move(keys)});
  for (float v : values) t.values.push_back({v, 2 * v, 0});
  return t;
}

// A merged grid read back as a table (its cells are dense, first axis fastest).
KeyedTable as_table(const p2l::Grid<Rgb>& g) {
  KeyedTable t;
  for (const auto& a : g.axes) t.axes.push_back({a.parameter, a.keys.to_vector()});
  t.values = g.forms;
  return t;
}

Rgb product(std::span<const Rgb> v) {
  Rgb out{1, 1, 1};
  for (const Rgb& x : v)
    for (int k = 0; k < 3; ++k) out[k] *= x[k];
  return out;
}

TEST(KeyedTable, AtKeysExactlyAndLinearBetween) {
  const auto t = table(1, {-1, 0, 2}, {0.25f, 0.5f, 1.5f});
  std::vector<float> p(2, 0.0f);
  for (auto [v, want] : std::vector<std::pair<float, float>>{{-1, 0.25f}, {0, 0.5f}, {2, 1.5f}, {-5, 0.25f}, {9, 1.5f}, {1, 1.0f}, {-0.5f, 0.375f}}) {
    p[1] = v;
    EXPECT_FLOAT_EQ(t.at(p)[0], want) << v;
    EXPECT_FLOAT_EQ(t.at(p)[1], 2 * want) << v;
  }
}

TEST(KeyedTable, ProductOfDifferentParametersIsExactEverywhere) {
  // Mesh colour on parameter 0 (three keys), a deformer's on parameter 2 (two keys).
  const std::vector<KeyedTable> factors{table(0, {0, 0.5f, 1}, {1, 0.6f, 0.2f}), table(2, {-1, 1}, {0.3f, 0.9f})};
  auto merged = p2l::moc3::combine(factors, 3, product, 1000);
  ASSERT_TRUE(merged);
  EXPECT_FALSE(merged->shared_parameter);
  EXPECT_EQ(merged->grid.forms.size(), 6u);
  const auto back = as_table(merged->grid);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.5f, 1.5f);
  for (int i = 0; i < 200; ++i) {
    std::vector<float> p{u(rng), u(rng), u(rng)};
    const Rgb want = product(std::vector<Rgb>{factors[0].at(p), factors[1].at(p)});
    EXPECT_NEAR(back.at(p)[0], want[0], 1e-6f);
    EXPECT_NEAR(back.at(p)[1], want[1], 1e-6f);
  }
}

TEST(KeyedTable, ASharedParameterMergesKeysAndIsExactAtThem) {
  const std::vector<KeyedTable> factors{table(0, {0, 1}, {1, 0}), table(0, {0, 0.5f, 1}, {0, 1, 1})};
  auto merged = p2l::moc3::combine(factors, 1, product, 1000);
  ASSERT_TRUE(merged);
  EXPECT_TRUE(merged->shared_parameter);
  ASSERT_EQ(merged->grid.axes.size(), 1u);
  EXPECT_EQ(merged->grid.axes[0].keys.to_vector(), (std::vector<float>{0, 0.5f, 1}));
  EXPECT_FLOAT_EQ(merged->grid.forms[1][0], 0.5f);  // (1 - 0.5) * 1
}

TEST(KeyedTable, TooManyCellsGiveNothing) {
  std::vector<KeyedTable> factors;
  for (std::uint32_t p = 0; p < 5; ++p) factors.push_back(table(p, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, std::vector<float>(10, 1)));
  EXPECT_FALSE(p2l::moc3::combine(factors, 5, product, 65536));
  EXPECT_TRUE(p2l::moc3::combine(factors, 5, product, 100000));
}

}  // namespace
