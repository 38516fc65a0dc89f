// porta-conformance: --groups 4,1,1 --inputs auto --elements 512 --expect flags=0
// porta-requires: subgroups subgroup-clustered
// what: clustered subgroup reductions (clusters of 1, 2, 4 invocations; add, min, max, or, and, float and vectors) in uniform and divergent control flow, checked per invocation; flags[i] has bit k set where check k failed, so every backend must write 0 whatever its subgroup size (clusters no larger than the subgroup)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 128) in;
layout(binding = 0) writeonly buffer Flags { uint flags[]; };

// A bvec result is something OpenCL C cannot hold.
bool same(vec2 a, vec2 b) { return a.x == b.x && a.y == b.y; }

void main() {
  const uint id = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint failed = 0u;
  // A cluster larger than the subgroup is undefined: each size where the subgroup has it.
  if (subgroupClusteredAdd(1.0, 1u) != 1.0 || subgroupClusteredMax(id, 1u) != id) failed |= 4u;
  if (size >= 2u) {
    if (subgroupClusteredMin(id, 2u) != (id & ~1u) || subgroupClusteredAnd(id | 16u, 2u) != ((id & ~1u) | 16u))
      failed |= 2u;
  }
  if (size >= 4u) {
    if (subgroupClusteredAdd(1u, 4u) != 4u || subgroupClusteredMax(id, 4u) != (id | 3u)) failed |= 1u;
    if (subgroupClusteredOr(1u << (id % 4u), 4u) != 15u) failed |= 2u;
    if (!same(subgroupClusteredAdd(vec2(id, 1.0), 4u), vec2(4u * (id & ~3u) + 6u, 4.0))) failed |= 8u;
    // Only the active invocations of a cluster count.
    if (id % 4u != 3u && subgroupClusteredAdd(1u, 4u) != 3u) failed |= 16u;
  }
  flags[gl_GlobalInvocationID.x] = failed;
}
