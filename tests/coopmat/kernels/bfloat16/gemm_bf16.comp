#version 450
// gemm_f16.comp's product with bfloat16 A and B: C = alpha * A * B for
// row-major A (M x K), B (K x N) with a float accumulator, written as float
// (C) and converted to bfloat16 (H). Written with float16_t, which the build
// declares as SPV_KHR_bfloat16's bfloat16 (kernels/matmul/bfloat16_variant.py):
// the kernel only moves, converts and multiplies its 16-bit values.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer H { float16_t h[]; };
layout(push_constant) uniform Params { uint m, n, k; float alpha; } p;

const uint T = 16;

void main() {
  const uint tile_row = gl_WorkGroupID.y * T, tile_col = gl_WorkGroupID.x * T;
  coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);
  for (uint kk = 0; kk < p.k; kk += T) {
    coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> ma;
    coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> mb;
    coopMatLoad(ma, a, tile_row * p.k + kk, p.k, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, b, kk * p.n + tile_col, p.n, gl_CooperativeMatrixLayoutRowMajor);
    acc = coopMatMulAdd(ma, mb, acc);
  }
  acc = acc * p.alpha;
  coopMatStore(acc, c, tile_row * p.n + tile_col, p.n, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> rounded =
      coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(acc);
  coopMatStore(rounded, h, tile_row * p.n + tile_col, p.n, gl_CooperativeMatrixLayoutRowMajor);
}
