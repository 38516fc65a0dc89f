// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupAll, subgroupAny, subgroupAllEqual (int, float, vector) against a shared-memory reference; work-group counts of true votes
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
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
  int v = x[gl_GlobalInvocationID.x] & 63;  // the range of --inputs auto, whatever the data
  publish(l, v);
  bool p = v < 48;
  bool all_p = subgroupAll(p), any_p = subgroupAny(v > 60), eq = subgroupAllEqual(v & 1);
  bool eqf = subgroupAllEqual(float(v >> 5)), eqv = subgroupAllEqual(ivec2(v >> 4, 1));
  bool ref_all = true, ref_any = false, ref_eq = true, ref_eqf = true, ref_eqv = true;
  for (uint k = 0u; k < 64u; ++k) {
    if (sg_of[k] != gl_SubgroupID) continue;
    ref_all = ref_all && val[k] < 48;
    ref_any = ref_any || val[k] > 60;
    ref_eq = ref_eq && (val[k] & 1) == (v & 1);
    ref_eqf = ref_eqf && (val[k] >> 5) == (v >> 5);
    ref_eqv = ref_eqv && (val[k] >> 4) == (v >> 4);
  }
  uint bad = uint(all_p != ref_all) | uint(any_p != ref_any) << 1 | uint(eq != ref_eq) << 2 |
             uint(eqf != ref_eqf) << 3 | uint(eqv != ref_eqv) << 4;
  // Uniform votes give the same answer for any subgroup size.
  bool always = subgroupAll(v >= 0) && !subgroupAny(v >= 64) && subgroupAllEqual(7);
  mismatches[gl_GlobalInvocationID.x] = bad | uint(!always) << 5;
}
