// Which backend a test process runs on, for every backend-parametrised test
// suite: PORTA_TEST_BACKEND (set per ctest entry) names it — a backend, or a
// selector such as "opencl:1". A process whose backend is unavailable exits 77
// with the reason, which ctest reports as skipped, never as passed.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "porta/porta.hpp"

namespace porta::test {

inline std::string backend_under_test() {
  const char* b = std::getenv("PORTA_TEST_BACKEND");
  return b && *b ? b : "cpu";
}

// The backend part of the selector under test.
inline std::string backend_name_under_test() {
  const std::string selector = backend_under_test();
  return selector.substr(0, selector.find(':'));
}

inline bool testing_cpu() { return backend_name_under_test() == "cpu"; }

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
  if (backend_available(backend_name_under_test(), &reason)) return;
  std::printf("SKIP: backend %s is unavailable here: %s\n", backend_under_test().c_str(), reason.c_str());
  std::exit(77);
}

inline porta::Device open_under_test() { return porta::open(backend_under_test()); }

}  // namespace porta::test
