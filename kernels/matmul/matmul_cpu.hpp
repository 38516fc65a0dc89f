// The GEMM of matmul_cpu.comp: C = alpha op(A) op(B) + beta C for one float32
// matrix without bias or activation, on CPU-type devices whose barriers
// switch work-items as fibers (porta's CPU backend). There matmul.comp's
// shared-memory blocking costs a fiber switch per item and barrier, and its
// vec4 arithmetic stays in 128-bit vectors; matmul_cpu.comp packs op(A) and
// op(B) into panels and multiplies them in register blocks the host compiler
// vectorises at its full width, without a barrier.
#pragma once

#include <cstdint>

#include "common/launch.hpp"
#include "common/tensor_view.hpp"

namespace porta::ops {

struct CpuGemm {
  const View& a;
  const View& b;
  const View& c;
  uint64_t m, n, k;
  uint32_t lda, ldb, ldc;
  bool trans_a, trans_b;
  float alpha, beta;
};

// Whether the device and this GEMM suit matmul_cpu.comp: a CPU-type device
// with fiber barriers, the built-in kernels' defaults compiled in and the
// kernel's shared memory, float32 inputs, K > 0, and every operand bound
// whole with 32-bit indices (the packed panels too).
bool cpu_gemm_suits(const porta_device_info& info, const CpuGemm& g);

// Queues the packing of op(A) and op(B) into a workspace and the multiply.
void queue_cpu_gemm(const OpCall& call, const CpuGemm& g);

}  // namespace porta::ops
