// p2l::Array: an immutable run of plain values that either owns its storage or
// views storage kept alive by someone else (the loaded file, a decompressed chunk).
// Loading uses views so that uncompressed f32/u16/u32 arrays are used in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace p2l {

template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array holds plain values");

 public:
  Array() = default;
  Array(std::vector<T> values) {  // NOLINT(google-explicit-constructor): builders pass vectors
    if (values.empty()) return;
    auto holder = std::make_shared<const std::vector<T>>(std::move(values));
    data_ = holder->data();
    size_ = holder->size();
    owner_ = std::move(holder);
  }
  Array(std::initializer_list<T> values) : Array(std::vector<T>(values)) {}

  // A view of `size` values at `data`; `owner` (may be null) keeps them alive.
  static Array view(const T* data, std::size_t size, std::shared_ptr<const void> owner) {
    Array a;
    if (size == 0) return a;
    a.data_ = data;
    a.size_ = size;
    a.owner_ = std::move(owner);
    return a;
  }

  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::span<const T> span() const { return {data_, size_}; }
  std::vector<T> to_vector() const { return {begin(), end()}; }
  // What keeps the values alive (null for none): arrays with the same keeper lie in one
  // block, so the distance between them means something (the evaluator's row runs).
  const void* keeper() const { return owner_.get(); }

  // Bitwise equality: a round trip must give back the same bits, -0.0 included.
  friend bool operator==(const Array& a, const Array& b) {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0);
  }

 private:
  std::shared_ptr<const void> owner_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Vertex or particle indices: stored as u16 or u32 in the file and kept that way,
// so either width can be used in place. Exactly one of the two is non-empty.
class IndexArray {
 public:
  IndexArray() = default;
  IndexArray(std::vector<std::uint32_t> values) : wide_(std::move(values)) {}  // NOLINT
  IndexArray(std::initializer_list<std::uint32_t> values) : wide_(std::vector<std::uint32_t>(values)) {}
  static IndexArray narrow(Array<std::uint16_t> v) { IndexArray a; a.narrow_ = std::move(v); return a; }
  static IndexArray wide(Array<std::uint32_t> v) { IndexArray a; a.wide_ = std::move(v); return a; }

  std::size_t size() const { return wide_.empty() ? narrow_.size() : wide_.size(); }
  bool empty() const { return size() == 0; }
  std::uint32_t operator[](std::size_t i) const { return wide_.empty() ? narrow_[i] : wide_[i]; }
  std::uint32_t max_value() const {
    std::uint32_t m = 0;
    for (std::size_t i = 0, n = size(); i < n; ++i) m = (*this)[i] > m ? (*this)[i] : m;
    return m;
  }
  // The stored form: at most one of these is non-empty.
  const Array<std::uint16_t>& u16() const { return narrow_; }
  const Array<std::uint32_t>& u32() const { return wide_; }
  std::vector<std::uint32_t> to_vector() const {
    std::vector<std::uint32_t> v(size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = (*this)[i];
    return v;
  }

  // Equal when the values are equal, whatever width stores them.
  friend bool operator==(const IndexArray& a, const IndexArray& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0, n = a.size(); i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  Array<std::uint16_t> narrow_;
  Array<std::uint32_t> wide_;
};

}  // namespace p2l
