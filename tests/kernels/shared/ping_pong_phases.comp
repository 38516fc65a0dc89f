// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: several barrier-separated phases ping-ponging between two shared arrays (a 1D blur applied 6 times)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int bufA[64];
shared int bufB[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  bufA[l] = x[i];
  barrier();
  for (int pass = 0; pass < 3; ++pass) {
    bufB[l] = bufA[(l + 63u) & 63u] + 2 * bufA[l] + bufA[(l + 1u) & 63u];
    barrier();
    bufA[l] = (bufB[(l + 62u) & 63u] + bufB[(l + 2u) & 63u]) / 2 - bufB[l] / 4;
    barrier();
  }
  y[i] = bufA[l];
}
