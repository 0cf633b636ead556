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

// Imports [bytes] under [rules]; whatever imports must write, load back equal, compile and
// evaluate at its defaults and at [poses] poses drawn from the input. False when refused.
bool import_and_check(std::span<const std::uint8_t> bytes, p2l::CoreRules rules, std::size_t poses) {
  const std::string under = rules == p2l::CoreRules::Cubism ? "" : " (original rules)";
  p2l::ImportResult imported = p2l::import_moc3(bytes, {rules});
  if (!imported) {
    if (imported.error.message.empty()) fail(("a refused moc3" + under + " has no message").c_str(), imported.error.to_string());
    return false;
  }
  auto rig = std::make_shared<const p2l::Rig>(std::move(imported.rig));
  p2l::WriteResult written = p2l::write(*rig, {});
  if (!written) fail(("an imported rig" + under + " does not write").c_str(), written.error.to_string());
  p2l::LoadResult again = p2l::load(written.bytes);
  if (!again) fail(("an imported rig" + under + " does not load back").c_str(), again.error.to_string());
  if (!(*again.rig == *rig)) fail(("an imported rig" + under + " loads back different").c_str(), "");

  auto model = p2l::Model::create(rig);
  if (!model) fail(("an imported rig" + under + " does not compile").c_str(), model.error.to_string());
  p2l::Instance in(model.model);
  in.evaluate();
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 1e30f, -1e30f};
  const std::size_t size = bytes.size();
  for (std::size_t pose = 0; pose < poses; ++pose) {
    for (std::size_t i = 0; i < rig->parameters.size(); ++i) {
      const std::uint8_t byte = size == 0 ? 0 : bytes[(pose * 131 + i * 7) % size];
      const p2l::Parameter& p = rig->parameters[i];
      in.parameters()[i] = byte < 8 ? specials[byte % 4] : p.min + (p.max - p.min) * (static_cast<float>(byte) - 64.0f) / 128.0f;
    }
    in.evaluate();
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return -1;
  const std::span<const std::uint8_t> bytes(data, size);
  // Cubism's rules (the default), then the same file under the format's own rules: another
  // importer path (tables composed down the chains, blend shapes approximated, offscreens
  // reported), as sound.
  if (import_and_check(bytes, p2l::CoreRules::Cubism, 3)) import_and_check(bytes, p2l::CoreRules::Original, 0);
  return 0;
}
