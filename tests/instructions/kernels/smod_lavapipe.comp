#version 450
// porta-conformance: --groups 1,1,1 --buffer pattern:fffffff9:4 --buffer zeros:16
// what: OpSMod takes the divisor's sign: -7 % 3 == 2, -7 % -3 == -1, 7 % -3 == -2 (Mesa 22.3's lavapipe computes OpSRem's -1, -1, 1; porta's Vulkan backend rewrites OpSMod there)
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  int m7 = a[0];          // -7
  int three = -m7 - 4;    // 3
  r[0] = m7 % three;      // OpSMod: 2
  r[1] = m7 % -three;     // -1
  r[2] = -m7 % -three;    // -2
  r[3] = -m7 % three;     // 1
}
