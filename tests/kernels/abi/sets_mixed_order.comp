// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: buffers spread over sets 0, 2 and 3 and declared out of order become parameters ordered by (set, binding)
#version 450
layout(local_size_x = 64) in;

layout(set = 3, binding = 0) writeonly buffer Out { uint y[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 2, binding = 0) readonly buffer C { uint c[]; };
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Distinct weights tell which buffer each value came from.
  y[i] = a[i] + 100u * b[i] + 10000u * c[i];
}
