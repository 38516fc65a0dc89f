// porta-conformance: --groups 4,1,1 --inputs auto --elements 512 --expect flags=0
// porta-requires: subgroups
// what: every subgroup operation (basic, vote, ballot, arithmetic, shuffle, relative shuffle, quad; clustered_operations.comp has the clustered ones) in uniform control flow, each checked per invocation against what Vulkan defines from gl_SubgroupInvocationID and gl_SubgroupSize; flags[i] has bit k set where check k failed, so every backend must write 0 whatever its subgroup size (1 to 128; operations that read lanes a smaller subgroup lacks are checked where it has them)
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 128) in;
layout(binding = 0) writeonly buffer Flags { uint flags[]; };

// Vectors compared component by component (a bvec result is something
// OpenCL C cannot hold).
bool same(vec2 a, vec2 b) { return a.x == b.x && a.y == b.y; }
bool same(vec3 a, vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
bool same(vec4 a, vec4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
bool same(uvec2 a, uvec2 b) { return a.x == b.x && a.y == b.y; }
bool same(ivec2 a, ivec2 b) { return a.x == b.x && a.y == b.y; }
bool same(ivec3 a, ivec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

uint failed = 0u;
void check(uint k, bool ok) {
  if (!ok) failed |= 1u << k;
}

void main() {
  const uint id = gl_SubgroupInvocationID, size = gl_SubgroupSize;
  check(0, gl_NumSubgroups * size == 128u && gl_SubgroupID < gl_NumSubgroups && id < size);
  check(1, subgroupElect() == (id == 0u));
  check(2, subgroupAll(id < size) && subgroupAny(id == 0u) && !subgroupAny(id >= size) &&
               subgroupAll(id != 1u) == (size == 1u));
  check(3, subgroupAllEqual(gl_SubgroupID) && subgroupAllEqual(id) == (size == 1u) && subgroupAllEqual(vec2(1.5, 2.0)));
  // A broadcast from a lane the subgroup does not have is undefined.
  check(4, (size < 3u || subgroupBroadcast(id * 3u, 2u) == 6u) && subgroupBroadcastFirst(id + 5u) == 5u &&
               (size < 2u || same(subgroupBroadcast(vec3(id), 1u), vec3(1.0))));

  const uvec4 b = subgroupBallot(id % 3u == 0u);
  check(5, subgroupBallotBitCount(b) == (size + 2u) / 3u && subgroupBallotBitExtract(b, id) == (id % 3u == 0u) &&
               subgroupInverseBallot(b) == (id % 3u == 0u));
  check(6, subgroupBallotFindLSB(b) == 0u && subgroupBallotFindMSB(b) == (size - 1u) / 3u * 3u);
  check(7, subgroupBallotInclusiveBitCount(b) == id / 3u + 1u && subgroupBallotExclusiveBitCount(b) == (id + 2u) / 3u);
  check(8, subgroupBallotBitCount(gl_SubgroupLtMask) == id && subgroupBallotBitCount(gl_SubgroupLeMask) == id + 1u &&
               subgroupBallotBitCount(gl_SubgroupGeMask) == size - id &&
               subgroupBallotBitCount(gl_SubgroupGtMask) == size - id - 1u &&
               subgroupBallotBitCount(gl_SubgroupEqMask) == 1u && subgroupBallotBitExtract(gl_SubgroupEqMask, id));

  check(9, subgroupAdd(1u) == size && subgroupAdd(id) == size * (size - 1u) / 2u &&
               subgroupMul(id == 0u ? 2u : 1u) == 2u && subgroupMin(id + 7u) == 7u &&
               subgroupMax(int(id)) == int(size - 1u));
  check(10, subgroupAnd(id | 0x100u) == 0x100u && subgroupOr(id == 2u ? 6u : 1u) == (size > 2u ? 7u : 1u) &&
                subgroupXor(id == 1u ? 5u : 0u) == (size > 1u ? 5u : 0u) && subgroupMin(-int(id)) == -int(size - 1u));
  check(11, subgroupAdd(1.5) == 1.5 * float(size) && subgroupMax(float(id)) == float(size - 1u) &&
                subgroupMin(float(id) - 0.5) == -0.5 && subgroupMul(id < 3u ? 2.0 : 1.0) == float(1u << min(size, 3u)));
  check(12, same(subgroupAdd(uvec2(1u, id)), uvec2(size, size * (size - 1u) / 2u)) &&
                same(subgroupMax(ivec3(id, -int(id), 7)), ivec3(size - 1u, 0, 7)) &&
                same(subgroupAdd(vec4(1.0, 0.5, 0.25, 2.0)), vec4(1.0, 0.5, 0.25, 2.0) * float(size)));
  check(13, subgroupAnd(id < 3u) == (size <= 3u) && subgroupOr(id == 0u) && subgroupXor(id < 3u) == (min(size, 3u) % 2u == 1u));

  check(14, subgroupInclusiveAdd(1u) == id + 1u && subgroupExclusiveAdd(1u) == id &&
                subgroupExclusiveMin(id) == (id == 0u ? 0xffffffffu : 0u) && subgroupInclusiveMax(id) == id);
  check(15, subgroupExclusiveMul(2u) == (id < 32u ? 1u << id : 0u) && subgroupInclusiveAdd(1.0) == float(id + 1u) &&
                same(subgroupExclusiveAdd(ivec2(1, -1)), ivec2(id, -int(id))));
  check(16, subgroupExclusiveOr(id == 0u ? 8u : 1u) == (id == 0u ? 0u : id == 1u ? 8u : 9u) &&
                subgroupInclusiveXor(1u) == (id + 1u) % 2u && subgroupExclusiveMax(-1.0) == (id == 0u ? -1.0 / 0.0 : -1.0));

  check(17, subgroupShuffle(id * 2u, (id + 1u) % size) == (id + 1u) % size * 2u &&
                (size < 2u || subgroupShuffleXor(id, 1u) == (id ^ 1u)) &&
                (size < 4u || same(subgroupShuffleXor(vec2(id, 1.0), 3u), vec2(id ^ 3u, 1.0))));
  const uint up = subgroupShuffleUp(id + 100u, 1u), down = subgroupShuffleDown(id + 100u, 2u);
  check(18, (id < 1u || up == id + 99u) && (id + 2u >= size || down == id + 102u));

  // Quads need 4 lanes.
  check(20, size < 4u || subgroupQuadBroadcast(id, 2u) == ((id & ~3u) | 2u) && subgroupQuadSwapHorizontal(id) == (id ^ 1u) &&
                subgroupQuadSwapVertical(id) == (id ^ 2u) && same(subgroupQuadSwapDiagonal(vec2(id)), vec2(id ^ 3u)));

  flags[gl_GlobalInvocationID.x] = failed;
}
