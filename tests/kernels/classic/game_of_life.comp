// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: one Game of Life generation on a 32x32 toroidal grid (cells alive where the input word is odd)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer In { uint cells[]; };
layout(binding = 1) writeonly buffer Out { uint next[]; };

uint alive(ivec2 q) { return cells[((q.y + 32) & 31) * 32 + ((q.x + 32) & 31)] & 1u; }

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  uint n = 0u;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx != 0 || dy != 0) n += alive(p + ivec2(dx, dy));
  uint self = alive(p);
  next[p.y * 32 + p.x] = uint(n == 3u || (self == 1u && n == 2u)) | (n << 4);
}
