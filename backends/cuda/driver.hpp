// The CUDA driver API, loaded at run time from libcuda.so.1 so that the plugin
// (and a binary using porta) loads on machines without an NVIDIA driver.
//
// Each entry is named as in the CUDA documentation; cuda.h #defines many of
// those names to their versioned ABI symbols (cuMemAlloc → cuMemAlloc_v2), so
// both the member names and the looked-up symbols below follow the header's
// choice and never call a legacy ABI by accident.
#pragma once

#include <cuda.h>

#include <string>

#include "../common/plugin_support.hpp"

namespace porta::cuda {

#define PORTA_CUDA_DRIVER_FUNCTIONS(X) \
  X(cuInit)                            \
  X(cuDriverGetVersion)                \
  X(cuGetErrorName)                    \
  X(cuGetErrorString)                  \
  X(cuDeviceGetCount)                  \
  X(cuDeviceGet)                       \
  X(cuDeviceGetName)                   \
  X(cuDeviceGetAttribute)              \
  X(cuDeviceTotalMem)                  \
  X(cuDevicePrimaryCtxRetain)          \
  X(cuDevicePrimaryCtxRelease)         \
  X(cuCtxPushCurrent)                  \
  X(cuCtxPopCurrent)                   \
  X(cuCtxGetCurrent)                   \
  X(cuMemAlloc)                        \
  X(cuMemFree)                         \
  X(cuMemHostAlloc)                    \
  X(cuMemFreeHost)                     \
  X(cuMemcpyHtoDAsync)                 \
  X(cuMemcpyDtoHAsync)                 \
  X(cuMemcpyDtoDAsync)                 \
  X(cuMemsetD32Async)                  \
  X(cuModuleLoadData)                  \
  X(cuModuleUnload)                    \
  X(cuModuleGetFunction)               \
  X(cuModuleGetGlobal)                 \
  X(cuMemcpyDtoH)                      \
  X(cuFuncGetAttribute)                \
  X(cuFuncSetAttribute)                \
  X(cuLaunchKernel)                    \
  X(cuLaunchHostFunc)                  \
  X(cuStreamCreate)                    \
  X(cuStreamDestroy)                   \
  X(cuStreamQuery)                     \
  X(cuStreamSynchronize)               \
  X(cuStreamBeginCapture)              \
  X(cuStreamEndCapture)                \
  X(cuGraphInstantiate)                \
  X(cuGraphLaunch)                     \
  X(cuGraphExecDestroy)                \
  X(cuGraphDestroy)                    \
  X(cuEventCreate)                     \
  X(cuEventDestroy)                    \
  X(cuEventRecord)                     \
  X(cuEventQuery)                      \
  X(cuEventSynchronize)                \
  X(cuEventElapsedTime)                \
  X(cuPointerGetAttributes)            \
  X(cuMemGetAddressRange)              \
  X(cuMemHostRegister)                 \
  X(cuMemHostUnregister)               \
  X(cuMemHostGetDevicePointer)         \
  X(cuStreamGetCtx)                    \
  X(cuStreamWaitEvent)

struct Driver {
#define PORTA_CUDA_DECLARE(fn) decltype(&::fn) fn = nullptr;
  PORTA_CUDA_DRIVER_FUNCTIONS(PORTA_CUDA_DECLARE)
#undef PORTA_CUDA_DECLARE
  int version = 0;  // cuDriverGetVersion: 13000 for CUDA 13.0
};

// Loads libcuda.so.1 and calls cuInit. Throws Failure(UNAVAILABLE) with the
// reason ("no CUDA driver (libcuda.so.1: ...)", a missing symbol, cuInit's error).
const Driver& load_driver();
// The loaded driver; only valid after load_driver() succeeded.
const Driver& driver();

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", from the driver's own tables.
std::string error_text(CUresult result);

// Errors after which the context is unusable: every later call must fail too.
bool is_sticky(CUresult result);

// The porta status a CUresult becomes.
porta_status status_of(CUresult result);

}  // namespace porta::cuda
