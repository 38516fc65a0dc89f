// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: signed / (OpSDiv) truncates toward zero for every sign combination, scalars and vectors
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = (a[i] - 32) * 37;
  int d = (b[i] - 32) | 1;
  y[i] = ivec4(x / d, -x / d, x / -d, ivec2(x, -x).x / 4);
}
