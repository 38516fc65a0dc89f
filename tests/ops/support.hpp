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

namespace porta::test {

inline std::string backend_under_test() {
  const char* b = std::getenv("PORTA_TEST_BACKEND");
  return b && *b ? b : "cpu";
}

inline bool backend_available(const std::string& name, std::string* reason = nullptr) {
  for (const auto& b : porta::backends())
    if (b.name == name) {
      if (reason) *reason = b.reason;
      return b.available;
    }
  if (reason) *reason = "its plugin was not built or not found";
  return false;
}

inline void skip_process_if_unavailable() {
  std::string reason;
  if (backend_available(backend_under_test(), &reason)) return;
  std::printf("SKIP: backend %s is unavailable here: %s\n", backend_under_test().c_str(), reason.c_str());
  std::exit(77);
}

inline bool testing_cpu() { return backend_under_test() == "cpu"; }

// Uniform floats in [lo, hi], seeded.
inline std::vector<float> random_floats(size_t n, uint64_t seed, float lo = -2.0f, float hi = 2.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

}  // namespace porta::test
