// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: stream compaction within a work-group: kept values land at their rank among kept values in local-index order (ballot bit counts plus shared subgroup counts); the ballot counts are checked against the shared flags
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };  // 64 slots per work-group
layout(binding = 2) writeonly buffer Count { uint count[4]; };
layout(binding = 3) writeonly buffer Flags { uint mismatches[]; };

shared uint keep[64];
shared uint sg_kept[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  uint v = x[i];
  bool k = (v % 3u) != 0u;
  keep[l] = uint(k);
  uvec4 b = subgroupBallot(k);
  if (subgroupElect()) sg_kept[gl_SubgroupID] = subgroupBallotBitCount(b);
  barrier();
  // Subgroups hold consecutive local indices in lane order (one-dimensional work-group):
  // rank = kept values of lower subgroups + kept lower lanes of this one.
  uint rank = subgroupBallotExclusiveBitCount(b);
  for (uint s = 0u; s < gl_SubgroupID; ++s) rank += sg_kept[s];
  uint total = 0u, reference = 0u;
  for (uint j = 0u; j < 64u; ++j) {
    total += keep[j];
    if (j < l) reference += keep[j];
  }
  mismatches[i] = uint(rank != reference);
  uint base = gl_WorkGroupID.x * 64u;
  if (k) y[base + rank] = v;
  if (l >= total) y[base + l] = 0xFFFFFFFFu;  // slots past the kept values
  if (l == 0u) count[gl_WorkGroupID.x] = total;
}
