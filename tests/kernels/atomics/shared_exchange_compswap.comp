// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicExchange and atomicCompSwap on shared memory (each invocation on its own shared slot, then neighbours read)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uvec2 y[]; };

shared uint slot[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  slot[l] = x[i];
  barrier();
  uint old = atomicExchange(slot[l], x[i] * 2u + 1u);
  uint swapped = atomicCompSwap(slot[l], x[i] * 2u + 1u, old + 7u);
  barrier();
  y[i] = uvec2(old + swapped, slot[(l + 1u) & 63u]);
}
