// The machine porta-bench runs on: the host CPU, the bounds of a device that
// datasheets or the host's clock give, the time of the run.
#pragma once

#include <string>

#include "porta/porta.hpp"

namespace porta::bench {

std::string cpu_model();

// The CPU backend's thread count (its rule, backends/cpu/thread_pool.cpp):
// the host peers run with as many.
unsigned cpu_backend_threads();

// Peak fp32 FLOP/s where known: datasheet figures of GPUs (no tensor cores),
// an estimate for CPU-type devices (threads x clock x FMA width).
struct Peak {
  double flops = 0;
  std::string source;
};
Peak peak_flops(const DeviceInfo& info);

// A device of CPU type (porta's CPU backend, lavapipe, PoCL): the host's
// sizes, the host's peak.
bool cpu_type(const DeviceInfo& info);

// The reference device, which the CPU-type devices are compared with.
bool reference(const DeviceInfo& info);

// Whether `api_version` ("OpenCL 3.0", "CUDA 12.4, sm_90", "Vulkan 1.3.230")
// is that of the native API `api` ("OpenCL").
bool uses_api(const std::string& api_version, const char* api);

std::string utc_now();

}  // namespace porta::bench
