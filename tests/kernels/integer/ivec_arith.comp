// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: ivec/uvec arithmetic with scalar operands on either side, swizzled writes, unary minus and ++/--
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { ivec4 a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer OutU { uvec3 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec4 v = a[i] - 32;
  ivec4 w = 3 * v - v.wzyx / 2 + 5;
  w.xz = w.zx * -1;
  w++;
  --w.y;
  y[i] = w * ivec4(1, -2, 3, -4);
  uvec3 u = uvec3(v.xyz) * 2u + 1u;
  z[i] = u / uvec3(3u) + (7u - u);
}
