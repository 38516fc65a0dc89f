// The OpenCL runtime as porta uses it: the ICD loader opened with dlopen, every
// entry point resolved by name, and CL status codes turned into names and
// porta statuses. Nothing here links against libOpenCL; cl.h gives types only.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <string>

#include "porta/plugin.h"

namespace porta::opencl {

// Every OpenCL entry point the plugin calls. Adding one here is all it takes to use it.
#define PORTA_CL_FUNCTIONS(X)     \
  X(clGetPlatformIDs)             \
  X(clGetPlatformInfo)            \
  X(clGetDeviceIDs)               \
  X(clGetDeviceInfo)              \
  X(clCreateContext)              \
  X(clReleaseContext)             \
  X(clCreateCommandQueue)         \
  X(clReleaseCommandQueue)        \
  X(clCreateBuffer)               \
  X(clCreateSubBuffer)            \
  X(clReleaseMemObject)           \
  X(clCreateProgramWithSource)    \
  X(clCreateProgramWithBinary)    \
  X(clBuildProgram)               \
  X(clGetProgramInfo)             \
  X(clGetProgramBuildInfo)        \
  X(clReleaseProgram)             \
  X(clCreateKernel)               \
  X(clReleaseKernel)              \
  X(clGetKernelWorkGroupInfo)     \
  X(clSetKernelArg)               \
  X(clEnqueueNDRangeKernel)       \
  X(clEnqueueWriteBuffer)         \
  X(clEnqueueReadBuffer)          \
  X(clEnqueueCopyBuffer)          \
  X(clEnqueueFillBuffer)          \
  X(clEnqueueMigrateMemObjects)   \
  X(clEnqueueMapBuffer)           \
  X(clEnqueueUnmapMemObject)      \
  X(clEnqueueMarkerWithWaitList)  \
  X(clFinish)                     \
  X(clWaitForEvents)              \
  X(clFlush)                      \
  X(clGetEventInfo)               \
  X(clGetEventProfilingInfo)      \
  X(clReleaseEvent)               \
  X(clGetMemObjectInfo)           \
  X(clRetainMemObject)            \
  X(clGetCommandQueueInfo)        \
  X(clRetainCommandQueue)         \
  X(clEnqueueBarrierWithWaitList) \
  X(clSetEventCallback)           \
  X(clSetUserEventStatus)         \
  X(clRetainEvent)                \
  X(clGetExtensionFunctionAddressForPlatform)

struct Runtime {
#define PORTA_CL_DECLARE(name) decltype(&::name) name = nullptr;
  PORTA_CL_FUNCTIONS(PORTA_CL_DECLARE)
#undef PORTA_CL_DECLARE
};

// The loaded runtime. load_runtime() fills it or throws Failure(UNAVAILABLE).
const Runtime& cl();
void load_runtime();

// "CL_INVALID_WORK_GROUP_SIZE" for -54; "unknown OpenCL error" otherwise.
const char* error_name(cl_int code);
porta_status error_status(cl_int code);

// Throws Failure when `code` is not CL_SUCCESS:
// "opencl: <where>: <call> failed: <CL_NAME> (<code>)".
void check(cl_int code, const std::string& where, const char* call);

}  // namespace porta::opencl
