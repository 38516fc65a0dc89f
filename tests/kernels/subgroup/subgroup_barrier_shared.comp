// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupMemoryBarrierShared + subgroupBarrier order shared-memory writes between lanes of one subgroup (no work-group barrier)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };

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

shared int mailbox[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  int v = x[gl_GlobalInvocationID.x] + 1000;
  publish(l, v);
  // Partner: the next lane of this subgroup (cyclically among the lanes that exist).
  uint lane = gl_SubgroupInvocationID;
  uint next = find_lane(gl_SubgroupID, lane + 1u);
  if (next == 64u) next = find_lane(gl_SubgroupID, 0u);
  mailbox[l] = v * 2;
  subgroupMemoryBarrierShared();
  subgroupBarrier();
  int got = mailbox[next];
  mismatches[gl_GlobalInvocationID.x] = uint(got != val[next] * 2);
}
