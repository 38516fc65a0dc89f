// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: shared-memory gathers and scatters with data-dependent (masked) indices; the scatter is a permutation so no two writes collide
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint values[64];
shared uint permuted[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  values[l] = x[i] * 3u + l;
  barrier();
  uint gathered = values[x[i] & 63u];
  // l -> (l * 37 + 11) mod 64 is a bijection (37 is odd).
  permuted[(l * 37u + 11u) & 63u] = gathered;
  barrier();
  y[i] = permuted[l] ^ values[63u - l];
}
