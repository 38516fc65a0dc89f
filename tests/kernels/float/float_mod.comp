// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: mod(x, y) = x - y*floor(x/y) for negative x and y (result takes y's sign), with power-of-two y so it is exact
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = floor(x[i] * 64.0) * 0.125;  // [-16, 16] in steps of 1/8
  y[i] = mod(v, 0.5) + mod(v, vec4(-2.0, 4.0, -0.25, 1.0)) * 8.0 + mod(-v.x, 2.0);
}
