// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: an array of storage buffers indexed by a loop counter (a dynamically uniform index)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer Part { int v[]; } parts[4];
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int sum = 0;
  for (int k = 0; k < 4; ++k) sum += (k + 1) * parts[k].v[i];
  y[i] = sum;
}
