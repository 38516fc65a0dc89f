// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: early returns from main on data-dependent conditions before and after some writes; skipped writes keep the input bytes
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) buffer Out { int y[]; };
layout(binding = 2) buffer Out2 { int z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  if (v < 8) return;
  y[i] = v * 2;
  if ((v & 3) == 1) return;
  z[i] = v - y[i];
  if (v > 60) return;
  y[i] += 1;
}
