// Keys that repeat or go down, as some game exports have and the official Core loads: imported
// under Cubism's rules as they are (the lookup scans them in file order; what the Core computes
// for them is pinned by the v4-unsorted-keys fixture), reported, and refused by name under the
// format's own rules, which need them ascending. The model is the generator's (no Cubism file).
#include <gtest/gtest.h>

#include <string>

#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "synth_model.hpp"

namespace {

std::vector<std::uint8_t> unsorted_moc3() {
  p2l_test::synth::Features f;
  EXPECT_TRUE(f.set("default") && f.set("unsorted-keys"));
  auto moc = p2l_test::synth::generate_moc3(1, 4, f);  // the v4-unsorted-keys fixture's model
  EXPECT_FALSE(moc.bytes.empty()) << moc.error;
  return moc.bytes;
}

TEST(CubismUnsortedKeys, CubismRulesKeepThemAndSaySo) {
  p2l::ImportResult imported = p2l::import_moc3(unsorted_moc3());
  ASSERT_TRUE(imported) << imported.error.to_string();
  std::size_t reported = 0;
  for (const std::string& line : imported.report.dropped)
    reported += line.find("is not above the one before; kept in file order") != std::string::npos;
  EXPECT_EQ(reported, 2u);
  bool kept = false;  // a key list that does not ascend reached the rig as it is
  auto look = [&](const std::vector<p2l::Axis>& axes) {
    for (const p2l::Axis& a : axes)
      for (std::size_t k = 1; k < a.keys.size(); ++k) kept |= !(a.keys[k] > a.keys[k - 1]);
  };
  for (const p2l::Mesh& m : imported.rig.meshes) {
    if (m.keyforms) look(m.keyforms->axes);
    for (const p2l::Channel& c : m.channels) look(c.grid.axes);
  }
  EXPECT_TRUE(kept);
  // Written and read back: the format's Cubism rules carry them.
  const p2l::WriteResult written = p2l::write(imported.rig, {});
  ASSERT_TRUE(written) << written.error.to_string();
  EXPECT_TRUE(p2l::load(written.bytes)) << p2l::load(written.bytes).error.to_string();
}

TEST(CubismUnsortedKeys, TheFormatsOwnRulesRefuseThemByName) {
  p2l::ImportResult imported = p2l::import_moc3(unsorted_moc3(), {p2l::CoreRules::Original});
  ASSERT_FALSE(imported);
  EXPECT_NE(imported.error.message.find("is not above the one before; the format's own rules need ascending keys"),
            std::string::npos)
      << imported.error.to_string();
}

}  // namespace
