// The moc3 binding chain, resolved and checked once: which parameter axes (with their
// ascending keys) each keyform binding has, and so how many keyforms an object with that
// binding owns. moc3.md section 4.7:
//
//   object.binding -> keyformBinding[b] = (first, count) into parameterBindingIndices
//   parameterBindingIndices[first + j] = q               (axis j, the first varies fastest)
//   parameterBinding[q] = (firstKey, keyCount) into keys
//   the parameter of q = the one whose binding range holds q
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "import/moc3_file.hpp"

namespace p2l::moc3 {

struct BindingAxis {
  std::uint32_t parameter = 0;
  std::span<const float> keys;  // ascending, not empty; into Bindings' key store
};

class Bindings {
 public:
  Bindings() = default;
  // Moves keep the axes' key views valid; a copy would not.
  Bindings(Bindings&&) noexcept = default;
  Bindings& operator=(Bindings&&) noexcept = default;
  Bindings(const Bindings&) = delete;
  Bindings& operator=(const Bindings&) = delete;

  // Resolves every keyform binding of [file]; refuses a range outside its array, a
  // parameter binding no parameter (or two) owns, keys that are not finite and ascending,
  // a parameter twice in one binding, and key products past 2^24 keyforms.
  static bool read(const File& file, Bindings& out, Error& error);

  std::size_t size() const { return first_.size(); }
  std::span<const BindingAxis> axes(std::uint32_t binding) const {
    return {axes_.data() + first_[binding], count_[binding]};
  }
  // The number of keyforms an object with [binding] owns: the product of its key counts.
  std::uint32_t keyform_count(std::uint32_t binding) const { return keyforms_[binding]; }

 private:
  std::vector<float> keys_;
  std::vector<BindingAxis> axes_;
  std::vector<std::uint32_t> first_, count_, keyforms_;
};

}  // namespace p2l::moc3
