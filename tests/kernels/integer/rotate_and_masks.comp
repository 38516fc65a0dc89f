// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: rotations built from shifts (including the amount 0 branch), masks (1u << n) - 1u, and byte swaps
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

uint rotl(uint x, uint r) { return r == 0u ? x : (x << r) | (x >> (32u - r)); }
uint bswap(uint x) { return (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24); }

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i] * 0x01020305u + i;
  uint n = a[i] & 31u;
  y[i] = uvec4(rotl(x, n), rotl(x, 32u - n & 31u), (1u << n) - 1u, bswap(x));
}
