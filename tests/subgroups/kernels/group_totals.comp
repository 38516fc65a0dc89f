// porta-conformance: --groups 8,1,1 --inputs auto --elements 1024
// what: per work-group results made from per-subgroup ones (a subgroup reduction and ballot count each written by one elected invocation to shared memory, then combined): totals, counts, maxima and a broadcast that do not depend on the subgroup size
// porta-requires: subgroups
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { int values[]; };
layout(binding = 1) writeonly buffer Out { ivec4 totals[]; };
shared ivec4 partial[128];

void main() {
  const int v = values[gl_GlobalInvocationID.x];
  const int sum = subgroupAdd(v);
  const int most = subgroupMax(v);
  const uint positives = subgroupBallotBitCount(subgroupBallot(v > 0));
  const int first = subgroupBroadcastFirst(v);
  // The first invocation of the subgroup is the one whose value it broadcast.
  const bool first_matches = subgroupAll(first == subgroupShuffle(v, subgroupBallotFindLSB(subgroupBallot(true))));
  if (subgroupElect()) partial[gl_SubgroupID] = ivec4(sum, most, int(positives), first_matches ? 1 : 0);
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    ivec4 total = partial[0];
    for (uint s = 1u; s < gl_NumSubgroups; ++s) {
      total.x += partial[s].x;
      total.y = max(total.y, partial[s].y);
      total.z += partial[s].z;
      total.w = min(total.w, partial[s].w);
    }
    totals[gl_WorkGroupID.x] = total;
  }
}
