// The CUDA plugin's kernels for small transfers, as PTX (the driver compiles
// it for the device when the module loads): porta_write_N carries the bytes
// of a write as its parameter of N bytes, porta_read copies device memory into
// mapped pinned memory. tests/cuda assembles the text with ptxas.
#pragma once

#include <cstdint>
#include <string>

#include "../common/plugin_support.hpp"

namespace porta::cuda {

// One thread per byte in every kernel: any size, offset and alignment.
inline constexpr const char* kCopyKernelsHeader = R"(.version 6.0
.target sm_50
.address_size 64
)";

// The body of a write kernel whose parameter carries `bytes` bytes.
inline std::string write_kernel_ptx(uint32_t bytes) {
  return plugin::format(
      R"(.visible .entry porta_write_%u(.param .u64 dst, .param .u32 size, .param .align 16 .b8 data[%u])
{
  .reg .pred %%p;
  .reg .b16 %%byte;
  .reg .b32 %%r<5>;
  .reg .b64 %%rd<4>;
  mov.u32 %%r1, %%ctaid.x;
  mov.u32 %%r2, %%ntid.x;
  mov.u32 %%r3, %%tid.x;
  mad.lo.s32 %%r1, %%r1, %%r2, %%r3;
  ld.param.u32 %%r4, [size];
  setp.ge.u32 %%p, %%r1, %%r4;
  @%%p bra DONE;
  cvt.u64.u32 %%rd1, %%r1;
  mov.b64 %%rd2, data;
  add.s64 %%rd2, %%rd2, %%rd1;
  ld.param.u8 %%byte, [%%rd2];
  ld.param.u64 %%rd3, [dst];
  cvta.to.global.u64 %%rd3, %%rd3;
  add.s64 %%rd3, %%rd3, %%rd1;
  st.global.u8 [%%rd3], %%byte;
DONE:
  ret;
}
)",
      bytes, bytes);
}

inline constexpr const char* kReadKernelPtx =
    R"(.visible .entry porta_read(.param .u64 dst, .param .u64 src, .param .u32 size)
{
  .reg .pred %p;
  .reg .b16 %byte;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r1, %r1, %r2, %r3;
  ld.param.u32 %r4, [size];
  setp.ge.u32 %p, %r1, %r4;
  @%p bra DONE;
  cvt.u64.u32 %rd1, %r1;
  ld.param.u64 %rd2, [src];
  cvta.to.global.u64 %rd2, %rd2;
  add.s64 %rd2, %rd2, %rd1;
  ld.global.u8 %byte, [%rd2];
  ld.param.u64 %rd3, [dst];
  cvta.to.global.u64 %rd3, %rd3;
  add.s64 %rd3, %rd3, %rd1;
  st.global.u8 [%rd3], %byte;
DONE:
  ret;
}
)";

// The module: a write kernel for each of `write_sizes`, and the read kernel.
template <class Sizes>
std::string copy_kernels_ptx(const Sizes& write_sizes) {
  std::string ptx = kCopyKernelsHeader;
  for (uint32_t bytes : write_sizes) ptx += write_kernel_ptx(bytes);
  return ptx + kReadKernelPtx;
}

}  // namespace porta::cuda
