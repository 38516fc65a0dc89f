// porta-conformance: --groups 4,1,1 --inputs auto --elements 1024
// what: radix-sort counting pass: per-work-group histograms of a 4-bit digit (shared atomics) written to a digit-major table for the global scan
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Table { uint table[16 * 4]; };  // [digit][work-group]

shared uint counts[16];

void main() {
  uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
  if (l < 16u) counts[l] = 0u;
  barrier();
  for (uint k = 0u; k < 4u; ++k) {
    uint key = x[g * 256u + k * 64u + l] * 0x2545F491u;
    atomicAdd(counts[(key >> 4) & 15u], 1u);
  }
  barrier();
  if (l < 16u) table[l * 4u + g] = counts[l];
}
