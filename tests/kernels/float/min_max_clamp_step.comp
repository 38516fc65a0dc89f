// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: min, max, clamp, step on scalars and vectors with scalar edges (FMin, FMax, FClamp, Step), exact
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = a[i], q = b[i];
  y[i] = min(p, q) + max(p, 0.5) * 2.0;
  z[i] = clamp(p, -1.0, 1.0) + clamp(q, p.wzyx - 1.0, p.wzyx + 1.0) * 4.0 + step(q, p) + step(0.25, q);
}
