// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: bindings 0, 3 and 7 with gaps between them; parameters follow binding order
#version 450
layout(local_size_x = 64) in;

layout(binding = 7) writeonly buffer Out { int y[]; };
layout(binding = 3) readonly buffer B { int b[]; };
layout(binding = 0) readonly buffer A { int a[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = a[i] * 3 - b[i];
}
