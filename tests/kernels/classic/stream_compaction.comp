// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: stream compaction by scan: non-zero values move to the front of each work-group's slice in their original order, the rest is filled with -1
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared uint scan[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  int v = x[i] % 5;  // zero for about a fifth of the values
  uint keep = uint(v != 0);
  scan[l] = keep;
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    uint add = l >= off ? scan[l - off] : 0u;
    barrier();
    scan[l] += add;
    barrier();
  }
  uint total = scan[63];
  uint base = gl_WorkGroupID.x * 64u;
  if (keep == 1u) y[base + scan[l] - 1u] = x[i];
  if (l >= total) y[base + l] = -1;
}
