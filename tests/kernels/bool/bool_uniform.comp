// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: bool and bvec2 members of a std140 uniform block (32-bit words) select the computation
#version 450
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform U { bool invert; bvec2 swap; int bias; } u;
layout(binding = 1) readonly buffer In { vec2 x[]; };
layout(binding = 2) writeonly buffer Out { vec2 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 v = x[i];
  if (u.invert) v = -v;
  if (u.swap.x) v = v.yx;
  if (u.swap.y && (i & 1u) == 1u) v *= 2.0;
  y[i] = v + float(u.bias);
}
