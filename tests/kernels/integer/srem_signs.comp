// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: OpSRem (emitted through GL_EXT_spirv_intrinsics): the result takes the dividend's sign, unlike OpSMod
#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };

spirv_instruction(id = 138) int srem(int x, int y);          // OpSRem
spirv_instruction(id = 138) ivec2 srem(ivec2 x, ivec2 y);    // OpSRem on vectors

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i] - 32;
  int d = (b[i] - 32) | 1;
  ivec2 v = srem(ivec2(-x, x * 5), ivec2(d, -d));
  y[i] = ivec4(srem(x, d), x % d, v);
}
