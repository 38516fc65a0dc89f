// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: a runtime array of vec3 in std430 has stride 16; the padding word between elements is never touched
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { vec3 a[]; };
layout(std430, binding = 1) buffer Out { vec3 b[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Writes 12 of each element's 16 bytes: the fourth word keeps its input value.
  b[i] = a[i].zxy + vec3(1.0, 2.0, 3.0);
}
