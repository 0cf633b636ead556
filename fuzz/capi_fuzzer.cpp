// libFuzzer target for the C API (include/p2l/p2l.h) as a sequence of calls.
//
// The input is a program for a host. Its first byte picks the model: a built-in one (the full
// rig of the tests, which has every chunk kind, or the example character when its file is
// found) loaded once and shared by every run, as hosts share one model between many rigs; or,
// with the top bit set, a .p2lrt whose length follows as two bytes and whose bytes follow that,
// loaded for this run alone and freed at once (its rigs keep it alive). The rest of the input
// is decoded into calls on two rig slots: create and free, set parameters to any float, play
// clips on layers, seek, expressions, poses, overrides, behaviours, lip sync, look-at, opacity
// and colours, advanced features, physics and simulation controls, update with any dt,
// evaluate, hit tests, bone transforms and render into any size up to 96 x 96, with or without
// a transform. A freed slot holds NULL, as a host's pointer would, and the calls go on with it:
// every entry point must take NULL.
//
// After every update or evaluation the outputs must hold what the header promises: every
// vertex, parameter value, opacity and colour finite, opacities in 0..1, the render order
// distinct mesh indices, the render commands well formed, the changes flags within their bits.
// A broken promise prints the call and traps; libFuzzer records it as a crash.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "full_rig.hpp"
#include "p2l/format.hpp"
#include "p2l/p2l.h"

namespace {

// One input byte after another; past the end every read is zero, so that any input is a
// whole program.
class Stream {
 public:
  Stream(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  std::uint8_t u8() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  std::uint32_t u32() { return u16() | (static_cast<std::uint32_t>(u16()) << 16); }
  // Any float, NaN and infinities included, as four raw bytes; or, from a short form, one of
  // the values hosts pass most (small steps, the range ends), so that mutations reach them.
  float any_float() {
    const float f = decode_float();
    if (verbose) std::fprintf(stderr, "  float %g\n", static_cast<double>(f));
    return f;
  }
  bool verbose = false;
  float decode_float() {
    const std::uint8_t form = u8();
    if (form < 0xC0) return static_cast<float>(static_cast<int>(form) - 96) / 16.0f;
    if (form < 0xF0) return static_cast<float>(static_cast<int>(form) - 0xD8) * 10.0f;
    std::uint32_t bits = u32();
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  std::size_t take(std::size_t n, const std::uint8_t** out) {
    n = n < size_ - at_ ? n : size_ - at_;
    *out = data_ + at_;
    at_ += n;
    return n;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

[[noreturn]] void fail(const char* call, const std::string& what) {
  std::fprintf(stderr, "\n*** p2l_capi_fuzzer: after %s: %s\n", call, what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

struct Builtins {
  std::vector<P2lModel*> models;
  Builtins() = default;
  Builtins(const Builtins&) = delete;
  Builtins(Builtins&& other) noexcept : models(std::move(other.models)) { other.models.clear(); }
  ~Builtins() {
    for (P2lModel* m : models) p2l_model_free(m);
  }
};

std::vector<std::uint8_t> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const Builtins& builtins() {
  static const Builtins loaded = [] {
    Builtins b;
    char error[512];
    p2l::WriteResult full = p2l::write(p2l_test::make_full_rig(), {});
    if (!full) fail("start-up", "the full rig does not write: " + full.error.to_string());
    P2lModel* m = p2l_model_load(full.bytes.data(), full.bytes.size(), 0, error, sizeof error);
    if (m == nullptr) fail("start-up", std::string("the full rig does not load: ") + error);
    b.models.push_back(m);
#ifdef P2L_FUZZ_EXAMPLE
    const std::vector<std::uint8_t> example = read_file(P2L_FUZZ_EXAMPLE);
    if (!example.empty()) {
      P2lModel* c = p2l_model_load(example.data(), example.size(), 0, error, sizeof error);
      if (c == nullptr) fail("start-up", std::string("the example does not load: ") + error);
      b.models.push_back(c);
    }
#endif
    return b;
  }();
  return loaded;
}

bool finite(float f) { return std::isfinite(f); }

// What the header promises about a rig's outputs after an update or evaluation.
// [tainted]: the parameters the host has ever set to a non-finite value on this rig.
void check_outputs(P2lRig* rig, const char* call, const std::vector<bool>& tainted) {
  if (rig == nullptr || p2l_rig_failure(rig) != nullptr) return;
  const std::uint32_t np = p2l_parameter_count(rig);
  // p2l_parameter_current reports the raw values the evaluation started from (docs/RUNTIME.md
  // "Parameters"): a host's NaN stays NaN there, and evaluates as the default; physics
  // stabilization evaluates again from the last evaluation's values, so such a NaN can outlive
  // the host's next write. Everything the layers write over a finite value is finite.
  const float* current = p2l_parameter_current(rig);
  const float* host = p2l_parameter_values(rig);
  for (std::uint32_t i = 0; i < np; ++i)
    if (!finite(current[i]) && finite(host[i]) && !(i < tainted.size() && tainted[i])) fail(call, "parameter " + std::to_string(i) + " is not finite");
  const std::uint32_t nm = p2l_mesh_count(rig);
  for (std::uint32_t m = 0; m < nm; ++m) {
    const std::uint32_t nv = p2l_mesh_vertex_count(rig, m);
    const float* v = p2l_mesh_vertices(rig, m);
    if (nv > 0 && v == nullptr) fail(call, "mesh " + std::to_string(m) + " has no vertices");
    for (std::uint32_t k = 0; k < 2 * nv; ++k)
      if (!finite(v[k])) fail(call, "mesh " + std::to_string(m) + " has a vertex that is not finite");
    const float opacity = p2l_mesh_opacity(rig, m);
    if (!(opacity >= 0.0f && opacity <= 1.0f)) fail(call, "mesh " + std::to_string(m) + " opacity outside 0..1");
    if (!finite(p2l_mesh_draw_order(rig, m))) fail(call, "mesh " + std::to_string(m) + " draw order not finite");
    float multiply[3], screen[3];
    p2l_mesh_colors(rig, m, multiply, screen);
    for (int c = 0; c < 3; ++c)
      if (!finite(multiply[c]) || !finite(screen[c])) fail(call, "mesh " + std::to_string(m) + " colour not finite");
    if ((p2l_mesh_changes(rig, m) & ~0x7Fu) != 0) fail(call, "mesh changes has bits past the header's");
  }
  static std::vector<std::uint32_t> order;
  static std::vector<std::uint8_t> seen;
  order.assign(nm + 1, 0);
  const std::uint32_t n = p2l_render_order(rig, order.data(), nm + 1);
  if (n > nm) fail(call, "the render order is longer than the mesh count");
  seen.assign(nm, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (order[i] >= nm) fail(call, "the render order names a mesh past the count");
    if (seen[order[i]]++) fail(call, "the render order names a mesh twice");
  }
  const std::uint32_t nc = p2l_render_commands(rig, nullptr, 0);
  static std::vector<std::int32_t> commands;
  commands.assign(nc, 0);
  if (p2l_render_commands(rig, commands.data(), nc) != nc) fail(call, "the render commands change length");
  int depth = 0;
  for (const std::int32_t c : commands) {
    if (c == P2L_RENDER_END_GROUP) {
      if (--depth < 0) fail(call, "a render command ends a group that is not open");
    } else if (P2L_RENDER_IS_GROUP(c)) {
      ++depth;
      if (P2L_RENDER_GROUP_PART(c) >= p2l_part_count(rig)) fail(call, "a render group names a part past the count");
    } else if (static_cast<std::uint32_t>(c) >= nm) {
      fail(call, "a render command names a mesh past the count");
    }
  }
  if (depth != 0) fail(call, "the render commands leave a group open");
  if (!(p2l_opacity(rig) >= 0.0f && p2l_opacity(rig) <= 1.0f)) fail(call, "the rig's opacity is outside 0..1");
  for (std::uint32_t p = 0, parts = p2l_part_count(rig); p < parts; ++p) {
    const float o = p2l_part_opacity(rig, p);
    if (!finite(o)) fail(call, "part " + std::to_string(p) + " opacity is not finite");
  }
}

// Reads every string and count the rig offers (they must be there and NUL-terminated).
void read_everything(const P2lRig* rig) {
  volatile std::size_t sink = 0;
  for (std::uint32_t i = 0, n = p2l_parameter_count(rig); i <= n; ++i) {
    const char* id = p2l_parameter_id(rig, i);
    if (id) sink = sink + std::strlen(id);
    float mn, mx, d;
    p2l_parameter_range(rig, i, &mn, &mx, &d);
    float snaps[8];
    sink = sink + p2l_parameter_snaps(rig, i, snaps, 8) + p2l_parameter_flags(rig, i);
  }
  for (std::uint32_t i = 0, n = p2l_clip_count(rig); i <= n; ++i) {
    float duration, fps, fade_in, fade_out;
    bool looping;
    p2l_clip_info(rig, i, &duration, &fps, &looping, &fade_in, &fade_out);
    const char* group = p2l_clip_group(rig, i);
    if (group) sink = sink + std::strlen(group);
  }
  for (std::uint32_t i = 0, n = p2l_mesh_count(rig); i <= n; ++i) {
    std::uint32_t count = 0;
    const std::uint32_t* indices = p2l_mesh_indices(rig, i, &count);
    const std::uint32_t nv = p2l_mesh_vertex_count(rig, i);
    for (std::uint32_t k = 0; k < count; ++k)
      if (indices[k] >= nv) fail("p2l_mesh_indices", "an index past the vertices");
    const float* uvs = p2l_mesh_uvs(rig, i);
    for (std::uint32_t k = 0; uvs && k < 2 * nv; ++k) sink = sink + (uvs[k] > 0.5f);
    std::uint32_t masks[4];
    bool inverted;
    sink = sink + p2l_mesh_masks(rig, i, masks, 4, &inverted);
    const char* data = p2l_mesh_user_data(rig, i);
    if (data) sink = sink + std::strlen(data);
  }
  for (std::uint32_t i = 0, n = p2l_gui_node_count(rig); i <= n; ++i) {
    int32_t parameter;
    std::uint32_t children;
    bool open;
    p2l_gui_node(rig, i, &parameter, &children, &open);
    const char* preset;
    std::uint32_t argb;
    p2l_gui_node_label(rig, i, &preset, &argb);
  }
  for (std::uint32_t i = 0, n = p2l_texture_count(rig); i <= n; ++i) {
    std::size_t len;
    std::uint32_t w, h;
    p2l_texture_png(rig, i, &len, &w, &h);
  }
  for (std::uint32_t i = 0, n = p2l_meta_count(rig); i <= n; ++i) {
    const char* k = p2l_meta_key(rig, i);
    if (k) sink = sink + std::strlen(k);
  }
}

constexpr int kSlots = 2;
constexpr std::size_t kMaxCalls = 400;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Stream in(data, size);
  const Builtins& b = builtins();
  const std::uint8_t choice = in.u8();
  P2lModel* own = nullptr;
  const P2lModel* model;
  if (choice & 0x80) {
    const std::uint8_t* bytes;
    const std::size_t len = in.take(in.u16(), &bytes);
    char error[256];
    own = p2l_model_load(bytes, len, choice & 1u, error, sizeof error);
    if (own == nullptr && error[0] == '\0') fail("p2l_model_load", "refused without a message");
    model = own;
  } else {
    model = b.models[choice % b.models.size()];
  }
  P2lRig* slot[kSlots] = {};
  std::vector<bool> taint[kSlots];
  auto mark = [&](int k, std::uint32_t i, float value) {
    if (finite(value)) return;
    if (taint[k].size() <= i) taint[k].resize(i + 1, false);
    taint[k][i] = true;
  };
  for (auto& r : slot) r = p2l_rig_create(model, nullptr, 0);
  // The file's model may go at once: its rigs keep what they need.
  p2l_model_free(own);

  std::vector<std::uint8_t> image;
  // P2L_FUZZ_VERBOSE=1 lists the calls an input makes (for reading a finding).
  static const bool verbose = std::getenv("P2L_FUZZ_VERBOSE") != nullptr;
  in.verbose = verbose;
  for (std::size_t call = 0; call < kMaxCalls && !in.done(); ++call) {
    const std::uint8_t op = in.u8();
    P2lRig*& rig = slot[op & 1];
    const std::uint32_t np = p2l_parameter_count(rig);
    const std::uint32_t pick = in.u8();
    // An index mostly in range, sometimes one past or far past it.
    if (verbose) std::fprintf(stderr, "call %zu: case %d on slot %d (%s), pick %u\n", call, (op >> 1) % 40, op & 1, rig ? "live" : "NULL", pick);
    auto index = [&](std::uint32_t count) { return pick < 240 && count > 0 ? pick % count : pick == 255 ? 0xFFFFFFFFu : count + (pick & 3); };
    switch ((op >> 1) % 40) {
      case 0: {
        const std::uint32_t i = index(np);
        const float value = in.any_float();
        p2l_set_parameter(rig, i, value);
        if (i < np) mark(op & 1, i, value);
        break;
      }
      case 1:
        if (float* values = p2l_parameter_values(rig); values != nullptr && np > 0) {
          const std::uint32_t i = index(np) % np;
          values[i] = in.any_float();
          mark(op & 1, i, values[i]);
        }
        break;
      case 2: {
        const float dt = in.any_float();
        p2l_update(rig, dt);
        check_outputs(rig, "p2l_update", taint[op & 1]);
        break;
      }
      case 3: {
        const float dt = in.any_float();
        p2l_update_stages(rig, dt, in.u8());
        check_outputs(rig, "p2l_update_stages", taint[op & 1]);
        break;
      }
      case 4:
        p2l_evaluate(rig);
        check_outputs(rig, "p2l_evaluate", taint[op & 1]);
        break;
      case 5:
        p2l_play(rig, static_cast<std::int32_t>(index(p2l_clip_count(rig))) - (pick == 254));
        break;
      case 6:
        p2l_play_layer(rig, in.u8() % 6, static_cast<std::int32_t>(index(p2l_clip_count(rig))), in.u8());
        break;
      case 7:
        p2l_set_layer_weight(rig, in.u8() % 6, in.any_float());
        break;
      case 8:
        p2l_clip_seek(rig, in.any_float());
        break;
      case 9:
        p2l_layer_seek(rig, in.u8() % 6, in.any_float());
        break;
      case 10:
        p2l_set_clip_looping(rig, index(p2l_clip_count(rig)), pick & 1);
        break;
      case 11:
        p2l_expression(rig, static_cast<std::int32_t>(index(p2l_expression_count(rig))) - (pick == 254));
        break;
      case 12:
        if (pick & 1)
          p2l_expression_add(rig, index(p2l_expression_count(rig)));
        else
          p2l_expression_remove(rig, index(p2l_expression_count(rig)));
        break;
      case 13:
        p2l_pose_show(rig, index(p2l_pose_group_count(rig)), in.u8() % 5);
        break;
      case 14:
        p2l_set_pose_enabled(rig, pick & 1);
        break;
      case 15: {
        const float value = in.any_float();
        p2l_set_parameter_override(rig, index(np), value, in.any_float());
        break;
      }
      case 16:
        p2l_clear_parameter_overrides(rig);
        break;
      case 17:
        p2l_behaviors(rig, pick);
        break;
      case 18: {
        const float a = in.any_float(), b2 = in.any_float(), c = in.any_float(), d = in.any_float();
        p2l_blink_settings(rig, a, b2, c, d, in.any_float());
        break;
      }
      case 19: {
        const float a = in.any_float(), b2 = in.any_float();
        p2l_behavior_strength(rig, a, b2, in.any_float());
        break;
      }
      case 20: {
        float samples[16];
        for (float& s : samples) s = in.any_float();
        p2l_lip_sync_samples(rig, samples, pick % 17, in.any_float());
        break;
      }
      case 21: {
        const float x = in.any_float();
        p2l_look_at(rig, x, in.any_float());
        p2l_lip_sync(rig, in.any_float());
        break;
      }
      case 22:
        p2l_set_opacity(rig, in.any_float());
        break;
      case 23: {
        float multiply[3], screen[3];
        for (float& c : multiply) c = in.any_float();
        for (float& c : screen) c = in.any_float();
        if (pick & 1)
          p2l_set_mesh_colors(rig, index(p2l_mesh_count(rig)), pick & 2 ? multiply : nullptr, pick & 4 ? screen : nullptr);
        else
          p2l_set_part_colors(rig, index(p2l_part_count(rig)), pick & 2 ? multiply : nullptr, pick & 4 ? screen : nullptr);
        break;
      }
      case 24:
        p2l_set_part_opacity(rig, index(p2l_part_count(rig)), in.any_float());
        break;
      case 25:
        p2l_set_advanced(rig, pick);
        break;
      case 26: {
        const float x = in.any_float(), y = in.any_float();
        if (pick & 1)
          p2l_sim_wind(rig, x, y);
        else
          p2l_physics_wind(rig, x, y);
        break;
      }
      case 27:
        if (pick & 1)
          p2l_physics_reset(rig);
        else
          p2l_sim_reset(rig);
        break;
      case 28:
        p2l_physics_stabilize(rig);
        check_outputs(rig, "p2l_physics_stabilize", taint[op & 1]);
        break;
      case 29: {
        const float x = in.any_float();
        const std::int32_t hit = p2l_hit_test(rig, x, in.any_float());
        if (hit < -1 || (hit >= 0 && static_cast<std::uint32_t>(hit) >= p2l_hit_area_count(rig)))
          fail("p2l_hit_test", "a hit area past the count");
        break;
      }
      case 30: {
        float out[6];
        if (p2l_bone_transform(rig, index(p2l_bone_count(rig)), out))
          for (float f : out)
            if (!finite(f)) fail("p2l_bone_transform", "a transform that is not finite");
        float colliders[6 * 4];
        p2l_sim_colliders(rig, colliders, 4);
        break;
      }
      case 31: {
        const std::uint32_t w = in.u8() % 97, h = in.u8() % 97;
        float transform[6];
        for (float& t : transform) t = in.any_float();
        image.assign(static_cast<std::size_t>(w) * h * 4 + 4, 0);
        p2l_render(rig, w * h ? image.data() : nullptr, w, h, pick & 1 ? transform : nullptr, pick >> 6);
        break;
      }
      case 32: {
        const std::uint32_t w = in.u8() % 9, h = in.u8() % 9;
        image.assign(static_cast<std::size_t>(w) * h * 4 + 4, 0x80);
        p2l_render_texture(rig, index(p2l_texture_count(rig)), pick & 1 ? image.data() : nullptr, w, h);
        break;
      }
      case 33:
        p2l_rig_free(rig);
        rig = nullptr;
        taint[op & 1].clear();
        break;
      case 34:
        if (rig == nullptr) rig = p2l_rig_create(pick & 1 ? model : nullptr, nullptr, 0);
        break;
      case 35:
        p2l_set_cubism_playback(rig, pick & 1);
        break;
      case 36: {
        std::int32_t clip;
        float time;
        std::uint32_t priority;
        bool finished;
        p2l_layer_state(rig, in.u8() % 8, &clip, &time, &priority, &finished);
        for (std::uint32_t e = 0, n = p2l_event_count(rig); e <= n; ++e) {
          std::uint32_t layer;
          float t;
          p2l_event(rig, e, &layer, &clip, &t);
        }
        std::uint32_t playing[4];
        p2l_expressions_playing(rig, playing, 4);
        (void)p2l_clip_time(rig);
        (void)p2l_clip_finished(rig);
        (void)p2l_pose_shown(rig, index(p2l_pose_group_count(rig)));
        break;
      }
      case 37:
        read_everything(rig);
        break;
      case 38:
        p2l_behavior_seed(rig, in.u32());
        break;
      default: {
        // Another rig of the same model on the other slot's place, if it is empty.
        P2lRig*& other = slot[(op & 1) ^ 1];
        if (other == nullptr && rig != nullptr) {
          other = p2l_rig_create(model, nullptr, 0);
          taint[(op & 1) ^ 1].clear();
        }
        break;
      }
    }
  }
  for (int k = 0; k < kSlots; ++k) {
    p2l_update(slot[k], 1.0f / 60.0f);
    check_outputs(slot[k], "the last p2l_update", taint[k]);
    p2l_rig_free(slot[k]);
  }
  return 0;
}
