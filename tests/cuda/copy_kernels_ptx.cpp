// porta-cuda-copy-kernels-ptx FILE: writes the CUDA plugin's small-transfer
// kernels (backends/cuda/copy_kernels.hpp) as the plugin hands them to the
// driver, with the parameter sizes the plugin uses, so that ptxas can check
// them on machines without a GPU.
#include <cstdio>
#include <fstream>

#include "copy_kernels.hpp"
#include "cuda_plugin.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: porta-cuda-copy-kernels-ptx FILE\n");
    return 2;
  }
  std::ofstream out(argv[1]);
  out << porta::cuda::copy_kernels_ptx(porta::cuda::Device::CopyKernels::kWriteSizes);
  return out.good() ? 0 : 1;
}
