// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: private bool arrays and bvec4 dynamic indexing (a sieve of small primes per invocation)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  bool composite[64];
  for (int k = 0; k < 64; ++k) composite[k] = k < 2;
  for (int p = 2; p * p < 64; ++p)
    if (!composite[p])
      for (int m = p * p; m < 64; m += p) composite[m] = true;
  uint n = a[i];
  bvec4 near = bvec4(!composite[n], !composite[(n + 1u) & 63u], !composite[(n + 2u) & 63u], !composite[(n + 3u) & 63u]);
  uint count = 0u;
  for (int k = 0; k < 4; ++k) count += near[k] ? 1u << k : 0u;
  y[i] = count;
}
