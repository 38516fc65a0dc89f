// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 64
// what: pow(x, y) for x in [0.25, 2.25], y in [-2, 2] (Vulkan: inherited from exp2(y * log2(x)); 64 ulp)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = pow(abs(a[i]) + 0.25, b[i]);
}
