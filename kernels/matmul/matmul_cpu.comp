#version 450
#extension GL_EXT_control_flow_attributes : require
// C = alpha * op(A) * op(B) + beta * C for one float32 matrix, row-major,
// op(X) = X or its transpose (porta_ops_matmul; porta_ops_gemm without batch,
// bias or activation), for devices whose work-items are the iterations of a
// loop on a CPU core (porta's CPU backend, matmul_cpu.hpp): no barriers, no
// fibers, and the multiply-adds in the widest vectors the host compiler
// finds. The push constants are matmul.comp's first thirteen, then MODE, the
// row panels and where op(B)'s panels start. Three dispatches, as a CPU BLAS
// runs:
//   MODE 0 packs op(A) into `packed`: panel ip holds rows MR*ip .. MR*ip+MR-1
//     depth by depth (packed[(ip * K + k) * MR + r] = op(A)[MR*ip+r][k], zero
//     past M), so the multiply reads MR consecutive floats per depth wherever
//     A's rows lie (a row stride of a power of two would put every row of a
//     panel in one cache set). Group (x, y) packs depths PACK_DEPTH*x.. of
//     panel y.
//   MODE 1 packs op(B) the same way from p.packed_b on: NR columns per panel,
//     zero past N.
//   MODE 2 multiplies. Group (x, y) computes the MR x NR blocks of C in
//     column panel y and row panels PANELS*x .. PANELS*x + PANELS-1. K goes
//     in slices of KC depths: the slice of op(B)'s panel is copied into
//     shared memory once and stays in the core's L1 cache while every row
//     panel of the group is multiplied with it. C takes alpha * sums + beta * C
//     after the first slice and C + alpha * sums after each further one
//     (beta = 0 does not read C).
//
// Every element of C sums its products in order k = 0, 1, ..., K-1, one
// rounding each (fma), in slices of KC: alpha * slice sums are added to C one
// slice at a time, within matmul's bound (bound.hpp: K + 2 roundings at most
// along any product's path).
//
// The block of sums is an array the compiler vectorises (GCC 12, the
// translated C++, built for the full vector width: PORTA_CPU_FULL_WIDTH_KERNELS
// in backends/cpu/PortaCpuKernels.cmake): each row's NR sums become NR / 16
// AVX-512 multiply-adds per depth, an 8 x 32 block 16 accumulator registers
// (12 x 32 did not fit beside the broadcasts of A and spilled them). What
// keeps it so:
// - the loops over the block are [[unroll]] loops of spec-constant length,
//   which the translation leaves to the compiler (no cancel polls in them);
//   it unrolls them after its first pass of moving memory accesses out of
//   loops, so the array is still an array when the vectoriser sees it;
// - the store loop after the depths is a loop the compiler keeps (a
//   variable index): fully unrolled, every sum became a scalar of its own,
//   which GCC 12 does not gather into vectors across the depth loop;
// - op(B)'s slice is read from shared memory (no bounds checks, so no
//   branches) at indices the compiler can tell are consecutive (a base kept
//   below 2^32 - NR by min(), so 32-bit index arithmetic cannot wrap), and
//   every product is written b * a, so each fma() lists its operands in one
//   order;
// - op(A)'s values for a depth are loaded first, in 16-byte loads, then the
//   multiply-adds follow without a branch between them;
// - UNROLL depths per loop iteration: GCC 12 writes the block's registers back
//   to the array at the end of every iteration, so once per UNROLL depths.
layout(local_size_x = 1, local_size_y = 1) in;
layout(constant_id = 0) const uint MR = 8;   // rows of a block, a multiple of 4
layout(constant_id = 1) const uint NR = 32;  // columns of a block, a multiple of 4
const uint KC = 256;                         // depths of a slice of op(B) in shared memory (32 KiB)
const uint PANELS = 16;                      // row panels per group (MODE 2)
const uint PACK_DEPTH = 64;                  // depths per group (MODES 0 and 1)
const uint UNROLL = 8;                       // depths per iteration of the multiply loop

layout(set = 0, binding = 0) readonly buffer MatA { float a[]; };
layout(set = 0, binding = 1) readonly buffer MatB { float b[]; };
layout(set = 0, binding = 2) buffer MatC { float c[]; };
// op(A)'s panels from 0, op(B)'s from p.packed_b; read as vec4s (both
// panel layouts keep every depth's run of MR or NR values 16-byte aligned).
layout(set = 0, binding = 3) buffer Packed { float packed[]; };
layout(set = 0, binding = 3) readonly buffer Packed4 { vec4 packed4[]; };

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
  uint mode;
  uint row_panels;  // ceil(M / MR)
  uint packed_b;    // where op(B)'s panels start in `packed`, a multiple of 4
} p;

shared float slice_b[KC * NR];  // [depth][column] of the group's column panel

float op_a(uint i, uint k) {
  if (i >= p.M) return 0.0;
  return a[p.a_offset + (p.trans_a != 0u ? k * p.lda + i : i * p.lda + k)];
}

float op_b(uint k, uint j) {
  if (j >= p.N) return 0.0;
  return b[p.b_offset + (p.trans_b != 0u ? j * p.ldb + k : k * p.ldb + j)];
}

// MODE 0: group (x, y) packs depths PACK_DEPTH*x.. of op(A)'s panel y;
// MODE 1: of op(B)'s panel y.
void pack() {
  const uint panel = gl_WorkGroupID.y;
  const uint k0 = gl_WorkGroupID.x * PACK_DEPTH;
  const uint k1 = min(k0 + PACK_DEPTH, p.K);
  if (p.mode == 0u) {
    for (uint k = k0; k < k1; ++k)
      [[unroll]] for (uint r = 0u; r < MR; ++r) packed[(panel * p.K + k) * MR + r] = op_a(panel * MR + r, k);
  } else {
    for (uint k = k0; k < k1; ++k)
      [[unroll]] for (uint j = 0u; j < NR; ++j)
        packed[p.packed_b + (panel * p.K + k) * NR + j] = op_b(k, panel * NR + j);
  }
}

// C[i][j] for the block's sums: the first slice applies beta, later slices add.
void store_c(uint i, uint j, float sum, bool first) {
  if (i >= p.M || j >= p.N) return;
  const uint at = p.c_offset + i * p.ldc + j;
  float v = p.alpha * sum;
  if (!first)
    v += c[at];
  else if (p.beta != 0.0)
    v += p.beta * c[at];
  c[at] = v;
}

// The block's sums, MR rows of NR columns.
float sums[MR * NR];

// sums += op(A)'s panel at slice depth k (its vec4s from from_a on) x op(B)'s
// slice row k.
void add_depth(uint from_a, uint k) {
  vec4 va[MR / 4u];
  [[unroll]] for (uint r = 0u; r < MR / 4u; ++r) va[r] = packed4[from_a + k * (MR / 4u) + r];
  const uint at_b = min(k, KC - 1u) * NR;
  [[unroll]] for (uint r = 0u; r < MR; ++r)
    [[unroll]] for (uint j = 0u; j < NR; ++j)
      sums[r * NR + j] = fma(slice_b[at_b + j], va[r / 4u][r % 4u], sums[r * NR + j]);
}

// MODE 2: group (x, y) computes the blocks of column panel y in row panels
// PANELS*x .. PANELS*x + PANELS-1.
void multiply() {
  const uint jp = gl_WorkGroupID.y;
  const uint ip0 = gl_WorkGroupID.x * PANELS;
  const uint ip1 = min(ip0 + PANELS, p.row_panels);
  for (uint k0 = 0u; k0 < p.K; k0 += KC) {
    const uint depth = min(KC, p.K - k0);
    const uint from_b = (p.packed_b + (jp * p.K + k0) * NR) / 4u;
    for (uint k = 0u; k < depth; ++k)
      [[unroll]] for (uint q = 0u; q < NR / 4u; ++q) {
        const vec4 v = packed4[from_b + k * (NR / 4u) + q];
        [[unroll]] for (uint e = 0u; e < 4u; ++e) slice_b[k * NR + 4u * q + e] = v[e];
      }
    for (uint ip = ip0; ip < ip1; ++ip) {
      [[unroll]] for (uint e = 0u; e < MR * NR; ++e) sums[e] = 0.0;
      const uint from_a = (ip * p.K + k0) * (MR / 4u);
      uint k = 0u;
      for (; k + UNROLL <= depth; k += UNROLL) [[unroll]] for (uint d = 0u; d < UNROLL; ++d) add_depth(from_a, k + d);
      for (; k < depth; ++k) add_depth(from_a, k);
      // A loop the compiler keeps (see above).
      for (uint e = 0u; e < MR * NR; ++e) store_c(ip * MR + e / NR, jp * NR + e % NR, sums[e], k0 == 0u);
    }
  }
}

void main() {
  if (p.mode == 2u)
    multiply();
  else
    pack();
}
