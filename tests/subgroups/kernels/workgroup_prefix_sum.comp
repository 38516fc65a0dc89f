// porta-conformance: --groups 8,1,1 --inputs auto --elements 1024
// what: an inclusive prefix sum over each work-group of 128 made of subgroup scans and the subgroups' totals in shared memory; each invocation works at its rank gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID, so the result is the prefix sum of the input in index order whatever the subgroup size and however a device maps invocations to subgroups
// porta-requires: subgroups
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { int values[]; };
layout(binding = 1) writeonly buffer Out { int prefix[]; };
shared int totals[128];

void main() {
  const uint rank = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  const uint at = gl_WorkGroupID.x * 128u + rank;
  const int v = values[at];
  const int within = subgroupInclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) totals[gl_SubgroupID] = within;
  barrier();
  int before = 0;
  for (uint s = 0u; s < gl_SubgroupID; ++s) before += totals[s];
  prefix[at] = before + within;
}
