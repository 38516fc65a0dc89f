#version 450
// C = alpha * op(A) * op(B) + beta * C, row-major, op(X) = X or its transpose.
// op(A) is M x K, op(B) is K x N, C is M x N; lda/ldb/ldc are row strides in
// elements and the *_offset values are element offsets into the buffers.
//
// A work-group of LX x LY items computes a BM x BN block of C (BM = 4*LY,
// BN = 4*LX); each item owns a 4x4 register block whose rows are ty + r*LY and
// columns tx + c*LX, so neighbouring items read neighbouring shared words and
// store neighbouring words of C. A and B pass through shared memory in BK-deep
// slices. LX, LY and BK are specialization constants the host picks per
// device; the shared arrays have the largest size the host may ask for
// (BM, BN <= 64, BK <= 16: 8 KiB in all).
//
// Every element of C sums its K products in order k = 0, 1, ..., K-1 whatever
// the tile sizes, so the result does not depend on the device's choice.
layout(local_size_x = 8, local_size_y = 8) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BK = 16;

const uint BM_MAX = 64;
const uint BN_MAX = 64;
const uint BK_MAX = 16;

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

shared float tile_a[BK_MAX * BM_MAX];  // [k][row]
shared float tile_b[BK_MAX * BN_MAX];  // [k][col]

void main() {
  const uint LX = gl_WorkGroupSize.x;
  const uint LY = gl_WorkGroupSize.y;
  const uint BM = 4u * LY;
  const uint BN = 4u * LX;
  const uint tx = gl_LocalInvocationID.x;
  const uint ty = gl_LocalInvocationID.y;
  const uint tid = ty * LX + tx;
  const uint threads = LX * LY;
  const uint row0 = gl_WorkGroupID.y * BM;
  const uint col0 = gl_WorkGroupID.x * BN;

  float acc[4][4];
  for (uint r = 0u; r < 4u; ++r)
    for (uint q = 0u; q < 4u; ++q) acc[r][q] = 0.0;

  for (uint k0 = 0u; k0 < p.K; k0 += BK) {
    // Load op(A)[row0 .. row0+BM) x [k0 .. k0+BK), walking memory in order.
    for (uint e = tid; e < BM * BK; e += threads) {
      uint i, kk;
      if (p.trans_a != 0u) {  // A is K x M: consecutive items take consecutive rows of op(A)
        kk = e / BM;
        i = e % BM;
      } else {
        i = e / BK;
        kk = e % BK;
      }
      uint gi = row0 + i;
      uint gk = k0 + kk;
      float v = 0.0;
      if (gi < p.M && gk < p.K)
        v = p.trans_a != 0u ? a[p.a_offset + gk * p.lda + gi] : a[p.a_offset + gi * p.lda + gk];
      tile_a[kk * BM + i] = v;
    }
    // Load op(B)[k0 .. k0+BK) x [col0 .. col0+BN).
    for (uint e = tid; e < BK * BN; e += threads) {
      uint j, kk;
      if (p.trans_b != 0u) {  // B is N x K
        j = e / BK;
        kk = e % BK;
      } else {
        kk = e / BN;
        j = e % BN;
      }
      uint gj = col0 + j;
      uint gk = k0 + kk;
      float v = 0.0;
      if (gj < p.N && gk < p.K)
        v = p.trans_b != 0u ? b[p.b_offset + gj * p.ldb + gk] : b[p.b_offset + gk * p.ldb + gj];
      tile_b[kk * BN + j] = v;
    }
    barrier();
    // The last slice may be shallower than BK: no work on its zero padding.
    uint depth = min(BK, p.K - k0);
    for (uint kk = 0u; kk < depth; ++kk) {
      float va[4];
      float vb[4];
      for (uint r = 0u; r < 4u; ++r) va[r] = tile_a[kk * BM + ty + r * LY];
      for (uint q = 0u; q < 4u; ++q) vb[q] = tile_b[kk * BN + tx + q * LX];
      for (uint r = 0u; r < 4u; ++r)
        for (uint q = 0u; q < 4u; ++q) acc[r][q] += va[r] * vb[q];
    }
    barrier();
  }

  for (uint r = 0u; r < 4u; ++r) {
    uint gi = row0 + ty + r * LY;
    if (gi >= p.M) continue;
    for (uint q = 0u; q < 4u; ++q) {
      uint gj = col0 + tx + q * LX;
      if (gj >= p.N) continue;
      uint at = p.c_offset + gi * p.ldc + gj;
      // beta == 0 overwrites C without reading it: NaN or garbage in its old
      // content must not reach the result.
      if (p.beta == 0.0)
        c[at] = p.alpha * acc[r][q];
      else
        c[at] = p.alpha * acc[r][q] + p.beta * c[at];
    }
  }
}
