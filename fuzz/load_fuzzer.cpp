// libFuzzer target for p2l::load and p2l::write.
//
// Every input is loaded three ways (a private copy, borrowed in place, and with CRC
// verification); the three must agree. A rig that loads is written back in every form
// the writer has (inputs over 64 KiB: v2 plain and one other) and each result is loaded again:
//   - version 2 plain, deflate and zstd must load and compare equal to the first load,
//     and re-writing that reload must give the very same bytes;
//   - version 2 with stripped names, version 2 "publish" (lossy f16/unorm16 arrays) and
//     version 1 (core content only) must load.
// A rig that loads is also evaluated (p2l::Model, p2l::Instance) at its defaults and at poses
// drawn from the input, extremes included, by two instances that must agree bit for bit,
// and animated (p2l::Animator: every clip layer, expressions, poses, behaviors, physics) for
// a few updates of lengths drawn from the input (advanced features on as the input says),
// again twice, again bit for bit, and drawn by the software renderer (its PNG pages decoded by libpng) into a small image.
// A broken expectation prints what differed and traps, which libFuzzer records as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/render.hpp"
#include "p2l/rig.hpp"

namespace {

constexpr std::size_t kMaxInput = std::size_t{1} << 20;  // matches fuzz.sh's -max_len
// Far below the 1 GiB default: keeps every iteration fast and the RSS under the limit.
constexpr std::uint64_t kMaxChunkBytes = std::uint64_t{16} << 20;
// Past this size an input is re-written as v2 plain and one more form (picked by its
// last byte) instead of every form, so that big rigs do not dominate the run time.
constexpr std::size_t kAllFormsUpTo = std::size_t{64} << 10;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** p2l_load_fuzzer: %s\n    %s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// Names the first top-level part of the rig that differs, for the crash report.
std::string first_difference(const p2l::Rig& a, const p2l::Rig& b) {
  std::string out;
  auto field = [&](const char* name, const auto& x, const auto& y) {
    if (out.empty() && !(x == y)) out = name;
  };
  auto list = [&](const char* name, const auto& x, const auto& y) {
    if (!out.empty()) return;
    if (x.size() != y.size()) {
      out = std::string(name) + " (" + std::to_string(x.size()) + " vs " + std::to_string(y.size()) + " entries)";
      return;
    }
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!(x[i] == y[i])) {
        out = std::string(name) + "[" + std::to_string(i) + "]";
        return;
      }
  };
  field("names_stripped", a.names_stripped, b.names_stripped);
  field("canvas", a.canvas, b.canvas);
  list("parameters", a.parameters, b.parameters);
  list("deformers", a.deformers, b.deformers);
  list("parts", a.parts, b.parts);
  list("meshes", a.meshes, b.meshes);
  list("glues", a.glues, b.glues);
  list("draw_groups", a.draw_groups, b.draw_groups);
  list("textures", a.textures, b.textures);
  field("physics_fps", a.physics_fps, b.physics_fps);
  list("physics", a.physics, b.physics);
  list("clips", a.clips, b.clips);
  list("roles", a.roles, b.roles);
  field("gui", a.gui, b.gui);
  list("meta", a.meta, b.meta);
  field("bones", a.bones, b.bones);
  field("skins", a.skins, b.skins);
  field("colliders", a.colliders, b.colliders);
  field("simulations", a.simulations, b.simulations);
  list("expressions", a.expressions, b.expressions);
  list("hit_areas", a.hit_areas, b.hit_areas);
  list("user_data", a.user_data, b.user_data);
  field("pose", a.pose, b.pose);
  list("clip_extensions", a.clip_extensions, b.clip_extensions);
  list("unknown_chunks", a.unknown_chunks, b.unknown_chunks);
  return out.empty() ? "(no top-level field differs)" : out;
}

p2l::LoadResult load(std::span<const std::uint8_t> bytes, bool borrow, bool verify_crc) {
  p2l::LoadOptions options;
  options.borrow = borrow;
  options.verify_crc = verify_crc;
  options.max_chunk_bytes = kMaxChunkBytes;
  return p2l::load(bytes, options);
}

struct Form {
  const char* name;
  p2l::WriteOptions options;
  bool exact;  // the reload must equal the source rig
};

std::vector<Form> forms() {
  std::vector<Form> list;
  auto add = [&](const char* name, bool exact, auto setup) {
    Form f{name, {}, exact};
    setup(f.options);
    list.push_back(f);
  };
  add("v2 plain", true, [](p2l::WriteOptions&) {});
  add("v2 plain without CRCs", true, [](p2l::WriteOptions& o) { o.crc = false; });
  // Low levels: the codecs are exercised all the same and each iteration stays fast.
  add("v2 deflate", true, [](p2l::WriteOptions& o) { o.compression = p2l::Compression::Deflate, o.level = 1; });
  add("v2 zstd", true, [](p2l::WriteOptions& o) { o.compression = p2l::Compression::Zstd, o.level = 1; });
  add("v2 strip-names", false, [](p2l::WriteOptions& o) { o.strip_names = true; });
  add("v2 publish", false, [](p2l::WriteOptions& o) { o.publish = true; });
  add("v1", false, [](p2l::WriteOptions& o) { o.version = 1; });
  return list;
}

void round_trip(const p2l::Rig& rig, const Form& form) {
  p2l::WriteResult written = p2l::write(rig, form.options);
  if (!written) fail("a loaded rig does not write", std::string(form.name) + ": " + written.error.to_string());
  p2l::LoadResult again = load(written.bytes, false, true);
  if (!again) fail("a written rig does not load", std::string(form.name) + ": " + again.error.to_string());
  if (!form.exact) return;
  if (!(*again.rig == rig))
    fail("a re-written rig loads different", std::string(form.name) + ": " + first_difference(rig, *again.rig));
  p2l::WriteResult twice = p2l::write(*again.rig, form.options);
  if (!twice || twice.bytes != written.bytes)
    fail("writing is not deterministic", std::string(form.name) + ": equal rigs give different bytes");
}

void animate(const std::shared_ptr<const p2l::Model>& model, std::span<const std::uint8_t> bytes);

// Evaluates the rig at its defaults and at poses taken from the input's bytes: values in and
// beyond each range, keys exactly, NaN and infinities. Two instances must agree.
void evaluate(const std::shared_ptr<const p2l::Rig>& rig, std::span<const std::uint8_t> bytes) {
  auto model = p2l::Model::create(rig);
  if (!model) fail("a loaded rig does not compile for evaluation", model.error.to_string());
  p2l::Instance a(model.model), b(model.model);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), 1e30f, -1e30f, 0.0f};
  for (std::size_t pose = 0; pose < 4; ++pose) {
    const std::size_t n = rig->parameters.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t byte = bytes.empty() ? 0 : bytes[(pose * 131 + i * 7) % bytes.size()];
      const p2l::Parameter& p = rig->parameters[i];
      float v = byte < 12 ? specials[byte % 6] : p.min + (p.max - p.min) * (static_cast<float>(byte) - 64.0f) / 128.0f;
      a.parameters()[i] = b.parameters()[i] = v;
    }
    a.evaluate();
    b.evaluate();
    for (std::uint32_t m = 0; m < rig->meshes.size(); ++m) {
      auto va = a.vertices(m), vb = b.vertices(m);
      if (std::memcmp(va.data(), vb.data(), va.size_bytes()) != 0 ||
          std::bit_cast<std::uint32_t>(a.opacity(m)) != std::bit_cast<std::uint32_t>(b.opacity(m)))
        fail("two instances of one model disagree", "mesh " + std::to_string(m));
    }
    if (a.render_order().size() != b.render_order().size() ||
        !std::equal(a.render_order().begin(), a.render_order().end(), b.render_order().begin()))
      fail("two instances of one model disagree", "render order");
  }
  animate(model.model, bytes);
}

// Two characters driven the same way: clips on several layers, expressions, pose switches,
// every behavior, an override and physics, with update lengths from the input (0, NaN,
// negative, huge included). They must agree bit for bit; sanitizers watch the rest.
void animate(const std::shared_ptr<const p2l::Model>& model, std::span<const std::uint8_t> bytes) {
  const p2l::Rig& rig = model->rig();
  auto byte = [&](std::size_t i) -> std::uint8_t { return bytes.empty() ? 0 : bytes[(i * 37 + 11) % bytes.size()]; };
  p2l::Instance ia(model), ib(model);
  p2l::Animator aa(model), ab(model);
  // Advanced mode with features from the input (skins fitted, simulations stepped, colliders).
  const std::uint32_t features = byte(11) & 15u;
  if (ia.set_advanced(features) != ib.set_advanced(features)) fail("two characters of one model disagree", "advanced features");
  for (auto* pair : {&aa, &ab}) {
    pair->set_behaviors(p2l::kBehaviorBlink | p2l::kBehaviorBreath | p2l::kBehaviorLook | p2l::kBehaviorLipSync);
    pair->behavior_seed(byte(0));
    pair->look_at(static_cast<float>(byte(1)) / 128.0f - 1.0f, static_cast<float>(byte(2)) / 128.0f - 1.0f);
    pair->lip_sync(static_cast<float>(byte(3)) / 255.0f);
    for (std::uint32_t layer = 0; layer < 3 && !rig.clips.empty(); ++layer)
      pair->play_layer(layer, static_cast<std::int32_t>(byte(4 + layer) % rig.clips.size()), layer);
    if (!rig.expressions.empty()) pair->expression_add(byte(8) % static_cast<std::uint32_t>(rig.expressions.size()));
    if (rig.pose && !rig.pose->groups.empty()) pair->pose_show(0, byte(9) % 4);
    if (!rig.parameters.empty()) pair->set_override(0, static_cast<float>(byte(10)), 0.5f);
  }
  const float specials[] = {0.0f, std::numeric_limits<float>::quiet_NaN(), -1.0f, 1e30f, 6.0f};
  p2l::Renderer renderer(model);
  for (std::size_t frame = 0; frame < 8; ++frame) {
    const std::uint8_t b = byte(12 + frame);
    const float dt = b < 10 ? specials[b % 5] : static_cast<float>(b) / 1024.0f;
    if (frame == 4 && !rig.clips.empty()) {
      aa.play(static_cast<std::int32_t>(b % rig.clips.size()));
      ab.play(static_cast<std::int32_t>(b % rig.clips.size()));
    }
    aa.update(ia, dt);
    ab.update(ib, dt);
    for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
      auto va = ia.vertices(m), vb = ib.vertices(m);
      if (std::memcmp(va.data(), vb.data(), va.size_bytes()) != 0 ||
          std::bit_cast<std::uint32_t>(ia.opacity(m)) != std::bit_cast<std::uint32_t>(ib.opacity(m)))
        fail("two animated characters of one model disagree", "mesh " + std::to_string(m));
    }
    if (aa.event_count() != ab.event_count()) fail("two animated characters of one model disagree", "events");
    if (rig.bones && !rig.bones->bones.empty()) (void)ia.bone_transform(b % rig.bones->bones.size());
    // Drawn small, with a transform from the input (mirrors and huge scales included).
    std::uint8_t pixels[24 * 16 * 4];
    const float scale = b < 16 ? -1.0f : static_cast<float>(b) / 64.0f;
    const p2l::Affine transform{scale, 0.0f, 0.0f, b % 3 == 0 ? -scale : scale, 12.0f, 8.0f};
    renderer.render(ia, pixels, 24, 16, frame % 2 == 0 ? nullptr : &transform, frame % 4 == 1 ? p2l::kRenderStraight : 0u);
  }
  aa.stabilize_physics(ia);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;  // keep it out of the corpus
  std::span<const std::uint8_t> bytes(data, size);

  p2l::LoadResult copied = load(bytes, false, false);
  p2l::LoadResult borrowed = load(bytes, true, false);
  if (copied.error.code != borrowed.error.code)
    fail("copy and borrow loads disagree", "copy: " + copied.error.to_string() + " / borrow: " + borrowed.error.to_string());
  if (copied && !(*copied.rig == *borrowed.rig))
    fail("copy and borrow loads give different rigs", first_difference(*copied.rig, *borrowed.rig));

  p2l::LoadResult checked = load(bytes, false, true);
  // CRC verification can only refuse more files, never load something else.
  if (checked && !copied) fail("a file loads only with CRC verification", copied.error.to_string());
  if (checked && !(*checked.rig == *copied.rig))
    fail("CRC verification changes the loaded rig", first_difference(*copied.rig, *checked.rig));

  if (!copied) return 0;
  evaluate(copied.rig, bytes);
  static const std::vector<Form> kForms = forms();
  if (size <= kAllFormsUpTo) {
    for (const Form& form : kForms) round_trip(*copied.rig, form);
  } else {
    round_trip(*copied.rig, kForms[0]);
    round_trip(*copied.rig, kForms[1 + data[size - 1] % (kForms.size() - 1)]);
  }
  return 0;
}
