// Shared by porta's API tests: which backend a test process runs on, and how
// a whole process skips (exit 77, which ctest reports as "Skipped", never as
// a pass) when that backend is unavailable here.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "porta/porta.hpp"

namespace porta::test {

// PORTA_TEST_BACKEND names the backend under test (set per ctest entry).
inline std::string backend_under_test() {
  const char* b = std::getenv("PORTA_TEST_BACKEND");
  return b && *b ? b : "cpu";
}

inline porta::Device open_under_test() { return porta::open(backend_under_test()); }

// SPIR-V made by glslc at build time; PORTA_TEST_SPIRV_DIR overrides the
// build-tree folder when the tests run from a copied bundle.
inline std::string spirv_path(const std::string& file) {
  const char* dir = std::getenv("PORTA_TEST_SPIRV_DIR");
  return std::string(dir && *dir ? dir : PORTA_TEST_SPIRV_DIR) + "/" + file;
}

// Exits 77 with the reason when the backend under test is unavailable.
inline void skip_process_if_unavailable() {
  const std::string want = backend_under_test();
  for (const auto& b : porta::backends()) {
    if (b.name != want) continue;
    if (b.available) return;
    std::printf("SKIP: backend %s is unavailable here: %s\n", want.c_str(), b.reason.c_str());
    std::exit(77);
  }
  std::printf("SKIP: backend %s was not built or its plugin was not found\n", want.c_str());
  std::exit(77);
}

}  // namespace porta::test
