// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// porta-requires: cooperative-matrix
// what: a 32 x 32 x 32 product by 16 x 16 cooperative-matrix tiles: A and B staged in shared memory, loaded row- and column-major, a scaled accumulator stored to the buffer (q8 inputs: exact in any order)
#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };  // 32 x 32, row-major
layout(set = 0, binding = 1) readonly buffer B { float b[]; };  // 32 x 32, row-major
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };

shared float rows_of_a[16 * 32];  // this tile's 16 rows of A, row-major
shared float cols_of_b[16 * 32];  // this tile's 16 columns of B, column-major

float q8(float x) { return floor(x * 8.0) * 0.125; }

void main() {
  const uint row = gl_WorkGroupID.y * 16, col = gl_WorkGroupID.x * 16;
  for (uint i = gl_LocalInvocationIndex; i < 16 * 32; i += 32) {
    rows_of_a[i] = q8(a[(row + i / 32) * 32 + i % 32]);
    cols_of_b[i] = q8(b[(i % 32) * 32 + col + i / 32]);
  }
  barrier();
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  for (uint k = 0; k < 32; k += 16) {
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
    coopMatLoad(ma, rows_of_a, k, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, cols_of_b, k, 32, gl_CooperativeMatrixLayoutColumnMajor);
    acc = coopMatMulAdd(ma, mb, acc);
  }
  acc = acc * 0.5;
  coopMatStore(acc, c, row * 32 + col, 32, gl_CooperativeMatrixLayoutRowMajor);
}
