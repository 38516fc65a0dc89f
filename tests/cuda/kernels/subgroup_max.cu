// Subgroup (warp) reduction, 64-bit integer atomics and half-precision loads:
// the features the CUDA backend reports for sm_80 and sm_90. NVRTC is used
// without the toolkit's include directory (cuda_fp16.h is not there), so
// halves travel as 16-bit words and are converted with PTX's own instruction.
__device__ __forceinline__ float porta_half_to_float(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}

struct PushConstants {
  unsigned int n;
};

extern "C" __global__ void subgroup_max(const unsigned short* __restrict__ b0, unsigned long long* __restrict__ b1,
                                        PushConstants pc) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < pc.n ? porta_half_to_float(b0[i]) : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if ((threadIdx.x & 31u) == 0u) atomicMax(b1, static_cast<unsigned long long>(v));
}
