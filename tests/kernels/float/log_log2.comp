// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 4
// what: log and log2 of [0.125, 2.125] plus 4 (Vulkan: absolute 2^-21 on [0.5, 2], 3 ulp elsewhere; the offset makes that a few ulp)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = abs(x[i]) + 0.125;
  y[i] = log(v) + 4.0;
  z[i] = log2(v) + 4.0;
}
