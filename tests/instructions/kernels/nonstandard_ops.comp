#version 450
#extension GL_EXT_spirv_intrinsics : require
// porta-conformance: --groups 1,1,1 --buffer random:35:256 --buffer zeros:1024
// what: instructions GLSL does not write but SPIR-V has: OpSRem (the dividend's sign) next to OpSMod, GLSL.std.450 NMin/NMax/NClamp (NaN operands give the other)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
spirv_instruction(id = 138) int srem(int a, int b);
spirv_instruction(id = 139) int smod(int a, int b);
spirv_instruction(set = "GLSL.std.450", id = 79) float nmin(float a, float b);
spirv_instruction(set = "GLSL.std.450", id = 80) float nmax(float a, float b);
spirv_instruction(set = "GLSL.std.450", id = 81) float nclamp(float x, float lo, float hi);
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i];
  int y = (a[(i + 1u) % 64u] >> 24) | 1;  // odd: never 0 or -1 after the next line
  if (y == -1) y = 3;
  r[4 * i + 0] = srem(x, y);
  r[4 * i + 1] = smod(x, y);
  float f = (i % 4u == 0u) ? uintBitsToFloat(0x7fc00000u) : float(x >> 16);
  r[4 * i + 2] = int(nmin(f, 3.0) + nmax(f, -3.0));
  r[4 * i + 3] = int(nclamp(f, -100.0, 100.0));
}
