// matmul_cpu.comp's launcher (matmul_cpu.hpp).
#include "matmul_cpu.hpp"

#include <algorithm>

namespace porta::ops {

namespace {

// matmul_cpu.comp's constants (keep in step with it): its default MR and NR,
// which the CPU backend compiles in, PANELS, PACK_DEPTH, and its shared
// memory (KC x NR floats).
constexpr uint64_t kRows = 8, kColumns = 32, kPanels = 16, kPackDepth = 64;
constexpr uint32_t kSharedBytes = 256 * 32 * 4;

uint64_t row_panels(const CpuGemm& g) { return (g.m + kRows - 1) / kRows; }
uint64_t column_panels(const CpuGemm& g) { return (g.n + kColumns - 1) / kColumns; }

// op(A) packed (MR rows per panel, every depth), then op(B) (NR columns per
// panel).
uint64_t packed_a(const CpuGemm& g) { return row_panels(g) * kRows * g.k; }
uint64_t packed_elements(const CpuGemm& g) { return packed_a(g) + column_panels(g) * kColumns * g.k; }

}  // namespace

bool cpu_gemm_suits(const porta_device_info& info, const CpuGemm& g) {
  if (!cpu_like(info) || !fiber_barriers(info) || !precompiled_defaults(info) ||
      info.limits.max_shared_memory_bytes < kSharedBytes)
    return false;
  if (g.a.dtype != PORTA_DTYPE_FLOAT32 || g.k == 0) return false;
  for (const View* v : {&g.a, &g.b, &g.c})
    if (v->buffer_bytes > info.max_binding_bytes) return false;
  return packed_elements(g) <= kMaxElements && packed_elements(g) * 4 <= info.max_binding_bytes;
}

void queue_cpu_gemm(const OpCall& call, const CpuGemm& g) {
  const porta::Buffer packed = scratch_buffer(call, packed_elements(g) * sizeof(float));
  const KernelHandle kernel = builtin_kernel(call, "matmul_cpu", {});
  // matmul_cpu.comp's push constants.
  struct {
    uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
    float alpha, beta;
    uint32_t mode, row_panels, packed_b;
  } push{};
  push.m = static_cast<uint32_t>(g.m);
  push.n = static_cast<uint32_t>(g.n);
  push.k = static_cast<uint32_t>(g.k);
  push.lda = g.lda;
  push.ldb = g.ldb;
  push.ldc = g.ldc;
  push.a_offset = static_cast<uint32_t>(g.a.offset);
  push.b_offset = static_cast<uint32_t>(g.b.offset);
  push.c_offset = static_cast<uint32_t>(g.c.offset);
  push.trans_a = g.trans_a ? 1u : 0u;
  push.trans_b = g.trans_b ? 1u : 0u;
  push.alpha = g.alpha;
  push.beta = g.beta;
  push.row_panels = static_cast<uint32_t>(row_panels(g));
  push.packed_b = static_cast<uint32_t>(packed_a(g));
  const std::initializer_list<porta_buffer> buffers = {g.a.buffer, g.b.buffer, g.c.buffer, packed.handle()};
  // Mode 0 packs op(A), 1 op(B), 2 multiplies.
  const auto depth_groups = static_cast<uint32_t>((g.k + kPackDepth - 1) / kPackDepth);
  dispatch(call, kernel, depth_groups, static_cast<uint32_t>(row_panels(g)), buffers, push);
  push.mode = 1;
  dispatch(call, kernel, depth_groups, static_cast<uint32_t>(column_panels(g)), buffers, push);
  push.mode = 2;
  dispatch(call, kernel, static_cast<uint32_t>((row_panels(g) + kPanels - 1) / kPanels),
           static_cast<uint32_t>(column_panels(g)), buffers, push);
}

}  // namespace porta::ops
