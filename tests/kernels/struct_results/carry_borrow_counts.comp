// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: carry and borrow flags of uaddCarry/usubBorrow on uvec4 summed over a loop (flags are 0 or 1)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec4 acc = uvec4(a[i]) * uvec4(0x10000001u, 0x20000003u, 0x40000005u, 0x80000007u);
  uvec4 carries = uvec4(0u), borrows = uvec4(0u);
  for (uint k = 0u; k < 16u; ++k) {
    uvec4 step = uvec4(k * 0x1F2E3D4Cu + a[(i + k) & 255u] * 0x01010101u);
    uvec4 c, b;
    acc = uaddCarry(acc, step * 0x0C000000u, c);
    acc = usubBorrow(acc, step.wzyx, b);
    carries += c;
    borrows += b;
  }
  y[i] = acc ^ (carries << 24) ^ (borrows << 16);
}
