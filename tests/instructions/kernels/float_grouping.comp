#version 450
// porta-conformance: --groups 1,1,1 --buffer random:3:256 --buffer zeros:2048
// what: expressions of fract, mod, sign, findLSB and bitfieldInsert keep their grouping inside larger expressions
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int q = a[i] >> 8;
  float x = float(q) / 256.0, y = float(a[(i + 1u) % 64u] >> 24) + 0.5, c = 1.5;
  r[8 * i + 0] = fract(x) * c;
  r[8 * i + 1] = mod(x, y) * c;
  r[8 * i + 2] = c * mod(x, y) - mod(y, 0.75);
  r[8 * i + 3] = float(sign(q) * 3);
  r[8 * i + 4] = float(findLSB(q) * 2);
  r[8 * i + 5] = float(bitfieldInsert(q, 5, 2, 3) * 3);
  vec2 v = fract(vec2(x, y)) * c;
  r[8 * i + 6] = v.x - v.y;
  r[8 * i + 7] = -fract(x);
}
