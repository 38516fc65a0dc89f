#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#ifdef COOP_F16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
// C = act(alpha * op(A) * op(B) + beta * C + bias) by cooperative matrices
// (tensor cores): the parameters, push constants, INPUT, BIAS, ACTIVATION
// and the batch walk are matmul.comp's (read its header). This source is
// compiled twice (kernels/CMakeLists.txt):
//   matmul_coop_f16: COOP_F16 defined, float16 A and B matrices (INPUT 1);
//   matmul_coop_f32: float32 A and B matrices, for bfloat16 inputs (INPUT 2:
//     a bfloat16 value is exact in float32 and in TF32, so the products are
//     those of float32 whatever precision the device's float32 matrices have)
//     and for float32 inputs where the caller allows TF32 (INPUT 0).
// Both accumulate in float32 matrices of 16 x 16; the host runs a variant
// only where the device lists its 16x16x16 multiply-add (Vulkan checks the
// module against the device's list; the translator lowers it elsewhere).
//
// A work-group of WARPS_M x WARPS_N subgroup tiles computes a block of
// BM x BN = (16 TILES_M WARPS_M) x (16 TILES_N WARPS_N) elements of C; each
// subgroup tile holds TILES_M x TILES_N accumulators in registers. A and B
// pass through shared memory in BK-deep slices (BK a multiple of 16) in the
// matrices' type (float16 bits as loaded, bfloat16 widened, float32 as
// loaded), in two stages: while the subgroups multiply the slice of one
// stage, the next slice is staged into the other, so each slice costs one
// barrier. op(A)'s slice keeps A's memory order (rows of the block when A is
// as stored, loaded row-major; depths when A is transposed, loaded
// column-major), op(B)'s is row-major by depth. Rows along the depth are
// padded by PAD_K elements (16 bytes), rows along M or N by PAD_MN (16 bytes
// of float16; 32 of float32, where CUDA's TF32 fragments read single
// elements of four rows of such a slice at once, which 8 elements of padding
// put in distinct banks) against bank conflicts; every row starts on 16
// bytes, so CUDA's tensor-core lowering reads float16 slices with ldmatrix.
// Elements outside op(A) and op(B) are staged as zeros, so a block at the
// edge multiplies as a whole and only its stores are tested.
//
// Staging moves runs of consecutive elements in memory: 16 bytes (8 16-bit
// or 4 float32 elements) where the host sets VEC (every run aligned), else
// single elements. A float16 run goes into shared memory as the words it was
// loaded as (put_run_a/b), so that CUDA stores it with one 16-byte store.
// With PREFETCH (VEC and few enough runs per item: the host checks) the next
// slice, where it lies wholly inside A and B, is loaded into registers as
// raw 16-byte words before the multiply-adds, one load per run and no test,
// and stored into the other stage after them, so the global loads are in
// flight during the multiply-adds; otherwise (the last slice of a block at
// the edge) the next slice is loaded and stored before the multiply-adds,
// run by run, each tested.
//
// The host sizes the group as its subgroup size times WARPS_M * WARPS_N, so
// that subgroup w owns subgroup tile w. Where the device's subgroups are
// smaller than it reported, the extra subgroups only stage slices; where they
// are larger (too few subgroups for the tiles), the kernel writes NaN to its
// block instead of leaving tiles out. (A loop of the subgroups over the tiles
// would cover that case, but PoCL's work-group compiler rejects barriers in
// such a loop.)
//
// The epilogue: each accumulator goes through a shared 16 x 16 float32 tile
// of its subgroup, from where the subgroup's items apply alpha, beta, the
// bias and the activation element by element (store_c), testing C's bounds.
// No matrix is loaded from C and stored back, so subgroups of one work-item
// (OpenCL without subgroups) run it too.
//
// Specialization constants: 0 the group's items, 1-2 WARPS_M/WARPS_N, 3-4
// TILES_M/TILES_N, 5 BK, 6 PREFETCH; 7-9 as matmul.comp; 10 VEC; 11-12
// TRANS_A/TRANS_B (op(A) = A^T, op(B) = B^T: constants, so that the staging's
// index arithmetic folds; the push constants' trans_a/trans_b are not read).
// The host keeps BM, BN <= 128, WARPS_M * WARPS_N <= 8 and BK <= BK_MAX, the
// sizes of the shared arrays.
layout(local_size_x = 128) in;
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint WARPS_M = 2;
layout(constant_id = 2) const uint WARPS_N = 2;
layout(constant_id = 3) const uint TILES_M = 2;
layout(constant_id = 4) const uint TILES_N = 2;
layout(constant_id = 5) const uint BK = 16;
layout(constant_id = 6) const uint PREFETCH = 0;
layout(constant_id = 7) const uint INPUT = 0;
layout(constant_id = 8) const uint BIAS = 0;
layout(constant_id = 9) const uint ACTIVATION = 0;
layout(constant_id = 10) const uint VEC = 0;
layout(constant_id = 11) const uint TRANS_A = 0;
layout(constant_id = 12) const uint TRANS_B = 0;

#ifdef COOP_F16
#define ELEM float16_t
const uint BK_MAX = 32;
const uint PAD_K = 8, PAD_MN = 8;
#else
#define ELEM float
const uint BK_MAX = 16;
const uint PAD_K = 4, PAD_MN = 8;
#endif
const uint TILE = 16;
const uint BM_MAX = 128, BN_MAX = 128;  // the host keeps BM, BN <= 128
const uint WARPS_MAX = 8;               // and WARPS_M * WARPS_N <= 8
const uint STAGES = 2;

layout(set = 0, binding = 0) readonly buffer MatA { float a[]; };
layout(set = 0, binding = 0) readonly buffer MatA16 { uint a16[]; };
layout(set = 0, binding = 0) readonly buffer MatA4 { vec4 a4[]; };
layout(set = 0, binding = 0) readonly buffer MatA8 { uvec4 a8[]; };
layout(set = 0, binding = 1) readonly buffer MatB { float b[]; };
layout(set = 0, binding = 1) readonly buffer MatB16 { uint b16[]; };
layout(set = 0, binding = 1) readonly buffer MatB4 { vec4 b4[]; };
layout(set = 0, binding = 1) readonly buffer MatB8 { uvec4 b8[]; };
layout(set = 0, binding = 2) buffer MatC { float c[]; };
layout(set = 0, binding = 3) readonly buffer Bias { float bias[]; };

layout(push_constant) uniform Params {
  uint M;
  uint N;
  uint K;
  uint lda;
  uint ldb;
  uint ldc;
  uint a_offset;
  uint b_offset;
  uint c_offset;
  uint trans_a;
  uint trans_b;
  float alpha;
  float beta;
  uint a_batch;
  uint b_batch;
  uint c_batch;
  uint row_groups;
  uint bias_offset;
} p;

// One stage of op(A)'s slice: [row of the block][k], row stride BK + PAD_K,
// or with TRANS_A [k][row of the block], row stride BM + PAD_MN (no larger);
// one stage of op(B)'s: [k][column of the block], row stride BN + PAD_MN.
const uint STAGE_A = BM_MAX * (BK_MAX + PAD_K), STAGE_B = BK_MAX * (BN_MAX + PAD_MN);
shared ELEM tile_a[STAGES * STAGE_A];
shared ELEM tile_b[STAGES * STAGE_B];
shared float tile_c[WARPS_MAX * TILE * TILE];  // one 16 x 16 tile per subgroup tile
// Zeros the accumulators start from, loaded as a matrix: a constant matrix
// in an array of matrices does not survive the translator's lowering (its
// C++ leaves the constant undeclared), a load does. Only loaded, so
// subgroups of one work-item take it too.
shared float zeros[TILE * TILE];

uint a_base, b_base, c_base;

// The 16-bit element e of a packed array of words in the matrices' type:
// float16 bits as they are (no conversion), bfloat16 widened to float32
// (exact).
ELEM unpack16(uint word, uint e) {
  const uint bits = e % 2u == 0u ? word & 0xffffu : word >> 16;
#ifdef COOP_F16
  return uint16BitsToFloat16(uint16_t(bits));
#else
  return INPUT == 2u ? uintBitsToFloat(bits << 16) : unpackHalf2x16(bits).x;
#endif
}

// Element t of a run held as its raw 16 bytes (float32 as bits).
ELEM unpack_run(uvec4 q, uint t) {
  if (INPUT == 0u) return ELEM(uintBitsToFloat(q[t]));
  return unpack16(q[t / 2u], t);
}

ELEM load_a(uint at) { return INPUT == 0u ? ELEM(a[at]) : unpack16(a16[at / 2u], at); }
ELEM load_b(uint at) { return INPUT == 0u ? ELEM(b[at]) : unpack16(b16[at / 2u], at); }

// Runs: RUN consecutive elements in memory, 16 bytes with VEC, else one.
const uint RUN = VEC == 0u ? 1u : INPUT == 0u ? 4u : 8u;
const uint BM = WARPS_M * TILES_M * TILE, BN = WARPS_N * TILES_N * TILE;
// A slice of op(A) (op(B)) is staged as lines along the operand's memory
// order (rows of A, or its columns when transposed), each line in runs;
// consecutive items take consecutive runs, so that a subgroup's loads are
// contiguous.
const uint LINE_A = TRANS_A != 0u ? BM : BK, LINE_B = TRANS_B != 0u ? BK : BN;  // elements per line
const uint RUNS_A = BM * BK / RUN, RUNS_B = BN * BK / RUN;                      // runs per slice

// Run e of op(A)'s slice starts at row i, depth kk of the block; of op(B)'s
// at depth kk, column j.
void place_run_a(uint e, out uint i, out uint kk) {
  const uint line = e / (LINE_A / RUN), first = e % (LINE_A / RUN) * RUN;
  i = TRANS_A != 0u ? first : line;
  kk = TRANS_A != 0u ? line : first;
}

void place_run_b(uint e, out uint j, out uint kk) {
  const uint line = e / (LINE_B / RUN), first = e % (LINE_B / RUN) * RUN;
  j = TRANS_B != 0u ? line : first;
  kk = TRANS_B != 0u ? first : line;
}

// Run e of the slice at k0 of the block at row0 (col0), as 16 raw bytes,
// where the run lies wholly inside the operand and VEC (aligned): one load.
uvec4 load_run_a(uint e, uint row0, uint k0) {
  uint i, kk;
  place_run_a(e, i, kk);
  const uint gi = row0 + i, gk = k0 + kk;
  const uint at = a_base + (TRANS_A != 0u ? gk * p.lda + gi : gi * p.lda + gk);
  return INPUT == 0u ? floatBitsToUint(a4[at / 4u]) : a8[at / 8u];
}

uvec4 load_run_b(uint e, uint col0, uint k0) {
  uint j, kk;
  place_run_b(e, j, kk);
  const uint gj = col0 + j, gk = k0 + kk;
  const uint at = b_base + (TRANS_B != 0u ? gj * p.ldb + gk : gk * p.ldb + gj);
  return INPUT == 0u ? floatBitsToUint(b4[at / 4u]) : b8[at / 8u];
}

// Whether the slice at k0 of op(A)'s block rows from row0 (op(B)'s block
// columns from col0) lies wholly inside the operand, its runs aligned (VEC):
// then load_run_a (b) loads every run of it. Uniform in the group.
bool slice_inside_a(uint row0, uint k0) { return VEC != 0u && row0 + BM <= p.M && k0 + BK <= p.K; }
bool slice_inside_b(uint col0, uint k0) { return VEC != 0u && col0 + BN <= p.N && k0 + BK <= p.K; }

// Run e anywhere: one load where it lies wholly inside the operand (always,
// unless the block or slice reaches past its edge), else element by element,
// zeros outside, packed as the load would have them.
uvec4 fetch_run_a(uint e, uint row0, uint k0) {
  uint i, kk;
  place_run_a(e, i, kk);
  const bool ta = TRANS_A != 0u;
  const uint gi = row0 + i, gk = k0 + kk;
  if (VEC != 0u && (ta ? gk < p.K && gi + RUN <= p.M : gi < p.M && gk + RUN <= p.K)) return load_run_a(e, row0, k0);
  uvec4 q = uvec4(0u);
  for (uint t = 0u; t < RUN; ++t) {
    const uint ti = ta ? gi + t : gi, tk = ta ? gk : gk + t;
    if (ti >= p.M || tk >= p.K) continue;
    const uint at = a_base + (ta ? tk * p.lda + ti : ti * p.lda + tk);
    if (INPUT == 0u)
      q[t] = floatBitsToUint(a[at]);
    else
      q[t / 2u] |= (at % 2u == 0u ? a16[at / 2u] & 0xffffu : a16[at / 2u] >> 16) << (t % 2u * 16u);
  }
  return q;
}

uvec4 fetch_run_b(uint e, uint col0, uint k0) {
  uint j, kk;
  place_run_b(e, j, kk);
  const bool tb = TRANS_B != 0u;
  const uint gj = col0 + j, gk = k0 + kk;
  if (VEC != 0u && (tb ? gj < p.N && gk + RUN <= p.K : gk < p.K && gj + RUN <= p.N)) return load_run_b(e, col0, k0);
  uvec4 q = uvec4(0u);
  for (uint t = 0u; t < RUN; ++t) {
    const uint tj = tb ? gj : gj + t, tk = tb ? gk + t : gk;
    if (tj >= p.N || tk >= p.K) continue;
    const uint at = b_base + (tb ? tj * p.ldb + tk : tk * p.ldb + tj);
    if (INPUT == 0u)
      q[t] = floatBitsToUint(b[at]);
    else
      q[t / 2u] |= (at % 2u == 0u ? b16[at / 2u] & 0xffffu : b16[at / 2u] >> 16) << (t % 2u * 16u);
  }
  return q;
}

// Run e, held as q, into stage s of the shared slices. Float16 runs of 16
// bytes go in as consecutive elements two to a word (put_words), the others
// element by element.
#ifdef COOP_F16
// Float16 bits of a whole run to tile_a (b) from `at` on: each word split
// as it lies (unpackFloat2x16, a bit cast), so that a compiler that merges
// the stores stores the words as loaded (CUDA: one 16-byte store) rather
// than reassemble them from halves.
const bool WORDS = RUN % 2u == 0u;
#define PUT_WORDS(tile)                                       \
  [[unroll]] for (uint w = 0u; w < RUN / 2u; ++w) {           \
    const f16vec2 h = unpackFloat2x16(q[w]);                  \
    tile[at + 2u * w] = h.x;                                  \
    tile[at + 2u * w + 1u] = h.y;                             \
  }
#else
const bool WORDS = false;
#define PUT_WORDS(tile)
#endif

void put_run_a(uint e, uvec4 q, uint s) {
  uint i, kk;
  place_run_a(e, i, kk);
  const uint at = s * STAGE_A + (TRANS_A != 0u ? kk * (BM + PAD_MN) + i : i * (BK + PAD_K) + kk);
  if (WORDS) {
    PUT_WORDS(tile_a)
  } else {
    [[unroll]] for (uint t = 0u; t < RUN; ++t) tile_a[at + t] = unpack_run(q, t);
  }
}

void put_run_b(uint e, uvec4 q, uint s) {
  uint j, kk;
  place_run_b(e, j, kk);
  const uint at = s * STAGE_B + kk * (BN + PAD_MN) + j;
  if (TRANS_B != 0u) {
    [[unroll]] for (uint t = 0u; t < RUN; ++t) tile_b[at + t * (BN + PAD_MN)] = unpack_run(q, t);
  } else if (WORDS) {
    PUT_WORDS(tile_b)
  } else {
    [[unroll]] for (uint t = 0u; t < RUN; ++t) tile_b[at + t] = unpack_run(q, t);
  }
}

// PREFETCH: each item's runs of the next slice, held in registers while the
// current one is multiplied (SLOTS_MAX per operand at most). Only slices
// wholly inside A and B are held, each run loaded with no test
// (load_run_a/b): a test per run, with a fallback whose values the loaded
// registers merge with, kept NVRTC from overlapping the loads with the
// multiply-adds (the f16 GEMM at under half the rate on an H100 and an
// H200, bench/README.md). The others are staged before the multiply-adds
// (stage_slice).
const uint SLOTS_MAX = 4;
uvec4 held_a[SLOTS_MAX];
uvec4 held_b[SLOTS_MAX];

void fetch_held(uint row0, uint col0, uint k0, uint tid, uint threads) {
  [[unroll]] for (uint s = 0u; s < SLOTS_MAX; ++s) {
    const uint e = tid + s * threads;
    if (e < RUNS_A) held_a[s] = load_run_a(e, row0, k0);
    if (e < RUNS_B) held_b[s] = load_run_b(e, col0, k0);
  }
}

void put_held(uint stage, uint tid, uint threads) {
  [[unroll]] for (uint s = 0u; s < SLOTS_MAX; ++s) {
    const uint e = tid + s * threads;
    if (e < RUNS_A) put_run_a(e, held_a[s], stage);
    if (e < RUNS_B) put_run_b(e, held_b[s], stage);
  }
}

// Stages the slice at k0 into `stage` without holding it: every run of it,
// loaded and stored by the items in turn.
void stage_slice(uint stage, uint row0, uint col0, uint k0, uint tid, uint threads) {
  for (uint e = tid; e < RUNS_A; e += threads) put_run_a(e, fetch_run_a(e, row0, k0), stage);
  for (uint e = tid; e < RUNS_B; e += threads) put_run_b(e, fetch_run_b(e, col0, k0), stage);
}

float sigmoid(float v) {
  const float e = exp(-abs(v));
  return (v >= 0.0 ? 1.0 : e) / (1.0 + e);
}

float activate(float v) {
  if (ACTIVATION == 1u) return v < 0.0 ? 0.0 : v;
  if (ACTIVATION == 2u) return sigmoid(v);
  if (ACTIVATION == 3u) {
    const float u = 0.7978845608 * (v + 0.044715 * v * v * v);
    return v * sigmoid(2.0 * u);
  }
  return v;
}

void store_c(uint i, uint j, float sum) {
  if (i >= p.M || j >= p.N) return;
  const uint at = c_base + i * p.ldc + j;
  float v = p.alpha * sum;
  if (p.beta != 0.0) v += p.beta * c[at];
  if (BIAS != 0u) v += bias[p.bias_offset + j];
  c[at] = activate(v);
}

void main() {
  const uint warps = WARPS_M * WARPS_N;
  const uint tid = gl_LocalInvocationIndex;
  const uint threads = gl_WorkGroupSize.x;
  const uint batch = gl_WorkGroupID.y / p.row_groups;
  a_base = p.a_offset + batch * p.a_batch;
  b_base = p.b_offset + batch * p.b_batch;
  c_base = p.c_offset + batch * p.c_batch;
  // Blocks in bands of BAND block rows, down each column of a band before
  // the next column: groups running at once share the slices of A and B
  // they load, so that a large product reads them from the cache rather
  // than memory. Group (x, y) takes the block at place y * groups + x of
  // that order in its matrix.
  const uint BAND = 8u;
  const uint groups = gl_NumWorkGroups.x, place = gl_WorkGroupID.y % p.row_groups * groups + gl_WorkGroupID.x;
  const uint first = place / (BAND * groups) * BAND, height = min(p.row_groups - first, BAND);
  const uint row0 = (first + place % (BAND * groups) % height) * BM;
  const uint col0 = place % (BAND * groups) / height * BN;

  // Fewer subgroups than subgroup tiles (subgroups larger than the device
  // reported): C's block becomes NaN, loudly wrong rather than missing tiles.
  // The test is uniform in the group, so no item is left at a barrier.
  if (gl_NumSubgroups < warps) {
    for (uint e = tid; e < BM * BN; e += threads) {
      const uint i = row0 + e / BN, j = col0 + e % BN;
      if (i < p.M && j < p.N) c[c_base + i * p.ldc + j] = uintBitsToFloat(0x7fc00000u);
    }
    return;
  }
  for (uint e = tid; e < TILE * TILE; e += threads) zeros[e] = 0.0;

  // Subgroup w owns subgroup tile (wm, wn); subgroups past the tiles (smaller
  // subgroups than reported) only stage slices.
  const uint w = gl_SubgroupID;
  const bool owner = w < warps;  // uniform in the subgroup
  const uint wm = w / WARPS_N, wn = w % WARPS_N;

  // The first slice into stage 0. PREFETCH where each item's runs fit its
  // slots, else as 0 (the host checks; a tiling that does not fit must not
  // leave runs out).
  const bool prefetching = PREFETCH != 0u && RUNS_A <= SLOTS_MAX * threads && RUNS_B <= SLOTS_MAX * threads;
  stage_slice(0u, row0, col0, 0u, tid, threads);
  barrier();

  coopmat<float, gl_ScopeSubgroup, TILE, TILE, gl_MatrixUseAccumulator> acc[TILES_M][TILES_N];
  if (owner)
    [[unroll]] for (uint r = 0u; r < TILES_M; ++r)
      [[unroll]] for (uint q = 0u; q < TILES_N; ++q)
        coopMatLoad(acc[r][q], zeros, 0, TILE, gl_CooperativeMatrixLayoutRowMajor);

  for (uint k0 = 0u; k0 < p.K; k0 += BK) {
    // The slice at k0 is in stage `cur`; the next one goes into the other,
    // which every subgroup finished reading before the last barrier.
    const uint cur = k0 / BK % STAGES, next = (cur + 1u) % STAGES;
    const bool more = k0 + BK < p.K;  // uniform
    const bool hold = more && prefetching && slice_inside_a(row0, k0 + BK) && slice_inside_b(col0, k0 + BK);
    if (hold)
      fetch_held(row0, col0, k0 + BK, tid, threads);  // in flight during the multiply-adds
    else if (more)
      stage_slice(next, row0, col0, k0 + BK, tid, threads);
    if (owner)
      [[unroll]] for (uint kk = 0u; kk < BK; kk += TILE) {
        coopmat<ELEM, gl_ScopeSubgroup, TILE, TILE, gl_MatrixUseA> ma[TILES_M];
        coopmat<ELEM, gl_ScopeSubgroup, TILE, TILE, gl_MatrixUseB> mb[TILES_N];
        [[unroll]] for (uint r = 0u; r < TILES_M; ++r) {
          const uint i = (wm * TILES_M + r) * TILE;
          if (TRANS_A != 0u)
            coopMatLoad(ma[r], tile_a, cur * STAGE_A + kk * (BM + PAD_MN) + i, BM + PAD_MN,
                        gl_CooperativeMatrixLayoutColumnMajor);
          else
            coopMatLoad(ma[r], tile_a, cur * STAGE_A + i * (BK + PAD_K) + kk, BK + PAD_K,
                        gl_CooperativeMatrixLayoutRowMajor);
        }
        [[unroll]] for (uint q = 0u; q < TILES_N; ++q)
          coopMatLoad(mb[q], tile_b, cur * STAGE_B + kk * (BN + PAD_MN) + (wn * TILES_N + q) * TILE,
                      BN + PAD_MN, gl_CooperativeMatrixLayoutRowMajor);
        [[unroll]] for (uint r = 0u; r < TILES_M; ++r)
          [[unroll]] for (uint q = 0u; q < TILES_N; ++q) acc[r][q] = coopMatMulAdd(ma[r], mb[q], acc[r][q]);
      }
    if (hold) put_held(next, tid, threads);
    barrier();
  }

  // Each accumulator through the subgroup's own tile of tile_c: subgroup
  // barriers suffice.
  if (owner)
    [[unroll]] for (uint r = 0u; r < TILES_M; ++r)
      [[unroll]] for (uint q = 0u; q < TILES_N; ++q) {
        coopMatStore(acc[r][q], tile_c, w * TILE * TILE, TILE, gl_CooperativeMatrixLayoutRowMajor);
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        const uint i0 = row0 + (wm * TILES_M + r) * TILE, j0 = col0 + (wn * TILES_N + q) * TILE;
        for (uint e = gl_SubgroupInvocationID; e < TILE * TILE; e += gl_SubgroupSize)
          store_c(i0 + e / TILE, j0 + e % TILE, tile_c[w * TILE * TILE + e]);
        subgroupBarrier();
      }
}
