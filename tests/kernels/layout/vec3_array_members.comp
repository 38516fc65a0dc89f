// porta-conformance: --groups 2,1,1 --inputs auto --elements 8
// what: a std430 vec3 array (ArrayStride 16): components read, whole vectors swizzled and written
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer V { vec3 v[]; };
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = v[i].x - v[i].z;
  v[i] = v[i].zyx + vec3(1.0, 2.0, 3.0);
}
