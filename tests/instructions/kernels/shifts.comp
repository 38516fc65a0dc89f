#version 450
// porta-conformance: --groups 1,1,1 --buffer random:11:256 --buffer zeros:1536
// what: shifts of signed and unsigned values, scalar and vector, by run-time amounts up to 63 (porta: amount modulo 32)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i];
  uint s = i < 32u ? i : uint(a[(i + 1u) % 64u]) & 63u;
  r[6 * i + 0] = x << s;
  r[6 * i + 1] = x >> s;
  r[6 * i + 2] = int(uint(x) >> s);
  ivec2 v = ivec2(x, x ^ 0x5a5a) << ivec2(s, 3u);
  r[6 * i + 3] = v.x ^ v.y;
  uvec2 w = uvec2(x, 7u) >> uvec2(s);
  r[6 * i + 4] = int(w.x + w.y);
  r[6 * i + 5] = x << 31;
}
