// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: two blocks at one binding are two views (float and uint) of one buffer; both views read the same bytes
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer AsFloat { float f[]; };
layout(binding = 0) readonly buffer AsUint { uint u[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Equal when both views alias the same bytes.
  y[i] = (floatBitsToUint(f[i]) ^ u[i]) + (u[i] >> 16);
}
