// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 4
// what: sqrt and inversesqrt of positive values (Vulkan: inversesqrt 2 ulp, sqrt inherited from 1/inversesqrt)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = abs(x[i]) + 0.125;  // [0.125, 2.125]
  y[i] = sqrt(v);
  z[i] = inversesqrt(v * 16.0);
}
