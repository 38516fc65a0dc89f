// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 8192
// what: sinh, cosh, tanh, asinh, acosh, atanh plus 8 (Vulkan: inherited from their exp/log formulas; 8192 ulp after the offset)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = x[i];
  y[i] = vec4(sinh(v.x), cosh(v.y), tanh(v.z), asinh(v.w)) + 8.0;
  z[i] = vec4(acosh(abs(v.x) + 1.25), atanh(v.y * 0.375), tanh(v.w * 4.0), sinh(v.z * 0.5)) + 8.0;
}
