#version 450
// porta-conformance: --groups 1,1,1 --buffer random:7:256 --buffer zeros:1536
// what: OpSMod takes the divisor's sign, OpSDiv truncates, OpUMod; constant and run-time divisors
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i];
  int y = a[(i + 1u) % 64u] >> 20;  // a run-time divisor of either sign
  if (y == 0 || y == -1) y = 7;
  r[6 * i + 0] = x % 3;
  r[6 * i + 1] = x % -5;
  r[6 * i + 2] = x % y;
  r[6 * i + 3] = x / y;
  r[6 * i + 4] = x / -3;
  r[6 * i + 5] = int(uint(x) % uint(y));
}
