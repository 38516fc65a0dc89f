// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024 --tolerance-ulp 0
// porta-requires: cooperative-matrix fp16 storage-16bit
// what: a 32 x 32 x 32 product of float16_t A and B by 16 x 16 cooperative-matrix tiles with a float accumulator (the tensor-core GEMM's types): A and B staged in shared memory, B column-major, stored as float and as float16_t (inputs are multiples of 1/256 in [-2, 2]: each product and every sum of 32 is exact in float, in any order)
#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };  // 32 x 32, row-major
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };  // 32 x 32, row-major
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer H { float16_t h[]; };

shared float16_t rows_of_a[16 * 32];  // this tile's 16 rows of A, row-major
shared float16_t cols_of_b[16 * 32];  // this tile's 16 columns of B, column-major

void main() {
  const uint row = gl_WorkGroupID.y * 16, col = gl_WorkGroupID.x * 16;
  for (uint i = gl_LocalInvocationIndex; i < 16 * 32; i += 32) {
    rows_of_a[i] = a[(row + i / 32) * 32 + i % 32];
    cols_of_b[i] = b[(i % 32) * 32 + col + i / 32];
  }
  barrier();
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  for (uint k = 0; k < 32; k += 16) {
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
    coopMatLoad(ma, rows_of_a, k, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, cols_of_b, k, 32, gl_CooperativeMatrixLayoutColumnMajor);
    acc = coopMatMulAdd(ma, mb, acc);
  }
  coopMatStore(acc, c, row * 32 + col, 32, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> rounded =
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(acc);
  coopMatStore(rounded, h, row * 32 + col, 32, gl_CooperativeMatrixLayoutRowMajor);
}
