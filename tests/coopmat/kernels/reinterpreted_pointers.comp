#version 450
// C = alpha * A * B for 64 x 64 row-major float16_t A and B and float C, the
// matrices read and written through pointers of other types than their
// components, as vendor samples and real kernels do: A from a buffer of
// uvec4 (eight halves each) staged in a shared uvec4 array, B straight from
// a buffer of uint words (two halves each), C stored to a buffer of vec4.
// Strides count the pointer's own elements. Two by two 16 x 16 tiles of C
// per 32 x 32 quarter, the quarters shared among the group's subgroups.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Params { uint m, n, k; float alpha; } p;

const uint N = 64;
const uint K_TILE = 32;
const uint HALVES = 8;                  // per uvec4
const uint A_STRIDE = K_TILE / HALVES;  // uvec4s per row of the staged A slice

shared uvec4 staged_a[N * A_STRIDE];

void main() {
  const uint sg = gl_LocalInvocationID.x / gl_SubgroupSize;
  const uint subgroups = (gl_WorkGroupSize.x + gl_SubgroupSize - 1) / gl_SubgroupSize;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc[4][2][2];
  [[unroll]] for (uint q = 0; q < 4; ++q)
    [[unroll]] for (uint i = 0; i < 2; ++i)
      [[unroll]] for (uint j = 0; j < 2; ++j)
        acc[q][i][j] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  for (uint k0 = 0; k0 < N; k0 += K_TILE) {
    for (uint e = gl_LocalInvocationID.x; e < N * A_STRIDE; e += gl_WorkGroupSize.x)
      staged_a[e] = a[(e / A_STRIDE) * (N / HALVES) + k0 / HALVES + e % A_STRIDE];
    barrier();
    [[unroll]] for (uint q = 0; q < 4; ++q) {
      if (q % subgroups != sg) continue;
      const uint r0 = 32 * (q % 2), c0 = 32 * (q / 2);
      [[unroll]] for (uint kk = 0; kk < K_TILE; kk += 16) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma[2];
        [[unroll]] for (uint i = 0; i < 2; ++i)
          coopMatLoad(ma[i], staged_a, (r0 + 16 * i) * A_STRIDE + kk / HALVES, A_STRIDE,
                      gl_CooperativeMatrixLayoutRowMajor);
        [[unroll]] for (uint j = 0; j < 2; ++j) {
          coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
          coopMatLoad(mb, b, ((k0 + kk) * N + c0 + 16 * j) / 2, N / 2, gl_CooperativeMatrixLayoutRowMajor);
          [[unroll]] for (uint i = 0; i < 2; ++i) acc[q][i][j] = coopMatMulAdd(ma[i], mb, acc[q][i][j]);
        }
      }
    }
    barrier();
  }
  [[unroll]] for (uint q = 0; q < 4; ++q) {
    if (q % subgroups != sg) continue;
    const uint r0 = 32 * (q % 2), c0 = 32 * (q / 2);
    [[unroll]] for (uint i = 0; i < 2; ++i)
      [[unroll]] for (uint j = 0; j < 2; ++j) {
        acc[q][i][j] = acc[q][i][j] * p.alpha;
        coopMatStore(acc[q][i][j], c, ((r0 + 16 * i) * N + c0 + 16 * j) / 4, N / 4,
                     gl_CooperativeMatrixLayoutRowMajor);
      }
  }
}
