#version 450
#extension GL_EXT_null_initializer : require
// porta-conformance: --groups 4,1,1 --buffer zeros:16
// what: a shared variable with a null initializer ({}) reads zero before the first store
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Out { uint r[]; };
shared uint total = {};
shared uint counts[4] = {};
void main() {
  barrier();
  atomicAdd(total, gl_LocalInvocationID.x + 1u);
  atomicAdd(counts[gl_LocalInvocationID.x % 4u], 1u);
  barrier();
  if (gl_LocalInvocationID.x == 0u) r[gl_WorkGroupID.x] = total + counts[0] + counts[3];
}
