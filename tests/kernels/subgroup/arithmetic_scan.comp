// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupInclusive/Exclusive Add, Mul, Min, Max, And, Or, Xor (lane order) against a reference over lower lanes
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
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
  int v = x[gl_GlobalInvocationID.x] - 32;
  publish(l, v);
  uint lane = gl_SubgroupInvocationID;
  int ia = subgroupInclusiveAdd(v), ea = subgroupExclusiveAdd(v);
  int im = subgroupInclusiveMin(v), em = subgroupExclusiveMin(v);
  int iM = subgroupInclusiveMax(v), eM = subgroupExclusiveMax(v);
  int ip = subgroupInclusiveMul((v & 1) == 0 ? 1 : -1), ep = subgroupExclusiveMul((v & 2) == 0 ? 1 : -1);
  uint io = subgroupInclusiveOr(1u << (uint(v) & 31u)), ex = subgroupExclusiveXor(uint(v));
  uint iand = subgroupInclusiveAnd(uint(v) | 0xFFFF0000u);
  int ra = 0, rm = 0x7FFFFFFF, rM = -0x7FFFFFFF - 1, rp = 1, rq = 1;
  uint ro = 0u, rx = 0u, rand = 0xFFFFFFFFu;
  for (uint k = 0u; k < 64u; ++k) {
    if (sg_of[k] != gl_SubgroupID || lane_of[k] >= lane) continue;  // strictly lower lanes
    int w = val[k];
    ra += w;
    rm = min(rm, w);
    rM = max(rM, w);
    rp *= (w & 1) == 0 ? 1 : -1;
    rq *= (w & 2) == 0 ? 1 : -1;
    ro |= 1u << (uint(w) & 31u);
    rx ^= uint(w);
    rand &= uint(w) | 0xFFFF0000u;
  }
  uint bad = 0u;
  if (ea != ra || ia != ra + v) bad |= 1u;
  if (em != rm || im != min(rm, v)) bad |= 2u;
  if (eM != rM || iM != max(rM, v)) bad |= 4u;
  if (ip != rp * ((v & 1) == 0 ? 1 : -1) || ep != rq) bad |= 8u;
  if (io != (ro | 1u << (uint(v) & 31u)) || ex != rx) bad |= 16u;
  if (iand != (rand & (uint(v) | 0xFFFF0000u))) bad |= 32u;
  mismatches[gl_GlobalInvocationID.x] = bad;
}
