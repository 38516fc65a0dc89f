// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupBroadcast (constant lane 0, lane 1 when it exists) and subgroupBroadcastFirst checked against the lane's published value
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
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

void main() {
  uint l = gl_LocalInvocationID.x;
  int v = x[gl_GlobalInvocationID.x] * 3 - 7;
  publish(l, v);
  int b0 = subgroupBroadcast(v, 0u);
  int first = subgroupBroadcastFirst(v);
  vec2 fv = subgroupBroadcast(vec2(float(v), -float(v)), 0u);
  int b1 = gl_SubgroupSize > 1u ? subgroupBroadcast(v, 1u) : 0;
  uint bad = 0u;
  uint k0 = find_lane(gl_SubgroupID, 0u), k1 = find_lane(gl_SubgroupID, 1u);
  if (b0 != val[k0]) bad |= 1u;
  if (first != val[k0]) bad |= 2u;
  if (fv != vec2(float(val[k0]), -float(val[k0]))) bad |= 4u;
  if (k1 < 64u && b1 != val[k1]) bad |= 8u;
  mismatches[gl_GlobalInvocationID.x] = bad;
}
