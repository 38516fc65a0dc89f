// Work-group reduction through shared memory and barriers, then a float
// atomic into the result: shared → __shared__, barrier() → __syncthreads().
struct PushConstants {
  unsigned int n;
};

extern "C" __global__ void __launch_bounds__(256) block_sum(const float* __restrict__ b0, float* __restrict__ b1,
                                                            PushConstants pc) {
  __shared__ float partial[256];
  unsigned int local = threadIdx.x;
  unsigned int i = blockIdx.x * 256u + local;
  partial[local] = i < pc.n ? b0[i] : 0.0f;
  __syncthreads();
  for (unsigned int stride = 128u; stride > 0u; stride >>= 1u) {
    if (local < stride) partial[local] += partial[local + stride];
    __syncthreads();
  }
  if (local == 0u) atomicAdd(&b1[0], partial[0]);
}
