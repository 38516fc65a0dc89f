// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=12
// what: a private array sized by a specialization constant expression (N + 1) filled and reduced in loops
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int N = 4;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int a[N + 1];
  for (int k = 0; k < a.length(); ++k) a[k] = x[(i + uint(k)) & 255u] - k;
  int m = a[0];
  for (int k = 1; k < a.length(); ++k) m = max(m, a[k]) + 1;
  y[i] = m * 100 + a.length();
}
