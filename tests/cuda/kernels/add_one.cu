// b0[i] += 1 for every i < n: a kernel without a push-constant block when
// the count is a specialization constant fixed into the source.
#define PORTA_SPEC_N 1024u

extern "C" __global__ void add_one(unsigned int* __restrict__ b0) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < PORTA_SPEC_N) b0[i] += 1u;
}
