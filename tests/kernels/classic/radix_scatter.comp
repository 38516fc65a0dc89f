// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// what: radix-sort scatter for one 2-bit digit: per-digit counts, exclusive offsets and stable ranks (scans of per-digit flags) place 256 keys
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint flag[4][256];
shared uint digit_start[4];

void main() {
  uint l = gl_LocalInvocationID.x;
  for (uint k = l; k < 256u; k += 64u) {
    uint d = x[k] & 3u;
    for (uint b = 0u; b < 4u; ++b) flag[b][k] = uint(d == b);
  }
  barrier();
  // Inclusive scans of the four flag arrays, one invocation per digit, in index order.
  if (l < 4u) {
    uint run = 0u;
    for (uint k = 0u; k < 256u; ++k) {
      run += flag[l][k];
      flag[l][k] = run;
    }
  }
  barrier();
  if (l == 0u) {
    uint start = 0u;
    for (uint b = 0u; b < 4u; ++b) {
      digit_start[b] = start;
      start += flag[b][255];
    }
  }
  barrier();
  for (uint k = l; k < 256u; k += 64u) {
    uint d = x[k] & 3u;
    y[digit_start[d] + flag[d][k] - 1u] = (x[k] << 16) | k;
  }
}
