#include "nvrtc.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <mutex>

#include "../common/plugin_support.hpp"

namespace porta::cuda {

// The NVRTC functions porta calls, declared and loaded from this one list.
#define PORTA_NVRTC_FUNCTIONS(X) \
  X(nvrtcGetErrorString)         \
  X(nvrtcVersion)                \
  X(nvrtcGetNumSupportedArchs)   \
  X(nvrtcGetSupportedArchs)      \
  X(nvrtcCreateProgram)          \
  X(nvrtcDestroyProgram)         \
  X(nvrtcCompileProgram)         \
  X(nvrtcGetProgramLogSize)      \
  X(nvrtcGetProgramLog)          \
  X(nvrtcGetPTXSize)             \
  X(nvrtcGetPTX)                 \
  X(nvrtcGetCUBINSize)           \
  X(nvrtcGetCUBIN)

struct Nvrtc::Api {
#define PORTA_NVRTC_DECLARE(fn) decltype(&::fn) fn = nullptr;
  PORTA_NVRTC_FUNCTIONS(PORTA_NVRTC_DECLARE)
#undef PORTA_NVRTC_DECLARE
};

namespace {

using plugin::fail;
using plugin::format;

Nvrtc::Api g_api;
plugin::Library g_library;

// A program released on every path out of compile().
struct Program {
  const Nvrtc::Api& api;
  nvrtcProgram handle = nullptr;
  ~Program() {
    if (handle) api.nvrtcDestroyProgram(&handle);
  }
};

}  // namespace

const Nvrtc& Nvrtc::get() {
  static std::unique_ptr<Nvrtc> instance;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    try {
      // The unversioned name first (a toolkit on the loader path), then the
      // sonames of the CUDA releases whose NVRTC takes these options, then
      // the toolkit's default location.
      if (!g_library.open(
              {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so"})) {
        fail(PORTA_ERROR_UNAVAILABLE, "NVRTC not found (%s)", g_library.reason().c_str());
      }
#define PORTA_NVRTC_LOAD(fn) g_library.load(g_api.fn, #fn);
      PORTA_NVRTC_FUNCTIONS(PORTA_NVRTC_LOAD)
#undef PORTA_NVRTC_LOAD

      std::unique_ptr<Nvrtc> n(new Nvrtc);
      n->api_ = &g_api;
      n->library_ = g_library.name();
      int major = 0, minor = 0;
      g_api.nvrtcVersion(&major, &minor);
      n->version_ = format("%d.%d", major, minor);
      int count = 0;
      if (g_api.nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
        n->architectures_.resize(static_cast<size_t>(count));
        if (g_api.nvrtcGetSupportedArchs(n->architectures_.data()) != NVRTC_SUCCESS)
          n->architectures_.clear();
      }
      if (n->architectures_.empty()) {
        fail(PORTA_ERROR_UNAVAILABLE, "NVRTC %s (%s) reports no supported GPU architectures",
             n->version_.c_str(), n->library_.c_str());
      }
      std::sort(n->architectures_.begin(), n->architectures_.end());
      instance = std::move(n);
    } catch (const plugin::Failure& f) {
      failure = f.what();
    }
  });
  if (!instance) throw plugin::Failure(PORTA_ERROR_UNAVAILABLE, failure);
  return *instance;
}

CompiledModule Nvrtc::compile(const std::string& source, const std::string& name, int arch) const {
  const Api& api = *api_;
  CompiledModule out;
  // Newest architecture NVRTC knows that the device can run.
  int chosen = 0;
  for (int a : architectures_) {
    if (a <= arch) chosen = a;
  }
  if (chosen == 0) {
    fail(PORTA_ERROR_UNSUPPORTED, "NVRTC %s cannot compile for sm_%d (it supports sm_%d to sm_%d)",
         version_.c_str(), arch, architectures_.front(), architectures_.back());
  }
  out.is_ptx = chosen != arch;
  out.target = format("%s_%d", out.is_ptx ? "compute" : "sm", chosen);
  // sm_90's warpgroup MMA (porta_cuda.h's porta_wgmma) is in sm_90a alone,
  // whose code runs on sm_90 only: the device's own.
  if (chosen == 90 && arch == 90 && source.find("porta_wgmma<") != std::string::npos) out.target += "a";

  Program program{api};
  std::string file = name.empty() ? std::string("kernel.cu") : name + ".cu";
  std::vector<const char*> header_texts, header_names;
  for (size_t i = 0; i < kRuntimeHeaderCount; ++i) {
    header_names.push_back(kRuntimeHeaders[i].name);
    header_texts.push_back(kRuntimeHeaders[i].data);
  }
  nvrtcResult r =
      api.nvrtcCreateProgram(&program.handle, source.c_str(), file.c_str(),
                             static_cast<int>(header_texts.size()), header_texts.data(), header_names.data());
  if (r != NVRTC_SUCCESS) {
    fail(PORTA_ERROR_INTERNAL, "nvrtcCreateProgram failed: %s", api.nvrtcGetErrorString(r));
  }
  // No fast-math: results must match the other backends within each op's
  // documented error bound, which assumes IEEE division and square root.
  std::string arch_option = "--gpu-architecture=" + out.target;
  // -default-device: code without an execution-space annotation is device
  // code, so translated kernels and porta_glsl.hpp need no __device__ on every
  // function.
  const char* options[] = {arch_option.c_str(), "-std=c++17", "-default-device"};
  r = api.nvrtcCompileProgram(program.handle, static_cast<int>(std::size(options)), options);

  size_t log_size = 0;
  if (api.nvrtcGetProgramLogSize(program.handle, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    out.log.resize(log_size);
    api.nvrtcGetProgramLog(program.handle, out.log.data());
    while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  }
  if (r != NVRTC_SUCCESS) {
    fail(PORTA_ERROR_COMPILE, "NVRTC %s failed to compile %s for %s: %s%s%s", version_.c_str(), file.c_str(),
         out.target.c_str(), api.nvrtcGetErrorString(r), out.log.empty() ? "" : "\n", out.log.c_str());
  }

  size_t size = 0;
  if (out.is_ptx) {
    r = api.nvrtcGetPTXSize(program.handle, &size);  // includes the terminating NUL
    if (r == NVRTC_SUCCESS) {
      out.image.resize(size);
      r = api.nvrtcGetPTX(program.handle, out.image.data());
    }
  } else {
    r = api.nvrtcGetCUBINSize(program.handle, &size);
    if (r == NVRTC_SUCCESS) {
      out.image.resize(size);
      r = api.nvrtcGetCUBIN(program.handle, out.image.data());
    }
  }
  if (r != NVRTC_SUCCESS || out.image.empty()) {
    fail(PORTA_ERROR_INTERNAL, "NVRTC %s produced no %s for %s: %s", version_.c_str(),
         out.is_ptx ? "PTX" : "cubin", file.c_str(), api.nvrtcGetErrorString(r));
  }
  return out;
}

}  // namespace porta::cuda
