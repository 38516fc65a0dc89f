// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// porta-requires: fp64
// what: a double dot product over 64 elements in a fixed order per invocation (exact products; the same roundings everywhere)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer Out { double y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  double acc = 0.0lf;
  for (uint k = 0u; k < 64u; ++k) acc += double(a[(i + k) & 63u]) * double(b[k]);
  y[i] = acc;
}
