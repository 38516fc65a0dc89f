// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: for(;;) and while(true) loops left only by break or return from inside nested ifs
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

uint first_multiple(uint start, uint of) {
  for (;;) {
    if (start % of == 0u) return start;
    start++;
  }
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = x[i] + 1u;
  uint n = 0u, s = v;
  while (true) {
    s = s * 1103515245u + 12345u;
    n++;
    if ((s >> 28) == (v & 15u)) break;
    if (n >= 200u) break;
  }
  y[i] = n * 1000u + first_multiple(v * 7u, (v & 7u) + 3u);
}
