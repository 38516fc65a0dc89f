// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: while and do-while loops with data-dependent trip counts (Collatz steps, digit sums), bounded
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uvec2 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = x[i] + 1u + i;
  uint steps = 0u;
  while (n != 1u && steps < 500u) {
    n = (n & 1u) == 0u ? n / 2u : 3u * n + 1u;
    steps++;
  }
  uint m = x[i] * 7919u + i, digits = 0u;
  do {
    digits += m % 10u;
    m /= 10u;
  } while (m != 0u);
  y[i] = uvec2(steps, digits);
}
