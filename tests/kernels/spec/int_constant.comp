// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=5
// what: an int specialization constant (default 3, set to 5) used in arithmetic and as a loop bound
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int K = 3;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int acc = x[i];
  for (int k = 0; k < K; ++k) acc = acc * 3 - k;
  y[i] = acc + K * 1000;
}
