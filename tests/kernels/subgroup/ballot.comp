// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --expect mismatches=0
// porta-requires: subgroups
// what: subgroupBallot, InverseBallot, BallotBitExtract, BitCount, Inclusive/ExclusiveBitCount, FindLSB/MSB and the lane masks, against a reference
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { uint mismatches[]; };
layout(binding = 2) buffer Count { uint count[4]; };

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

bool bit(uvec4 b, uint k) { return ((b[k >> 5] >> (k & 31u)) & 1u) != 0u; }

void main() {
  uint l = gl_LocalInvocationID.x;
  int v = x[gl_GlobalInvocationID.x];
  publish(l, v);
  bool p = (v & 3) != 0;
  uvec4 b = subgroupBallot(p);
  uint lane = gl_SubgroupInvocationID;
  uvec4 ref = uvec4(0u);
  uint lowest = 128u, highest = 0u, below = 0u;
  for (uint k = 0u; k < 64u; ++k) {
    if (sg_of[k] != gl_SubgroupID || (val[k] & 3) == 0) continue;
    uint ln = lane_of[k];
    ref[ln >> 5] |= 1u << (ln & 31u);
    lowest = min(lowest, ln);
    highest = max(highest, ln);
    if (ln < lane) below++;
  }
  uint bad = 0u;
  if (b != ref) bad |= 1u;
  if (subgroupInverseBallot(b) != p) bad |= 2u;
  if (subgroupBallotBitExtract(b, lane) != p) bad |= 4u;
  if (subgroupBallotBitCount(b) != bitCount(ref.x) + bitCount(ref.y) + bitCount(ref.z) + bitCount(ref.w)) bad |= 8u;
  if (subgroupBallotExclusiveBitCount(b) != below) bad |= 16u;
  if (subgroupBallotInclusiveBitCount(b) != below + uint(p)) bad |= 32u;
  if (lowest < 128u && (subgroupBallotFindLSB(b) != lowest || subgroupBallotFindMSB(b) != highest)) bad |= 64u;
  if (gl_SubgroupEqMask != uvec4(lane < 32u ? 1u << lane : 0u, lane >= 32u && lane < 64u ? 1u << (lane - 32u) : 0u,
                                 lane >= 64u && lane < 96u ? 1u << (lane - 64u) : 0u, lane >= 96u ? 1u << (lane - 96u) : 0u))
    bad |= 128u;
  uvec4 lt = gl_SubgroupLtMask, le = gl_SubgroupLeMask, gt = gl_SubgroupGtMask, ge = gl_SubgroupGeMask;
  if ((lt | gl_SubgroupEqMask) != le || (gt | gl_SubgroupEqMask) != ge || (lt & ge) != uvec4(0u)) bad |= 256u;
  if (bit(lt, lane) || !bit(le, lane) || !bit(ge, lane) || bit(gt, lane)) bad |= 512u;
  mismatches[gl_GlobalInvocationID.x] = bad;
  // The work-group's number of true votes, counted once per subgroup: size-independent.
  if (subgroupElect()) atomicAdd(count[gl_WorkGroupID.x], subgroupBallotBitCount(b));
}
