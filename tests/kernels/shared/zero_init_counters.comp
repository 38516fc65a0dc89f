// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: shared counters with a null initializer (GL_EXT_null_initializer: OpVariable Workgroup with OpConstantNull) start at zero in every work-group
#version 450
#extension GL_EXT_null_initializer : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint counts[16] = {};
shared int total = {};

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  atomicAdd(counts[x[i] & 15u], 1u);
  atomicAdd(total, int(x[i]));
  barrier();
  y[i] = counts[l & 15u] * 10000u + uint(total);
}
