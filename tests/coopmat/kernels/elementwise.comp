#version 450
// Cooperative-matrix operations besides the multiply-add, on 16 x 16 floats
// x (row-major) and on integers: results that do not depend on how a device
// spreads a matrix over its invocations. One subgroup (one work-group).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };  // 16 x 16
layout(set = 0, binding = 1) readonly buffer Y { int y[]; };    // A: 16 x 32 row-major, then B^T: 8 x 32
layout(set = 0, binding = 2) writeonly buffer R { float r[]; };  // 5 x 256
layout(set = 0, binding = 3) writeonly buffer S { int s[]; };    // 16 x 8, then the length
layout(push_constant) uniform Params { float bias; } p;

#define ACC(T, R, C) coopmat<T, gl_ScopeSubgroup, R, C, gl_MatrixUseAccumulator>

void main() {
  ACC(float, 16, 16) a;
  ACC(float, 16, 16) b;
  coopMatLoad(a, x, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(b, x, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);  // x transposed
  coopMatStore(a + b, r, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  // Stored column-major: r[256 + j * 16 + i] holds element (i, j).
  coopMatStore(-a - b * 2.0, r, 256, 16, gl_CooperativeMatrixLayoutColumnMajor);
  ACC(float, 16, 16) bias = ACC(float, 16, 16)(p.bias);
  coopMatStore(a / bias, r, 512, 16, gl_CooperativeMatrixLayoutRowMajor);
  for (int i = 0; i < a.length(); ++i) a[i] = a[i] * a[i] + 1.0;
  coopMatStore(a, r, 768, 16, gl_CooperativeMatrixLayoutRowMajor);

  coopmat<int, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> ia;
  coopmat<int, gl_ScopeSubgroup, 32, 8, gl_MatrixUseB> ib;
  coopMatLoad(ia, y, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(ib, y, 16 * 32, 32, gl_CooperativeMatrixLayoutColumnMajor);
  ACC(int, 16, 8) ic = ACC(int, 16, 8)(3);
  ic = coopMatMulAdd(ia, ib, ic);
  coopMatStore(ic, s, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  ACC(float, 16, 8) fc = ACC(float, 16, 8)(ic);
  coopMatStore(fc, r, 1024, 8, gl_CooperativeMatrixLayoutRowMajor);
  if (gl_LocalInvocationIndex == 0) s[128] = ic.length();
}
