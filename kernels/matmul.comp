#version 450
// C = alpha * op(A) * op(B) + beta * C, row-major, op(X) = X or its transpose.
// op(A) is M x K, op(B) is K x N, C is M x N; lda/ldb/ldc are row strides in
// elements and the *_offset values are element offsets into the buffers.
//
// A work-group of LX x LY items computes a BM x BN block of C (BM = TM*LY,
// BN = TN*LX); each item owns a TM x TN register block made of 4 x 4 pieces:
// rows 4*(ty + r*LY) + 0..3 and columns 4*(tx + q*LX) + 0..3 for r < TM/4,
// q < TN/4. A and B pass through shared memory in BK-deep slices, stored as
// vec4s of four rows of op(A) or four columns of op(B), so an item reads its
// operands with one 16-byte load per four values: on GPUs the multiply-adds,
// not the shared-memory reads, then set the pace. LX, LY, BK, TM and TN
// (multiples of 4) are specialization constants the host picks per device;
// the shared arrays have the largest size the host may ask for (BM, BN <= 128,
// BK <= 16, TM, TN <= 8: 16.5 KiB). tile_a's k-rows are padded by one vec4:
// items that store one k-row each would otherwise all hit one bank.
//
// Every element of C sums its K products in order k = 0, 1, ..., K-1 whatever
// the tile sizes, so the result does not depend on the device's choice.
layout(local_size_x = 8, local_size_y = 8) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BK = 16;
layout(constant_id = 3) const uint TM = 4;
layout(constant_id = 4) const uint TN = 4;

const uint BM_MAX = 128;
const uint BN_MAX = 128;
const uint BK_MAX = 16;
const uint T4_MAX = 2;                   // TM/4, TN/4 <= 2
const uint A_STRIDE = BM_MAX / 4u + 1u;  // vec4s between k-rows of tile_a
const uint B_STRIDE = BN_MAX / 4u;

layout(set = 0, binding = 0) readonly buffer MatA { float a[]; };
layout(set = 0, binding = 1) readonly buffer MatB { float b[]; };
layout(set = 0, binding = 2) buffer MatC { float c[]; };

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
} p;

shared vec4 tile_a[BK_MAX * A_STRIDE];  // [k][rows / 4]
shared vec4 tile_b[BK_MAX * B_STRIDE];  // [k][cols / 4]

// op(A)[i][k], 0 outside op(A).
float load_a(uint i, uint k) {
  if (i >= p.M || k >= p.K) return 0.0;
  return p.trans_a != 0u ? a[p.a_offset + k * p.lda + i] : a[p.a_offset + i * p.lda + k];
}

// op(B)[k][j], 0 outside op(B).
float load_b(uint k, uint j) {
  if (j >= p.N || k >= p.K) return 0.0;
  return p.trans_b != 0u ? b[p.b_offset + j * p.ldb + k] : b[p.b_offset + k * p.ldb + j];
}

// acc += (the item's rows of op(A) at slice row kk) x (its columns of op(B)).
void multiply_slice_row(uint kk, uint tx, uint ty, inout vec4 acc[T4_MAX * 4u][T4_MAX]) {
  vec4 va[T4_MAX];
  vec4 vb[T4_MAX];
  for (uint r = 0u; r < TM / 4u; ++r) va[r] = tile_a[kk * A_STRIDE + ty + r * gl_WorkGroupSize.y];
  for (uint q = 0u; q < TN / 4u; ++q) vb[q] = tile_b[kk * B_STRIDE + tx + q * gl_WorkGroupSize.x];
  for (uint r = 0u; r < TM / 4u; ++r)
    for (uint q = 0u; q < TN / 4u; ++q) {
      acc[4u * r + 0u][q] += va[r].x * vb[q];
      acc[4u * r + 1u][q] += va[r].y * vb[q];
      acc[4u * r + 2u][q] += va[r].z * vb[q];
      acc[4u * r + 3u][q] += va[r].w * vb[q];
    }
}

// C[i][j] = alpha * sum + beta * C[i][j] inside C. beta == 0 overwrites C
// without reading it: NaN or garbage in its old content must not reach the
// result.
void store_c(uint i, uint j, float sum) {
  if (i >= p.M || j >= p.N) return;
  const uint at = p.c_offset + i * p.ldc + j;
  if (p.beta == 0.0)
    c[at] = p.alpha * sum;
  else
    c[at] = p.alpha * sum + p.beta * c[at];
}

void main() {
  const uint LX = gl_WorkGroupSize.x;
  const uint LY = gl_WorkGroupSize.y;
  const uint TM4 = TM / 4u;
  const uint TN4 = TN / 4u;
  const uint BM4 = TM4 * LY;  // vec4s of rows in a block
  const uint BN4 = TN4 * LX;
  const uint tx = gl_LocalInvocationID.x;
  const uint ty = gl_LocalInvocationID.y;
  const uint tid = ty * LX + tx;
  const uint threads = LX * LY;
  const uint row0 = gl_WorkGroupID.y * BM4 * 4u;
  const uint col0 = gl_WorkGroupID.x * BN4 * 4u;

  vec4 acc[T4_MAX * 4u][T4_MAX];  // [row of the item's block][vec4 of columns]
  for (uint r = 0u; r < TM; ++r)
    for (uint q = 0u; q < TN4; ++q) acc[r][q] = vec4(0.0);

  for (uint k0 = 0u; k0 < p.K; k0 += BK) {
    // Four rows of op(A) at one k per item and step. Consecutive items take
    // consecutive addresses: k when A is row-major, rows when it is transposed.
    for (uint e = tid; e < BM4 * BK; e += threads) {
      uint i4, kk;
      if (p.trans_a != 0u) {
        i4 = e % BM4;
        kk = e / BM4;
      } else {
        kk = e % BK;
        i4 = e / BK;
      }
      const uint gi = row0 + 4u * i4, gk = k0 + kk;
      tile_a[kk * A_STRIDE + i4] = vec4(load_a(gi, gk), load_a(gi + 1u, gk), load_a(gi + 2u, gk), load_a(gi + 3u, gk));
    }
    // Four columns of op(B) at one k.
    for (uint e = tid; e < BN4 * BK; e += threads) {
      uint j4, kk;
      if (p.trans_b != 0u) {
        kk = e % BK;
        j4 = e / BK;
      } else {
        j4 = e % BN4;
        kk = e / BN4;
      }
      const uint gj = col0 + 4u * j4, gk = k0 + kk;
      tile_b[kk * B_STRIDE + j4] = vec4(load_b(gk, gj), load_b(gk, gj + 1u), load_b(gk, gj + 2u), load_b(gk, gj + 3u));
    }
    barrier();
    // A full slice runs a loop of constant length the compiler can unroll;
    // the last slice may be shallower: no work on its zero padding.
    if (k0 + BK <= p.K)
      for (uint kk = 0u; kk < BK; ++kk) multiply_slice_row(kk, tx, ty, acc);
    else
      for (uint kk = 0u; kk < p.K - k0; ++kk) multiply_slice_row(kk, tx, ty, acc);
    barrier();
  }

  for (uint r = 0u; r < TM; ++r) {
    const uint gi = row0 + 4u * (ty + (r / 4u) * LY) + r % 4u;
    for (uint q = 0u; q < TN4; ++q) {
      const uint gj = col0 + 4u * (tx + q * LX);
      store_c(gi, gj, acc[r][q].x);
      store_c(gi, gj + 1u, acc[r][q].y);
      store_c(gi, gj + 2u, acc[r][q].z);
      store_c(gi, gj + 3u, acc[r][q].w);
    }
  }
}
