#version 450
// porta-conformance: --groups 1,1,1 --buffer random:5:256 --buffer zeros:2304
// what: signed add, sub, mul and negate wrap around (INT_MIN, INT_MAX); abs(INT_MIN) is INT_MIN; a negation stays signed in what reads it (conversion, min, division)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = i == 0u ? int(0x80000000u) : i == 1u ? 0x7fffffff : a[i];
  int y = a[(i + 1u) % 64u];
  r[9 * i + 0] = x + y;
  r[9 * i + 1] = x - y;
  r[9 * i + 2] = x * y;
  r[9 * i + 3] = -x;
  r[9 * i + 4] = abs(x);
  r[9 * i + 5] = x * 65537 + 0x7fffffff;
  r[9 * i + 6] = int(float(-(x + 1)) * 0.5);
  r[9 * i + 7] = min(-(x ^ 1), 5);
  r[9 * i + 8] = (-(x | 2)) / 3;
}
