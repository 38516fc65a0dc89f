#version 450
// float16_t matrices element by element, a 32 x 32 by 32 x 16 multiply-add
// with a float16_t accumulator (two tiles of rows, of columns and of K on
// tensor cores) and a conversion to float. X holds 32 x 32 integers in
// [-3, 3]: every result below is exact in float16_t, whatever the order of
// accumulation.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { float16_t x[]; };
layout(set = 0, binding = 1) writeonly buffer H { float16_t h[]; };  // y, then d (32 x 16 each)
layout(set = 0, binding = 2) writeonly buffer F { float f[]; };      // y as float, column-major
layout(set = 0, binding = 3) writeonly buffer L { uint length_out; };

const uint S = gl_ScopeSubgroup;

void main() {
  coopmat<float16_t, S, 32, 16, gl_MatrixUseAccumulator> m;  // X's first 16 columns
  coopMatLoad(m, x, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  // y = (1.5 x)^2 - 1, each element of what this invocation holds.
  coopmat<float16_t, S, 32, 16, gl_MatrixUseAccumulator> y = m * float16_t(0.5) + m;
  for (int i = 0; i < y.length(); ++i) y[i] = y[i] * y[i] - float16_t(1.0);
  coopMatStore(y, h, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float, S, 32, 16, gl_MatrixUseAccumulator> y_float = coopmat<float, S, 32, 16, gl_MatrixUseAccumulator>(y);
  coopMatStore(y_float, f, 0, 32, gl_CooperativeMatrixLayoutColumnMajor);
  // d = A B + y: A is X read column-major (A[r][k] = X[k][r]), B is X's
  // first 16 columns.
  coopmat<float16_t, S, 32, 32, gl_MatrixUseA> a;
  coopmat<float16_t, S, 32, 16, gl_MatrixUseB> b;
  coopMatLoad(a, x, 0, 32, gl_CooperativeMatrixLayoutColumnMajor);
  coopMatLoad(b, x, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float16_t, S, 32, 16, gl_MatrixUseAccumulator> d = coopMatMulAdd(a, b, y);
  coopMatStore(d, h, 32 * 16, 16, gl_CooperativeMatrixLayoutRowMajor);
  length_out = y.length();
}
