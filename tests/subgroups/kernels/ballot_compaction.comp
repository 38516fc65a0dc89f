// porta-conformance: --groups 8,1,1 --inputs auto --elements 1024
// what: stream compaction with ballots: each work-group of 128 keeps its positive values, in index order, at the front of its slice of the output (each invocation's place from subgroupBallotExclusiveBitCount and the subgroups' counts in shared memory) and writes how many it kept; invocations work at their rank gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID, so the result does not depend on the subgroup size or layout
// porta-requires: subgroups
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { int values[]; };
layout(binding = 1) writeonly buffer Out { int kept[]; };
layout(binding = 2) writeonly buffer Counts { uint counts[]; };
shared uint subgroup_counts[128];

void main() {
  const uint rank = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  const uint base = gl_WorkGroupID.x * 128u;
  const int v = values[base + rank];
  const bool keep = v > 0;
  const uvec4 ballot = subgroupBallot(keep);
  if (subgroupElect()) subgroup_counts[gl_SubgroupID] = subgroupBallotBitCount(ballot);
  barrier();
  uint place = subgroupBallotExclusiveBitCount(ballot), total = 0u;
  for (uint s = 0u; s < gl_NumSubgroups; ++s) {
    if (s < gl_SubgroupID) place += subgroup_counts[s];
    total += subgroup_counts[s];
  }
  // Every element of the slice is written once: the kept values, then zeros.
  if (keep) kept[base + place] = v;
  if (rank >= total) kept[base + rank] = 0;
  if (rank == 0u) counts[gl_WorkGroupID.x] = total;
}
