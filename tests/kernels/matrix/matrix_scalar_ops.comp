// porta-conformance: --groups 1,1,1 --inputs auto --elements 64 --tolerance-ulp 3
// what: matrix / scalar, scalar / matrix-free forms and matrix * scalar; division allows Vulkan's 2.5 ulp
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { mat2x4 m[]; };
layout(std430, binding = 1) writeonly buffer Out { mat2x4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat2x4 a = m[i];
  float s = 3.0 + float(i & 7u);
  y[i] = a / s + a * 2.0 + 8.0;
}
