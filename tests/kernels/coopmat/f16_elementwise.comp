// porta-conformance: --groups 1,1,1 --inputs auto --elements 256 --tolerance-ulp 0
// porta-requires: cooperative-matrix fp16 storage-16bit
// what: element-wise work on a 16 x 16 float16_t cooperative matrix (an accumulator shape NVIDIA's Vulkan driver lists): a scalar multiply and an add (exact), each element an invocation holds squared through indexing up to length() (rounded once to half), negation, a conversion to float; the same on every device whatever its share of the matrix
#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { float16_t x[]; };  // 16 x 16, row-major
layout(set = 0, binding = 1) writeonly buffer H { float16_t h[]; };
layout(set = 0, binding = 2) writeonly buffer F { float f[]; };     // column-major

void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
  coopMatLoad(m, x, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> y = m * float16_t(0.5) + m;
  for (int i = 0; i < y.length(); ++i) y[i] = y[i] * y[i];
  y = -y;
  coopMatStore(y, h, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> y_float =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(y);
  coopMatStore(y_float, f, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);
}
