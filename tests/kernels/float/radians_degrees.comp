// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 2
// what: radians and degrees (inherited from a multiply by the constant; 2 ulp for the constant's rounding)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = vec4(radians(x[i].xy * 90.0), degrees(x[i].zw));
}
