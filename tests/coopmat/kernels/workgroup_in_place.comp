#version 450
// C = A * B + C in place with matrices of Workgroup scope of fixed sizes
// (64 x 16 by 16 x 32, float16 into float), the work-group's size a spec
// constant (constant_id 0): what the lowering does with such matrices where it
// knows the group's size and where it does not (tensor_cores_test.cpp), and
// what a Vulkan device's list must hold for them (vulkan_list_test.cpp).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 128) in;
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };

void main() {
  coopmat<float16_t, gl_ScopeWorkgroup, 64, 16, gl_MatrixUseA> ma;
  coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mb;
  coopmat<float, gl_ScopeWorkgroup, 64, 32, gl_MatrixUseAccumulator> acc;
  coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(acc, c, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  acc = coopMatMulAdd(ma, mb, acc);
  coopMatStore(acc, c, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
}
