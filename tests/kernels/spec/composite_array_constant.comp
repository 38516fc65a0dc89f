// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=10 --spec 1=20
// what: an array initialised from specialization constants and expressions of them (a composite array initialiser) used as a lookup table
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int A = 1;
layout(constant_id = 1) const int B = 2;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  const int[4] table = int[4](A, B, A + B, A * B);
  y[i] = table[x[i] & 3u] * int(i) + table[3];
}
