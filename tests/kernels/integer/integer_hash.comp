// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: integer hashes (PCG step, xorshift, a murmur-style finaliser) relying on wrapping multiplies and shifts
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

uint pcg(uint v) {
  uint state = v * 747796405u + 2891336453u;
  uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

uint xorshift(uint x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

uint fmix(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint seed = a[i] + i * 64u;
  uint x = seed | 1u;
  for (int k = 0; k < 4; ++k) x = xorshift(x);
  y[i] = uvec4(pcg(seed), x, fmix(seed), pcg(fmix(x)));
}
