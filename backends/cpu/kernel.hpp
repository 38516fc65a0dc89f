// Kernels: translated C++ found among the built-in kernels, or compiled at run time.
#pragma once

#include <string>

#include "porta/plugin.h"
#include "porta_cpu.h"

struct porta_plugin_kernel_t {
  const porta_cpu_kernel_entry* entry;
  std::string name;
  uint32_t invocations;  // work-items per group
  uint64_t stack_bytes;  // stack one work-item may use; 0 for the built-in kernels (the default fits)
};

namespace porta::cpu {

porta_plugin_kernel kernel_create(const porta_kernel_desc& desc);

}  // namespace porta::cpu
