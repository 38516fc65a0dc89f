// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: Mandelbrot iteration counts (at most 64) on a 32x32 grid over [-2, 0.5] x [-1.25, 1.25]; `precise` keeps each multiply and add separately rounded, so the float arithmetic is the same everywhere
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) writeonly buffer Out { uint counts[]; };

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  // Grid steps of 2.5 / 32 are not exact in binary, but each point is computed the same way on every backend.
  float cr = -2.0 + float(p.x) * 0.078125;   // 2.5 / 32 = 0.078125 exactly
  float ci = -1.25 + float(p.y) * 0.078125;
  precise float zr = 0.0, zi = 0.0;
  uint n = 0u;
  while (n < 64u) {
    precise float zr2 = zr * zr;
    precise float zi2 = zi * zi;
    if (zr2 + zi2 > 4.0) break;
    precise float two_zr_zi = 2.0 * zr * zi;
    zi = two_zr_zi + ci;
    zr = (zr2 - zi2) + cr;
    n++;
  }
  counts[p.y * 32u + p.x] = n;
}
