// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: a work-group inclusive prefix sum from subgroupInclusiveAdd plus the totals of lower subgroups (the same result for every subgroup size); a flag checks it against a shared-memory scan
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };
layout(binding = 2) writeonly buffer Flags { uint mismatches[]; };

shared uint sg_total[64];
shared uint values[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  uint v = x[i];
  values[l] = v;
  uint inclusive = subgroupInclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u || l == 63u) sg_total[gl_SubgroupID] = inclusive;
  barrier();
  // One-dimensional work-groups are split into subgroups of consecutive local indices in
  // lane order (as every implementation does): add the totals of the lower subgroups.
  uint prefix = inclusive;
  for (uint s = 0u; s < gl_SubgroupID; ++s) prefix += sg_total[s];
  y[i] = prefix;
  uint reference = 0u;
  for (uint k = 0u; k <= l; ++k) reference += values[k];
  mismatches[i] = uint(prefix != reference);
}
