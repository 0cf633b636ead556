// libFuzzer target for the Cubism 2 .moc reader, p2l::cubism2::read_moc.
//
// Any input either reads or is refused with an error that says why; nothing it holds may make
// the reader read outside the buffer, overflow, recurse without bound or allocate without
// bound (ASan, UBSan and libFuzzer's RSS limit watch that). What reads must hold together:
// every keyed object's arrays agree with its keys, every index names a vertex.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "import/cubism2/moc_file.hpp"

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
  } else if (error.ok() || error.message.empty()) {
    fail("refused without a reason", error.to_string());
  }
  return 0;
}
