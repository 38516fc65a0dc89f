// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: a butterfly reduction with subgroupShuffleXor gives every lane the subgroup sum (compared with subgroupAdd); work-group totals through elected lanes
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };
layout(binding = 2) buffer Totals { uint totals[4]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = x[i];
  uint s = v;
  // Every lane of a full subgroup exists (64 is a multiple of any size up to 64); with a
  // larger subgroup the missing lanes are never partners: stop at the active lanes' span.
  uint span = min(gl_SubgroupSize, 64u);
  for (uint mask = 1u; mask < span; mask <<= 1) s += subgroupShuffleXor(s, mask);
  mismatches[i] = uint(s != subgroupAdd(v));
  if (subgroupElect()) atomicAdd(totals[gl_WorkGroupID.x], s);
}
