// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupAdd/Min/Max and inclusive add on floats in 1/8 steps (sums exact in any order) against a reference; work-group sums
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };
layout(binding = 2) writeonly buffer Sums { float sums[4]; };

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

shared float partial[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  float f = floor(x[gl_GlobalInvocationID.x] * 8.0) * 0.125;
  publish(l, int(f * 8.0));
  float s = subgroupAdd(f), mn = subgroupMin(f), mx = subgroupMax(f), inc = subgroupInclusiveAdd(f);
  vec2 sv = subgroupAdd(vec2(f, -2.0 * f));
  float rs = 0.0, rmn = 1e30, rmx = -1e30, rinc = 0.0;
  for (uint k = 0u; k < 64u; ++k) {
    if (sg_of[k] != gl_SubgroupID) continue;
    float w = float(val[k]) * 0.125;
    rs += w;
    rmn = min(rmn, w);
    rmx = max(rmx, w);
    if (lane_of[k] <= gl_SubgroupInvocationID) rinc += w;
  }
  mismatches[gl_GlobalInvocationID.x] = uint(s != rs) | uint(mn != rmn) << 1 | uint(mx != rmx) << 2 |
                                        uint(inc != rinc) << 3 | uint(sv != vec2(rs, -2.0 * rs)) << 4;
  partial[l] = 0.0;
  barrier();
  if (subgroupElect()) partial[gl_SubgroupID] = s;
  barrier();
  if (l == 0u) {
    float total = 0.0;
    for (uint k = 0u; k < gl_NumSubgroups; ++k) total += partial[k];
    sums[gl_WorkGroupID.x] = total;
  }
}
