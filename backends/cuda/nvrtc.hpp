// NVRTC, loaded at run time like the driver. Shared by the plugin and by the
// NVRTC compile check that runs in CI on machines without a GPU, so that both
// compile translated CUDA C++ exactly the same way.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../common/embedded_file.hpp"

namespace porta::cuda {

struct CompiledModule {
  std::vector<char> image;  // cubin, or NUL-terminated PTX
  bool is_ptx = false;
  std::string target;  // "sm_90" (cubin) or "compute_90" (PTX)
  std::string log;     // NVRTC's log; non-empty means warnings
};

// The translator's runtime headers, which translated code includes by name
// (#include "porta_glsl.hpp"), embedded at build time (runtime_headers.cpp)
// and handed to NVRTC in memory: a machine with only the driver and NVRTC has
// no include directory to find them in.
extern const plugin::EmbeddedFile kRuntimeHeaders[];
extern const size_t kRuntimeHeaderCount;

class Nvrtc {
 public:
  // Loads NVRTC once per process; throws Failure(UNAVAILABLE) naming every
  // library tried when none loads.
  static const Nvrtc& get();

  // "13.0"
  const std::string& version() const { return version_; }
  // Compute capabilities NVRTC can target, as 10 * major + minor (75, 80, 90, ...).
  const std::vector<int>& architectures() const { return architectures_; }
  const std::string& library() const { return library_; }

  // Compiles `source` for compute capability `arch` (10 * major + minor):
  // a cubin for sm_<arch> when NVRTC knows that architecture, else PTX for the
  // newest compute_<XY> below it, which the driver compiles on load.
  // Throws Failure(COMPILE) with NVRTC's log, or Failure(UNSUPPORTED) when
  // the architecture is older than any NVRTC supports. kRuntimeHeaders are
  // available to #include.
  CompiledModule compile(const std::string& source, const std::string& name, int arch) const;

  struct Api;

 private:
  Nvrtc() = default;
  const Api* api_ = nullptr;
  std::string version_;
  std::vector<int> architectures_;
  std::string library_;
};

}  // namespace porta::cuda
