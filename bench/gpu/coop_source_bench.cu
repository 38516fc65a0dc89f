// A translated matmul_coop.comp on the GPU without porta: the CUDA source that
// porta-translate writes (--target cuda --tensor-cores [--tf32], the host's
// spec constants) compiled by NVRTC as the CUDA backend compiles it, launched
// on a row-major M x K by K x N product and timed against cuBLAS (cublasGemmEx)
// in the same process (medians of five alternating rounds); 256 elements of C
// checked against a float64 product.
// For reading what a change to the lowering or the runtime header does to the
// GEMM's speed, one source against another, on the GPU machine (nvcc there):
//
//   nvcc -O2 -arch=sm_90 -o coop_source_bench bench/gpu/coop_source_bench.cu -lnvrtc -lcuda -lcublas
//   ./coop_source_bench translator/runtime M N K FILE.cu:BM:BN:THREADS:TYPE[:DYNAMIC_SHARED]...
//
// TYPE: f16 (matmul_coop_f16, INPUT 1), tf32 (matmul_coop_f32, INPUT 0) or
// bf16 (matmul_coop_f32, INPUT 2); or f32, matmul.comp (float32, INPUT 0,
// against cuBLAS SGEMM; bench/gpu/matmul_sources.sh writes it); BM x BN the
// block, THREADS the group's items, as THREADS or LXxLY (matmul.comp's
// groups are two-dimensional). MISALIGN=1 binds A 8 bytes past a 16-byte boundary (a copy of it).
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x)                                                              \
  do {                                                                     \
    auto r_ = (x);                                                         \
    if (r_ != 0) {                                                         \
      fprintf(stderr, "%s:%d %s = %d\n", __FILE__, __LINE__, #x, int(r_)); \
      exit(1);                                                             \
    }                                                                      \
  } while (0)
static std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
struct Params {
  unsigned M, N, K, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
  float alpha, beta;
  unsigned a_batch, b_batch, c_batch, row_groups, bias_offset;
};
struct Sizes {
  unsigned long long bytes[4];
};
int main(int argc, char** argv) {
  std::string rt = argv[1];
  unsigned M = atoi(argv[2]), N = atoi(argv[3]), K = atoi(argv[4]);
  cudaFree(0);
  std::vector<float> ha(size_t(M) * K), hb(size_t(K) * N);
  srand(1);
  for (auto& v : ha) v = (rand() % 2001 - 1000) / 1000.f;
  for (auto& v : hb) v = (rand() % 2001 - 1000) / 1000.f;
  std::vector<__half> ha16(ha.size()), hb16(hb.size());
  std::vector<__nv_bfloat16> hab(ha.size()), hbb(hb.size());
  for (size_t i = 0; i < ha.size(); ++i) {
    ha16[i] = __float2half(ha[i]);
    hab[i] = __float2bfloat16(ha[i]);
    ha[i] = __half2float(ha16[i]);
  }
  for (size_t i = 0; i < hb.size(); ++i) {
    hb16[i] = __float2half(hb[i]);
    hbb[i] = __float2bfloat16(hb[i]);
    hb[i] = __half2float(hb16[i]);
  }
  void *a16, *b16, *a32, *b32, *abf, *bbf, *c;
  CK(cudaMalloc(&a16, ha.size() * 2));
  CK(cudaMalloc(&b16, hb.size() * 2));
  CK(cudaMalloc(&abf, ha.size() * 2));
  CK(cudaMalloc(&bbf, hb.size() * 2));
  CK(cudaMalloc(&a32, ha.size() * 4));
  CK(cudaMalloc(&b32, hb.size() * 4));
  CK(cudaMalloc(&c, size_t(M) * N * 4));
  cudaMemcpy(a16, ha16.data(), ha.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(b16, hb16.data(), hb.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(abf, hab.data(), ha.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(bbf, hbb.data(), hb.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(a32, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b32, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const double flop = 2.0 * M * N * K;
  const int reps = 20;
  auto time_it = [&](auto launch) {
    for (int i = 0; i < 3; ++i) launch();
    CK(cudaDeviceSynchronize());
    cudaEventRecord(e0);
    for (int i = 0; i < reps; ++i) launch();
    cudaEventRecord(e1);
    CK(cudaEventSynchronize(e1));
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    return flop * reps / (ms * 1e-3) / 1e12;
  };
  cublasHandle_t h;
  cublasCreate(&h);
  float one = 1, zero = 0;
  // C (row-major M x N) = A B  <=>  C^T = B^T A^T column-major.
  auto cublas = [&](cudaDataType t, void* A, void* B, cublasComputeType_t ct) {
    return time_it([&] {
      CK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, t, N, A, t, K, &zero, c, CUDA_R_32F, N,
                      ct, CUBLAS_GEMM_DEFAULT));
    });
  };
  double cb16 = cublas(CUDA_R_16F, a16, b16, CUBLAS_COMPUTE_32F);
  double cbbf = cublas(CUDA_R_16BF, abf, bbf, CUBLAS_COMPUTE_32F);
  double cbtf = cublas(CUDA_R_32F, a32, b32, CUBLAS_COMPUTE_32F_FAST_TF32);
  double cb32 = cublas(CUDA_R_32F, a32, b32, CUBLAS_COMPUTE_32F);
  printf("cuBLAS %ux%ux%u: f16 %.1f  bf16 %.1f  tf32 %.1f  fp32 %.1f TFLOP/s\n", M, N, K, cb16, cbbf, cbtf, cb32);
  std::string h1 = slurp(rt + "/porta_cuda.h"), h2 = slurp(rt + "/porta_glsl.hpp");
  for (int i = 5; i < argc; ++i) {
    char file[512], type[16];
    char group[32];
    unsigned bm, bn, lx, ly = 1, smem = 0;
    std::string spec = argv[i];
    for (auto& ch : spec)
      if (ch == ':') ch = ' ';
    if (sscanf(spec.c_str(), "%511s %u %u %31s %15s %u", file, &bm, &bn, group, type, &smem) < 5 ||
        sscanf(group, "%ux%u", &lx, &ly) < 1) {
      fprintf(stderr, "bad %s\n", argv[i]);
      return 2;
    }
    std::string src = slurp(file);
    const char* hs[] = {h1.c_str(), h2.c_str()};
    const char* hn[] = {"porta_cuda.h", "porta_glsl.hpp"};
    nvrtcProgram p;
    CK(nvrtcCreateProgram(&p, src.c_str(), "k.cu", 2, hs, hn));
    const char* opts[] = {"--gpu-architecture=sm_90", "-std=c++17", "-default-device"};
    nvrtcResult r = nvrtcCompileProgram(p, 3, opts);
    size_t n;
    nvrtcGetProgramLogSize(p, &n);
    std::string log(n, 0);
    nvrtcGetProgramLog(p, log.data());
    if (r != NVRTC_SUCCESS) {
      fprintf(stderr, "%s: %s\n", file, log.c_str());
      continue;
    }
    nvrtcGetCUBINSize(p, &n);
    std::string bin(n, 0);
    nvrtcGetCUBIN(p, bin.data());
    CUmodule mod;
    CK(cuModuleLoadData(&mod, bin.data()));
    // The entry the CUDA backend launches on aligned buffers where the source
    // has one (kernels with wide accesses), else the only one.
    CUfunction f;
    if (cuModuleGetFunction(&f, mod, "porta_cuda_kernel_aligned") != CUDA_SUCCESS || getenv("TESTED_ENTRY"))
      CK(cuModuleGetFunction(&f, mod, "porta_cuda_kernel"));
    int regs, shared_static;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    cuFuncGetAttribute(&shared_static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
    if (smem) CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
    int blocks = 0;
    cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, lx * ly, smem);
    std::string t = type;
    void* A = t == "f16" ? a16 : t == "bf16" ? abf : a32;
    void* B = t == "f16" ? b16 : t == "bf16" ? bbf : b32;
    unsigned esz = t == "tf32" || t == "f32" ? 4 : 2;
    if (getenv("MISALIGN")) {  // A's copy 8 bytes past a 16-byte boundary
      static void* mis = nullptr;
      if (!mis) CK(cudaMalloc(&mis, ha.size() * 4 + 16));
      CK(cudaMemcpy((char*)mis + 8, A, size_t(M) * K * esz, cudaMemcpyDeviceToDevice));
      A = (char*)mis + 8;
    }
    Params pc{M, N, K, K, N, N, 0, 0, 0, 0, 0, 1.f, 0.f, 0, 0, 0, (M + bm - 1) / bm, 0};
    Sizes sz{{size_t(M) * K * esz, size_t(K) * N * esz, size_t(M) * N * 4, size_t(M) * K * esz}};
    void* args[] = {&A, &B, &c, &A, &pc, &sz};
    cudaMemset(c, 0, size_t(M) * N * 4);
    // Five rounds of the source and its cuBLAS peer side by side; the
    // medians of each (clocks drift between one timing and the next).
    std::vector<double> ours, peer;
    for (int round = 0; round < 5; ++round) {
      ours.push_back(time_it([&] {
        CK(cuLaunchKernel(f, (N + bn - 1) / bn, (M + bm - 1) / bm, 1, lx, ly, 1, smem, 0, args, nullptr));
      }));
      peer.push_back(t == "f16"    ? cublas(CUDA_R_16F, a16, b16, CUBLAS_COMPUTE_32F)
                     : t == "bf16" ? cublas(CUDA_R_16BF, abf, bbf, CUBLAS_COMPUTE_32F)
                     : t == "f32"  ? cublas(CUDA_R_32F, a32, b32, CUBLAS_COMPUTE_32F)
                                   : cublas(CUDA_R_32F, a32, b32, CUBLAS_COMPUTE_32F_FAST_TF32));
    }
    // The source's own C, for the check below (the peer wrote C last).
    cudaMemset(c, 0, size_t(M) * N * 4);
    CK(cuLaunchKernel(f, (N + bn - 1) / bn, (M + bm - 1) / bm, 1, lx, ly, 1, smem, 0, args, nullptr));
    CK(cudaDeviceSynchronize());
    std::sort(ours.begin(), ours.end());
    std::sort(peer.begin(), peer.end());
    const double tf = ours[2], base = peer[2];
    std::vector<float> hc(size_t(M) * N);
    cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost);
    double maxerr = 0;
    for (int s = 0; s < 256; ++s) {
      unsigned i = (s * 7919u) % M, j = (s * 104729u) % N;
      double ref = 0;
      for (unsigned k = 0; k < K; ++k) ref += double(ha[size_t(i) * K + k]) * hb[size_t(k) * N + j];
      maxerr = std::fmax(maxerr, std::fabs(ref - hc[size_t(i) * N + j]));
    }
    printf("%-40s %-4s regs %3d smem %6d+%6d blocks/SM %d: %7.1f TFLOP/s = %.3f cuBLAS  maxerr %.3g\n", file,
           type, regs, shared_static, smem, blocks, tf, tf / base, maxerr);
  }
  return 0;
}
