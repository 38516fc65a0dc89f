#version 450
// d[i] += add, optionally after `iterations` rounds of busy work (for timing tests).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Data { uint d[]; };
layout(push_constant) uniform Push {
  uint n;
  uint add;
  uint iterations;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  uint v = d[i];
  uint noise = v;
  // xorshift: no closed form for the compiler to replace the loop with.
  for (uint k = 0; k < p.iterations; ++k) {
    noise ^= noise << 13;
    noise ^= noise >> 17;
    noise ^= (noise << 5) + k;
  }
  // Never true for the values the tests use; keeps the loop from being optimised away.
  d[i] = v + p.add + (noise == 0xdeadbeefu ? 1u : 0u);
}
