#version 450
// C += A * B with int8 A (16 x 32) and B (32 x 16) and int32 C (16 x 16),
// all row-major: the 16x16x32 int8 shape tensor cores run (NVIDIA lists it).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require

layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { int8_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int8_t b[]; };
layout(set = 0, binding = 2) buffer C { int c[]; };

void main() {
  coopmat<int8_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> ma;
  coopmat<int8_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> mb;
  coopmat<int, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc;
  coopMatLoad(ma, a, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  mc = coopMatMulAdd(ma, mb, mc);
  coopMatStore(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
