// porta-bench's CUDA floor: the dispatch overhead of the CUDA driver API
// itself on the GPU porta measured, called directly, for porta's round trip
// and replay figures to be set beside. libcuda.so.1 is opened with dlopen
// (cuda.h gives types only), and the kernels are PTX text the driver compiles,
// so the peer needs no nvcc and loads where there is no driver.
//   round_trip         cuMemcpyHtoDAsync (dims[0] bytes from pageable host memory),
//                      cuLaunchKernel (one block adding 1 to each float),
//                      cuMemcpyDtoHAsync, cuStreamSynchronize
//   round_trip_pinned  the same from and to cuMemHostAlloc memory
//   replay             a CUDA graph of dims[0] empty kernels captured once:
//                      cuGraphLaunch, cuStreamSynchronize
#include <cuda.h>
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
#define FLOOR_CUDA_FUNCTIONS(X) \
  X(cuInit) \
  X(cuGetErrorName) \
  X(cuDeviceGetCount) \
  X(cuDeviceGet) \
  X(cuDeviceGetName) \
  X(cuDevicePrimaryCtxRetain) \
  X(cuDevicePrimaryCtxRelease) \
  X(cuCtxSetCurrent) \
  X(cuCtxGetCurrent) \
  X(cuMemAlloc) \
  X(cuMemFree) \
  X(cuMemHostAlloc) \
  X(cuMemFreeHost) \
  X(cuMemcpyHtoDAsync) \
  X(cuMemcpyDtoHAsync) \
  X(cuModuleLoadData) \
  X(cuModuleUnload) \
  X(cuModuleGetFunction) \
  X(cuLaunchKernel) \
  X(cuStreamCreate) \
  X(cuStreamDestroy) \
  X(cuStreamSynchronize) \
  X(cuStreamBeginCapture) \
  X(cuStreamEndCapture) \
  X(cuGraphInstantiate) \
  X(cuGraphLaunch) \
  X(cuGraphExecDestroy) \
  X(cuGraphDestroy)
// clang-format on

// Two steps, so the name is macro-expanded first: the symbol looked up is the
// one cuda.h maps the name to (cuMemAlloc: "cuMemAlloc_v2").
#define FLOOR_STR2(x) #x
#define FLOOR_STR(x) FLOOR_STR2(x)

struct Api {
#define FLOOR_DECLARE(fn) decltype(&::fn) fn = nullptr;
  FLOOR_CUDA_FUNCTIONS(FLOOR_DECLARE)
#undef FLOOR_DECLARE
};

Api g_cu;
void* g_library = nullptr;
CUdevice g_device = 0;
CUcontext g_context = nullptr;
CUstream g_stream = nullptr;
CUmodule g_module = nullptr;
CUfunction g_empty = nullptr, g_add_one = nullptr;

// empty(): nothing; add_one(float* p): p[blockIdx.x * blockDim.x + threadIdx.x] += 1.
const char* kPtx = R"(.version 7.0
.target sm_50
.address_size 64

.visible .entry empty(.param .u64 data)
{
  ret;
}

.visible .entry add_one(.param .u64 data)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<5>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [data];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd4], %f2;
  ret;
}
)";

// The floor's context is current only while it works: porta's CUDA backend,
// in the same process, finds the thread's context as it left it.
struct CurrentContext {
  CUcontext previous = nullptr;
  CurrentContext() {
    if (g_cu.cuCtxGetCurrent(&previous) != CUDA_SUCCESS) previous = nullptr;
  }
  ~CurrentContext() { g_cu.cuCtxSetCurrent(previous); }
};

void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (g_cu.cuGetErrorName) g_cu.cuGetErrorName(r, &name);
  throw Failure{std::string(call) + " failed: " + (name ? name : std::to_string(int(r)))};
}
#define CHECK(x) check((x), #x)

void load() {
  if (g_library) return;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw Failure{std::string("no CUDA driver: ") + dlerror()};
  Api api;
#define FLOOR_LOAD(fn)                                                    \
  api.fn = reinterpret_cast<decltype(api.fn)>(dlsym(lib, FLOOR_STR(fn))); \
  if (!api.fn) {                                                          \
    dlclose(lib);                                                         \
    throw Failure{"libcuda.so.1 lacks " FLOOR_STR(fn)};                   \
  }
  FLOOR_CUDA_FUNCTIONS(FLOOR_LOAD)
#undef FLOOR_LOAD
  g_cu = api;
  g_library = lib;
  CHECK(g_cu.cuInit(0));
}

void release() {
  if (!g_context) return;
  {
    CurrentContext restore;
    g_cu.cuCtxSetCurrent(g_context);
    if (g_module) g_cu.cuModuleUnload(g_module);
    if (g_stream) g_cu.cuStreamDestroy(g_stream);
  }
  g_cu.cuDevicePrimaryCtxRelease(g_device);
  g_module = nullptr;
  g_stream = nullptr;
  g_context = nullptr;
}

int peer_open(const char* hint, char* name_out, size_t name_capacity, char* error, size_t error_capacity) {
  return answering(error, error_capacity, [&] {
    load();
    release();
    int count = 0;
    CHECK(g_cu.cuDeviceGetCount(&count));
    std::string seen, found;
    for (int i = 0; i < count && found.empty(); ++i) {
      CUdevice device = 0;
      char name[256] = {};
      CHECK(g_cu.cuDeviceGet(&device, i));
      CHECK(g_cu.cuDeviceGetName(name, sizeof name - 1, device));
      seen += (seen.empty() ? "" : ", ") + std::string(name);
      if (!hint || !*hint || std::strstr(hint, name) || std::strstr(name, hint)) {
        g_device = device;
        found = name;
      }
    }
    if (found.empty())
      throw Failure{std::string("no CUDA device is named like '") + (hint ? hint : "") + "' (found: " + seen +
                    ")"};
    CHECK(g_cu.cuDevicePrimaryCtxRetain(&g_context, g_device));
    CurrentContext restore;
    CHECK(g_cu.cuCtxSetCurrent(g_context));
    CHECK(g_cu.cuStreamCreate(&g_stream, CU_STREAM_NON_BLOCKING));
    CHECK(g_cu.cuModuleLoadData(&g_module, kPtx));
    CHECK(g_cu.cuModuleGetFunction(&g_empty, g_module, "empty"));
    CHECK(g_cu.cuModuleGetFunction(&g_add_one, g_module, "add_one"));
    copy_text(name_out, name_capacity, found);
    return 0;
  });
}

struct DeviceMemory {
  CUdeviceptr p = 0;
  explicit DeviceMemory(size_t bytes) { CHECK(g_cu.cuMemAlloc(&p, bytes)); }
  ~DeviceMemory() { g_cu.cuMemFree(p); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
};

struct PinnedMemory {
  void* p = nullptr;
  explicit PinnedMemory(size_t bytes) { CHECK(g_cu.cuMemHostAlloc(&p, bytes, 0)); }
  ~PinnedMemory() { g_cu.cuMemFreeHost(p); }
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;
};

void round_trip(uint64_t bytes, bool pinned, uint32_t warmup, uint32_t runs, double* samples) {
  const unsigned floats = unsigned(bytes / sizeof(float)), block = floats < 64 ? floats : 64;
  if (floats == 0 || floats % block) throw Failure{"round_trip takes a multiple of 64 floats or fewer"};
  DeviceMemory data(bytes);
  std::vector<float> pageable(2 * size_t(floats));
  PinnedMemory host(2 * bytes);
  float* in = pinned ? static_cast<float*>(host.p) : pageable.data();
  float* out = in + floats;
  void* params[] = {&data.p};
  float next = 0;
  time_host_clock(warmup, runs, samples, [&] {
    for (unsigned i = 0; i < floats; ++i) in[i] = next;
    CHECK(g_cu.cuMemcpyHtoDAsync(data.p, in, bytes, g_stream));
    CHECK(g_cu.cuLaunchKernel(g_add_one, floats / block, 1, 1, block, 1, 1, 0, g_stream, params, nullptr));
    CHECK(g_cu.cuMemcpyDtoHAsync(out, data.p, bytes, g_stream));
    CHECK(g_cu.cuStreamSynchronize(g_stream));
    next = next < 1e6f ? next + 1 : 0;
  });
  if (out[0] != in[0] + 1 || out[floats - 1] != in[0] + 1)
    throw Failure{"the round trip read back a wrong answer"};
}

void replay(uint64_t launches, uint32_t warmup, uint32_t runs, double* samples) {
  DeviceMemory data(256);
  void* params[] = {&data.p};
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  CHECK(g_cu.cuStreamBeginCapture(g_stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  for (uint64_t i = 0; i < launches; ++i)
    CHECK(g_cu.cuLaunchKernel(g_empty, 1, 1, 1, 64, 1, 1, 0, g_stream, params, nullptr));
  CHECK(g_cu.cuStreamEndCapture(g_stream, &graph));
  try {
    CHECK(g_cu.cuGraphInstantiate(&exec, graph, 0));
    time_host_clock(warmup, runs, samples, [&] {
      CHECK(g_cu.cuGraphLaunch(exec, g_stream));
      CHECK(g_cu.cuStreamSynchronize(g_stream));
    });
  } catch (...) {
    if (exec) g_cu.cuGraphExecDestroy(exec);
    g_cu.cuGraphDestroy(graph);
    throw;
  }
  g_cu.cuGraphExecDestroy(exec);
  g_cu.cuGraphDestroy(graph);
}

int peer_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
              char* library, size_t library_capacity, char* error, size_t error_capacity) {
  const std::string name = op;
  return answering(error, error_capacity, [&] {
    if (!g_context) throw Failure{"the peer is not open"};
    CurrentContext restore;
    CHECK(g_cu.cuCtxSetCurrent(g_context));
    if (name == "round_trip" || name == "round_trip_pinned") {
      const bool pinned = name == "round_trip_pinned";
      copy_text(library, library_capacity,
                pinned ? "CUDA driver HtoD/launch/DtoH/cuStreamSynchronize, pinned host memory"
                       : "CUDA driver HtoD/launch/DtoH/cuStreamSynchronize, pageable host memory");
      round_trip(dims[0], pinned, warmup, runs, samples);
    } else if (name == "replay") {
      copy_text(library, library_capacity, "CUDA driver graph of empty launches: cuGraphLaunch + sync");
      replay(dims[0], warmup, runs, samples);
    } else {
      return PORTA_BENCH_PEER_UNSUPPORTED;
    }
    return 0;
  });
}

void peer_close() { release(); }

const porta_bench_peer kPeer = {PORTA_BENCH_PEER_VERSION, "cuda-floor", peer_open, peer_time, peer_close};

}  // namespace

PORTA_BENCH_PEER_EXPORT(kPeer)
