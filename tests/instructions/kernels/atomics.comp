#version 450
// porta-conformance: --groups 4,1,1 --buffer zeros:64 --buffer random:9:1024
// what: every integer atomic on a buffer and on shared memory, including atomic loads and stores (GL_KHR_memory_scope_semantics), results independent of order
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Counters { uint c[8]; int s[8]; };
layout(std430, binding = 1) readonly buffer In { uint v[]; };
shared uint su[4];
shared int ss;
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  uint x = v[i] >> 8;
  if (l == 0u) { su[0] = 0u; su[1] = 0xffffffffu; su[2] = 0u; su[3] = 0u; atomicStore(ss, 0, gl_ScopeWorkgroup, 0, 0); }
  barrier();
  atomicAdd(c[0], x & 0xffu);
  atomicMin(c[1], x | 0x1000u);
  atomicMax(c[2], x);
  atomicAnd(c[3], ~(1u << (i % 32u)));
  atomicOr(c[4], 1u << (i % 32u));
  atomicXor(c[5], x);
  atomicAdd(c[6], 1u);
  atomicMin(s[0], int(x) - 0x800000);
  atomicMax(s[1], int(x) - 0x800000);
  atomicAdd(s[2], -int(l));
  atomicAdd(su[0], 1u);
  atomicMin(su[1], x);
  atomicOr(su[2], x);
  atomicAdd(ss, int(l) - 32);
  uint old = atomicExchange(su[3], l + 1u);
  barrier();
  if (l == 0u) {
    atomicAdd(c[7], su[0] + su[1] + su[2] + (atomicLoad(su[3], gl_ScopeWorkgroup, 0, 0) != 0u ? 1u : 0u));
    atomicAdd(s[3], atomicLoad(ss, gl_ScopeWorkgroup, 0, 0));
    atomicCompSwap(s[4], 0, 1);
    atomicStore(s[5], 7, gl_ScopeDevice, 0, 0);
  }
  if (old > 64u) s[6] = 1;
}
