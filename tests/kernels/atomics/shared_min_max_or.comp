// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicMin, atomicMax, atomicOr, atomicXor, atomicAnd on shared words (int and uint)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer OutU { uvec4 z[]; };

shared int lo, hi;
shared uint bits, parity, common_bits;

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  if (l == 0u) {
    lo = 0x7FFFFFFF;
    hi = -0x7FFFFFFF - 1;
    bits = 0u;
    parity = 0u;
    common_bits = 0xFFFFFFFFu;
  }
  barrier();
  int v = x[i] - 32;
  atomicMin(lo, v);
  atomicMax(hi, v * 3);
  atomicOr(bits, 1u << uint(x[i] & 31));
  atomicXor(parity, uint(x[i]) * 0x00010001u);
  atomicAnd(common_bits, uint(x[i]) | 0xFFFFFF00u);
  barrier();
  if (l == 0u) {
    y[gl_WorkGroupID.x] = ivec4(lo, hi, lo + hi, 0);
    z[gl_WorkGroupID.x] = uvec4(bits, parity, common_bits, 0u);
  }
}
