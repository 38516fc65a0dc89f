#version 450
// porta-conformance: --groups 1,1,1 --buffer random:5:256 --buffer zeros:1536
// what: signed add, sub, mul and negate wrap around (INT_MIN, INT_MAX); abs(INT_MIN) is INT_MIN
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = i == 0u ? int(0x80000000u) : i == 1u ? 0x7fffffff : a[i];
  int y = a[(i + 1u) % 64u];
  r[6 * i + 0] = x + y;
  r[6 * i + 1] = x - y;
  r[6 * i + 2] = x * y;
  r[6 * i + 3] = -x;
  r[6 * i + 4] = abs(x);
  r[6 * i + 5] = x * 65537 + 0x7fffffff;
}
