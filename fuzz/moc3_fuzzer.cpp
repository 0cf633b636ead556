// libFuzzer target for the Cubism importer, p2l::import_moc3.
//
// Any input either imports or is refused with an error; nothing it holds may make the
// importer read outside the buffer, overflow, or allocate without bound (ASan, UBSan and
// libFuzzer's RSS limit watch that). What imports must also be a rig p2lrt accepts
// everywhere: it validates (import_moc3 checks), writes, loads back equal, and compiles
// and evaluates at its defaults and at poses drawn from the input (extremes included). An
// input imported under Cubism's rules is imported under the format's own rules as well.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"

namespace {

constexpr std::size_t kMaxInput = std::size_t{1} << 20;  // matches fuzz.sh -max_len; Haru is 385 KB

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n*** p2l_moc3_fuzzer: %s\n    %s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  const std::span<const std::uint8_t> bytes(data, size);
  p2l::ImportResult imported = p2l::import_moc3(bytes);
  if (!imported) {
    if (imported.error.message.empty()) fail("a refused moc3 has no message", imported.error.to_string());
    return 0;
  }
  auto rig = std::make_shared<const p2l::Rig>(std::move(imported.rig));

  p2l::WriteResult written = p2l::write(*rig, {});
  if (!written) fail("an imported rig does not write", written.error.to_string());
  p2l::LoadResult again = p2l::load(written.bytes);
  if (!again) fail("an imported rig does not load back", again.error.to_string());
  if (!(*again.rig == *rig)) fail("an imported rig loads back different", "");

  auto model = p2l::Model::create(rig);
  if (!model) fail("an imported rig does not compile", model.error.to_string());
  p2l::Instance in(model.model);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 1e30f, -1e30f};
  for (std::size_t pose = 0; pose < 3; ++pose) {
    for (std::size_t i = 0; i < rig->parameters.size(); ++i) {
      const std::uint8_t byte = size == 0 ? 0 : data[(pose * 131 + i * 7) % size];
      const p2l::Parameter& p = rig->parameters[i];
      in.parameters()[i] = byte < 8 ? specials[byte % 4] : p.min + (p.max - p.min) * (static_cast<float>(byte) - 64.0f) / 128.0f;
    }
    in.evaluate();
  }

  // The same file under the format's own rules (another importer path: tables composed down
  // the chains, blend shapes approximated, offscreens reported): it imports too, and its rig
  // is as sound.
  p2l::ImportResult original = p2l::import_moc3(bytes, {p2l::CoreRules::Original});
  if (!original) {
    if (original.error.message.empty()) fail("a refused moc3 (original rules) has no message", original.error.to_string());
    return 0;
  }
  auto plain = std::make_shared<const p2l::Rig>(std::move(original.rig));
  p2l::WriteResult plain_written = p2l::write(*plain, {});
  if (!plain_written) fail("an imported rig (original rules) does not write", plain_written.error.to_string());
  p2l::LoadResult plain_again = p2l::load(plain_written.bytes);
  if (!plain_again || !(*plain_again.rig == *plain)) fail("an imported rig (original rules) does not load back equal", "");
  auto plain_model = p2l::Model::create(plain);
  if (!plain_model) fail("an imported rig (original rules) does not compile", plain_model.error.to_string());
  p2l::Instance plain_in(plain_model.model);
  plain_in.evaluate();
  return 0;
}
