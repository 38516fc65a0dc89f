// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: functions with in, out and inout parameters, several return statements and nested calls
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };

int classify(int v) {
  if (v < 10) return 0;
  if (v < 30) return 1;
  if (v < 50) return 2;
  return 3;
}

void split(int v, out int hi, out int lo) {
  hi = v >> 3;
  lo = v & 7;
}

bool bump(inout int a, inout ivec2 b, int by) {
  a += by;
  b = b.yx + by;
  return a > 40;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  int hi, lo;
  split(v, hi, lo);
  ivec2 pair = ivec2(hi, lo);
  int a = v;
  bool over = bump(a, pair, classify(v));
  y[i] = ivec4(a, pair, over ? classify(a) : -classify(a - 20));
}
