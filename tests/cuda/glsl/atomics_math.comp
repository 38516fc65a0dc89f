#version 450
// Integer atomics whose old value is used and unused, bit operations and math
// built-ins that collide with the CUDA math library's global names.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float x[]; };
layout(set = 0, binding = 1) buffer Counters { uint count; uint maxbits; int slots[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float y = sqrt(abs(x[i])) + exp(min(x[i], 1.0)) + pow(2.0, clamp(x[i], -1.0, 1.0));
  x[i] = floor(y * 8.0) / 8.0;
  atomicAdd(count, 1u);
  atomicMax(maxbits, uint(bitCount(i) + findMSB(i + 1u)));
  int old = atomicExchange(slots[i % 4u], int(i));
  if (old < -1) x[i] = 0.0;
}
