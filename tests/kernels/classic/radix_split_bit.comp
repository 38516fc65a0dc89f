// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: one radix-sort pass per work-group: a stable split of 64 keys on each of bits 0..5 (scan of the zero flags), i.e. an LSD radix sort of 6-bit keys
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint keys[64];
shared uint zeros[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  keys[l] = (x[i] << 8) | l;  // payload: the original position (stability is visible)
  barrier();
  for (uint bit = 8u; bit < 14u; ++bit) {
    uint key = keys[l];
    uint is_zero = 1u - ((key >> bit) & 1u);
    zeros[l] = is_zero;
    barrier();
    for (uint off = 1u; off < 64u; off <<= 1) {  // inclusive scan of the zero flags
      uint add = l >= off ? zeros[l - off] : 0u;
      barrier();
      zeros[l] += add;
      barrier();
    }
    uint total_zeros = zeros[63];
    uint dest = is_zero == 1u ? zeros[l] - 1u : total_zeros + l - zeros[l];
    barrier();
    keys[dest] = key;
    barrier();
  }
  y[i] = keys[l];
}
