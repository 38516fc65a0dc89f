// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: uaddCarry (OpIAddCarry) chains a 128-bit addition across four words; scalar and uvec2 forms
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uvec4 a[]; };
layout(binding = 1) readonly buffer B { uvec4 b[]; };
layout(binding = 2) writeonly buffer Sum { uvec4 s[]; };
layout(binding = 3) writeonly buffer Carries { uvec4 c[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec4 x = a[i] * 0x0F0F0F0Fu + 0xF0000000u;  // large words so carries happen
  uvec4 y = b[i] * 0x11111111u + 0xE0000000u;
  uvec4 r;
  uint carry = 0u, c0, c1;
  for (int k = 0; k < 4; ++k) {
    r[k] = uaddCarry(x[k], y[k], c0);
    r[k] = uaddCarry(r[k], carry, c1);
    carry = c0 + c1;
  }
  s[i] = r;
  uvec2 cv;
  uvec2 rv = uaddCarry(x.xy, y.zw, cv);
  c[i] = uvec4(carry, cv, rv.x ^ rv.y);
}
