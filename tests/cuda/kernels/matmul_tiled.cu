// C = A * B (row-major, M x K times K x N) with 16 x 16 shared-memory tiles;
// a two-dimensional work-group and std430 push constants with a vec2 member.
struct alignas(8) porta_vec2 {
  float x, y;
};

struct PushConstants {
  unsigned int m;      // offset 0
  unsigned int n;      // offset 4
  unsigned int k;      // offset 8
  unsigned int _pad0;  // std430 places `alpha_beta` at 16
  porta_vec2 alpha_beta;
};
static_assert(sizeof(PushConstants) == 24, "push-constant layout must match the SPIR-V offsets");

extern "C" __global__ void matmul_tiled(const float* __restrict__ b0, const float* __restrict__ b1,
                                        float* __restrict__ b2, PushConstants pc) {
  __shared__ float tile_a[16][16];
  __shared__ float tile_b[16][16];
  unsigned int row = blockIdx.y * 16u + threadIdx.y;
  unsigned int col = blockIdx.x * 16u + threadIdx.x;
  float acc = 0.0f;
  for (unsigned int t = 0u; t < (pc.k + 15u) / 16u; ++t) {
    unsigned int ka = t * 16u + threadIdx.x;
    unsigned int kb = t * 16u + threadIdx.y;
    tile_a[threadIdx.y][threadIdx.x] = (row < pc.m && ka < pc.k) ? b0[row * pc.k + ka] : 0.0f;
    tile_b[threadIdx.y][threadIdx.x] = (kb < pc.k && col < pc.n) ? b1[kb * pc.n + col] : 0.0f;
    __syncthreads();
    for (unsigned int j = 0u; j < 16u; ++j) acc = fmaf(tile_a[threadIdx.y][j], tile_b[j][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < pc.m && col < pc.n) {
    float prev = b2[row * pc.n + col];
    b2[row * pc.n + col] = pc.alpha_beta.x * acc + pc.alpha_beta.y * prev;
  }
}
