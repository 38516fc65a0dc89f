// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: writes into each element of an array of storage buffers (each a distinct parameter)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Outs { uint v[]; } outs[4];

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint a = x[i];
  outs[0].v[i] = a;
  outs[1].v[i] = a * 2u;
  outs[2].v[i] = a ^ 0x55u;
  outs[3].v[i] = a + i;
}
