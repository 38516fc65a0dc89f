// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupShuffleUp/Down by 1, 2 and a uniform delta where the source lane exists; a Hillis-Steele scan with ShuffleUp equals subgroupInclusiveAdd
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) readonly buffer Delta { uint delta[]; };
layout(binding = 2) writeonly buffer Out { uint mismatches[]; };

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
  int v = x[gl_GlobalInvocationID.x] - 20;
  publish(l, v);
  uint lane = gl_SubgroupInvocationID;
  uint bad = 0u;
  int up1 = subgroupShuffleUp(v, 1u), down1 = subgroupShuffleDown(v, 1u);
  vec2 up2 = subgroupShuffleUp(vec2(v, 0.5), 2u);
  uint d = delta[0] & 7u;  // the same for every invocation: dynamically uniform
  int downd = subgroupShuffleDown(v, d);
  uint k;
  if (lane >= 1u && (k = find_lane(gl_SubgroupID, lane - 1u)) < 64u && up1 != val[k]) bad |= 1u;
  if ((k = find_lane(gl_SubgroupID, lane + 1u)) < 64u && lane + 1u < gl_SubgroupSize && down1 != val[k]) bad |= 2u;
  if (lane >= 2u && (k = find_lane(gl_SubgroupID, lane - 2u)) < 64u && up2 != vec2(val[k], 0.5)) bad |= 4u;
  if ((k = find_lane(gl_SubgroupID, lane + d)) < 64u && lane + d < gl_SubgroupSize && downd != val[k]) bad |= 8u;
  int scan = v;
  for (uint off = 1u; off < gl_SubgroupSize; off <<= 1) {
    int other = subgroupShuffleUp(scan, off);
    if (lane >= off) scan += other;
  }
  if (scan != subgroupInclusiveAdd(v)) bad |= 16u;
  mismatches[gl_GlobalInvocationID.x] = bad;
}
