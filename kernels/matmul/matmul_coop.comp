#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
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
// subgroup tile holds TILES_M x TILES_N accumulators. A and B pass through
// shared memory in BK-deep slices (BK a multiple of 16) in the matrices'
// type (float16 bits as loaded, bfloat16 widened, float32 as loaded): op(A)'s
// block rows row-major, op(B)'s slice row-major, k-rows padded by PAD
// elements (16 bytes) against bank conflicts; every row starts on 16 bytes,
// so CUDA's tensor-core lowering reads the slices with ldmatrix.
// Elements outside op(A) and op(B) are staged as zeros, so a block at the
// edge multiplies as a whole and only its stores are tested.
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
// TILES_M/TILES_N, 5 BK, 6 PREFETCH (fetch_held); 7-9 as matmul.comp; 10 VEC
// (run_length). The host keeps BM, BN <= 128, WARPS_M * WARPS_N <= 8 and
// BK <= BK_MAX, the sizes of the shared arrays.
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

#ifdef COOP_F16
#define ELEM float16_t
const uint BK_MAX = 32;
const uint PAD = 8;
#else
#define ELEM float
const uint BK_MAX = 16;
const uint PAD = 4;
#endif
const uint TILE = 16;
const uint BM_MAX = 128, BN_MAX = 128;  // the host keeps BM, BN <= 128
const uint WARPS_MAX = 8;               // and WARPS_M * WARPS_N <= 8

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

shared ELEM tile_a[BM_MAX * (BK_MAX + PAD)];  // [row of the block][k], row stride BK + PAD
shared ELEM tile_b[BK_MAX * (BN_MAX + PAD)];  // [k][column of the block], row stride BN + PAD
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

ELEM load_a(uint at) { return INPUT == 0u ? ELEM(a[at]) : unpack16(a16[at / 2u], at); }
ELEM load_b(uint at) { return INPUT == 0u ? ELEM(b[at]) : unpack16(b16[at / 2u], at); }

// Elements are staged in runs of RUN consecutive ones in memory: with VEC
// (the host sets it where every run is aligned: offsets, row strides and
// batch strides multiples of RUN) one 16-byte load of 8 16-bit or 4 float32
// elements; without, single elements.
const uint RUN_MAX = 8;
uint run_length() { return VEC == 0u ? 1u : INPUT == 0u ? 4u : 8u; }

// The run being staged, in the matrices' type, in v[0..run_length()). A
// global rather than a parameter: arrays pass to functions by copy
// (matmul.comp's acc).
ELEM v[RUN_MAX];

// The run of A (B) from element `at` into v.
void load_run_a(uint at) {
  if (VEC == 0u) {
    v[0] = load_a(at);
  } else if (INPUT == 0u) {
    const vec4 q = a4[at / 4u];
    v[0] = ELEM(q.x), v[1] = ELEM(q.y), v[2] = ELEM(q.z), v[3] = ELEM(q.w);
  } else {
    const uvec4 q = a8[at / 8u];
    v[0] = unpack16(q.x, 0u), v[1] = unpack16(q.x, 1u), v[2] = unpack16(q.y, 0u), v[3] = unpack16(q.y, 1u);
    v[4] = unpack16(q.z, 0u), v[5] = unpack16(q.z, 1u), v[6] = unpack16(q.w, 0u), v[7] = unpack16(q.w, 1u);
  }
}

void load_run_b(uint at) {
  if (VEC == 0u) {
    v[0] = load_b(at);
  } else if (INPUT == 0u) {
    const vec4 q = b4[at / 4u];
    v[0] = ELEM(q.x), v[1] = ELEM(q.y), v[2] = ELEM(q.z), v[3] = ELEM(q.w);
  } else {
    const uvec4 q = b8[at / 8u];
    v[0] = unpack16(q.x, 0u), v[1] = unpack16(q.x, 1u), v[2] = unpack16(q.y, 0u), v[3] = unpack16(q.y, 1u);
    v[4] = unpack16(q.z, 0u), v[5] = unpack16(q.z, 1u), v[6] = unpack16(q.w, 0u), v[7] = unpack16(q.w, 1u);
  }
}

// A slice of op(A) (op(B)) is staged as lines along the operand's memory
// order (rows of A, or its columns when transposed), each line in runs;
// consecutive items take consecutive runs. Run e of op(A)'s slice starts at
// row i, depth kk of the block; false past the slice's runs.
bool place_run_a(uint e, out uint i, out uint kk) {
  const uint BM = WARPS_M * TILES_M * TILE, run = run_length();
  const uint runs = (p.trans_a != 0u ? BM : BK) / run;  // runs per line
  const uint line = e / runs, first = (e % runs) * run;
  i = p.trans_a != 0u ? first : line;
  kk = p.trans_a != 0u ? line : first;
  return e < BM * BK / run;
}

// Run e of op(B)'s slice starts at depth kk, column j of the block.
bool place_run_b(uint e, out uint j, out uint kk) {
  const uint BN = WARPS_N * TILES_N * TILE, run = run_length();
  const uint runs = (p.trans_b != 0u ? BK : BN) / run;
  const uint line = e / runs, first = (e % runs) * run;
  j = p.trans_b != 0u ? line : first;
  kk = p.trans_b != 0u ? first : line;
  return e < BN * BK / run;
}

// Run e of the slice at k0 of the block at row0 (col0) into v: at once where
// the run lies wholly inside the operand, else element by element, zeros
// outside.
void fetch_run_a(uint e, uint row0, uint k0) {
  uint i, kk;
  if (!place_run_a(e, i, kk)) return;
  const bool ta = p.trans_a != 0u;
  const uint gi = row0 + i, gk = k0 + kk, run = run_length();
  if (ta ? gk < p.K && gi + run <= p.M : gi < p.M && gk + run <= p.K) {
    load_run_a(a_base + (ta ? gk * p.lda + gi : gi * p.lda + gk));
    return;
  }
  for (uint t = 0u; t < run; ++t) {
    const uint ti = ta ? gi + t : gi, tk = ta ? gk : gk + t;
    v[t] = ti < p.M && tk < p.K ? load_a(a_base + (ta ? tk * p.lda + ti : ti * p.lda + tk)) : ELEM(0.0);
  }
}

void fetch_run_b(uint e, uint col0, uint k0) {
  uint j, kk;
  if (!place_run_b(e, j, kk)) return;
  const bool tb = p.trans_b != 0u;
  const uint gj = col0 + j, gk = k0 + kk, run = run_length();
  if (tb ? gj < p.N && gk + run <= p.K : gk < p.K && gj + run <= p.N) {
    load_run_b(b_base + (tb ? gj * p.ldb + gk : gk * p.ldb + gj));
    return;
  }
  for (uint t = 0u; t < run; ++t) {
    const uint tj = tb ? gj : gj + t, tk = tb ? gk + t : gk;
    v[t] = tj < p.N && tk < p.K ? load_b(b_base + (tb ? tj * p.ldb + tk : tk * p.ldb + tj)) : ELEM(0.0);
  }
}

// v, run e of the slice, into the shared tiles in the matrices' type.
void put_run_a(uint e) {
  uint i, kk;
  if (!place_run_a(e, i, kk)) return;
  for (uint t = 0u; t < run_length(); ++t)
    tile_a[p.trans_a != 0u ? (i + t) * (BK + PAD) + kk : i * (BK + PAD) + kk + t] = v[t];
}

void put_run_b(uint e) {
  uint j, kk;
  if (!place_run_b(e, j, kk)) return;
  const uint row = WARPS_N * TILES_N * TILE + PAD;  // BN + PAD
  for (uint t = 0u; t < run_length(); ++t)
    tile_b[p.trans_b != 0u ? (kk + t) * row + j : kk * row + j + t] = v[t];
}

// PREFETCH: the item's runs of the next slice, held in registers while the
// current one is multiplied (SLOTS_MAX runs per operand at most: a tiling
// whose share per item is larger runs as PREFETCH 0).
const uint SLOTS_MAX = 2;
ELEM held_a[SLOTS_MAX * RUN_MAX];
ELEM held_b[SLOTS_MAX * RUN_MAX];

void fetch_held(uint row0, uint col0, uint k0, uint tid, uint threads) {
  for (uint s = 0u; s < SLOTS_MAX; ++s) {
    fetch_run_a(tid + s * threads, row0, k0);
    for (uint t = 0u; t < RUN_MAX; ++t) held_a[s * RUN_MAX + t] = v[t];
    fetch_run_b(tid + s * threads, col0, k0);
    for (uint t = 0u; t < RUN_MAX; ++t) held_b[s * RUN_MAX + t] = v[t];
  }
}

void put_held(uint tid, uint threads) {
  for (uint s = 0u; s < SLOTS_MAX; ++s) {
    for (uint t = 0u; t < RUN_MAX; ++t) v[t] = held_a[s * RUN_MAX + t];
    put_run_a(tid + s * threads);
    for (uint t = 0u; t < RUN_MAX; ++t) v[t] = held_b[s * RUN_MAX + t];
    put_run_b(tid + s * threads);
  }
}

// Stages the slice at k0 without prefetching: every run of it, loaded and
// stored by the items in turn.
void stage_slice(uint row0, uint col0, uint k0, uint tid, uint threads) {
  const uint BM = WARPS_M * TILES_M * TILE, BN = WARPS_N * TILES_N * TILE;
  for (uint e = tid; e < BM * BK / run_length(); e += threads) {
    fetch_run_a(e, row0, k0);
    put_run_a(e);
  }
  for (uint e = tid; e < BN * BK / run_length(); e += threads) {
    fetch_run_b(e, col0, k0);
    put_run_b(e);
  }
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
  const uint BM = WARPS_M * TILES_M * TILE, BN = WARPS_N * TILES_N * TILE;
  const uint warps = WARPS_M * WARPS_N;
  const uint tid = gl_LocalInvocationIndex;
  const uint threads = gl_WorkGroupSize.x;
  const uint batch = gl_WorkGroupID.y / p.row_groups;
  a_base = p.a_offset + batch * p.a_batch;
  b_base = p.b_offset + batch * p.b_batch;
  c_base = p.c_offset + batch * p.c_batch;
  const uint row0 = (gl_WorkGroupID.y % p.row_groups) * BM;
  const uint col0 = gl_WorkGroupID.x * BN;

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
  barrier();

  // Subgroup w owns subgroup tile (wm, wn); subgroups past the tiles (smaller
  // subgroups than reported) only stage slices.
  const uint w = gl_SubgroupID;
  const bool owner = w < warps;  // uniform in the subgroup
  const uint wm = w / WARPS_N, wn = w % WARPS_N;
  coopmat<float, gl_ScopeSubgroup, TILE, TILE, gl_MatrixUseAccumulator> acc[TILES_M][TILES_N];
  if (owner)
    for (uint r = 0u; r < TILES_M; ++r)
      for (uint q = 0u; q < TILES_N; ++q) coopMatLoad(acc[r][q], zeros, 0, TILE, gl_CooperativeMatrixLayoutRowMajor);

  // PREFETCH where the item's share of a slice fits its slots, else as 0.
  const bool prefetching = PREFETCH != 0u && BM * BK / run_length() <= SLOTS_MAX * threads &&
                           BN * BK / run_length() <= SLOTS_MAX * threads;
  if (prefetching) fetch_held(row0, col0, 0u, tid, threads);
  for (uint k0 = 0u; k0 < p.K; k0 += BK) {
    if (prefetching)
      put_held(tid, threads);
    else
      stage_slice(row0, col0, k0, tid, threads);
    barrier();
    // The next slice's loads are in flight while this one is multiplied.
    if (prefetching && k0 + BK < p.K) fetch_held(row0, col0, k0 + BK, tid, threads);
    if (owner)
      for (uint kk = 0u; kk < BK; kk += TILE) {
        coopmat<ELEM, gl_ScopeSubgroup, TILE, TILE, gl_MatrixUseA> ma[TILES_M];
        coopmat<ELEM, gl_ScopeSubgroup, TILE, TILE, gl_MatrixUseB> mb[TILES_N];
        for (uint r = 0u; r < TILES_M; ++r)
          coopMatLoad(ma[r], tile_a, (wm * TILES_M + r) * TILE * (BK + PAD) + kk, BK + PAD,
                      gl_CooperativeMatrixLayoutRowMajor);
        for (uint q = 0u; q < TILES_N; ++q)
          coopMatLoad(mb[q], tile_b, kk * (BN + PAD) + (wn * TILES_N + q) * TILE, BN + PAD,
                      gl_CooperativeMatrixLayoutRowMajor);
        for (uint r = 0u; r < TILES_M; ++r)
          for (uint q = 0u; q < TILES_N; ++q) acc[r][q] = coopMatMulAdd(ma[r], mb[q], acc[r][q]);
      }
    barrier();
  }

  // Each accumulator through the subgroup's own tile of tile_c: subgroup
  // barriers suffice.
  if (owner)
    for (uint r = 0u; r < TILES_M; ++r)
      for (uint q = 0u; q < TILES_N; ++q) {
        coopMatStore(acc[r][q], tile_c, w * TILE * TILE, TILE, gl_CooperativeMatrixLayoutRowMajor);
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        const uint i0 = row0 + (wm * TILES_M + r) * TILE, j0 = col0 + (wn * TILES_N + q) * TILE;
        for (uint e = gl_SubgroupInvocationID; e < TILE * TILE; e += gl_SubgroupSize)
          store_c(i0 + e / TILE, j0 + e % TILE, tile_c[w * TILE * TILE + e]);
        subgroupBarrier();
      }
}
