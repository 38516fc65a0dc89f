// porta-conformance: --groups 4,1,1 --inputs auto --elements 512 --expect flags=0
// porta-requires: subgroups
// what: subgroup operations in divergent control flow (branches, loops of different trip counts, an operation in one iteration of a loop only, early return, a loop left by a vote) take exactly the active invocations, as Vulkan defines them for invocations that reconverge at merges; flags[i] has bit k set where check k failed, so every backend must write 0 whatever its subgroup size (1 to 64)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) writeonly buffer Flags { uint flags[]; };

void main() {
  const uint id = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  uint failed = 0u;
  flags[gl_GlobalInvocationID.x] = 0u;

  // Each side of a branch on its own.
  if (id % 2u == 0u) {
    if (subgroupAdd(1u) != (size + 1u) / 2u || subgroupElect() != (id == 0u)) failed |= 1u;
    if (subgroupInclusiveAdd(1u) != id / 2u + 1u) failed |= 2u;
  } else {
    if (subgroupBallotBitCount(subgroupBallot(true)) != size / 2u || subgroupElect() != (id == 1u)) failed |= 4u;
    if (subgroupBroadcastFirst(id) != 1u || subgroupMin(id) != 1u) failed |= 8u;
  }
  // Together again after the branch.
  if (subgroupAdd(1u) != size) failed |= 16u;

  // Loops of different trip counts: in iteration k the lanes with id % 4 > k.
  uint last = 0u;
  for (uint k = 0u; k < id % 4u; ++k) last = subgroupAdd(1u);
  if (id % 4u != 0u && last != (size >= 4u ? size / 4u * (4u - id % 4u) : size - id % 4u)) failed |= 32u;

  // An operation in one iteration only, then one in every iteration.
  uint once = 0u, every = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    if (k == id % 4u) once = subgroupAdd(1u);
    every += subgroupAdd(1u);
  }
  if (once != max(size / 4u, 1u) || every != 4u * size) failed |= 64u;

  // A loop the subgroup leaves together once no lane has work left.
  uint n = id % 5u, rounds = 0u;
  const uint most = subgroupMax(n);
  while (subgroupAny(n > 0u)) {
    if (n > 0u) n--;
    rounds++;
  }
  if (rounds != most) failed |= 128u;

  // Nested: a loop inside a branch, a branch inside it.
  if (id < size / 2u) {
    for (uint k = 0u; k < 2u; ++k) {
      if (id % 2u == k) {
        if (subgroupAdd(1u) != max(size / 4u, 1u)) failed |= 256u;
      }
    }
  }

  // Early return: the lanes that go on are the active ones.
  if (gl_LocalInvocationIndex >= 100u) {
    flags[gl_GlobalInvocationID.x] = failed;
    return;
  }
  const uint running = subgroupBallotBitCount(subgroupBallot(true));
  if (subgroupAdd(1u) != running || subgroupBroadcastFirst(id) != subgroupBallotFindLSB(subgroupBallot(true)))
    failed |= 512u;
  flags[gl_GlobalInvocationID.x] = failed;
}
