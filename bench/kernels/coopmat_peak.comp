#version 450
// porta's cooperative-matrix multiply-add alone (bench/ops/coopmat_peak.cpp):
// each subgroup multiplies one 16 x 16 A by one 16 x 16 B into eight
// independent 16 x 16 accumulators, `iterations` times, reading memory only
// before and writing only after: the rate at which the device runs the
// products porta's cooperative matrices compile to (mma.sync on CUDA, the
// driver's on Vulkan), the ceiling of any GEMM written with them. Built with
// float16_t A and B (also declared as bfloat16 by the build), or with FLOAT32
// for float32 ones (TF32 where the kernel allows it).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

#ifdef FLOAT32
#define E float
#else
#define E float16_t
#endif

layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer AB { E ab[]; };  // A, then B: 16 x 16 each
layout(set = 0, binding = 1) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint iterations; } p;

#define ACC coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>

void main() {
  coopmat<E, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
  coopmat<E, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b;
  coopMatLoad(a, ab, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(b, ab, 256, 16, gl_CooperativeMatrixLayoutRowMajor);
  // Different starting values (no compiler may merge the chains); one
  // declaration each (glslang 13 loses the use of a second declarator).
  ACC c0 = ACC(0.0);
  ACC c1 = ACC(1.0);
  ACC c2 = ACC(2.0);
  ACC c3 = ACC(3.0);
  ACC c4 = ACC(4.0);
  ACC c5 = ACC(5.0);
  ACC c6 = ACC(6.0);
  ACC c7 = ACC(7.0);
  for (uint i = 0; i < p.iterations; ++i) {
    c0 = coopMatMulAdd(a, b, c0);
    c1 = coopMatMulAdd(a, b, c1);
    c2 = coopMatMulAdd(a, b, c2);
    c3 = coopMatMulAdd(a, b, c3);
    c4 = coopMatMulAdd(a, b, c4);
    c5 = coopMatMulAdd(a, b, c5);
    c6 = coopMatMulAdd(a, b, c6);
    c7 = coopMatMulAdd(a, b, c7);
  }
  c0 = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7;
  // Every subgroup of a group computes the same sums: one tile per group.
  coopMatStore(c0, c, gl_WorkGroupID.x * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
}
