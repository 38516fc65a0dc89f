// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups subgroup-clustered
// what: subgroupClusteredAdd/Mul/Min/Max/And/Or/Xor for cluster sizes 1, 2, 4, 8 (where the subgroup is at least that large) against a reference
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
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

// The reference for one cluster size: lanes of this subgroup with the same lane / size.
ivec4 reference(uint size, out uvec3 bits) {
  ivec4 r = ivec4(0, 1, 0x7FFFFFFF, -0x7FFFFFFF - 1);
  bits = uvec3(0xFFFFFFFFu, 0u, 0u);
  for (uint k = 0u; k < 64u; ++k) {
    if (sg_of[k] != gl_SubgroupID || lane_of[k] / size != gl_SubgroupInvocationID / size) continue;
    int w = val[k];
    r += ivec4(w, 0, 0, 0);
    r.y *= (w & 1) == 0 ? 1 : -1;
    r.z = min(r.z, w);
    r.w = max(r.w, w);
    bits.x &= uint(w) | 0xFFFFFF00u;
    bits.y |= 1u << (uint(w) & 31u);
    bits.z ^= uint(w);
  }
  return r;
}

void main() {
  uint l = gl_LocalInvocationID.x;
  int v = x[gl_GlobalInvocationID.x] - 32;
  publish(l, v);
  int sign = (v & 1) == 0 ? 1 : -1;
  uint a = uint(v) | 0xFFFFFF00u, o = 1u << (uint(v) & 31u), xo = uint(v);
  uint bad = 0u;
  uvec3 rb;
  ivec4 r = reference(1u, rb);
  if (ivec4(subgroupClusteredAdd(v, 1u), subgroupClusteredMul(sign, 1u), subgroupClusteredMin(v, 1u),
            subgroupClusteredMax(v, 1u)) != r)
    bad |= 1u;
  if (gl_SubgroupSize >= 2u) {
    r = reference(2u, rb);
    if (ivec4(subgroupClusteredAdd(v, 2u), subgroupClusteredMul(sign, 2u), subgroupClusteredMin(v, 2u),
              subgroupClusteredMax(v, 2u)) != r ||
        uvec3(subgroupClusteredAnd(a, 2u), subgroupClusteredOr(o, 2u), subgroupClusteredXor(xo, 2u)) != rb)
      bad |= 2u;
  }
  if (gl_SubgroupSize >= 4u) {
    r = reference(4u, rb);
    if (ivec4(subgroupClusteredAdd(v, 4u), subgroupClusteredMul(sign, 4u), subgroupClusteredMin(v, 4u),
              subgroupClusteredMax(v, 4u)) != r ||
        uvec3(subgroupClusteredAnd(a, 4u), subgroupClusteredOr(o, 4u), subgroupClusteredXor(xo, 4u)) != rb)
      bad |= 4u;
  }
  int sum8;
  if (gl_SubgroupSize >= 8u) {
    r = reference(8u, rb);
    sum8 = subgroupClusteredAdd(v, 8u);
    if (sum8 != r.x || uvec3(subgroupClusteredAnd(a, 8u), subgroupClusteredOr(o, 8u), subgroupClusteredXor(xo, 8u)) != rb)
      bad |= 8u;
    if (gl_SubgroupInvocationID % 8u == 0u) atomicAdd(totals[gl_WorkGroupID.x], sum8);
  } else {
    atomicAdd(totals[gl_WorkGroupID.x], v);  // the same total without clusters
  }
  mismatches[gl_GlobalInvocationID.x] = bad;
}
