// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: the splitmix64 generator (64-bit wrapping multiplies, xor-shifts) iterated 8 times per invocation
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { uint64_t y[]; };

uint64_t splitmix(inout uint64_t state) {
  state += 0x9E3779B97F4A7C15ul;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ul;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBul;
  return z ^ (z >> 31);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint64_t state = uint64_t(a[i]) | (uint64_t(i) << 32);
  uint64_t acc = 0ul;
  for (int k = 0; k < 8; ++k) acc ^= splitmix(state) >> k;
  y[i] = acc;
}
