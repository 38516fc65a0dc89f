/* The contract between CUDA C++ emitted by porta's translator (target cuda)
 * and the CUDA backend, which compiles it with NVRTC.
 *
 * Translated source includes this header, then porta_glsl.hpp; the backend
 * hands both to NVRTC in memory, and compiles with -default-device so that
 * functions without an execution-space annotation are device functions.
 *
 * The kernel: extern "C" __global__ void porta_cuda_kernel(
 * const void* __restrict__ b0, void* b1, ..., <push-constant struct> pc,
 * porta_buffer_sizes<N> porta_sizes) — one pointer per buffer parameter in
 * (set, binding, array element) order (const __restrict__ where no view of
 * the buffer writes it; a written buffer may alias another parameter), then
 * the push constants by value (omitted when the kernel has none), then the
 * buffers' sizes in bytes by value (omitted when the kernel has no buffers).
 * Shared memory is static; the block size is the work-group size.
 *
 * NVRTC (13.0) has no standard headers and lacks a few GCC builtins that
 * porta_glsl.hpp uses on the host; the CUDA equivalents stand in for them.
 */
#ifndef PORTA_CUDA_H
#define PORTA_CUDA_H

#if defined(__CUDACC_RTC__)
/* A null-based offsetof that NVRTC evaluates at compile time (__INTADDR__),
 * so that the std430 static_asserts of translated structs hold on the device
 * compiler too. */
#ifndef offsetof
#define offsetof(type, member) ((unsigned long)__INTADDR__(&(((type*)0)->member)))
#endif
#ifndef __builtin_popcount
#define __builtin_popcount(x) __popc(x)
#endif
#ifndef __builtin_ctz
#define __builtin_ctz(x) (__ffs(x) - 1)
#endif
#ifndef __builtin_clz
#define __builtin_clz(x) __clz(x)
#endif
#endif

/* The sizes in bytes of a kernel's N buffer parameters, passed by value
 * after the push constants: what `.length()` (OpArrayLength) reads. */
template <unsigned N>
struct porta_buffer_sizes {
  unsigned long long bytes[N];
};

#endif /* PORTA_CUDA_H */
