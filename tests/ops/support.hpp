// Shared by the ops tests: the backend under test (PORTA_TEST_BACKEND, one
// ctest entry per backend; unavailable → exit 77, reported as skipped), the
// CPU backend as the reference for the others, seeded data.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace porta::test {

// Uniform floats in [lo, hi], seeded.
inline std::vector<float> random_floats(size_t n, uint64_t seed, float lo = -2.0f, float hi = 2.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

}  // namespace porta::test
