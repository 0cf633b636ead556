// The moc3 binding chain, resolved and checked once: which parameter axes (with their
// keys) each keyform binding has, and so how many keyforms an object with that
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
  std::span<const float> keys;  // finite, not empty, ascending but where unordered() says;
                                // into Bindings' key store
};

// A parameter binding whose keys do not ascend: key [key] is not above the one before.
struct UnorderedKeys {
  std::uint32_t binding = 0, parameter = 0, key = 0;
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
  // parameter binding no parameter (or two) owns, a parameter twice in one binding, and key
  // products past 2^24 keyforms. Keys that repeat or go down are kept as they are (the Core
  // loads them) and listed by unordered().
  static bool read(const File& file, Bindings& out, Error& error);

  // The parameter bindings used by some object whose keys do not ascend, in binding order of
  // first use.
  std::span<const UnorderedKeys> unordered() const { return unordered_; }

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
  std::vector<UnorderedKeys> unordered_;
};

}  // namespace p2l::moc3
