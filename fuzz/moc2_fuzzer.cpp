// libFuzzer target for the Cubism 2 .moc reader and importer, p2l::cubism2::read_moc and
// import_moc.
//
// Any input either reads or is refused with an error that says why; nothing it holds may make
// the reader read outside the buffer, overflow, recurse without bound or allocate without
// bound (ASan, UBSan and libFuzzer's RSS limit watch that). What reads must hold together:
// every keyed object's arrays agree with its keys, every index names a vertex. What reads must
// import into a rig that validates, compiles and evaluates at its defaults and extremes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include <memory>

#include "import/cubism2/moc_file.hpp"
#include "import/cubism2/moc_import.hpp"
#include "p2l/eval.hpp"

namespace {

constexpr std::size_t kMaxInput = std::size_t{1} << 20;  // matches fuzz.sh -max_len

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** p2l_moc2_fuzzer: %s\n    %s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

void check(const p2l::cubism2::Moc& moc) {
  using namespace p2l::cubism2;
  for (const Part& part : moc.parts) {
    for (const Deformer& d : part.deformers) {
      const std::uint32_t forms = keyform_count(d.axes);
      const std::size_t kept = d.kind == DeformerKind::Warp ? d.grids.size() : d.affines.size();
      if (forms == 0 || kept != forms) fail("a deformer's keyforms disagree with its keys", d.id);
      if (!d.opacities.empty() && d.opacities.size() != forms) fail("a deformer's opacities disagree", d.id);
      for (const auto& g : d.grids)
        if (g.size() != 2 * std::size_t{d.rows + 1} * (d.columns + 1)) fail("a grid's size disagrees", d.id);
    }
    for (const Mesh& m : part.meshes) {
      const std::uint32_t forms = keyform_count(m.axes);
      if (forms == 0 || m.positions.size() != forms || m.opacities.size() != forms || m.draw_orders.size() != forms)
        fail("a mesh's keyforms disagree with its keys", m.id);
      for (const auto& p : m.positions)
        if (p.size() != 2 * std::size_t{m.vertex_count}) fail("a mesh's positions disagree", m.id);
      if (m.uvs.size() != 2 * std::size_t{m.vertex_count} || m.indices.size() % 3 != 0) fail("a mesh's arrays", m.id);
      for (const std::uint16_t i : m.indices)
        if (i >= m.vertex_count) fail("an index past the vertices", m.id);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  p2l::cubism2::Moc moc;
  p2l::Error error;
  if (p2l::cubism2::read_moc(std::span<const std::uint8_t>(data, size), moc, error)) {
    if (!error.ok()) fail("read with an error set", error.to_string());
    check(moc);
    const p2l::ImportResult imported = p2l::cubism2::import_moc(moc);
    if (!imported) fail("a model that reads does not import", imported.error.to_string());
    auto made = p2l::Model::create(std::make_shared<const p2l::Rig>(imported.rig));
    if (!made) fail("an imported rig does not compile", made.error.to_string());
    p2l::Instance instance(made.model);
    for (int pose = 0; pose < 3; ++pose) {
      auto values = instance.parameters();
      for (std::size_t i = 0; i < values.size(); ++i) {
        const auto& p = made.model->rig().parameters[i];
        values[i] = pose == 0 ? p.default_value : pose == 1 ? p.min : p.max;
      }
      instance.evaluate();
    }
  } else if (error.ok() || error.message.empty()) {
    fail("refused without a reason", error.to_string());
  }
  return 0;
}
