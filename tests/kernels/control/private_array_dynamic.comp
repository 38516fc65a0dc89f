// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: private arrays written and read with dynamic indices (an insertion sort of 8 values per invocation)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int a[8];
  for (int k = 0; k < 8; ++k) a[k] = x[(i * 8u + uint(k)) & 255u];
  for (int k = 1; k < 8; ++k) {
    int key = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
  int median = (a[3] + a[4]) / 2;
  y[i] = a[0] * 1000000 + a[7] * 1000 + median;
}
