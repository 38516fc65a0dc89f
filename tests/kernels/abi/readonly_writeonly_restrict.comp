// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: readonly, writeonly, restrict and coherent qualifiers on storage blocks change nothing of the result
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) restrict readonly buffer A { float a[]; };
layout(binding = 1) restrict readonly buffer B { float b[]; };
layout(binding = 2) restrict writeonly buffer Out { float y[]; };
layout(binding = 3) coherent buffer Acc { float acc[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = max(a[i], b[i]);
  y[i] = v;
  acc[i] = acc[i] + v;
}
