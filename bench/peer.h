/* The interface between porta-bench and a peer library (cuBLAS and CUDA C++,
 * CLBlast, OpenBLAS): a shared object porta-bench loads with dlopen, so
 * porta-bench itself links none of them and runs where they are missing.
 *
 * A peer exports porta_bench_peer_get(), which returns a table. Every call
 * returns 0 on success, PORTA_BENCH_PEER_UNSUPPORTED for an op it does not
 * time, and anything else on failure with the reason written to `error`. */
#ifndef PORTA_BENCH_PEER_H
#define PORTA_BENCH_PEER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PORTA_BENCH_PEER_VERSION 1
#define PORTA_BENCH_PEER_UNSUPPORTED 1

typedef struct porta_bench_peer {
  uint32_t version; /* PORTA_BENCH_PEER_VERSION */
  const char* name; /* "cuda", "clblast", "openblas" */
  /* Opens the peer on the device whose name contains `device_hint` (an empty
   * hint: the first device; for OpenBLAS the thread count). Writes the device
   * the peer uses to `device_name`. */
  int (*open)(const char* device_hint, char* device_name, size_t name_capacity, char* error, size_t error_capacity);
  /* Times `op` on data of the given dims, `warmup` runs then `runs` timed
   * ones, one sample per run in milliseconds. `library` gets the name of what
   * was timed ("cuBLAS SGEMM", "CUDA C++ kernel"). ops and dims:
   *   "mul", "sigmoid"  dims[0] = elements
   *   "matmul"          dims = M, N, K (row-major C = A B)
   *   "matmul_tf32", "matmul_f16", "matmul_bf16"
   *                     the same in TF32, or with fp16 / bf16 A, B and C (fp32 accumulation)
   *   "logreg_step"     dims = m, d
   *   "copy"            dims[0] = bytes, device to device
   *   "empty"           dims[0] = launches; one sample = launch each, then sync
   *   "empty_graph"     dims[0] = launches recorded once, replayed per sample
   * The floor peers (peers/cuda_floor.cpp, opencl_floor.cpp, vulkan_floor.cpp), each on its own API's devices:
   *   "round_trip"      dims[0] = bytes written, one dispatch adding 1 to each float, the bytes
   *                     read back, a wait; pageable host memory (Vulkan: a host-visible buffer)
   *   "round_trip_pinned"  the same from and to pinned host memory
   *   "replay"          dims[0] = empty dispatches recorded once (CUDA graph, Vulkan command
   *                     buffer) or enqueued one by one (OpenCL); one sample = them, then a wait
   *   "replay_command_buffer"  OpenCL: the same in one cl_khr_command_buffer */
  int (*time)(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples_ms,
              char* library, size_t library_capacity, char* error, size_t error_capacity);
  void (*close)(void);
} porta_bench_peer;

typedef const porta_bench_peer* (*porta_bench_peer_get_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* PORTA_BENCH_PEER_H */
