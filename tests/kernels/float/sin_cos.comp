// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 2050
// what: sin and cos on [-2, 2] plus 3 (Vulkan: absolute error 2^-11 on [-pi, pi]; 2^-11 is 2048 ulp of values in [2, 4))
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = sin(x[i]) + 3.0;
  z[i] = cos(x[i]) + 3.0;
}
