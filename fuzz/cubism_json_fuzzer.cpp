// libFuzzer target for the Cubism side files the whole-model importer reads (p2l/cubism.hpp):
// model3.json, physics3.json, motion3.json, exp3.json, pose3.json, cdi3.json, userdata3.json,
// and Cubism 2's .exp.json, .pose.json and physics.json (a Cubism 2 model.json goes through 'm' too: its
// listing, p2l::cubism_files).
//
// The input's first byte names the file kind ('m' model3, 'p' physics3, 'o' motion3,
// 'e' exp3, 's' pose3, 'c' cdi3, 'u' userdata3, 'x' Cubism 2 expression, 'y' Cubism 2 pose,
// 'z' Cubism 2 physics;
// any other byte picks one by its value) and the
// rest is the file, read by the importer's own reader for that kind into a copy of a small rig
// that holds what side files point at (parameters ParamAngle ParamB ParamC ParamD, parts Body
// Arm1 Arm2 Arm3, meshes A B: tests/cubism_import_test.cpp's base rig). A file is either read or
// refused with an error that has a message and names the file; nothing may escape as an
// exception. What it reads into the rig must validate as the importer's last step does,
// compile, and animate: the motion played, the expression applied, pose and physics stepped,
// with every output finite. A model3.json is also listed by p2l::cubism_files, which must
// name the model first and every other file once, or refuse it naming it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>

#include "import/cubism/document.hpp"
#include "import/cubism/side_files.hpp"
#include "p2l/anim.hpp"
#include "p2l/cubism.hpp"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "side_file_rig.hpp"

namespace {

namespace cubism = p2l::cubism;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** p2l_cubism_json_fuzzer: %s\n    %s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

const p2l::Rig& base_rig() {
  static const p2l::Rig rig = p2l_test::make_side_file_rig();
  return rig;
}

const char* file_name(char kind) {
  switch (kind) {
    case 'm': return "f.model3.json";
    case 'p': return "f.physics3.json";
    case 'o': return "f.motion3.json";
    case 'e': return "f.exp3.json";
    case 's': return "f.pose3.json";
    case 'c': return "f.cdi3.json";
    case 'x': return "f.exp.json";
    case 'y': return "f.pose.json";
    case 'z': return "f.physics.json";
    default: return "f.userdata3.json";
  }
}

void animate(const p2l::Rig& read) {
  auto compiled = p2l::Model::create(std::make_shared<const p2l::Rig>(read));
  if (!compiled) fail("a rig that validates does not compile", compiled.error.to_string());
  p2l::Instance instance(compiled.model);
  p2l::Animator animator(compiled.model);
  animator.play(read.clips.empty() ? -1 : 0);
  if (!read.expressions.empty()) animator.expression(0);
  animator.set_behaviors(0xF);
  for (const float dt : {0.0f, 1.0f / 60.0f, 0.25f, 3.0f, 1.0f / 30.0f}) {
    animator.update(instance, dt);
    for (const float v : instance.current())
      if (!std::isfinite(v)) fail("an animated parameter is not finite", "");
    for (std::size_t m = 0; m < read.meshes.size(); ++m)
      for (const float v : instance.vertices(static_cast<std::uint32_t>(m)))
        if (!std::isfinite(v)) fail("an animated vertex is not finite", "mesh " + std::to_string(m));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > (std::size_t{1} << 20)) return -1;
  static const char kKinds[] = "mpoescuxyz";
  char kind = static_cast<char>(data[0]);
  if (std::string_view(kKinds).find(kind) == std::string_view::npos) kind = kKinds[data[0] % (sizeof kKinds - 1)];
  const std::span<const std::uint8_t> bytes(data + 1, size - 1);
  const std::string file = file_name(kind);

  p2l::Rig rig = base_rig();
  p2l::ImportReport report;
  const p2l::Error error = cubism::guarded([&] {
    const cubism::Document doc = cubism::parse_document(file, bytes);
    const cubism::Node root(doc);
    switch (kind) {
      case 'm': {
        const cubism::Model3 m = cubism::read_model3(root, report);
        (void)m;
        cubism::read_groups(root, rig, report);
        cubism::read_hit_areas(root, rig, report);
        break;
      }
      case 'p': cubism::read_physics3(root, rig, report); break;
      case 'o': {
        const cubism::MotionRef ref{"Idle", file, -1, -1, "m.model3.json: FileReferences.Motions.Idle[0]"};
        cubism::read_motion3(root, ref, "f", data[size - 1] & 1, rig, report);
        break;
      }
      case 'e': cubism::read_exp3(root, "f", data[size - 1] & 1, rig, report); break;
      case 's': cubism::read_pose3(root, rig, report); break;
      case 'c': cubism::read_cdi3(root, rig, report); break;
      case 'x': cubism::read_exp2(root, "f", rig, report); break;
      case 'y': cubism::read_pose2(root, rig, report); break;
      case 'z': cubism::read_physics2(root, rig, report); break;
      default: cubism::read_userdata3(root, rig, report); break;
    }
  });
  if (kind == 'm') {
    const std::string model = "d/" + file;
    const p2l::CubismFiles listed = p2l::cubism_files(model, [&](const std::string& name, std::vector<std::uint8_t>& out) {
      if (name != model) return false;
      out.assign(bytes.begin(), bytes.end());
      return true;
    });
    if (!listed) {
      if (listed.error.message.find(file) == std::string::npos && listed.error.message != "out of memory")
        fail("cubism_files refused a model3.json without naming it", listed.error.to_string());
    } else {
      if (listed.names.empty() || listed.names.front() != model) fail("cubism_files does not list the model first", "");
      std::vector<std::string> sorted = listed.names;
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) fail("cubism_files lists a file twice", "");
    }
  }
  // P2L_FUZZ_VERBOSE=1 shows what became of an input (for writing seeds).
  static const bool verbose = std::getenv("P2L_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr, "%s: %s\n", file.c_str(), error.ok() ? "read" : error.to_string().c_str());
    for (const std::string& line : report.dropped) std::fprintf(stderr, "  report: %s\n", line.c_str());
  }
  if (!error.ok()) {
    if (error.message.find(file) == std::string::npos && error.message != "out of memory")
      fail("a refused file's message does not name it", error.to_string());
    return 0;
  }
  // The importer's net after every side file (import_cubism's finish()).
  if (const p2l::Error e = p2l::validate(rig); !e.ok()) fail("a side file read without an error leaves a rig that does not validate", e.to_string());
  animate(rig);
  return 0;
}
