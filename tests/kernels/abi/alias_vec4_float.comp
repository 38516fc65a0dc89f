// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// what: a vec4 view and a float view of one buffer: element 4*i+k of the float view is component k of vec4 i
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer Vec { vec4 v[]; };
layout(binding = 0) readonly buffer Flat { float f[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 a = v[i];
  vec4 b = vec4(f[4u * i], f[4u * i + 1u], f[4u * i + 2u], f[4u * i + 3u]);
  y[i] = dot(abs(a - b), vec4(1.0)) + a.y;
}
