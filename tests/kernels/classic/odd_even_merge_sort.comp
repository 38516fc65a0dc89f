// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: Batcher's odd-even merge sort network on 64 keys per work-group (each comparator owned by its lower index)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint keys[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  keys[l] = x[i];
  barrier();
  for (uint p = 1u; p < 64u; p <<= 1) {
    for (uint k = p; k > 0u; k >>= 1) {
      uint j = k % p;
      // Comparator (l, l + k) exists when l lies in a j-offset block of 2k and both ends share a 2p block.
      if (l >= j && ((l - j) % (2u * k)) < k && l + k < 64u && (l / (2u * p)) == ((l + k) / (2u * p))) {
        uint a = keys[l], b = keys[l + k];
        if (a > b) {
          keys[l] = b;
          keys[l + k] = a;
        }
      }
      barrier();
    }
  }
  y[i] = keys[l];
}
