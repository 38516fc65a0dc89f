// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupAdd, subgroupBallotBitCount and subgroupElect inside a data-dependent branch cover only the active lanes
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };
layout(binding = 2) buffer Totals { int odd_sum[4]; uint odd_count[4]; };

// Where each local invocation sits in its subgroup, for the reference computed with
// plain shared memory (any mapping of invocations to subgroups and any size).
shared uint sg_of[64];
shared uint lane_of[64];
shared int val[64];

// Local index of lane `lane` of subgroup `sg`, or 64 when the subgroup has no such lane.
uint find_lane(uint sg, uint lane) {
  for (uint k = 0u; k < 64u; ++k)
    if (sg_of[k] == sg && lane_of[k] == lane) return k;
  return 64u;
}

void publish(uint l, int v) {
  sg_of[l] = gl_SubgroupID;
  lane_of[l] = gl_SubgroupInvocationID;
  val[l] = v;
  barrier();
}

void main() {
  uint l = gl_LocalInvocationID.x;
  int v = x[gl_GlobalInvocationID.x];
  publish(l, v);
  uint bad = 0u;
  if ((v & 1) == 1) {
    int s = subgroupAdd(v);
    uint n = subgroupBallotBitCount(subgroupBallot(true));
    int rs = 0;
    uint rn = 0u, lowest = 128u;
    for (uint k = 0u; k < 64u; ++k) {
      if (sg_of[k] != gl_SubgroupID || (val[k] & 1) != 1) continue;
      rs += val[k];
      rn++;
      lowest = min(lowest, lane_of[k]);
    }
    if (s != rs || n != rn) bad |= 1u;
    bool elected = subgroupElect();
    if (elected != (gl_SubgroupInvocationID == lowest)) bad |= 2u;
    if (elected) {
      atomicAdd(odd_sum[gl_WorkGroupID.x], s);
      atomicAdd(odd_count[gl_WorkGroupID.x], n);
    }
  } else {
    if (subgroupAny((v & 1) == 1)) bad |= 4u;  // only even lanes are active here
  }
  mismatches[gl_GlobalInvocationID.x] = bad;
}
