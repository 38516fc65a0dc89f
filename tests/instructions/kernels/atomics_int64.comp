#version 450
// porta-conformance: --groups 4,1,1 --buffer zeros:64 --buffer random:9:2048
// porta-requires: atomic-int64 int64
// what: 64-bit integer atomics on buffers and shared memory, results independent of order
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Counters { uint64_t u[3]; int64_t s[3]; };
layout(std430, binding = 1) readonly buffer In { uint64_t v[]; };
shared int64_t si;
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  uint64_t x = v[i];
  if (l == 0u) { si = 0l; }
  barrier();
  atomicAdd(u[0], x >> 8);
  atomicMax(u[1], x);
  atomicOr(u[2], x & 0xff00ff00ff00ff00ul);
  atomicMin(s[0], int64_t(x));
  atomicAdd(s[1], -int64_t(x >> 16));
  atomicXor(s[2], int64_t(x));
  atomicAdd(si, int64_t(l) - 32l);
  barrier();
  if (l == 0u) { atomicAdd(s[1], si); }
}
