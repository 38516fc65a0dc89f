// Float32 values held in a vector of their own, or in place in a file's
// private mapping (an NPY file's elements read without a copy: pages written
// become the process's own, copy-on-write; the file is never written).
// Copying a Floats copies the values into a vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "porta_data/file.hpp"

namespace porta::data {

class Floats {
 public:
  Floats() = default;
  Floats(std::vector<float> values) : vector_(std::move(values)) {}  // NOLINT: a vector is Floats
  // `count` floats at `at`, inside `mapping` (mapped copy_on_write), which the Floats keeps.
  Floats(MappedFile mapping, float* at, size_t count)
      : mapping_(std::move(mapping)), mapped_(at), count_(count) {}
  Floats(const Floats& other) : vector_(other.begin(), other.end()) {}
  Floats& operator=(const Floats& other) {
    if (this != &other) *this = Floats(std::vector<float>(other.begin(), other.end()));
    return *this;
  }
  Floats(Floats&& other) noexcept { *this = std::move(other); }
  Floats& operator=(Floats&& other) noexcept {
    vector_ = std::move(other.vector_);
    mapping_ = std::move(other.mapping_);
    mapped_ = std::exchange(other.mapped_, nullptr);
    count_ = std::exchange(other.count_, 0);
    return *this;
  }

  // Whether the values are in a file's mapping.
  bool mapped() const { return mapped_ != nullptr; }
  // Throws Error when the mapped file changed since it was mapped: pages not
  // yet written still read the file (a file replaced by rename is not seen).
  void check_unchanged() const {
    if (mapped_) mapping_.check_unchanged();
  }
  float* data() { return mapped_ ? mapped_ : vector_.data(); }
  const float* data() const { return mapped_ ? mapped_ : vector_.data(); }
  size_t size() const { return mapped_ ? count_ : vector_.size(); }
  bool empty() const { return size() == 0; }
  float* begin() { return data(); }
  float* end() { return data() + size(); }
  const float* begin() const { return data(); }
  const float* end() const { return data() + size(); }
  float& operator[](size_t i) { return data()[i]; }
  const float& operator[](size_t i) const { return data()[i]; }

  // Growing: the values move into a vector first.
  void push_back(float v) {
    own();
    vector_.push_back(v);
  }
  void resize(size_t n) {
    own();
    vector_.resize(n);
  }
  void append(const float* first, const float* last) {
    own();
    vector_.insert(vector_.end(), first, last);
  }

  friend bool operator==(const Floats& a, const Floats& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  void own() {
    if (mapped_) *this = Floats(std::vector<float>(begin(), end()));
  }

  std::vector<float> vector_;
  MappedFile mapping_;
  float* mapped_ = nullptr;
  size_t count_ = 0;
};

}  // namespace porta::data
