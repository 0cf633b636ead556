// The Cubism 2 .moc reader (src/import/cubism2/moc_file.hpp) on files from the tests' own
// writer: every version the 2.1 runtime reads gives back what was written, shared and unshared,
// and damaged or hostile files are refused with a message naming the problem.
#include <algorithm>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <cstring>
#include <string>
#include <vector>

#include "cubism2/moc_writer.hpp"
#include "p2l/cubism.hpp"
#include "p2l/import.hpp"
#include "cubism2/synth_moc.hpp"
#include "import/cubism2/moc_file.hpp"

namespace {

using namespace p2l::cubism2;
using p2l_test::cubism2::MocWriteOptions;
using p2l_test::cubism2::put_compact;
using p2l_test::cubism2::synth_moc;
using p2l_test::cubism2::write_moc;

// Where two models differ, in words; empty when they do not.
std::string difference(const Moc& a, const Moc& b) {
  if (a.version != b.version) return "version";
  if (a.canvas_width != b.canvas_width || a.canvas_height != b.canvas_height) return "canvas";
  if (a.parameters.size() != b.parameters.size()) return "parameter count";
  for (std::size_t i = 0; i < a.parameters.size(); ++i) {
    const auto &p = a.parameters[i], &q = b.parameters[i];
    if (p.id != q.id || p.min != q.min || p.max != q.max || p.value != q.value) return "parameter " + p.id;
  }
  auto same_axes = [](const KeyAxes& x, const KeyAxes& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i].parameter != y[i].parameter || x[i].keys != y[i].keys) return false;
    return true;
  };
  if (a.parts.size() != b.parts.size()) return "part count";
  for (std::size_t i = 0; i < a.parts.size(); ++i) {
    const Part &p = a.parts[i], &q = b.parts[i];
    if (p.id != q.id || p.locked != q.locked || p.visible != q.visible) return "part " + p.id;
    if (p.deformers.size() != q.deformers.size() || p.meshes.size() != q.meshes.size()) return "part " + p.id + "'s lists";
    for (std::size_t d = 0; d < p.deformers.size(); ++d) {
      const Deformer &x = p.deformers[d], &y = q.deformers[d];
      if (x.kind != y.kind || x.id != y.id || x.parent != y.parent || !same_axes(x.axes, y.axes)) return "deformer " + x.id;
      if (x.rows != y.rows || x.columns != y.columns || x.grids != y.grids || x.opacities != y.opacities)
        return "deformer " + x.id + "'s keyforms";
      if (x.affines.size() != y.affines.size()) return "deformer " + x.id + "'s affines";
      for (std::size_t k = 0; k < x.affines.size(); ++k) {
        const AffineForm &f = x.affines[k], &g = y.affines[k];
        if (f.origin_x != g.origin_x || f.origin_y != g.origin_y || f.scale != g.scale || f.scale_y != g.scale_y ||
            f.angle != g.angle || f.reflect_x != g.reflect_x || f.reflect_y != g.reflect_y)
          return "deformer " + x.id + "'s affine " + std::to_string(k);
      }
    }
    for (std::size_t m = 0; m < p.meshes.size(); ++m) {
      const Mesh &x = p.meshes[m], &y = q.meshes[m];
      if (x.id != y.id || x.parent != y.parent || !same_axes(x.axes, y.axes)) return "mesh " + x.id;
      if (x.average_draw_order != y.average_draw_order || x.draw_orders != y.draw_orders || x.opacities != y.opacities)
        return "mesh " + x.id + "'s orders or opacities";
      if (x.clip_ids != y.clip_ids) return "mesh " + x.id + "'s mask";
      if (x.texture != y.texture || x.vertex_count != y.vertex_count || x.indices != y.indices ||
          x.positions != y.positions || x.uvs != y.uvs)
        return "mesh " + x.id + "'s geometry";
      if (x.blend != y.blend || x.culling != y.culling || x.colour_group != y.colour_group) return "mesh " + x.id + "'s options";
    }
  }
  return {};
}

p2l::Error read(const std::vector<std::uint8_t>& bytes, Moc& out) {
  p2l::Error error;
  read_moc(bytes, out, error);
  return error;
}

TEST(MocFile, EveryVersionReadsBackWhatWasWritten) {
  for (int version = kFirstVersion; version <= kLastVersion; ++version) {
    const Moc written = synth_moc(version);
    for (const bool share : {true, false}) {
      for (const bool null_lists : {false, true}) {
        MocWriteOptions options;
        options.share = share;
        options.empty_lists_as_null = null_lists;
        const std::vector<std::uint8_t> bytes = write_moc(written, options);
        Moc read_back;
        const p2l::Error error = read(bytes, read_back);
        ASSERT_TRUE(error.ok()) << "version " << version << ": " << error.to_string();
        EXPECT_EQ(difference(written, read_back), "") << "version " << version << (share ? ", shared" : "")
                                                       << (null_lists ? ", null lists" : "");
      }
    }
    // The fields a version has: reflection and deformer opacities from 10, masks from 11,
    // blends and culling from 8.
    Moc read_back;
    ASSERT_TRUE(read(write_moc(written), read_back).ok());
    const Mesh& iris = read_back.parts[1].meshes[1];
    EXPECT_EQ(iris.clip_ids.size(), version >= 11 ? 1u : 0u) << version;
    EXPECT_EQ(read_back.parts[1].meshes[2].clip_ids.size(), version >= 11 ? 2u : 0u) << version;
    EXPECT_EQ(iris.blend, version >= 8 ? kBlendMultiply : kBlendNormal) << version;
    EXPECT_EQ(read_back.parts[0].deformers[0].opacities.size(), version >= 10 ? 2u : 0u) << version;
    EXPECT_EQ(read_back.parts[0].deformers[1].affines[2].reflect_x, version >= 10) << version;
    EXPECT_TRUE(read_back.parts[1].locked);
    EXPECT_FALSE(read_back.parts[2].visible);
  }
}

// Sharing writes each id once: the shared file is smaller and reads the same.
TEST(MocFile, BackReferencesNameEarlierObjects) {
  const Moc moc = synth_moc(11);
  const auto shared = write_moc(moc), whole = write_moc(moc, {false, false});
  EXPECT_LT(shared.size(), whole.size());
  Moc a, b;
  ASSERT_TRUE(read(shared, a).ok());
  ASSERT_TRUE(read(whole, b).ok());
  EXPECT_EQ(difference(a, b), "");
}

TEST(MocFile, CompactNumbers) {
  for (const std::uint32_t v : {0u, 1u, 127u, 128u, 16383u, 16384u, 2097151u, 2097152u, (1u << 28) - 1}) {
    std::vector<std::uint8_t> bytes;
    put_compact(bytes, v);
    EXPECT_EQ(bytes.size(), v < 128 ? 1u : v < 16384 ? 2u : v < 2097152 ? 3u : 4u) << v;
  }
}

// Every cut of a file is refused, and says the file ends early or what no longer holds.
TEST(MocFile, EveryTruncationIsRefused) {
  const std::vector<std::uint8_t> bytes = write_moc(synth_moc(11));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    Moc out;
    const p2l::Error error = read(cut, out);
    ASSERT_FALSE(error.ok()) << n << " of " << bytes.size() << " bytes";
    ASSERT_FALSE(error.message.empty());
  }
}

// Byte flips anywhere: read or refused, never anything else (the sanitizer builds watch).
TEST(MocFile, FlippedBytesAreReadOrRefused) {
  const std::vector<std::uint8_t> bytes = write_moc(synth_moc(10));
  int refused = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (const std::uint8_t x : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      std::vector<std::uint8_t> damaged = bytes;
      damaged[i] ^= x;
      Moc out;
      const p2l::Error error = read(damaged, out);
      if (!error.ok()) {
        ++refused;
        EXPECT_FALSE(error.message.empty());
      }
    }
  }
  EXPECT_GT(refused, 0);
}

// Builds a file by hand: "moc", version, then [body].
std::vector<std::uint8_t> file(int version, const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> out = {'m', 'o', 'c', static_cast<std::uint8_t>(version)};
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::string refusal(const std::vector<std::uint8_t>& bytes) {
  Moc out;
  const p2l::Error error = read(bytes, out);
  return error.ok() ? "read" : error.message;
}

TEST(MocFile, HostileFilesAreRefusedWithAReason) {
  EXPECT_NE(refusal({'M', 'O', 'C', 11}).find("not a Cubism 2 .moc"), std::string::npos);
  EXPECT_NE(refusal(file(12, {})).find("versions 6 to 11"), std::string::npos);
  EXPECT_NE(refusal(file(5, {})).find("versions 6 to 11"), std::string::npos);
  // The end marker.
  std::vector<std::uint8_t> bytes = write_moc(synth_moc(9));
  bytes.back() = 0x87;
  EXPECT_NE(refusal(bytes).find("end marker"), std::string::npos);
  // A back-reference past the objects read.
  EXPECT_NE(refusal(file(11, {33, 0, 0, 0, 5})).find("reference to object 5"), std::string::npos);
  // An unknown type.
  EXPECT_NE(refusal(file(11, {99})).find("unknown type 99"), std::string::npos);
  // A root that is not a model.
  EXPECT_NE(refusal(file(7, {1, 2, 'h', 'i'})).find("not a model"), std::string::npos);
  // An array longer than the file.
  EXPECT_NE(refusal(file(11, {27, 0x83, 0xff, 0x7f})).find("bytes left"), std::string::npos);
  // Lists nested past the bound.
  std::vector<std::uint8_t> deep;
  for (int i = 0; i < 100; ++i) deep.insert(deep.end(), {15, 1});
  EXPECT_NE(refusal(file(11, deep)).find("nest deeper"), std::string::npos);
}

TEST(MocFile, InconsistentObjectsAreRefusedWithTheirNames) {
  auto refused = [](auto&& damage) {
    Moc moc = synth_moc(11);
    damage(moc);
    return refusal(write_moc(moc));
  };
  EXPECT_NE(refused([](Moc& m) { m.parts[0].deformers[0].grids.pop_back(); }).find("warp deformer D_BODY has 1 keyforms"),
            std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[0].deformers[0].grids[0].push_back(1); }).find("D_BODY's grid 0 holds"),
            std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[1].meshes[0].indices[4] = 9; }).find("triangle index 9"), std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[1].meshes[0].uvs.pop_back(); }).find("texture coordinates"), std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[1].meshes[0].opacities.pop_back(); }).find("mesh D_EYE_L.00 has"),
            std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[0].meshes[0].axes[0].keys = {1, 1}; }).find("do not ascend"), std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[0].meshes[0].axes[0].keys[0] = NAN; }).find("not all finite"), std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parameters[0].max = INFINITY; }).find("not finite"), std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.canvas_width = 0; }).find("canvas"), std::string::npos);
  EXPECT_NE(refused([](Moc& m) { m.parts[0].deformers[0].rows = 0; }).find("cells"), std::string::npos);
}

// A mesh whose keyforms all name one big position array would copy it for each: refused
// once the copies pass what the file's size allows, before memory runs out.
TEST(MocFile, SharedArraysCannotExpandWithoutBound) {
  Moc moc = synth_moc(11);
  moc.parts.resize(1);
  Mesh& big = moc.parts[0].meshes[1];
  big.vertex_count = 4000;
  big.uvs.assign(8000, 0.5f);
  big.axes = {{"PARAM_BODY", {}}};
  for (int k = 0; k < 1000; ++k) big.axes[0].keys.push_back(static_cast<float>(k));
  big.positions.assign(1000, std::vector<float>(8000, 1.0f));
  big.draw_orders.assign(1000, 500);
  big.opacities.assign(1000, 1.0f);
  MocWriteOptions options;
  options.share_arrays = true;
  const std::vector<std::uint8_t> bytes = write_moc(moc, options);
  EXPECT_LT(bytes.size(), 100000u);  // 1000 keyforms of 8000 floats each, the array written once
  Moc out;
  const p2l::Error error = read(bytes, out);
  EXPECT_EQ(error.code, p2l::ErrorCode::TooLarge) << error.to_string();
  EXPECT_NE(error.message.find("more than once"), std::string::npos) << error.message;
  // The same model with a few keyforms reads.
  big.axes[0].keys.resize(3);
  big.positions.resize(3);
  big.draw_orders.resize(3);
  big.opacities.resize(3);
  EXPECT_EQ(refusal(write_moc(moc, options)), "read");
}

// import_moc3 on a .moc points to the importer that takes it; a Cubism 2 model.json imports
// with the files it names, and a file it names that is not there is named.
TEST(MocFile, TheImportersNameACubism2File) {
  const std::vector<std::uint8_t> moc = write_moc(synth_moc(9));
  const p2l::ImportResult direct = p2l::import_moc3(moc);
  ASSERT_FALSE(direct);
  EXPECT_NE(direct.error.message.find("a Cubism 2 .moc (version 9)"), std::string::npos) << direct.error.message;
  const std::string json = R"({"version": "Sample 1.0.0", "model": "m.moc", "textures": ["t.png"]})";
  auto files = [&](const std::string& name, std::vector<std::uint8_t>& out) {
    if (name == "m.model.json") out.assign(json.begin(), json.end());
    else if (name == "m.moc") out = moc;
    else return false;
    return true;
  };
  const p2l::ImportResult whole = p2l::import_cubism("m.model.json", files);
  ASSERT_FALSE(whole);
  EXPECT_NE(whole.error.message.find("t.png"), std::string::npos) << whole.error.message;
  // A motion that is refused (a letter among its values) or not there is left out, named.
  const std::string without_pages = R"({"version": "Sample 1.0.0", "model": "m.moc", "layout": {"width": 2},
      "motions": {"idle": [{"file": "good.mtn"}, {"file": "bad.mtn"}, {"file": "gone.mtn"}]}})";
  const std::string good = "$fps=30\r\nPARAM_ANGLE_X=0,10,20\r\n", bad = "$fps=30\r\nPARAM_ANGLE_X=0,1e3\r\n";
  auto other_files = [&](const std::string& name, std::vector<std::uint8_t>& out) {
    if (name == "m.model.json") out.assign(without_pages.begin(), without_pages.end());
    else if (name == "m.moc") out = moc;
    else if (name == "good.mtn") out.assign(good.begin(), good.end());
    else if (name == "bad.mtn") out.assign(bad.begin(), bad.end());
    else return false;
    return true;
  };
  const p2l::ImportResult settings = p2l::import_cubism("m.model.json", other_files);
  ASSERT_TRUE(settings) << settings.error.to_string();
  EXPECT_EQ(settings.rig.rules, p2l::CoreRules::Cubism2);
  auto reported = [&](const char* text) {
    return std::any_of(settings.report.dropped.begin(), settings.report.dropped.end(),
                       [&](const std::string& line) { return line.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(reported("layout: not carried over"));
  EXPECT_TRUE(reported("bad.mtn: line 2"));
  EXPECT_TRUE(reported("\"gone.mtn\" is not there"));
  ASSERT_EQ(settings.rig.clips.size(), 1u);
  EXPECT_EQ(settings.rig.clips[0].id, "good");
  EXPECT_EQ(settings.rig.clips[0].group, "idle");
  // The bare .moc imports.
  const p2l::ImportResult bare = p2l::import_cubism("m.moc", files);
  ASSERT_TRUE(bare) << bare.error.to_string();
  EXPECT_EQ(bare.rig.meshes.size(), 5u);
}

// A name with a leading '/' is in the model's folder, as the frameworks join it to the model's
// URL (a gathered model.json names "/model.moc"): never a file at the machine's root.
TEST(MocFile, ALeadingSlashNamesAFileInTheModelsFolder) {
  const auto dir = std::filesystem::temp_directory_path() / ("p2l_slash_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::vector<std::uint8_t> moc = write_moc(synth_moc(9));
  std::ofstream(dir / "m.moc", std::ios::binary).write(reinterpret_cast<const char*>(moc.data()), static_cast<std::streamsize>(moc.size()));
  std::ofstream(dir / "m.model.json") << R"({"model": "/m.moc", "motions": {"idle": [{"file": "/etc/hostname"}]}})";
  const p2l::ImportResult imported = p2l::import_cubism((dir / "m.model.json").string());
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(imported) << imported.error.to_string();
  EXPECT_EQ(imported.rig.meshes.size(), 5u);
  // "/etc/hostname" is looked for in the folder, not at the root.
  EXPECT_TRUE(imported.rig.clips.empty());
  EXPECT_TRUE(std::any_of(imported.report.dropped.begin(), imported.report.dropped.end(),
                          [](const std::string& line) { return line.find("\"/etc/hostname\" is not there") != std::string::npos; }));
}

}  // namespace
