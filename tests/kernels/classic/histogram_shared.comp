// porta-conformance: --groups 4,1,1 --inputs auto --elements 1024
// what: histogram with per-work-group shared bins (shared atomicAdd) merged into global bins with buffer atomicAdd
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) buffer Bins { uint bins[64]; };

shared uint local_bins[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  local_bins[l] = 0u;
  barrier();
  for (uint k = gl_GlobalInvocationID.x; k < 1024u; k += 256u) atomicAdd(local_bins[x[k] & 63u], 1u);
  barrier();
  if (local_bins[l] != 0u) atomicAdd(bins[l], local_bins[l]);
}
