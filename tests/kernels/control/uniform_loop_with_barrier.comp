// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: barriers inside a loop whose trip count is uniform across the work-group (read from a value all invocations share)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int cur[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  cur[l] = x[i];
  barrier();
  int rounds = cur[0] % 5 + 1;  // the same for the whole work-group
  barrier();
  for (int r = 0; r < rounds; ++r) {
    int left = cur[(l + 63u) & 63u];
    barrier();
    cur[l] = max(cur[l], left) - 1;
    barrier();
  }
  y[i] = cur[l] * 8 + rounds;
}
