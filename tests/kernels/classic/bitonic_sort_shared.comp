// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: full bitonic sort of 64 uints per work-group in shared memory (all k, j stages with barriers)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint keys[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  keys[l] = x[i] * 0x10000u + (i & 0xFFFFu);  // distinct keys
  barrier();
  for (uint k = 2u; k <= 64u; k <<= 1) {
    for (uint j = k >> 1; j > 0u; j >>= 1) {
      uint partner = l ^ j;
      if (partner > l) {
        bool ascending = (l & k) == 0u;
        uint a = keys[l], b = keys[partner];
        if ((a > b) == ascending) {
          keys[l] = b;
          keys[partner] = a;
        }
      }
      barrier();
    }
  }
  y[i] = keys[l];
}
