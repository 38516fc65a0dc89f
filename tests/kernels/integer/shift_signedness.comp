// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: OpShiftRightLogical on int and OpShiftRightArithmetic on uint (through GL_EXT_spirv_intrinsics): the opcode, not the type, decides the fill bits
#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer OutU { uvec4 z[]; };

spirv_instruction(id = 194) int srl(int x, uint n);     // OpShiftRightLogical
spirv_instruction(id = 195) uint sra(uint x, uint n);   // OpShiftRightArithmetic
spirv_instruction(id = 194) ivec2 srl(ivec2 x, uvec2 n);
spirv_instruction(id = 195) uvec2 sra(uvec2 x, uvec2 n);

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = (a[i] - 32) * 0x03050709;
  uint n = uint(a[i]) & 31u;
  uint u = uint(x) | 0x80000000u;
  y[i] = ivec4(srl(x, n), x >> n, srl(ivec2(x, -x), uvec2(n, 31u - n)));
  z[i] = uvec4(sra(u, n), u >> n, sra(uvec2(u, u >> 1), uvec2(31u, n)));
}
