// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: Hillis-Steele inclusive scan (log steps, double-buffered shared arrays) of ints per work-group
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int buf[2][64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  uint src = 0u;
  buf[0][l] = x[i] - 20;
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    int v = buf[src][l];
    if (l >= off) v += buf[src][l - off];
    buf[1u - src][l] = v;
    src = 1u - src;
    barrier();
  }
  y[i] = buf[src][l];
}
