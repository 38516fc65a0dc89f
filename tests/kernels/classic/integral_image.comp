// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// what: integral image (2D inclusive prefix sums) of a 16x16 int image: row scans then column scans in shared memory
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer In { int img[]; };
layout(binding = 1) writeonly buffer Out { int sat[]; };

shared int s[16][16];

void main() {
  uvec2 p = gl_LocalInvocationID.xy;
  s[p.y][p.x] = img[p.y * 16u + p.x] - 32;
  barrier();
  for (uint off = 1u; off < 16u; off <<= 1) {  // along rows
    int add = p.x >= off ? s[p.y][p.x - off] : 0;
    barrier();
    s[p.y][p.x] += add;
    barrier();
  }
  for (uint off = 1u; off < 16u; off <<= 1) {  // along columns
    int add = p.y >= off ? s[p.y - off][p.x] : 0;
    barrier();
    s[p.y][p.x] += add;
    barrier();
  }
  sat[p.y * 16u + p.x] = s[p.y][p.x];
}
