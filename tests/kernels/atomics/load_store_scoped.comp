// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicLoad and atomicStore (OpAtomicLoad/OpAtomicStore) on buffer and shared words, relaxed and acquire/release
#version 450
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) buffer Out { uint y[]; };

shared uint total;

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  if (l == 0u) atomicStore(total, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
  barrier();
  atomicAdd(total, x[i]);
  barrier();
  uint t = atomicLoad(total, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire);
  uint mine = atomicLoad(y[i], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
  atomicStore(y[i], t * 2u + (mine & 1u), gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
