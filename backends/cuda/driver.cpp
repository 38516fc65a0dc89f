#include "driver.hpp"

#include <mutex>

namespace porta::cuda {

namespace {

// Two steps so that the argument is macro-expanded first: the symbol looked
// up is the one cuda.h maps the name to (cuMemAlloc → "cuMemAlloc_v2").
#define PORTA_CUDA_STR2(x) #x
#define PORTA_CUDA_STR(x) PORTA_CUDA_STR2(x)

Driver g_driver;
plugin::Library g_library;

std::string version_text(int version) { return plugin::format("%d.%d", version / 1000, version % 1000 / 10); }

void load() {
  if (!g_library.open({"libcuda.so.1"})) {
    plugin::fail(PORTA_ERROR_UNAVAILABLE, "no CUDA driver (%s)", g_library.reason().c_str());
  }
  // The version is read before the other symbols so that a missing versioned
  // symbol can be explained by a driver older than the headers.
  g_library.load(g_driver.cuDriverGetVersion, PORTA_CUDA_STR(cuDriverGetVersion));
  g_driver.cuDriverGetVersion(&g_driver.version);
#define PORTA_CUDA_LOAD(fn)                                                                          \
  g_library.load_optional(g_driver.fn, PORTA_CUDA_STR(fn));                                          \
  if (!g_driver.fn) {                                                                                \
    plugin::fail(PORTA_ERROR_UNAVAILABLE,                                                            \
                 "libcuda.so.1 has no symbol %s (driver supports CUDA %s; porta was built with the " \
                 "CUDA %s headers)",                                                                 \
                 PORTA_CUDA_STR(fn), version_text(g_driver.version).c_str(),                         \
                 version_text(CUDA_VERSION).c_str());                                                \
  }
  PORTA_CUDA_DRIVER_FUNCTIONS(PORTA_CUDA_LOAD)
#undef PORTA_CUDA_LOAD
  CUresult r = g_driver.cuInit(0);
  if (r != CUDA_SUCCESS) plugin::fail(PORTA_ERROR_UNAVAILABLE, "cuInit failed: %s", error_text(r).c_str());
}

}  // namespace

const Driver& load_driver() {
  // init() is called once, but the driver is loaded at most once per process
  // even if a test host initialises the plugin again after shutdown().
  static std::once_flag once;
  static std::string failure;
  static porta_status failure_status = PORTA_SUCCESS;
  std::call_once(once, [] {
    try {
      load();
    } catch (const plugin::Failure& f) {
      failure = f.what();
      failure_status = f.status;
    }
  });
  if (failure_status != PORTA_SUCCESS) throw plugin::Failure(failure_status, failure);
  return g_driver;
}

const Driver& driver() { return g_driver; }

std::string error_text(CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (g_driver.cuGetErrorName) g_driver.cuGetErrorName(result, &name);
  if (g_driver.cuGetErrorString) g_driver.cuGetErrorString(result, &text);
  std::string out = name ? name : plugin::format("CUresult %d", static_cast<int>(result));
  if (text) out += plugin::format(" (%s)", text);
  return out;
}

bool is_sticky(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_ASSERT:
      return true;
    default:
      return false;
  }
}

porta_status status_of(CUresult result) {
  if (result == CUDA_SUCCESS) return PORTA_SUCCESS;
  if (is_sticky(result)) return PORTA_ERROR_DEVICE_LOST;
  switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      return PORTA_ERROR_OUT_OF_MEMORY;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    case CUDA_ERROR_NOT_SUPPORTED:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
      return PORTA_ERROR_UNSUPPORTED;
    case CUDA_ERROR_INVALID_VALUE:
      return PORTA_ERROR_INVALID_ARGUMENT;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
      return PORTA_ERROR_UNAVAILABLE;
    default:
      return PORTA_ERROR_BACKEND;
  }
}

}  // namespace porta::cuda
