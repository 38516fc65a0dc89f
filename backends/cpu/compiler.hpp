// Kernels the plugin does not have built in are compiled at run time: the
// translated C++ and the runtime headers go into a private directory, the
// system compiler ($PORTA_CXX, else c++) builds a shared object that also
// records the stack one work-item may use (-fstack-usage), and the object
// is kept in porta's kernel cache (written atomically, checked when loaded,
// rebuilt when corrupt) and dlopen'ed. Loaded objects stay loaded until the
// process exits, as plugins do.
#pragma once

#include <cstdint>
#include <string_view>

#include "porta/plugin.h"
#include "porta_cpu.h"

namespace porta::cpu {

struct CompiledKernel {
  const porta_cpu_kernel_entry* entry = nullptr;
  uint64_t stack_bytes = 0;  // stack one work-item may use; 0 where not recorded
};

// Returns the compiled kernel; throws plugin::Failure (PORTA_ERROR_COMPILE
// with the compiler's log, among others).
CompiledKernel compile_kernel(const porta_kernel_desc& desc, std::string_view source);

}  // namespace porta::cpu
