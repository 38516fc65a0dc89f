// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect ok=127
// porta-requires: subgroups
// what: gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups are consistent and subgroupElect picks one lane per subgroup (flags, size-independent)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;

layout(binding = 0) writeonly buffer Out { uint ok[]; };

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

shared uint elected[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  publish(l, 0);
  elected[l] = 0u;
  barrier();
  if (subgroupElect()) atomicAdd(elected[gl_SubgroupID], 1u);
  barrier();
  uint flags = 0u;
  if (gl_SubgroupInvocationID < gl_SubgroupSize) flags |= 1u;
  if (gl_SubgroupID < gl_NumSubgroups) flags |= 2u;
  if (gl_NumSubgroups * gl_SubgroupSize >= 64u) flags |= 4u;
  if (elected[gl_SubgroupID] == 1u) flags |= 8u;
  if (find_lane(gl_SubgroupID, gl_SubgroupInvocationID) == l) flags |= 16u;  // (subgroup, lane) is unique
  // The elected lane is the lowest active one: lane 0 here (all lanes active).
  if (subgroupElect() == (gl_SubgroupInvocationID == 0u)) flags |= 32u;
  subgroupBarrier();
  subgroupMemoryBarrier();
  if (bitCount(gl_SubgroupSize) == 1) flags |= 64u;
  ok[gl_GlobalInvocationID.x] = flags;
}
