// Shared by porta's API tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace porta::test {

// SPIR-V made by glslc at build time; PORTA_TEST_SPIRV_DIR overrides the
// build-tree folder when the tests run from a copied bundle.
inline std::string spirv_path(const std::string& file) {
  const char* dir = std::getenv("PORTA_TEST_SPIRV_DIR");
  return std::string(dir && *dir ? dir : PORTA_TEST_SPIRV_DIR) + "/" + file;
}

// Oclgrind, the OpenCL simulator some ctest entries run these tests under
// (tests/translator_opencl/CMakeLists.txt). A test that its simulator cannot
// run skips there and says why.
inline bool on_oclgrind(const porta::Device& device) {
  return device.name().find("Oclgrind") != std::string::npos;
}

// Whether oclgrind's uninitialised-value checker is on (OCLGRIND_UNINITIALIZED=1).
inline bool oclgrind_checks_uninitialized() {
  const char* v = std::getenv("OCLGRIND_UNINITIALIZED");
  return v && std::string(v) == "1";
}

// Dispatches `kernel` on `groups` with a new buffer of `words` 32-bit words as
// its one buffer, on a stream of its own; returns the words after the dispatch.
inline std::vector<uint32_t> run_on_one_buffer(porta::Device& device, const porta::Kernel& kernel,
                                               porta::Groups groups, size_t words) {
  porta::Buffer b = device.buffer(words * 4);
  porta::Stream s = device.stream();
  s.dispatch(kernel, groups, {b});
  std::vector<uint32_t> r(words);
  s.read(b, r);
  s.sync();
  return r;
}

// A float32 view of `buffer`, contiguous, of `shape`, starting `offset` elements in.
inline porta_tensor f32_tensor(porta_buffer buffer, std::initializer_list<uint64_t> shape,
                               uint64_t offset = 0) {
  porta_tensor t{};
  t.buffer = buffer;
  t.dtype = PORTA_DTYPE_FLOAT32;
  t.rank = static_cast<uint32_t>(shape.size());
  uint32_t i = 0;
  for (uint64_t n : shape) t.shape[i++] = n;
  t.offset = offset;
  return t;
}

}  // namespace porta::test
