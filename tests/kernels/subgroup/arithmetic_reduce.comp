// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupAdd/Mul/Min/Max/And/Or/Xor on int and uint against a reference; work-group sums and extremes through elected lanes
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };
layout(binding = 2) buffer Totals { int sum[4]; int lo[4]; int hi[4]; uint bits[4]; };

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
  int s = subgroupAdd(v), mn = subgroupMin(v), mx = subgroupMax(v);
  int pr = subgroupMul((v & 1) == 0 ? 1 : -1);
  uint an = subgroupAnd(uint(v) | 0xFFFFFF00u), o = subgroupOr(1u << (uint(v) & 31u)), xr = subgroupXor(uint(v));
  int rs = 0, rmn = 0x7FFFFFFF, rmx = -0x7FFFFFFF - 1, rpr = 1;
  uint ran = 0xFFFFFFFFu, ro = 0u, rx = 0u;
  for (uint k = 0u; k < 64u; ++k) {
    if (sg_of[k] != gl_SubgroupID) continue;
    int w = val[k];
    rs += w;
    rmn = min(rmn, w);
    rmx = max(rmx, w);
    rpr *= (w & 1) == 0 ? 1 : -1;
    ran &= uint(w) | 0xFFFFFF00u;
    ro |= 1u << (uint(w) & 31u);
    rx ^= uint(w);
  }
  uint bad = uint(s != rs) | uint(mn != rmn) << 1 | uint(mx != rmx) << 2 | uint(pr != rpr) << 3 |
             uint(an != ran) << 4 | uint(o != ro) << 5 | uint(xr != rx) << 6;
  uvec2 uv = subgroupMax(uvec2(uint(v), uint(-v)));
  if (uv.x != subgroupMax(uint(v))) bad |= 128u;
  mismatches[gl_GlobalInvocationID.x] = bad;
  if (subgroupElect()) {
    uint g = gl_WorkGroupID.x;
    atomicAdd(sum[g], s);
    atomicMin(lo[g], mn);
    atomicMax(hi[g], mx);
    atomicOr(bits[g], o);
  }
}
