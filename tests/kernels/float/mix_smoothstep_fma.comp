// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: mix (float and bool selector), smoothstep, fma on inputs rounded to 1/8 so every formula gives exact bits
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { vec4 z[]; };

// Inputs rounded to multiples of 1/8: mix's and smoothstep's products are exact, so the
// formula an implementation uses (a*(1-t)+b*t or a+t*(b-a), fused or not) does not matter.
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = q8(a[i]), q = q8(b[i]);
  vec4 t = q8(abs(b[i].yzwx) * 0.5);  // [0, 1]
  y[i] = mix(p, q, t) + mix(p, q, lessThan(p, q)) * 2.0;
  // Edges 4 apart: (x - e0) / 4 is exact.
  z[i] = smoothstep(-2.0, 2.0, p) * 64.0 + fma(p, q, t);
}
