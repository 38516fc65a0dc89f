// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: a storage block declared std140: float and vec2 arrays have stride 16, the struct after them is 16-aligned
#version 450
layout(local_size_x = 64) in;

struct Tail { float a; vec3 b; };
layout(std140, binding = 0) readonly buffer In {
  float f[4];
  vec2 g[4];
  Tail t;
  int n;
} src;
layout(std430, binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = i & 3u;
  y[i] = src.f[k] + src.g[3u - k].y * 2.0 + src.t.b[k % 3u] * 4.0 + src.t.a + float(src.n);
}
