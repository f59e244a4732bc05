#pragma once
// A vector with its capacity fixed at compile time and storage inline: move lists, search
// stacks and anything else on a hot path that must not allocate.
#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <type_traits>

namespace kibitz {

template <class T, std::size_t N>
class FixedVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "FixedVector holds trivially copyable values only");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  constexpr FixedVector() = default;
  constexpr FixedVector(std::initializer_list<T> init) {
    for (const T& v : init) push_back(v);
  }

  static constexpr size_type capacity() { return N; }
  constexpr size_type size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool full() const { return size_ == N; }

  constexpr void push_back(const T& v) {
    assert(size_ < N);
    data_.values[size_++] = v;
  }
  template <class... Args>
  constexpr T& emplace_back(Args&&... args) {
    assert(size_ < N);
    data_.values[size_] = T{static_cast<Args&&>(args)...};
    return data_.values[size_++];
  }
  constexpr void pop_back() {
    assert(size_ > 0);
    --size_;
  }
  constexpr void clear() { size_ = 0; }
  // Grows (value-initialising new elements) or shrinks to n elements.
  constexpr void resize(size_type n) {
    assert(n <= N);
    for (size_type i = size_; i < n; ++i) data_.values[i] = T{};
    size_ = n;
  }
  // Adopts n elements already written through data() (generators that fill raw buffers).
  constexpr void set_size(size_type n) {
    assert(n <= N);
    size_ = n;
  }
  // O(1) removal that does not keep order: the last element takes the hole.
  constexpr void swap_remove(size_type i) {
    assert(i < size_);
    data_.values[i] = data_.values[--size_];
  }

  constexpr T& operator[](size_type i) {
    assert(i < size_);
    return data_.values[i];
  }
  constexpr const T& operator[](size_type i) const {
    assert(i < size_);
    return data_.values[i];
  }
  constexpr T& back() { return (*this)[size_ - 1]; }
  constexpr const T& back() const { return (*this)[size_ - 1]; }
  constexpr T* data() { return data_.values.data(); }
  constexpr const T* data() const { return data_.values.data(); }
  constexpr iterator begin() { return data_.values.data(); }
  constexpr iterator end() { return data_.values.data() + size_; }
  constexpr const_iterator begin() const { return data_.values.data(); }
  constexpr const_iterator end() const { return data_.values.data() + size_; }

  constexpr bool contains(const T& v) const {
    for (size_type i = 0; i < size_; ++i)
      if (data_.values[i] == v) return true;
    return false;
  }

  friend constexpr bool operator==(const FixedVector& a, const FixedVector& b) {
    if (a.size_ != b.size_) return false;
    for (size_type i = 0; i < a.size_; ++i)
      if (!(a.data_.values[i] == b.data_.values[i])) return false;
    return true;
  }

 private:
  // Left uninitialised, even where T's default constructor is not trivial (gomoku's and Go's
  // Move zero their point): filling 400 moves per node would cost more than generating them.
  // A union with an empty constructor of its own runs no constructor of its member.
  // (Constant evaluation needs an active member, so there the array is value-initialised.)
  union Storage {
    constexpr Storage() {
      if (std::is_constant_evaluated()) std::construct_at(&values);
    }
    std::array<T, N> values;
  };
  Storage data_;
  size_type size_ = 0;
};

}  // namespace kibitz
