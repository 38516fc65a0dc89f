#version 450
// The Workgroup-scope GEMM that `porta-bench --sweep-matmul
// matmul_workgroup.spv` times (ops/matmul_sweep.cpp): C = A * B for row-major
// float16 A (M x K) and B (K x N) into float C, each work-group one BM x BN
// block of C (spec constants 1 and 2) in one accumulator of Workgroup scope,
// A and B loaded straight from their buffers BK deep (3) at a time: how the
// device's own compiler runs such matrices (on Vulkan, VK_NV_cooperative_matrix2
// where the driver has it; the translated targets spread them over the
// group's items). The group's size is spec constant 0. M, N and K are
// multiples of BM, BN and BK; the push constants are matmul.comp's (the
// sweep's), of which the sizes and leading dimensions are read.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 256) in;
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint BM = 128;
layout(constant_id = 2) const uint BN = 128;
layout(constant_id = 3) const uint BK = 32;

layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params {
  uint m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
  float alpha, beta;
  uint a_batch, b_batch, c_batch, row_groups, bias_offset;
} p;

void main() {
  const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
  coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
  for (uint k0 = 0u; k0 < p.k; k0 += BK) {
    coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
    coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
    coopMatLoad(ma, a, row0 * p.lda + k0, p.lda, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, b, k0 * p.ldb + col0, p.ldb, gl_CooperativeMatrixLayoutRowMajor);
    acc = coopMatMulAdd(ma, mb, acc);
  }
  coopMatStore(acc, c, row0 * p.ldc + col0, p.ldc, gl_CooperativeMatrixLayoutRowMajor);
}
