// The SPIR-V of every built-in kernel (kernels/*/*.comp), compiled by glslc
// and embedded into libporta at build time (glslc -mfmt=c, gathered by kernels/CMakeLists.txt). Only
// the launchers see it; to everyone else a built-in kernel is the SPIR-V they
// hand to porta_kernel_create.
#pragma once

#include <cstddef>
#include <cstdint>

namespace porta::ops {

struct EmbeddedSpirv {
  const char* name;  // the .comp file's name without extension
  const uint32_t* words;
  size_t word_count;
};
extern const EmbeddedSpirv kEmbeddedSpirv[];
extern const size_t kEmbeddedSpirvCount;

}  // namespace porta::ops
