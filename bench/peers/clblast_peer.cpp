// porta-bench's OpenCL peer: CLBlast SGEMM on the OpenCL device porta-bench
// names, timed with the host clock around clFinish (CLBlast may queue helper
// kernels besides the one whose event it returns).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>

#include <cstring>
#include <string>
#include <vector>

#include "peer.h"
#include "peer_support.hpp"

namespace {

using Failure = porta::bench::PeerFailure;
using porta::bench::answering;
using porta::bench::copy_text;

void check(cl_int status, const char* call) {
  if (status != CL_SUCCESS)
    throw Failure{std::string(call) + " failed with OpenCL status " + std::to_string(status)};
}
#define CHECK(x) check((x), #x)

cl_context g_context = nullptr;
cl_command_queue g_queue = nullptr;
cl_device_id g_device = nullptr;

std::string device_name(cl_device_id device) {
  char name[512] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
  return name;
}

struct ClBuffer {
  cl_mem mem = nullptr;
  explicit ClBuffer(size_t floats, float scale) {
    std::vector<float> host(floats);
    for (size_t i = 0; i < floats; ++i) host[i] = scale * (float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f);
    cl_int status = CL_SUCCESS;
    mem = clCreateBuffer(g_context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, floats * sizeof(float),
                         host.data(), &status);
    check(status, "clCreateBuffer");
  }
  ~ClBuffer() { clReleaseMemObject(mem); }
  ClBuffer(const ClBuffer&) = delete;
  ClBuffer& operator=(const ClBuffer&) = delete;
};

int peer_open(const char* hint, char* name_out, size_t name_capacity, char* error, size_t error_capacity) {
  return answering(error, error_capacity, [&] {
    cl_uint platform_count = 0;
    CHECK(clGetPlatformIDs(0, nullptr, &platform_count));
    std::vector<cl_platform_id> platforms(platform_count);
    CHECK(clGetPlatformIDs(platform_count, platforms.data(), nullptr));
    std::string seen;
    for (cl_platform_id platform : platforms) {
      cl_uint count = 0;
      if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
      std::vector<cl_device_id> devices(count);
      CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr));
      for (cl_device_id device : devices) {
        const std::string name = device_name(device);
        seen += (seen.empty() ? "" : ", ") + name;
        if (!g_device &&
            (!hint || !*hint || name.find(hint) != std::string::npos || std::strstr(hint, name.c_str())))
          g_device = device;
      }
    }
    if (!g_device)
      throw Failure{std::string("no OpenCL device is named like '") + hint + "' (found: " + seen + ")"};
    cl_int status = CL_SUCCESS;
    g_context = clCreateContext(nullptr, 1, &g_device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    g_queue = clCreateCommandQueue(g_context, g_device, 0, &status);
    check(status, "clCreateCommandQueue");
    copy_text(name_out, name_capacity, device_name(g_device));
    return 0;
  });
}

template <class Body>
void time_wall(uint32_t warmup, uint32_t runs, double* samples, Body body) {
  for (uint32_t i = 0; i < warmup; ++i) body();
  CHECK(clFinish(g_queue));
  porta::bench::time_host_clock(0, runs, samples, [&] {
    body();
    CHECK(clFinish(g_queue));
  });
}

int peer_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
              char* library, size_t library_capacity, char* error, size_t error_capacity) {
  return answering(error, error_capacity, [&] {
    const std::string name = op;
    if (name == "matmul") {
      const size_t m = dims[0], n = dims[1], k = dims[2];
      ClBuffer a(m * k, 1.0f), b(k * n, 1.0f), c(m * n, 0.0f);
      copy_text(library, library_capacity, "CLBlast SGEMM");
      time_wall(warmup, runs, samples, [&] {
        CLBlastStatusCode s =
            CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, 1.0f, a.mem,
                         0, k, b.mem, 0, n, 0.0f, c.mem, 0, n, &g_queue, nullptr);
        if (s != CLBlastSuccess) throw Failure{"CLBlastSgemm failed with status " + std::to_string(int(s))};
      });
    } else if (name == "copy") {
      const size_t bytes = dims[0];
      ClBuffer src(bytes / 4, 1.0f), dst(bytes / 4, 0.0f);
      copy_text(library, library_capacity, "clEnqueueCopyBuffer");
      time_wall(warmup, runs, samples, [&] {
        CHECK(clEnqueueCopyBuffer(g_queue, src.mem, dst.mem, 0, 0, bytes, 0, nullptr, nullptr));
      });
    } else {
      return PORTA_BENCH_PEER_UNSUPPORTED;
    }
    return 0;
  });
}

void peer_close() {
  if (g_queue) clReleaseCommandQueue(g_queue);
  if (g_context) clReleaseContext(g_context);
  g_queue = nullptr;
  g_context = nullptr;
  g_device = nullptr;
}

const porta_bench_peer kPeer = {PORTA_BENCH_PEER_VERSION, "clblast", peer_open, peer_time, peer_close};

}  // namespace

PORTA_BENCH_PEER_EXPORT(kPeer)
