// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: a uniform block and storage buffers at set 2, with the uniform at the highest binding
#version 450
layout(local_size_x = 64) in;

layout(set = 2, binding = 0) readonly buffer In { ivec2 x[]; };
layout(set = 2, binding = 1) writeonly buffer Out { ivec2 y[]; };
layout(set = 2, binding = 2) uniform U { ivec2 offset; ivec2 factor; } u;

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = x[i] * u.factor + u.offset;
}
