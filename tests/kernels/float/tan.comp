// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 8192
// what: tan on [-1, 1] plus 4 (Vulkan: inherited from sin/cos, about 2^-9 absolute here; 8192 ulp of values in [2, 8))
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = tan(x[i] * 0.5) + 4.0;
}
