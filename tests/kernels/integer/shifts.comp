// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: << and >> on int (arithmetic right shift keeps the sign) and uint (logical), amounts 0..31, mixed-signedness amounts
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer S { uint s[]; };
layout(binding = 2) writeonly buffer Out { ivec4 yi[]; };
layout(binding = 3) writeonly buffer OutU { uvec4 yu[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = (a[i] - 32) * 0x01234567;
  uint k = s[i] & 31u;
  int ks = int(k);
  yi[i] = ivec4(x >> k, x << k, -x >> ks, (x >> 31) ^ (x << (31 - ks)));
  uint u = uint(x);
  yu[i] = uvec4(u >> k, u << ks, u >> (31u - k), (u << 16) | (u >> 16));
}
