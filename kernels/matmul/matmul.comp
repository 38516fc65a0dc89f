#version 450
#extension GL_EXT_control_flow_attributes : require
// C = act(alpha * op(A) * op(B) + beta * C + bias), row-major, op(X) = X or
// its transpose, for each of a batch of matrices (porta_ops_gemm; porta_ops_matmul
// is the case without batch, bias or act). op(A) is M x K, op(B) is K x N, C is
// M x N; lda/ldb/ldc are row strides in elements, the *_offset values element
// offsets into the buffers and the *_batch values the element distances between
// one batch's matrices and the next's (0: one matrix shared by the batch). The
// grid's y groups walk the batch: group y is row block y % row_groups of
// matrix y / row_groups.
//
// INPUT (constant 7) is the element type of A and B: 0 float32, 1 float16,
// 2 bfloat16. 16-bit elements are read as halves of 32-bit words (element e
// is half e % 2 of word e / 2, the little-endian order of a packed array), so
// the kernel needs no 16-bit storage on any device; they become float32
// exactly, so products and sums are those of float32 (products of two 16-bit
// values are even exact). C and the bias are float32.
//
// VEC4 (constant 10) loads float32 A and B from global memory 16 bytes at a
// time; the host sets it only where every such vec4 is aligned (offsets, row
// strides and batch strides multiples of 4). Bit 0: the vec4s that are four
// consecutive elements (B row-major, A transposed) load as one. Bit 1: so do
// those of A row-major, whose slots then hold four depths k..k+3 of one row
// of op(A), each component stored to its own k-row of tile_a (four 4-byte
// shared stores instead of one of 16 bytes). B transposed keeps scalar loads.
// 16-bit inputs ignore VEC4.
//
// The epilogue: BIAS (constant 8) = 1 adds bias[j] to row i's C[i][j];
// ACTIVATION (constant 9) then applies 0 nothing, 1 relu, 2 sigmoid,
// 3 gelu with the tanh approximation.
//
// A work-group of LX x LY items computes a BM x BN block of C (BM = TM*LY,
// BN = TN*LX); each item owns a TM x TN register block made of 4 x 4 pieces:
// rows 4*(ty + r*LY) + 0..3 and columns 4*(tx + q*LX) + 0..3 for r < TM/4,
// q < TN/4. A and B pass through shared memory in BK-deep slices, stored as
// vec4s of four rows of op(A) or four columns of op(B), so an item reads its
// operands with one 16-byte load per four values: on GPUs the multiply-adds,
// not the shared-memory reads, then set the pace. LX, LY, BK, TM and TN
// (multiples of 4) are specialization constants the host picks per device.
//
// PREFETCH (constant 5) picks how a slice reaches shared memory:
//   0: load it, barrier, multiply, barrier. Nothing overlaps the global loads.
//   1: the item's share of the next slice is loaded into registers before the
//      current one is multiplied and stored to shared memory after it, so the
//      loads' latency hides behind the multiply-adds; two barriers per slice.
//   2: as 1, with two shared stages: the next slice goes to the stage not
//      being read, and one barrier per slice suffices.
// Prefetch keeps at most SLOTS_MAX vec4s per operand in registers; a choice
// that needs more (fewer items than BM*BK/16 or BN*BK/16, e.g. the 8 x 8
// item tilings of lavapipe and PoCL) runs as 0. Where items are fibers
// (porta's CPU backend), every barrier switches through all of the group's
// items, so 2 pays there too: one switch per item and slice instead of two.
//
// FMA (constant 6) = 1 adds each product with fma(), one rounding. NVRTC
// fuses a * b + c anyway (as Vulkan drivers may); the OpenCL translation
// turns contraction off (GLSL rounds twice), which there doubles the
// instructions per multiply-add. CPU-type devices keep 0: porta's CPU backend
// is the reference, the same on every processor, and its baseline x86-64
// build has no FMA instruction (fma() would be a library call).
//
// The shared arrays have the largest size the host may ask for (BM, BN <= 128,
// BK <= 16, TM, TN <= 8, two stages: 32 KiB, lavapipe's limit). With one
// stage, tile_a's k-rows are padded by one vec4: items that store one k-row
// each (A row-major) would otherwise all hit one bank. Two padded stages would
// not fit, so PREFETCH = 2 keeps 32 vec4s per k-row and puts the vec4 at column
// x of k-row kk at x ^ kk instead, in both tiles (which also spreads the
// transposed-B stores over the banks); an XOR per shared read is its cost.
//
// Loops over the item's block, its operand vec4s and its prefetch slots are
// [[unroll]]: only constant indices keep those arrays in registers (NVRTC,
// left to itself, kept a 4 x 8 block in local memory).
//
// Every element of C sums its K products in order k = 0, 1, ..., K-1 whatever
// the tile sizes and PREFETCH, so the result does not depend on the device's
// choice of those; FMA changes the rounding of each step, not the order.
//
// The defaults are the CPU backend's choice (its built-in variant, compiled
// at them): 16 x 16 items of 8 x 8 in 128 x 128 blocks, two shared stages.
layout(local_size_x = 16, local_size_y = 16) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BK = 16;
layout(constant_id = 3) const uint TM = 8;
layout(constant_id = 4) const uint TN = 8;
layout(constant_id = 5) const uint PREFETCH = 2;
layout(constant_id = 6) const uint FMA = 0;
layout(constant_id = 7) const uint INPUT = 0;
layout(constant_id = 8) const uint BIAS = 0;
layout(constant_id = 9) const uint ACTIVATION = 0;
layout(constant_id = 10) const uint VEC4 = 0;

const uint BK_MAX = 16;
const uint ROW4 = 32;      // vec4s per k-row of a tile: BM, BN <= 128
const uint STAGES = 2;     // shared stages PREFETCH = 2 alternates between
const uint T4_MAX = 2;     // TM/4, TN/4 <= 2
const uint SLOTS_MAX = 4;  // vec4s per operand an item may keep in registers

// A and B as float32 and as 32-bit words holding two 16-bit elements each:
// two views of one parameter.
layout(set = 0, binding = 0) readonly buffer MatA { float a[]; };
layout(set = 0, binding = 0) readonly buffer MatA16 { uint a16[]; };
layout(set = 0, binding = 0) readonly buffer MatA4 { vec4 a4[]; };
layout(set = 0, binding = 1) readonly buffer MatB { float b[]; };
layout(set = 0, binding = 1) readonly buffer MatB16 { uint b16[]; };
layout(set = 0, binding = 1) readonly buffer MatB4 { vec4 b4[]; };
layout(set = 0, binding = 2) buffer MatC { float c[]; };
// N values added to every row of C when BIAS = 1 (without a bias the host
// binds A's buffer here, which is not read).
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

shared vec4 tile_a[STAGES * BK_MAX * ROW4];  // [stage][k][rows / 4]
shared vec4 tile_b[STAGES * BK_MAX * ROW4];  // [stage][k][cols / 4]

// Where this group's matrices of A, B and C start (their batch's).
uint a_base, b_base, c_base;

// Where the vec4 of rows 4*i4.. (columns 4*j4..) at slice depth kk lies.
uint a_at(uint stage, uint kk, uint i4) {
  return PREFETCH == 2u ? (stage * BK_MAX + kk) * ROW4 + (i4 ^ kk) : kk * (ROW4 + 1u) + i4;
}

uint b_at(uint stage, uint kk, uint j4) {
  return PREFETCH == 2u ? (stage * BK_MAX + kk) * ROW4 + (j4 ^ kk) : kk * ROW4 + j4;
}

// The 16-bit element e of a packed array of words as a float32.
float unpack16(uint word, uint e) {
  if (INPUT == 2u) return uintBitsToFloat(e % 2u == 0u ? word << 16 : word & 0xffff0000u);
  const vec2 pair = unpackHalf2x16(word);
  return e % 2u == 0u ? pair.x : pair.y;
}

// Element number `at` of A (B) as a float32.
float load_a(uint at) { return INPUT == 0u ? a[at] : unpack16(a16[at / 2u], at); }
float load_b(uint at) { return INPUT == 0u ? b[at] : unpack16(b16[at / 2u], at); }

bool vec4_loads() { return VEC4 != 0u && INPUT == 0u; }

// The vec4 of op(A) from element `at`, all inside op(A), so the loads go
// without tests: four rows at one depth, or with `depths` (a row-major A
// loaded by depths, VEC4 bit 1) four depths of one row.
vec4 fetch_inside_a(uint at, bool depths) {
  const uint step_i = p.trans_a != 0u ? 1u : p.lda;
  if (depths || (vec4_loads() && step_i == 1u)) return a4[at / 4u];
  return vec4(load_a(at), load_a(at + step_i), load_a(at + 2u * step_i), load_a(at + 3u * step_i));
}

// The four columns of op(B) from element `at` at one depth, the same way.
vec4 fetch_inside_b(uint at) {
  const uint step_j = p.trans_b != 0u ? p.ldb : 1u;
  if (vec4_loads() && step_j == 1u) return b4[at / 4u];
  return vec4(load_b(at), load_b(at + step_j), load_b(at + 2u * step_j), load_b(at + 3u * step_j));
}

// op(A)[i..i+3][k]. Inside (the rows and k known to lie in op(A)) the four
// loads go without tests; else elements outside op(A) read as 0.
vec4 fetch_a(uint i, uint k, bool inside) {
  const uint step_i = p.trans_a != 0u ? 1u : p.lda;
  const uint step_k = p.trans_a != 0u ? p.lda : 1u;
  const uint at = a_base + i * step_i + k * step_k;
  if (inside) return fetch_inside_a(at, false);
  vec4 v = vec4(0.0);
  if (k < p.K)
    [[unroll]] for (uint r = 0u; r < 4u; ++r)
      if (i + r < p.M) v[r] = load_a(at + r * step_i);
  return v;
}

// op(B)[k][j..j+3], the same way.
vec4 fetch_b(uint k, uint j, bool inside) {
  const uint step_j = p.trans_b != 0u ? p.ldb : 1u;
  const uint step_k = p.trans_b != 0u ? 1u : p.ldb;
  const uint at = b_base + j * step_j + k * step_k;
  if (inside) return fetch_inside_b(at);
  vec4 v = vec4(0.0);
  if (k < p.K)
    [[unroll]] for (uint q = 0u; q < 4u; ++q)
      if (j + q < p.N) v[q] = load_b(at + q * step_j);
  return v;
}

// op(A)[i][k..k+3] from a row-major A (VEC4): one vec4 inside, else elements
// outside op(A) read as 0.
vec4 fetch_a_depths(uint i, uint k, bool inside) {
  const uint at = a_base + i * p.lda + k;
  if (inside) return fetch_inside_a(at, true);
  vec4 v = vec4(0.0);
  if (i < p.M)
    [[unroll]] for (uint c = 0u; c < 4u; ++c)
      if (k + c < p.K) v[c] = load_a(at + c);
  return v;
}

// Whether A's slots hold four depths of one row (fetch_a_depths) rather than
// four rows at one depth.
bool a_by_depths() { return (VEC4 & 2u) != 0u && INPUT == 0u && p.trans_a == 0u; }

// With a_by_depths, vec4 number e of a slice holds row i of the block at
// depths kk..kk+3; consecutive e take consecutive addresses in A.
bool place_a_depths(uint e, out uint i, out uint kk) {
  const uint bk4 = BK / 4u;
  i = e / bk4;
  kk = 4u * (e % bk4);
  return e < TM / 4u * gl_WorkGroupSize.y * BK;
}

// vec4 number e of the slice of op(A) at k0 holds four rows from 4*i4 at depth
// kk. Consecutive e take consecutive addresses in A: k when A is row-major,
// rows when it is transposed. e past the slice's end: nothing to load or store.
bool place_a(uint e, out uint i4, out uint kk) {
  const uint bm4 = TM / 4u * gl_WorkGroupSize.y;
  if (p.trans_a != 0u) {
    i4 = e % bm4;
    kk = e / bm4;
  } else {
    kk = e % BK;
    i4 = e / BK;
  }
  return e < bm4 * BK;
}

// The same for op(B): four columns from 4*j4 at depth kk.
bool place_b(uint e, out uint j4, out uint kk) {
  const uint bn4 = TN / 4u * gl_WorkGroupSize.x;
  if (p.trans_b != 0u) {
    kk = e % BK;
    j4 = e / BK;
  } else {
    j4 = e % bn4;
    kk = e / bn4;
  }
  return e < bn4 * BK;
}

// Loads vec4 number e of the slice at k0 of the block from row0 (col0);
// `inside`: the block's rows (columns) and the whole slice lie in the operand.
vec4 fetch_slot_a(uint e, uint row0, uint k0, bool inside) {
  if (a_by_depths()) {
    uint i, kk;
    return place_a_depths(e, i, kk) ? fetch_a_depths(row0 + i, k0 + kk, inside) : vec4(0.0);
  }
  uint i4, kk;
  return place_a(e, i4, kk) ? fetch_a(row0 + 4u * i4, k0 + kk, inside) : vec4(0.0);
}

vec4 fetch_slot_b(uint e, uint col0, uint k0, bool inside) {
  uint j4, kk;
  return place_b(e, j4, kk) ? fetch_b(k0 + kk, col0 + 4u * j4, inside) : vec4(0.0);
}

void store_slot_a(uint stage, uint e, vec4 v) {
  if (a_by_depths()) {
    uint i, kk;
    if (!place_a_depths(e, i, kk)) return;
    // Constant component indices only (the C-like targets have no dynamic
    // ones on vectors).
    const uint r = i % 4u;
    [[unroll]] for (uint c = 0u; c < 4u; ++c) {
      const uint at = a_at(stage, kk + c, i / 4u);
      if (r == 0u)
        tile_a[at].x = v[c];
      else if (r == 1u)
        tile_a[at].y = v[c];
      else if (r == 2u)
        tile_a[at].z = v[c];
      else
        tile_a[at].w = v[c];
    }
    return;
  }
  uint i4, kk;
  if (place_a(e, i4, kk)) tile_a[a_at(stage, kk, i4)] = v;
}

void store_slot_b(uint stage, uint e, vec4 v) {
  uint j4, kk;
  if (place_b(e, j4, kk)) tile_b[b_at(stage, kk, j4)] = v;
}

// The item's TM x TN block of sums: [row of the block][vec4 of columns]. A
// global rather than a parameter: arrays pass to functions by copy, and the
// copies kept the block out of registers in the CUDA and OpenCL translations.
vec4 acc[T4_MAX * 4u][T4_MAX];

// sum + a * b, rounded once with FMA.
vec4 add_product(vec4 sum, float a, vec4 b) { return FMA != 0u ? fma(vec4(a), b, sum) : sum + a * b; }

// acc += (the item's rows of op(A) at slice row kk) x (its columns of op(B)).
void multiply_slice_row(uint stage, uint kk, uint tx, uint ty) {
  vec4 va[T4_MAX];
  vec4 vb[T4_MAX];
  [[unroll]] for (uint r = 0u; r < TM / 4u; ++r) va[r] = tile_a[a_at(stage, kk, ty + r * gl_WorkGroupSize.y)];
  [[unroll]] for (uint q = 0u; q < TN / 4u; ++q) vb[q] = tile_b[b_at(stage, kk, tx + q * gl_WorkGroupSize.x)];
  [[unroll]] for (uint r = 0u; r < TM / 4u; ++r)
    [[unroll]] for (uint q = 0u; q < TN / 4u; ++q) {
      acc[4u * r + 0u][q] = add_product(acc[4u * r + 0u][q], va[r].x, vb[q]);
      acc[4u * r + 1u][q] = add_product(acc[4u * r + 1u][q], va[r].y, vb[q]);
      acc[4u * r + 2u][q] = add_product(acc[4u * r + 2u][q], va[r].z, vb[q]);
      acc[4u * r + 3u][q] = add_product(acc[4u * r + 3u][q], va[r].w, vb[q]);
    }
}

// 1 / (1 + exp(-v)) through exp of a non-positive value only: no overflow,
// and NaN stays NaN.
float sigmoid(float v) {
  const float e = exp(-abs(v));
  return (v >= 0.0 ? 1.0 : e) / (1.0 + e);
}

float activate(float v) {
  if (ACTIVATION == 1u) return v < 0.0 ? 0.0 : v;  // relu; NaN stays NaN
  if (ACTIVATION == 2u) return sigmoid(v);
  if (ACTIVATION == 3u) {
    // gelu(v) = v/2 (1 + tanh(u)) = v sigmoid(2u), u = sqrt(2/pi) (v + 0.044715 v^3)
    const float u = 0.7978845608 * (v + 0.044715 * v * v * v);
    return v * sigmoid(2.0 * u);
  }
  return v;
}

// C[i][j] = act(alpha * sum + beta * C[i][j] + bias[j]) inside C. beta == 0
// overwrites C without reading it: NaN or garbage in its old content must not
// reach the result.
void store_c(uint i, uint j, float sum) {
  if (i >= p.M || j >= p.N) return;
  const uint at = c_base + i * p.ldc + j;
  float v = p.alpha * sum;
  if (p.beta != 0.0) v += p.beta * c[at];
  if (BIAS != 0u) v += bias[p.bias_offset + j];
  c[at] = activate(v);
}

// Where vec4 number e of a slice at depth 0 starts in A (B), for a slice
// wholly inside the operand: the slice at depth k starts k * step_k later.
// 0 for a vec4 past the slice's end (not loaded this way).
uint slot_start_a(uint e, uint row0) {
  if (a_by_depths()) {
    uint i, kk;
    if (!place_a_depths(e, i, kk)) return 0u;
    return a_base + (row0 + i) * p.lda + kk;
  }
  uint i4, kk;
  if (!place_a(e, i4, kk)) return 0u;
  const uint step_i = p.trans_a != 0u ? 1u : p.lda;
  const uint step_k = p.trans_a != 0u ? p.lda : 1u;
  return a_base + (row0 + 4u * i4) * step_i + kk * step_k;
}

uint slot_start_b(uint e, uint col0) {
  uint j4, kk;
  if (!place_b(e, j4, kk)) return 0u;
  const uint step_j = p.trans_b != 0u ? p.ldb : 1u;
  const uint step_k = p.trans_b != 0u ? 1u : p.ldb;
  return b_base + (col0 + 4u * j4) * step_j + kk * step_k;
}

// The distance in A (B) from one of an item's slots to its next (vec4
// number e + threads), where it is the same for every item and slot: the
// slots then need one start between them. false: it is not.
bool slot_step_a(uint threads, out uint delta) {
  const uint bm4 = TM / 4u * gl_WorkGroupSize.y;
  if (a_by_depths()) {
    delta = threads / (BK / 4u) * p.lda;
    return threads % (BK / 4u) == 0u;
  }
  if (p.trans_a != 0u) {
    delta = threads / bm4 * p.lda;
    return threads % bm4 == 0u;
  }
  delta = threads / BK * 4u * p.lda;
  return threads % BK == 0u;
}

bool slot_step_b(uint threads, out uint delta) {
  const uint bn4 = TN / 4u * gl_WorkGroupSize.x;
  if (p.trans_b != 0u) {
    delta = threads / BK * 4u * p.ldb;
    return threads % BK == 0u;
  }
  delta = threads / bn4 * p.ldb;
  return threads % bn4 == 0u;
}

void main() {
  const uint LX = gl_WorkGroupSize.x;
  const uint LY = gl_WorkGroupSize.y;
  const uint TM4 = TM / 4u;
  const uint TN4 = TN / 4u;
  const uint BM4 = TM4 * LY;  // vec4s of rows in a block
  const uint BN4 = TN4 * LX;
  const uint tid = gl_LocalInvocationID.y * LX + gl_LocalInvocationID.x;
  // The item's place (tx, ty) in the group's grid. Where the grid divides
  // into them, each 32 consecutive items (a subgroup on most GPUs) take an
  // 8 x 4 patch of it rather than two rows of 16: each of a slice row's
  // shared reads then spans 4 vec4s of tile_a or 8 of tile_b, 128 bytes or
  // less, instead of 2 of tile_a or 16 (256 bytes) of tile_b.
  const bool patches = LX % 8u == 0u && LY % 4u == 0u;
  const uint tx = patches ? (tid / 32u) % (LX / 8u) * 8u + tid % 8u : gl_LocalInvocationID.x;
  const uint ty = patches ? (tid / 32u) / (LX / 8u) * 4u + tid % 32u / 8u : gl_LocalInvocationID.y;
  const uint threads = LX * LY;
  const uint batch = gl_WorkGroupID.y / p.row_groups;
  a_base = p.a_offset + batch * p.a_batch;
  b_base = p.b_offset + batch * p.b_batch;
  c_base = p.c_offset + batch * p.c_batch;
  const uint row0 = (gl_WorkGroupID.y % p.row_groups) * BM4 * 4u;
  const uint col0 = gl_WorkGroupID.x * BN4 * 4u;
  // Blocks wholly inside op(A)'s rows (op(B)'s columns) load full slices
  // without per-element tests.
  const bool rows_inside = row0 + BM4 * 4u <= p.M;
  const bool cols_inside = col0 + BN4 * 4u <= p.N;

  [[unroll]] for (uint r = 0u; r < TM; ++r)
    [[unroll]] for (uint q = 0u; q < TN4; ++q) acc[r][q] = vec4(0.0);

  // With PREFETCH the item's share of a slice is vec4 number tid + s*threads
  // for s < slots_a (slots_b), held in next_a (next_b) between the loads and
  // the stores to shared memory.
  const uint slots_a = (BM4 * BK + threads - 1u) / threads;
  const uint slots_b = (BN4 * BK + threads - 1u) / threads;
  const bool prefetching = PREFETCH != 0u && slots_a <= SLOTS_MAX && slots_b <= SLOTS_MAX;
  vec4 next_a[SLOTS_MAX];
  vec4 next_b[SLOTS_MAX];
  if (prefetching) {
    const bool full = BK <= p.K;
    [[unroll]] for (uint s = 0u; s < slots_a; ++s)
      next_a[s] = fetch_slot_a(tid + s * threads, row0, 0u, rows_inside && full);
    [[unroll]] for (uint s = 0u; s < slots_b; ++s)
      next_b[s] = fetch_slot_b(tid + s * threads, col0, 0u, cols_inside && full);
  }

  // Where the item's slots of a slice inside A and B start (its first slot
  // at depth 0, the distance between slots), where every item has all its
  // slots and they lie the same distance apart.
  uint a_delta, b_delta;
  const bool a_slots_full = slots_a * threads == BM4 * BK && slot_step_a(threads, a_delta);
  const bool b_slots_full = slots_b * threads == BN4 * BK && slot_step_b(threads, b_delta);
  const uint a_start = slot_start_a(tid, row0);
  const uint b_start = slot_start_b(tid, col0);

  uint stage = 0u;
  for (uint k0 = 0u; k0 < p.K; k0 += BK) {
    if (prefetching) {
      [[unroll]] for (uint s = 0u; s < slots_a; ++s) store_slot_a(stage, tid + s * threads, next_a[s]);
      [[unroll]] for (uint s = 0u; s < slots_b; ++s) store_slot_b(stage, tid + s * threads, next_b[s]);
    } else {
      const bool full = k0 + BK <= p.K;
      for (uint e = tid; e < BM4 * BK; e += threads)
        store_slot_a(0u, e, fetch_slot_a(e, row0, k0, rows_inside && full));
      for (uint e = tid; e < BN4 * BK; e += threads)
        store_slot_b(0u, e, fetch_slot_b(e, col0, k0, cols_inside && full));
    }
    barrier();
    // The next slice's loads are in flight while this one is multiplied.
    const uint k1 = k0 + BK;
    if (prefetching && k1 < p.K) {
      const bool full = k1 + BK <= p.K;
      // A slice inside the operand: each slot's vec4 from the item's start,
      // its slot's distance and the depth, without the general path's
      // placement and tests, which NVIDIA's OpenCL compiler ran every slice
      // (16 x 16 items of 8 x 8, 16 deep, at 4096^2 on an H200: 23.7
      // TFLOP/s that way, 40.7 this way).
      if (rows_inside && full && a_slots_full) {
        const uint step_k = a_by_depths() || p.trans_a == 0u ? 1u : p.lda;
        [[unroll]] for (uint s = 0u; s < slots_a; ++s)
          next_a[s] = fetch_inside_a(a_start + s * a_delta + k1 * step_k, a_by_depths());
      } else {
        [[unroll]] for (uint s = 0u; s < slots_a; ++s)
          next_a[s] = fetch_slot_a(tid + s * threads, row0, k1, rows_inside && full);
      }
      if (cols_inside && full && b_slots_full) {
        const uint step_k = p.trans_b != 0u ? 1u : p.ldb;
        [[unroll]] for (uint s = 0u; s < slots_b; ++s)
          next_b[s] = fetch_inside_b(b_start + s * b_delta + k1 * step_k);
      } else {
        [[unroll]] for (uint s = 0u; s < slots_b; ++s)
          next_b[s] = fetch_slot_b(tid + s * threads, col0, k1, cols_inside && full);
      }
    }
    // A full slice runs a loop of constant length, unrolled: its shared
    // reads then take constant offsets and overlap the multiply-adds (CUDA:
    // 0.72 of cuBLAS SGEMM rolled, 0.85 unrolled); the last slice may be
    // shallower: no work on its zero padding.
    if (k1 <= p.K)
      [[unroll]] for (uint kk = 0u; kk < BK; ++kk) multiply_slice_row(stage, kk, tx, ty);
    else
      for (uint kk = 0u; kk < p.K - k0; ++kk) multiply_slice_row(stage, kk, tx, ty);
    // One stage: every item must be done reading it before it is refilled.
    // Two: the next slice goes to the other stage; this stage is refilled
    // only after the next step's barrier, which every item reaches after it
    // has finished reading it here.
    if (prefetching && PREFETCH == 2u)
      stage ^= 1u;
    else
      barrier();
  }

  [[unroll]] for (uint r = 0u; r < TM; ++r) {
    const uint gi = row0 + 4u * (ty + (r / 4u) * LY) + r % 4u;
    [[unroll]] for (uint q = 0u; q < TN4; ++q) {
      const uint gj = col0 + 4u * (tx + q * LX);
      store_c(gi, gj, acc[r][q].x);
      store_c(gi, gj + 1u, acc[r][q].y);
      store_c(gi, gj + 2u, acc[r][q].z);
      store_c(gi, gj + 3u, acc[r][q].w);
    }
  }
}
