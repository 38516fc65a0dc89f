// porta-conformance: --groups 2,1,1 --inputs auto --elements 8
// what: bvec and vec components written and read at dynamic indices in a loop, then any() and a component of the bvec
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { vec4 v[]; };
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 x = v[i];
  bvec4 f = greaterThan(x, vec4(0.0));
  for (uint j = 0u; j < i; ++j) { x[j % 4u] += 1.0; f[(j + 1u) % 4u] = !f[j % 4u]; }
  o[i] = x[i % 4u] + float(any(f)) + float(f[i % 4u]);
}
