#version 450
// C = alpha * A * B for row-major float16_t A (M x K) and B (K x N) into
// float C, through shared memory as a tensor-core GEMM stages it: the slices
// of A and B column-major (fragment loads read them across their rows), the
// accumulators stored row-major to shared memory and written out by the
// group's items. The work-group size is a spec constant (constant_id 0, 32
// items per subgroup times constant_id 1, WARPS); subgroup w computes rows
// 16 w to 16 w + 15 of the group's 16 WARPS x 16 block of C. M is a
// multiple of 16 WARPS, N and K of 16.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint WARPS = 2;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint m, n, k; float alpha; } p;

const uint T = 16, WARPS_MAX = 4;
// Column strides of the slices: 72 and 24 halves (144 and 48 bytes), so that
// every column starts on 16 bytes.
const uint SA = T * WARPS_MAX + 8, SB = T + 8;
shared float16_t sa[T * SA];  // the A slice, column kk at kk * SA
shared float16_t sb[T * SB];  // the B slice, column j at j * SB
shared float sc[WARPS_MAX * T * T];  // subgroup w's accumulator at w * T * T, row-major

void main() {
  const uint row0 = gl_WorkGroupID.y * T * WARPS, col0 = gl_WorkGroupID.x * T;
  const uint tid = gl_LocalInvocationIndex, threads = gl_WorkGroupSize.x, w = gl_SubgroupID;
  coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);
  for (uint k0 = 0u; k0 < p.k; k0 += T) {
    for (uint e = tid; e < T * WARPS * T; e += threads) sa[(e % T) * SA + e / T] = a[(row0 + e / T) * p.k + k0 + e % T];
    for (uint e = tid; e < T * T; e += threads) sb[(e % T) * SB + e / T] = b[(k0 + e / T) * p.n + col0 + e % T];
    barrier();
    if (w < WARPS) {
      coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> ma;
      coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> mb;
      coopMatLoad(ma, sa, w * T, SA, gl_CooperativeMatrixLayoutColumnMajor);
      coopMatLoad(mb, sb, 0, SB, gl_CooperativeMatrixLayoutColumnMajor);
      acc = coopMatMulAdd(ma, mb, acc);
    }
    barrier();
  }
  if (w < WARPS) coopMatStore(acc, sc, w * T * T, T, gl_CooperativeMatrixLayoutRowMajor);
  barrier();
  for (uint e = tid; e < T * WARPS * T; e += threads) c[(row0 + e / T) * p.n + col0 + e % T] = p.alpha * sc[e];
}
