// porta-conformance --kernel: a user's kernel on a device and on the CPU
// backend with the same generated inputs; every buffer compared.
#pragma once

#include <string>
#include <vector>

#include "suite.hpp"

namespace porta::conformance {

struct UserKernel {
  std::string path;
  std::string groups = "1";
  std::vector<std::string> buffers;  // one spec per storage buffer, in parameter (binding) order
  std::vector<std::string> push;     // appended in order
  double tolerance_ulp = -1;         // < 0: bitwise; else buffers are float32 compared within this many ulps
};

// Checks the command line's spelling of the kernel run (throws UsageError).
void validate(const UserKernel& k);

CaseResult run_user_kernel(Devices& devices, const UserKernel& k);

}  // namespace porta::conformance
