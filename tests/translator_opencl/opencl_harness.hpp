// Builds and runs translated OpenCL C on one device through the ICD loader,
// without porta's OpenCL plugin: what the translator emits is checked on its
// own. The device is the first whose name contains PORTA_TEST_OPENCL_DEVICE
// (default: PoCL's "Portable Computing Language"-hosted CPU device "pthread"
// or "cpu").
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace porta::test {

class OpenclHarness {
 public:
  // Finds the device; `available()` says whether one was found and `reason()` why not.
  OpenclHarness();
  ~OpenclHarness();
  OpenclHarness(const OpenclHarness&) = delete;
  OpenclHarness& operator=(const OpenclHarness&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& reason() const { return reason_; }
  std::string device_name() const;
  // The first extension a translation needs ("#pragma OPENCL EXTENSION X :
  // enable", "// requires OpenCL extension: X") that the device lacks, "" if
  // none: porta's OpenCL backend refuses such a kernel before building it.
  std::string missing_extension(const std::string& source) const;

  // clBuildProgram with "-cl-std=CL1.2 -Werror" (OpenCL C 2.0 or 3.0 for a
  // translation with subgroup operations, as the backend does). True on
  // success; `log` gets the build log (empty for a clean build).
  bool build(const std::string& source, std::string& log);

  // Builds `source` and runs `entry` over groups x workgroup items with one
  // buffer argument per entry of `buffers` (copied in and back out) and the
  // push-constant bytes as one by-value argument when not empty. Returns an
  // empty string on success, else what failed.
  std::string run(const std::string& source, const std::string& entry, const uint32_t groups[3],
                  const uint32_t workgroup[3], std::vector<std::vector<uint8_t>*> buffers,
                  const std::vector<uint8_t>& push);

 private:
  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::string reason_;
};

}  // namespace porta::test
