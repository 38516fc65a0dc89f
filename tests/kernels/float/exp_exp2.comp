// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 8
// what: exp and exp2 on [-2, 2] (Vulkan: 3 + 2*|x| ulp, at most 7 here)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = exp(x[i]);
  z[i] = exp2(x[i]);
}
