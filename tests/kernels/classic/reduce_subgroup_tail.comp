// porta-conformance: --groups 4,1,1 --inputs auto --elements 512
// porta-requires: subgroups
// what: warp-level reduction: two elements per invocation, subgroupAdd within subgroups, subgroup partials summed in shared memory (size-independent, integer)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int sums[]; };

shared int partial[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  uint base = gl_WorkGroupID.x * 128u;
  int v = (x[base + l] - 32) + (x[base + l + 64u] - 32) * 3;
  int s = subgroupAdd(v);
  if (subgroupElect()) partial[gl_SubgroupID] = s;
  barrier();
  if (l == 0u) {
    int total = 0;
    for (uint k = 0u; k < gl_NumSubgroups; ++k) total += partial[k];
    sums[gl_WorkGroupID.x] = total;
  }
}
