// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: floatBitsToInt/Uint, intBitsToFloat, uintBitsToFloat and int<->uint casts keep the bits
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer F { float f[]; };
layout(binding = 1) readonly buffer A { uint a[]; };
layout(binding = 2) writeonly buffer Out { uvec4 y[]; };
layout(binding = 3) writeonly buffer OutF { vec2 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int s = floatBitsToInt(f[i]);
  uint u = floatBitsToUint(-f[i]);
  y[i] = uvec4(uint(s), u, uint(-s), uint(int(u) >> 23));
  // Exponent field 0x3F8..0x3FF: normal numbers in [1, 256).
  z[i] = vec2(uintBitsToFloat(0x3F800000u | (a[i] << 17)), intBitsToFloat(int(0xBF000000u) + int(a[i])));
}
