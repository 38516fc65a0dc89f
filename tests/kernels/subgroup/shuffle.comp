// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupShuffle with data-dependent and rotated lane indices, and subgroupShuffleXor for every mask below the subgroup size
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
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
  int v = x[gl_GlobalInvocationID.x] * 5 - 100;
  publish(l, v);
  uint lane = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint bad = 0u;
  uint src = (lane + 1u) % size;
  int r = subgroupShuffle(v, src);
  uint k = find_lane(gl_SubgroupID, src);
  if (k < 64u && r != val[k]) bad |= 1u;
  uint dsrc = uint(v + 100) % size;  // data-dependent source lane
  ivec2 rv = subgroupShuffle(ivec2(v, -v), dsrc);
  k = find_lane(gl_SubgroupID, dsrc);
  if (k < 64u && rv != ivec2(val[k], -val[k])) bad |= 2u;
  for (uint mask = 1u; mask < size && mask < 64u; mask <<= 1) {
    float f = subgroupShuffleXor(float(v), mask);
    k = find_lane(gl_SubgroupID, lane ^ mask);
    if (k < 64u && f != float(val[k])) bad |= 4u;
  }
  mismatches[gl_GlobalInvocationID.x] = bad;
}
