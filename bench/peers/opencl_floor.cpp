// porta-bench's OpenCL floor: the dispatch overhead of OpenCL itself on the
// device porta measured, called directly, for porta's round trip and replay
// figures to be set beside. The ICD loader is opened with dlopen, so the peer
// builds from the headers alone and loads where OpenCL is missing.
//   round_trip         clEnqueueWriteBuffer (dims[0] bytes, pageable host memory),
//                      clEnqueueNDRangeKernel (one group adding 1 to each float),
//                      clEnqueueReadBuffer, clFinish
//   round_trip_pinned  the same from and to host memory of a CL_MEM_ALLOC_HOST_PTR buffer, mapped once
//   replay             dims[0] clEnqueueNDRangeKernel of an empty kernel, then clFinish
//   replay_command_buffer  the same dispatches recorded once into a cl_khr_command_buffer:
//                      clEnqueueCommandBufferKHR, then clFinish
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

#include "peer.h"
#include "peer_support.hpp"

namespace {

using Failure = porta::bench::PeerFailure;
using porta::bench::answering;
using porta::bench::copy_text;
using porta::bench::time_host_clock;

// clang-format off
#define FLOOR_CL_FUNCTIONS(X) \
  X(clGetPlatformIDs) \
  X(clGetPlatformInfo) \
  X(clGetDeviceIDs) \
  X(clGetDeviceInfo) \
  X(clCreateContext) \
  X(clReleaseContext) \
  X(clCreateCommandQueue) \
  X(clReleaseCommandQueue) \
  X(clCreateBuffer) \
  X(clReleaseMemObject) \
  X(clCreateProgramWithSource) \
  X(clBuildProgram) \
  X(clReleaseProgram) \
  X(clCreateKernel) \
  X(clReleaseKernel) \
  X(clSetKernelArg) \
  X(clEnqueueNDRangeKernel) \
  X(clEnqueueWriteBuffer) \
  X(clEnqueueReadBuffer) \
  X(clEnqueueMapBuffer) \
  X(clEnqueueUnmapMemObject) \
  X(clFinish) \
  X(clGetExtensionFunctionAddressForPlatform)
// clang-format on

struct Api {
#define FLOOR_DECLARE(name) decltype(&::name) name = nullptr;
  FLOOR_CL_FUNCTIONS(FLOOR_DECLARE)
#undef FLOOR_DECLARE
};

Api g_cl;
void* g_library = nullptr;
cl_platform_id g_platform = nullptr;
cl_device_id g_device = nullptr;
cl_context g_context = nullptr;
cl_command_queue g_queue = nullptr;
cl_program g_program = nullptr;
cl_kernel g_empty = nullptr, g_add_one = nullptr;
std::string g_extensions;

const char* kSource =
    "__kernel void empty(__global float* data) {}\n"
    "__kernel void add_one(__global float* data) { data[get_global_id(0)] += 1.0f; }\n";

void check(cl_int status, const char* call) {
  if (status != CL_SUCCESS)
    throw Failure{std::string(call) + " failed with OpenCL status " + std::to_string(status)};
}
#define CHECK(x) check((x), #x)

void load() {
  if (g_library) return;
  void* lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw Failure{std::string("no OpenCL ICD loader: ") + dlerror()};
  Api api;
#define FLOOR_LOAD(name)                                              \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, #name)); \
  if (!api.name) {                                                    \
    dlclose(lib);                                                     \
    throw Failure{"libOpenCL.so.1 lacks " #name};                     \
  }
  FLOOR_CL_FUNCTIONS(FLOOR_LOAD)
#undef FLOOR_LOAD
  g_cl = api;
  g_library = lib;
}

std::string info_text(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  g_cl.clGetDeviceInfo(device, what, 0, nullptr, &size);
  std::string text(size, '\0');
  g_cl.clGetDeviceInfo(device, what, size, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  return text;
}

std::string platform_text(cl_platform_id platform, cl_platform_info what) {
  char text[512] = {};
  g_cl.clGetPlatformInfo(platform, what, sizeof text - 1, text, nullptr);
  return text;
}

// porta names an OpenCL device "NAME (PLATFORM)": that first, else a device
// whose name the hint contains.
void find_device(const std::string& hint) {
  cl_uint count = 0;
  CHECK(g_cl.clGetPlatformIDs(0, nullptr, &count));
  std::vector<cl_platform_id> platforms(count);
  CHECK(g_cl.clGetPlatformIDs(count, platforms.data(), nullptr));
  std::string seen;
  cl_platform_id loose_platform = nullptr;
  cl_device_id loose = nullptr;
  for (cl_platform_id platform : platforms) {
    cl_uint n = 0;
    if (g_cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS) continue;
    std::vector<cl_device_id> devices(n);
    CHECK(g_cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr));
    for (cl_device_id device : devices) {
      const std::string name = info_text(device, CL_DEVICE_NAME);
      const std::string full = name + " (" + platform_text(platform, CL_PLATFORM_NAME) + ")";
      seen += (seen.empty() ? "" : ", ") + full;
      if (hint.empty() || full == hint) {
        g_platform = platform;
        g_device = device;
        return;
      }
      if (!loose && hint.find(name) != std::string::npos) {
        loose_platform = platform;
        loose = device;
      }
    }
  }
  if (!loose) throw Failure{"no OpenCL device is named like '" + hint + "' (found: " + seen + ")"};
  g_platform = loose_platform;
  g_device = loose;
}

void release() {
  if (g_empty) g_cl.clReleaseKernel(g_empty);
  if (g_add_one) g_cl.clReleaseKernel(g_add_one);
  if (g_program) g_cl.clReleaseProgram(g_program);
  if (g_queue) g_cl.clReleaseCommandQueue(g_queue);
  if (g_context) g_cl.clReleaseContext(g_context);
  g_empty = g_add_one = nullptr;
  g_program = nullptr;
  g_queue = nullptr;
  g_context = nullptr;
  g_device = nullptr;
}

int peer_open(const char* hint, char* name_out, size_t name_capacity, char* error, size_t error_capacity) {
  return answering(error, error_capacity, [&] {
    load();
    release();
    find_device(hint ? hint : "");
    cl_int status = CL_SUCCESS;
    g_context = g_cl.clCreateContext(nullptr, 1, &g_device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    g_queue = g_cl.clCreateCommandQueue(g_context, g_device, 0, &status);
    check(status, "clCreateCommandQueue");
    g_program = g_cl.clCreateProgramWithSource(g_context, 1, &kSource, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    CHECK(g_cl.clBuildProgram(g_program, 1, &g_device, "", nullptr, nullptr));
    g_empty = g_cl.clCreateKernel(g_program, "empty", &status);
    check(status, "clCreateKernel(empty)");
    g_add_one = g_cl.clCreateKernel(g_program, "add_one", &status);
    check(status, "clCreateKernel(add_one)");
    g_extensions = " " + info_text(g_device, CL_DEVICE_EXTENSIONS) + " ";
    copy_text(name_out, name_capacity,
              info_text(g_device, CL_DEVICE_NAME) + " (" + platform_text(g_platform, CL_PLATFORM_NAME) + ")");
    return 0;
  });
}

struct Mem {
  cl_mem mem = nullptr;
  Mem(cl_mem_flags flags, size_t bytes) {
    cl_int status = CL_SUCCESS;
    mem = g_cl.clCreateBuffer(g_context, flags, bytes, nullptr, &status);
    check(status, "clCreateBuffer");
  }
  ~Mem() { g_cl.clReleaseMemObject(mem); }
  Mem(const Mem&) = delete;
  Mem& operator=(const Mem&) = delete;
};

void round_trip(uint64_t bytes, bool pinned, uint32_t warmup, uint32_t runs, double* samples) {
  const size_t floats = bytes / sizeof(float), local = floats < 64 ? floats : 64;
  if (floats == 0 || floats % local) throw Failure{"round_trip takes a multiple of 64 floats or fewer"};
  Mem data(CL_MEM_READ_WRITE, bytes);
  std::vector<float> pageable(2 * floats);
  float* in = pageable.data();
  float* out = in + floats;
  Mem host(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 2 * bytes);
  void* mapped = nullptr;
  if (pinned) {
    cl_int status = CL_SUCCESS;
    mapped = g_cl.clEnqueueMapBuffer(g_queue, host.mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 2 * bytes, 0,
                                     nullptr, nullptr, &status);
    check(status, "clEnqueueMapBuffer");
    in = static_cast<float*>(mapped);
    out = in + floats;
  }
  CHECK(g_cl.clSetKernelArg(g_add_one, 0, sizeof(cl_mem), &data.mem));
  float next = 0;
  const size_t global = floats;
  time_host_clock(warmup, runs, samples, [&] {
    for (size_t i = 0; i < floats; ++i) in[i] = next;
    CHECK(g_cl.clEnqueueWriteBuffer(g_queue, data.mem, CL_FALSE, 0, bytes, in, 0, nullptr, nullptr));
    CHECK(g_cl.clEnqueueNDRangeKernel(g_queue, g_add_one, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    CHECK(g_cl.clEnqueueReadBuffer(g_queue, data.mem, CL_FALSE, 0, bytes, out, 0, nullptr, nullptr));
    CHECK(g_cl.clFinish(g_queue));
    next = next < 1e6f ? next + 1 : 0;
  });
  const bool right = out[0] == in[0] + 1 && out[floats - 1] == in[0] + 1;
  if (mapped) {
    CHECK(g_cl.clEnqueueUnmapMemObject(g_queue, host.mem, mapped, 0, nullptr, nullptr));
    CHECK(g_cl.clFinish(g_queue));
  }
  if (!right) throw Failure{"the round trip read back a wrong answer"};
}

void replay(uint64_t dispatches, uint32_t warmup, uint32_t runs, double* samples) {
  Mem data(CL_MEM_READ_WRITE, 256);
  CHECK(g_cl.clSetKernelArg(g_empty, 0, sizeof(cl_mem), &data.mem));
  const size_t global = 64, local = 64;
  time_host_clock(warmup, runs, samples, [&] {
    for (uint64_t i = 0; i < dispatches; ++i)
      CHECK(g_cl.clEnqueueNDRangeKernel(g_queue, g_empty, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    CHECK(g_cl.clFinish(g_queue));
  });
}

template <class Fn>
Fn extension_entry(const char* name) {
  auto fn = reinterpret_cast<Fn>(g_cl.clGetExtensionFunctionAddressForPlatform(g_platform, name));
  if (!fn) throw Failure{std::string("the platform lists cl_khr_command_buffer but has no ") + name};
  return fn;
}

// The dispatches in one command buffer, each after the one before (sync
// points), as an in-order queue runs them.
void replay_command_buffer(uint64_t dispatches, uint32_t warmup, uint32_t runs, double* samples) {
  if (g_extensions.find(" cl_khr_command_buffer ") == std::string::npos)
    throw Failure{"the device does not list cl_khr_command_buffer"};
  auto create = extension_entry<clCreateCommandBufferKHR_fn>("clCreateCommandBufferKHR");
  auto ndrange = extension_entry<clCommandNDRangeKernelKHR_fn>("clCommandNDRangeKernelKHR");
  auto finalize = extension_entry<clFinalizeCommandBufferKHR_fn>("clFinalizeCommandBufferKHR");
  auto enqueue = extension_entry<clEnqueueCommandBufferKHR_fn>("clEnqueueCommandBufferKHR");
  auto release_buffer = extension_entry<clReleaseCommandBufferKHR_fn>("clReleaseCommandBufferKHR");
  Mem data(CL_MEM_READ_WRITE, 256);
  CHECK(g_cl.clSetKernelArg(g_empty, 0, sizeof(cl_mem), &data.mem));
  cl_int status = CL_SUCCESS;
  cl_command_buffer_khr buffer = create(1, &g_queue, nullptr, &status);
  check(status, "clCreateCommandBufferKHR");
  try {
    const size_t global = 64, local = 64;
    cl_sync_point_khr last = 0;
    for (uint64_t i = 0; i < dispatches; ++i) {
      const cl_sync_point_khr after = last;
      CHECK(ndrange(buffer, nullptr, nullptr, g_empty, 1, nullptr, &global, &local, i ? 1 : 0,
                    i ? &after : nullptr, &last, nullptr));
    }
    CHECK(finalize(buffer));
    time_host_clock(warmup, runs, samples, [&] {
      CHECK(enqueue(0, nullptr, buffer, 0, nullptr, nullptr));
      CHECK(g_cl.clFinish(g_queue));
    });
  } catch (...) {
    release_buffer(buffer);
    throw;
  }
  release_buffer(buffer);
}

int peer_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
              char* library, size_t library_capacity, char* error, size_t error_capacity) {
  const std::string name = op;
  return answering(error, error_capacity, [&] {
    if (name == "round_trip" || name == "round_trip_pinned") {
      const bool pinned = name == "round_trip_pinned";
      copy_text(library, library_capacity,
                pinned ? "OpenCL write/NDRange/read/clFinish, pinned host memory"
                       : "OpenCL write/NDRange/read/clFinish, pageable host memory");
      round_trip(dims[0], pinned, warmup, runs, samples);
    } else if (name == "replay") {
      copy_text(library, library_capacity, "OpenCL clEnqueueNDRangeKernel each + clFinish");
      replay(dims[0], warmup, runs, samples);
    } else if (name == "replay_command_buffer") {
      copy_text(library, library_capacity, "OpenCL clEnqueueCommandBufferKHR + clFinish");
      replay_command_buffer(dims[0], warmup, runs, samples);
    } else {
      return PORTA_BENCH_PEER_UNSUPPORTED;
    }
    return 0;
  });
}

void peer_close() { release(); }

const porta_bench_peer kPeer = {PORTA_BENCH_PEER_VERSION, "opencl-floor", peer_open, peer_time, peer_close};

}  // namespace

PORTA_BENCH_PEER_EXPORT(kPeer)
