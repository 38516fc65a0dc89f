#version 450
// C += alpha * A * B in place, for row-major float16_t A (M x K) and B (K x N)
// and float C, with matrices of Workgroup scope: the work-group (its size a
// spec constant, constant_id 0) multiplies one BM x BN block of C (constants
// 1 and 2, 64 x 32 unless given), loading A and B straight from their buffers
// BK deep (constant 3, 16) at a time, then loads the block of C, adds alpha
// times its product and stores it back where it was loaded from. M is a
// multiple of BM, N of BN, K of BK.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 128) in;
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
layout(push_constant) uniform Params { uint m, n, k; float alpha; } p;

layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 32;
layout(constant_id = 3) const uint BK = 16;

void main() {
  const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
  coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
  for (uint k0 = 0u; k0 < p.k; k0 += BK) {
    coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
    coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
    coopMatLoad(ma, a, row0 * p.k + k0, p.k, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, b, k0 * p.n + col0, p.n, gl_CooperativeMatrixLayoutRowMajor);
    acc = coopMatMulAdd(ma, mb, acc);
  }
  coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> sum;
  coopMatLoad(sum, c, row0 * p.n + col0, p.n, gl_CooperativeMatrixLayoutRowMajor);
  sum = sum + acc * p.alpha;
  coopMatStore(sum, c, row0 * p.n + col0, p.n, gl_CooperativeMatrixLayoutRowMajor);
}
