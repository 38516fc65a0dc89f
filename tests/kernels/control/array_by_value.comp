// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: arrays and structs passed to functions by value (the callee's changes stay local) and returned by value
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };

struct Box { int lo; int hi; int items[4]; };

int sum_and_clobber(int a[4]) {
  int s = 0;
  for (int k = 0; k < 4; ++k) {
    s += a[k];
    a[k] = -1;
  }
  return s;
}

Box make_box(int base) {
  Box b;
  b.lo = base;
  b.hi = base + 10;
  for (int k = 0; k < 4; ++k) b.items[k] = base * k;
  return b;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  int arr[4] = int[4](v, v + 1, v * 2, 7);
  int s = sum_and_clobber(arr);
  Box b = make_box(v);
  Box c = b;
  c.items[1] = 99;
  y[i] = ivec4(s, arr[0] + arr[3], b.items[1] + b.hi, c.items[1] + c.lo);
}
