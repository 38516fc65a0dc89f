// porta-bench's CUDA peer: cuBLAS SGEMM for matmul (and cublasGemmEx for
// matmul_tf32, matmul_f16 and matmul_bf16: TF32 tensor cores, and fp16 or bf16
// A, B and C with fp32 accumulation, as PyTorch's torch.mm), plain CUDA C++ kernels
// (one element per thread, the way the CUDA programming guide writes them)
// for the elementwise ops, cuBLAS SGEMV plus small kernels for a
// logistic-regression step, cudaMemcpy for the copy bound and an empty kernel
// (launched, or replayed from a CUDA graph) for dispatch overhead.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
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

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw Failure{std::string(call) + ": " + cudaGetErrorString(status)};
}
void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Failure{std::string(call) + ": cuBLAS status " + std::to_string(status)};
}
#define CHECK(x) check((x), #x)

int g_device = -1;
cudaStream_t g_stream = nullptr;
cublasHandle_t g_blas = nullptr;

__global__ void mul_kernel(const float* a, const float* b, float* out, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] * b[i];
}

__global__ void sigmoid_kernel(const float* x, float* out, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = 1.0f / (1.0f + expf(-x[i]));
}

__global__ void fill_kernel(float* p, size_t n, float scale) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) p[i] = scale * float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f * scale;
}

// The same values as fill_kernel, rounded to T (__half, __nv_bfloat16).
template <class T>
__global__ void fill_typed_kernel(T* p, size_t n, float scale) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) p[i] = T(scale * float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f * scale);
}

__global__ void empty_kernel() {}

// r = sigmoid(z + b) - y; sums of r and of the loss into sums[0], sums[1].
__global__ void residual_kernel(float* z, const float* y, const float* b, float* sums, size_t m) {
  __shared__ float r_sum[256], l_sum[256];
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float r = 0.0f, loss = 0.0f;
  if (i < m) {
    float t = z[i] + b[0];
    float p = 1.0f / (1.0f + expf(-t));
    r = p - y[i];
    loss = fmaxf(t, 0.0f) + log1pf(expf(-fabsf(t))) - y[i] * t;
    z[i] = r;
  }
  r_sum[threadIdx.x] = r;
  l_sum[threadIdx.x] = loss;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) {
      r_sum[threadIdx.x] += r_sum[threadIdx.x + s];
      l_sum[threadIdx.x] += l_sum[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], r_sum[0]);
    atomicAdd(&sums[1], l_sum[0]);
  }
}

__global__ void update_kernel(float* w, const float* g, float* b, const float* sums, size_t d, float inv_m,
                              float lr) {
  size_t j = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (j < d) w[j] -= lr * g[j] * inv_m;
  if (j == 0) b[0] -= lr * sums[0] * inv_m;
}

struct DeviceBuffer {
  float* p = nullptr;
  explicit DeviceBuffer(size_t floats) { CHECK(cudaMalloc(&p, floats * sizeof(float) + 16)); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

unsigned blocks(size_t n, unsigned threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

void fill(const DeviceBuffer& b, size_t n, float scale = 1.0f) {
  fill_kernel<<<blocks(n, 256), 256, 0, g_stream>>>(b.p, n, scale);
  CHECK(cudaGetLastError());
}

// Times `body` with CUDA events, one sample per run.
template <class Body>
void time_events(uint32_t warmup, uint32_t runs, double* samples, Body body) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (uint32_t i = 0; i < warmup; ++i) body();
  CHECK(cudaStreamSynchronize(g_stream));
  for (uint32_t i = 0; i < runs; ++i) {
    CHECK(cudaEventRecord(start, g_stream));
    body();
    CHECK(cudaEventRecord(stop, g_stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    samples[i] = ms;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

// Row-major C = A B through cublasGemmEx in `type` (A, B and C), fp32
// accumulation (`compute`: CUBLAS_COMPUTE_32F, or _FAST_TF32 for TF32).
template <class T>
void time_gemm_ex(const uint64_t dims[3], cudaDataType_t type, cublasComputeType_t compute, uint32_t warmup,
                  uint32_t runs, double* samples) {
  const int m = static_cast<int>(dims[0]), n = static_cast<int>(dims[1]), k = static_cast<int>(dims[2]);
  const size_t words = (size_t(m) * k + size_t(k) * n + size_t(m) * n) * sizeof(T) / sizeof(float) + 3;
  DeviceBuffer storage(words);
  T* a = reinterpret_cast<T*>(storage.p);
  T* b = a + size_t(m) * k;
  T* c = b + size_t(k) * n;
  fill_typed_kernel<<<blocks(size_t(m) * k, 256), 256, 0, g_stream>>>(a, size_t(m) * k, 1.0f);
  fill_typed_kernel<<<blocks(size_t(k) * n, 256), 256, 0, g_stream>>>(b, size_t(k) * n, 1.0f);
  CHECK(cudaGetLastError());
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T.
  time_events(warmup, runs, samples, [&] {
    CHECK(cublasGemmEx(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, type, n, a, type, k, &zero, c,
                       type, n, compute, CUBLAS_GEMM_DEFAULT));
  });
}

int peer_open(const char* hint, char* device_name, size_t name_capacity, char* error, size_t error_capacity) {
  return answering(error, error_capacity, [&] {
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    int chosen = -1;
    cudaDeviceProp prop{};
    for (int i = 0; i < count && chosen < 0; ++i) {
      CHECK(cudaGetDeviceProperties(&prop, i));
      if (!hint || !*hint || std::strstr(prop.name, hint) || std::strstr(hint, prop.name)) chosen = i;
    }
    if (chosen < 0) throw Failure{std::string("no CUDA device is named like '") + hint + "'"};
    CHECK(cudaSetDevice(chosen));
    CHECK(cudaGetDeviceProperties(&prop, chosen));
    CHECK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    CHECK(cublasCreate(&g_blas));
    CHECK(cublasSetStream(g_blas, g_stream));
    // Plain fp32 arithmetic, as porta's matmul does: no TF32 tensor cores.
    CHECK(cublasSetMathMode(g_blas, CUBLAS_DEFAULT_MATH));
    g_device = chosen;
    copy_text(device_name, name_capacity, prop.name);
    return 0;
  });
}

int peer_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
              char* library, size_t library_capacity, char* error, size_t error_capacity) {
  const int status = answering(error, error_capacity, [&] {
    const std::string name = op;
    if (name == "mul") {
      const size_t n = dims[0];
      DeviceBuffer a(n), b(n), out(n);
      fill(a, n);
      fill(b, n);
      copy_text(library, library_capacity, "CUDA C++ kernel");
      time_events(warmup, runs, samples, [&] {
        mul_kernel<<<blocks(n, 256), 256, 0, g_stream>>>(a.p, b.p, out.p, n);
        CHECK(cudaGetLastError());
      });
    } else if (name == "sigmoid") {
      const size_t n = dims[0];
      DeviceBuffer x(n), out(n);
      fill(x, n, 16.0f);
      copy_text(library, library_capacity, "CUDA C++ kernel");
      time_events(warmup, runs, samples, [&] {
        sigmoid_kernel<<<blocks(n, 256), 256, 0, g_stream>>>(x.p, out.p, n);
        CHECK(cudaGetLastError());
      });
    } else if (name == "matmul") {
      const int m = static_cast<int>(dims[0]), n = static_cast<int>(dims[1]), k = static_cast<int>(dims[2]);
      DeviceBuffer a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n);
      fill(a, size_t(m) * k);
      fill(b, size_t(k) * n);
      const float one = 1.0f, zero = 0.0f;
      copy_text(library, library_capacity, "cuBLAS SGEMM");
      // Row-major C = A B is column-major C^T = B^T A^T.
      time_events(warmup, runs, samples, [&] {
        CHECK(cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b.p, n, a.p, k, &zero, c.p, n));
      });
    } else if (name == "matmul_tf32") {
      copy_text(library, library_capacity, "cuBLAS TF32 GEMM");
      time_gemm_ex<float>(dims, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, warmup, runs, samples);
    } else if (name == "matmul_f16") {
      copy_text(library, library_capacity, "cuBLAS HGEMM (fp32 accumulate)");
      time_gemm_ex<__half>(dims, CUDA_R_16F, CUBLAS_COMPUTE_32F, warmup, runs, samples);
    } else if (name == "matmul_bf16") {
      copy_text(library, library_capacity, "cuBLAS BF16 GEMM (fp32 accumulate)");
      time_gemm_ex<__nv_bfloat16>(dims, CUDA_R_16BF, CUBLAS_COMPUTE_32F, warmup, runs, samples);
    } else if (name == "logreg_step") {
      const size_t m = dims[0], d = dims[1];
      DeviceBuffer x(m * d), y(m), w(d), bias(1), z(m), g(d), sums(2);
      fill(x, m * d);
      fill(y, m);
      CHECK(cudaMemsetAsync(w.p, 0, d * sizeof(float), g_stream));
      CHECK(cudaMemsetAsync(bias.p, 0, sizeof(float), g_stream));
      const float one = 1.0f, zero = 0.0f;
      copy_text(library, library_capacity, "cuBLAS SGEMV + CUDA C++");
      // X is m x d row-major: d x m column-major with leading dimension d.
      time_events(warmup, runs, samples, [&] {
        CHECK(cublasSgemv(g_blas, CUBLAS_OP_T, int(d), int(m), &one, x.p, int(d), w.p, 1, &zero, z.p, 1));
        CHECK(cudaMemsetAsync(sums.p, 0, 2 * sizeof(float), g_stream));
        residual_kernel<<<blocks(m, 256), 256, 0, g_stream>>>(z.p, y.p, bias.p, sums.p, m);
        CHECK(cudaGetLastError());
        CHECK(cublasSgemv(g_blas, CUBLAS_OP_N, int(d), int(m), &one, x.p, int(d), z.p, 1, &zero, g.p, 1));
        update_kernel<<<blocks(d, 256), 256, 0, g_stream>>>(w.p, g.p, bias.p, sums.p, d, 1.0f / float(m),
                                                            0.1f);
        CHECK(cudaGetLastError());
      });
    } else if (name == "copy") {
      const size_t bytes = dims[0];
      DeviceBuffer src(bytes / 4), dst(bytes / 4);
      fill(src, bytes / 4);
      copy_text(library, library_capacity, "cudaMemcpyAsync");
      time_events(warmup, runs, samples,
                  [&] { CHECK(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice, g_stream)); });
    } else if (name == "empty") {
      copy_text(library, library_capacity, "CUDA kernel launch + cudaStreamSynchronize");
      time_host_clock(warmup, runs, samples, [&] {
        for (uint64_t i = 0; i < dims[0]; ++i) empty_kernel<<<1, 64, 0, g_stream>>>();
        CHECK(cudaStreamSynchronize(g_stream));
      });
    } else if (name == "empty_graph") {
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      CHECK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeThreadLocal));
      for (uint64_t i = 0; i < dims[0]; ++i) empty_kernel<<<1, 64, 0, g_stream>>>();
      CHECK(cudaStreamEndCapture(g_stream, &graph));
      CHECK(cudaGraphInstantiate(&exec, graph, 0));
      copy_text(library, library_capacity, "CUDA graph replay");
      time_host_clock(warmup, runs, samples, [&] {
        CHECK(cudaGraphLaunch(exec, g_stream));
        CHECK(cudaStreamSynchronize(g_stream));
      });
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
    } else {
      return PORTA_BENCH_PEER_UNSUPPORTED;
    }
    CHECK(cudaStreamSynchronize(g_stream));
    return 0;
  });
  if (status == 2) cudaGetLastError();  // clear a sticky launch error for the next op
  return status;
}

void peer_close() {
  if (g_blas) cublasDestroy(g_blas);
  if (g_stream) cudaStreamDestroy(g_stream);
  g_blas = nullptr;
  g_stream = nullptr;
}

const porta_bench_peer kPeer = {PORTA_BENCH_PEER_VERSION, "cuda", peer_open, peer_time, peer_close};

}  // namespace

PORTA_BENCH_PEER_EXPORT(kPeer)
