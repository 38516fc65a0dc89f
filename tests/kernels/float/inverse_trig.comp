// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 8192
// what: asin, acos, atan, atan(y, x) plus 4 (Vulkan: atan 4096 ulp, asin/acos inherited from atan2; 8192 ulp after the offset)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 u = a[i] * 0.375;  // |u| <= 0.75: away from asin's and acos's steep ends
  vec4 v = b[i];
  // atan(y, x) with x kept away from 0.
  float x = v.y >= 0.0 ? v.y + 0.25 : v.y - 0.25;
  y[i] = vec4(asin(u.x), acos(u.y), atan(v.z), atan(v.w, x)) + 4.0;
}
