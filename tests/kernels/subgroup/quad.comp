// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupQuadBroadcast (lanes 0..3), QuadSwapHorizontal/Vertical/Diagonal against a reference (subgroups of at least 4); quad sums to totals
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };
layout(binding = 2) buffer Totals { int totals[4]; };

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

int lane_value(uint lane) { return val[find_lane(gl_SubgroupID, lane)]; }

void main() {
  uint l = gl_LocalInvocationID.x;
  int v = x[gl_GlobalInvocationID.x] * 7 - 200;
  publish(l, v);
  uint bad = 0u;
  if (gl_SubgroupSize >= 4u) {
    uint lane = gl_SubgroupInvocationID, base = lane & ~3u;
    ivec4 b = ivec4(subgroupQuadBroadcast(v, 0u), subgroupQuadBroadcast(v, 1u), subgroupQuadBroadcast(v, 2u),
                    subgroupQuadBroadcast(v, 3u));
    ivec4 rb = ivec4(lane_value(base), lane_value(base + 1u), lane_value(base + 2u), lane_value(base + 3u));
    if (b != rb) bad |= 1u;
    int h = subgroupQuadSwapHorizontal(v), vv = subgroupQuadSwapVertical(v), d = subgroupQuadSwapDiagonal(v);
    if (h != lane_value(lane ^ 1u)) bad |= 2u;
    if (vv != lane_value(lane ^ 2u)) bad |= 4u;
    if (d != lane_value(lane ^ 3u)) bad |= 8u;
    vec2 hf = subgroupQuadSwapHorizontal(vec2(float(v), 1.0));
    if (hf.x != float(h)) bad |= 16u;
    if ((lane & 3u) == 0u) atomicAdd(totals[gl_WorkGroupID.x], v + h + vv + d);
  } else {
    atomicAdd(totals[gl_WorkGroupID.x], v);
  }
  mismatches[gl_GlobalInvocationID.x] = bad;
}
