#include "import/moc3_bindings.hpp"

#include <limits>
#include <string>

namespace p2l::moc3 {
namespace {

// Slots of the binding chain (moc3.md section 2.9).
constexpr std::size_t kParameterFirstBinding = 56, kParameterBindingCount = 57;
constexpr std::size_t kBindingIndices = 72, kKeyformBindingFirst = 73, kKeyformBindingCount = 74;
constexpr std::size_t kParameterBindingFirstKey = 75, kParameterBindingKeyCount = 76, kKeyValues = 77;
constexpr std::uint64_t kMaxKeyforms = std::uint64_t{1} << 24;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool fail(Error& error, std::string message) {
  error = Error{ErrorCode::BadStructure, "moc3", -1, false, std::move(message)};
  return false;
}

// Whether [first, first + count) lies within [0, size): negative values are refused.
bool range_ok(std::int32_t first, std::int32_t count, std::uint32_t size) {
  return first >= 0 && count >= 0 && std::uint64_t(first) + std::uint64_t(count) <= size;
}

}  // namespace

bool Bindings::read(const File& f, Bindings& out, Error& error) {
  out = Bindings{};
  const std::uint32_t parameters = f.count(kParameters), bindings = f.count(kParameterBindings);
  const std::uint32_t keys = f.count(kKeys), indices = f.count(kParameterBindingIndices);

  out.keys_.resize(keys);
  for (std::uint32_t i = 0; i < keys; ++i) out.keys_[i] = f.f32(kKeyValues, i);

  // Each parameter binding belongs to the one parameter whose range holds it.
  std::vector<std::uint32_t> owner(bindings, kNone);
  for (std::uint32_t p = 0; p < parameters; ++p) {
    const std::int32_t first = f.i32(kParameterFirstBinding, p), count = f.i32(kParameterBindingCount, p);
    if (count == 0) continue;  // the begin of an empty range means nothing
    if (!range_ok(first, count, bindings))
      return fail(error, "parameter " + std::to_string(p) + " owns parameter bindings " + std::to_string(first) +
                             " + " + std::to_string(count) + ", beyond the " + std::to_string(bindings) + " there are");
    for (std::int32_t q = first; q < first + count; ++q) {
      if (owner[static_cast<std::uint32_t>(q)] != kNone)
        return fail(error, "parameter binding " + std::to_string(q) + " belongs to parameters " +
                               std::to_string(owner[static_cast<std::uint32_t>(q)]) + " and " + std::to_string(p));
      owner[static_cast<std::uint32_t>(q)] = p;
    }
  }

  const std::uint32_t n = f.count(kKeyformBindings);
  std::vector<std::uint8_t> noted(bindings, 0);  // parameter bindings already in unordered_
  out.first_.resize(n);
  out.count_.resize(n);
  out.keyforms_.resize(n);
  for (std::uint32_t b = 0; b < n; ++b) {
    const std::int32_t first = f.i32(kKeyformBindingFirst, b), count = f.i32(kKeyformBindingCount, b);
    const std::string who = "keyform binding " + std::to_string(b);
    out.first_[b] = static_cast<std::uint32_t>(out.axes_.size());
    out.count_[b] = 0;
    std::uint64_t keyforms = 1;
    if (count != 0 && !range_ok(first, count, indices))
      return fail(error, who + " lists axes " + std::to_string(first) + " + " + std::to_string(count) + ", beyond the " +
                             std::to_string(indices) + " binding indices");
    for (std::int32_t j = 0; j < count; ++j) {
      const std::int32_t q = f.i32(kBindingIndices, static_cast<std::size_t>(first + j));
      if (q < 0 || static_cast<std::uint32_t>(q) >= bindings)
        return fail(error, who + ", axis " + std::to_string(j) + ": parameter binding " + std::to_string(q) +
                               " is out of range (" + std::to_string(bindings) + " bindings)");
      const std::uint32_t parameter = owner[static_cast<std::uint32_t>(q)];
      if (parameter == kNone)
        return fail(error, who + ", axis " + std::to_string(j) + ": no parameter owns parameter binding " +
                               std::to_string(q));
      const std::int32_t first_key = f.i32(kParameterBindingFirstKey, static_cast<std::size_t>(q));
      const std::int32_t key_count = f.i32(kParameterBindingKeyCount, static_cast<std::size_t>(q));
      // p2lrt grids number keys with u16 coordinates.
      if (key_count > 0xFFFF)
        return fail(error, "parameter binding " + std::to_string(q) + " has " + std::to_string(key_count) +
                               " keys; p2lrt takes at most 65535 on one axis");
      if (key_count <= 0 || !range_ok(first_key, key_count, keys))
        return fail(error, "parameter binding " + std::to_string(q) + " has keys " + std::to_string(first_key) + " + " +
                               std::to_string(key_count) + "; expected at least one within the " + std::to_string(keys) +
                               " keys");
      std::span<const float> axis_keys(out.keys_.data() + first_key, static_cast<std::size_t>(key_count));
      // Keys are finite (File::open checks every float array). The Core loads keys that repeat
      // or go down (game exports have them) and looks them up in file order: kept, and noted
      // once a parameter binding.
      for (std::size_t k = 1; k < axis_keys.size(); ++k) {
        if (!(axis_keys[k] > axis_keys[k - 1]) && !noted[static_cast<std::uint32_t>(q)]) {
          noted[static_cast<std::uint32_t>(q)] = 1;
          out.unordered_.push_back({static_cast<std::uint32_t>(q), parameter, static_cast<std::uint32_t>(k)});
        }
      }
      for (std::uint32_t a = out.first_[b]; a < out.axes_.size(); ++a)
        if (out.axes_[a].parameter == parameter)
          return fail(error, who + " keys parameter " + std::to_string(parameter) + " twice");
      keyforms *= static_cast<std::uint64_t>(key_count);
      if (keyforms > kMaxKeyforms) return fail(error, who + " multiplies to more than 2^24 keyforms");
      out.axes_.push_back({parameter, axis_keys});
      ++out.count_[b];
    }
    out.keyforms_[b] = static_cast<std::uint32_t>(keyforms);
  }
  return true;
}

}  // namespace p2l::moc3
