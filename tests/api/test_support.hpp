// Shared by porta's API tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace porta::test {

// SPIR-V made by glslc at build time; PORTA_TEST_SPIRV_DIR overrides the
// build-tree folder when the tests run from a copied bundle.
inline std::string spirv_path(const std::string& file) {
  const char* dir = std::getenv("PORTA_TEST_SPIRV_DIR");
  return std::string(dir && *dir ? dir : PORTA_TEST_SPIRV_DIR) + "/" + file;
}

}  // namespace porta::test
