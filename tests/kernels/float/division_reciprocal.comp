// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 8
// what: float division and reciprocal with divisors kept in [0.5, 1.5] (Vulkan: 2.5 ulp each; 8 ulp for the sum of two quotients)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 d = abs(b[i]) * 0.5 + 0.5;
  y[i] = a[i] / d + 1.0 / (d.wzyx * 2.0) * 8.0;
}
