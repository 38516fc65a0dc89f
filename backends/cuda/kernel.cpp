// Kernels: translated CUDA C++ → NVRTC → cubin (or PTX) → module, cached.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cuda_plugin.hpp"
#include "nvrtc.hpp"

namespace porta::cuda {

namespace {

using plugin::format;

// Kernel parameters are limited to 4 KiB (buffer pointers + push constants).
constexpr uint32_t kParameterBytes = 4096;
// Static shared memory above this needs dynamic shared memory and an opt-in.
constexpr uint32_t kDefaultSharedBytes = 48 * 1024;

uint64_t fnv1a(const std::string& text, uint64_t hash) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// The core's key covers the SPIR-V, the translated source, spec constants and porta's
// version; the module also depends on the architecture, the driver (which
// compiles PTX) and the NVRTC that built it.
std::string module_cache_key(const Device& device, const porta_kernel_desc& desc, const Nvrtc& nvrtc) {
  std::string identity = format("%s|cuda|sm_%d|driver %d|nvrtc %s|%s", desc.cache_key, device.arch,
                                driver().version, nvrtc.version().c_str(), desc.entry_point);
  return format("cuda-sm%d-%016llx%016llx", device.arch,
                static_cast<unsigned long long>(fnv1a(identity, 0xcbf29ce484222325ull)),
                static_cast<unsigned long long>(fnv1a(identity, 0x84222325cbf29ce4ull)));
}

// Loads an image; the copy gets a NUL after it so that a truncated PTX entry
// from the cache can never make the driver read past the end.
CUresult load_module(const std::vector<char>& image, CUmodule* module) {
  std::vector<char> terminated(image);
  terminated.push_back('\0');
  return driver().cuModuleLoadData(module, terminated.data());
}

// The attribute of the kernel's entry point (the smaller of its two
// instances' where it has two: what both allow).
int function_attribute(Kernel& k, CUfunction_attribute which, const char* name) {
  int value = 0;
  k.device->check(driver().cuFuncGetAttribute(&value, which, k.function),
                  "cuFuncGetAttribute(%s) of kernel '%s'", name, k.name.c_str());
  if (k.aligned) {
    int other = 0;
    k.device->check(driver().cuFuncGetAttribute(&other, which, k.aligned),
                    "cuFuncGetAttribute(%s) of kernel '%s' (aligned instance)", name, k.name.c_str());
    value = which == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? std::min(value, other) : std::max(value, other);
  }
  return value;
}

// A translated kernel's aligned instance and the alignment table it runs
// under (translator/README.md), where the module has them.
void find_aligned_instance(Kernel& k, const char* entry_point) {
  const Driver& cu = driver();
  const std::string aligned = std::string(entry_point) + "_aligned";
  CUfunction function = nullptr;
  if (cu.cuModuleGetFunction(&function, k.module, aligned.c_str()) != CUDA_SUCCESS) return;
  CUdeviceptr table = 0;
  size_t bytes = 0;
  if (cu.cuModuleGetGlobal(&table, &bytes, k.module, "porta_wide_alignment") != CUDA_SUCCESS) return;
  k.wide_alignment.assign(bytes / sizeof(uint32_t), 0);
  k.device->check(cu.cuMemcpyDtoH(k.wide_alignment.data(), table, k.wide_alignment.size() * sizeof(uint32_t)),
                  "cuMemcpyDtoH(porta_wide_alignment) of kernel '%s'", k.name.c_str());
  k.aligned = function;
}

struct ModuleGuard {
  Kernel* kernel;
  ~ModuleGuard() {
    if (kernel && kernel->module) driver().cuModuleUnload(kernel->module);
  }
};

}  // namespace

Kernel* Backend::kernel_create(Device& dev, const porta_kernel_desc& desc) {
  ContextScope scope(dev);
  auto kernel = std::make_unique<Kernel>();
  Kernel& k = *kernel;
  k.device = &dev;
  k.name = desc.name ? desc.name : (desc.entry_point ? desc.entry_point : "kernel");
  k.buffer_count = desc.buffer_count;
  k.push_size = desc.push_constant_size;
  // The push-constant struct's alignment is at most 16 bytes (a vec4), so its
  // C++ size is at most the std430 size rounded up to 16.
  k.push_param_size = (desc.push_constant_size + 15u) & ~15u;
  for (int i = 0; i < 3; ++i) k.block[i] = desc.workgroup_size[i];
  const char* name = k.name.c_str();

  // Each buffer takes its pointer and its size (porta_buffer_sizes, after the push constants).
  uint32_t parameter_bytes =
      desc.buffer_count * static_cast<uint32_t>(sizeof(CUdeviceptr) + sizeof(uint64_t)) + k.push_param_size;
  if (parameter_bytes > kParameterBytes) {
    dev.fail(PORTA_ERROR_UNSUPPORTED,
             "kernel '%s' needs %u bytes of kernel parameters (%u buffers with their sizes and %u bytes of "
             "push constants); CUDA allows %u",
             name, parameter_bytes, desc.buffer_count, desc.push_constant_size, kParameterBytes);
  }

  const Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &Nvrtc::get();
  } catch (const plugin::Failure& f) {
    dev.fail(f.status, "cannot build kernel '%s': %s", name, f.what());
  }
  ModuleGuard guard{&k};
  const porta_host_api* host = plugin::host();
  bool cache = desc.cache_key && host && host->cache_load && host->cache_store;
  std::string key = cache ? module_cache_key(dev, desc, *nvrtc) : std::string();
  if (cache) {
    void* data = nullptr;
    size_t size = 0;
    if (host->cache_load(key.c_str(), &data, &size)) {
      std::vector<char> image(static_cast<char*>(data), static_cast<char*>(data) + size);
      std::free(data);
      CUresult r = load_module(image, &k.module);
      if (r != CUDA_SUCCESS) {
        k.module = nullptr;
        plugin::log(PORTA_LOG_WARN,
                    format("%s: ignoring the cached module of kernel '%s' (%s); rebuilding it",
                           dev.label().c_str(), name, error_text(r).c_str()));
      }
    }
  }
  if (!k.module) {
    CompiledModule compiled;
    try {
      compiled = nvrtc->compile(
          std::string(desc.source, desc.source_size ? desc.source_size : std::strlen(desc.source)), k.name,
          dev.arch);
    } catch (const plugin::Failure& f) {
      // Translated kernels declare shared memory statically, which CUDA
      // limits to 48 KiB per block (ptxas fails above it).
      if (f.status == PORTA_ERROR_COMPILE && desc.shared_memory_bytes > kDefaultSharedBytes) {
        dev.fail(
            PORTA_ERROR_UNSUPPORTED,
            "kernel '%s' declares %u bytes of shared memory; CUDA allows at most %u bytes of static shared "
            "memory per block: %s",
            name, desc.shared_memory_bytes, kDefaultSharedBytes, f.what());
      }
      dev.fail(f.status, "kernel '%s': %s", name, f.what());
    }
    if (!compiled.log.empty()) {
      plugin::log(PORTA_LOG_WARN,
                  format("%s: NVRTC %s warnings for kernel '%s' (%s):\n%s", dev.label().c_str(),
                         nvrtc->version().c_str(), name, compiled.target.c_str(), compiled.log.c_str()));
    }
    if (compiled.is_ptx) {
      plugin::log(
          PORTA_LOG_INFO,
          format("%s: NVRTC %s does not know sm_%d; kernel '%s' is built as %s PTX for the driver to compile",
                 dev.label().c_str(), nvrtc->version().c_str(), dev.arch, name, compiled.target.c_str()));
    }
    dev.check(load_module(compiled.image, &k.module), "cuModuleLoadData of kernel '%s' (%s from NVRTC %s)",
              name, compiled.target.c_str(), nvrtc->version().c_str());
    if (cache) host->cache_store(key.c_str(), compiled.image.data(), compiled.image.size());
  }

  CUresult r = driver().cuModuleGetFunction(&k.function, k.module, desc.entry_point);
  if (r == CUDA_ERROR_NOT_FOUND) {
    dev.fail(PORTA_ERROR_INVALID_KERNEL, "kernel '%s' has no entry point '%s' in its CUDA source", name,
             desc.entry_point);
  }
  dev.check(r, "cuModuleGetFunction(%s) of kernel '%s'", desc.entry_point, name);
  find_aligned_instance(k, desc.entry_point);

  // Registers limit the block size below the device's maximum.
  uint64_t threads = uint64_t{k.block[0]} * k.block[1] * k.block[2];
  int max_threads = function_attribute(k, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK");
  if (threads > static_cast<uint64_t>(max_threads)) {
    int registers = function_attribute(k, CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS");
    dev.fail(PORTA_ERROR_UNSUPPORTED,
             "kernel '%s' has a work-group size of %ux%ux%u = %llu, but uses %d registers per thread, which "
             "limits it to %d threads per block on this device",
             name, k.block[0], k.block[1], k.block[2], static_cast<unsigned long long>(threads), registers,
             max_threads);
  }
  uint32_t static_shared =
      static_cast<uint32_t>(function_attribute(k, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES"));
  if (static_shared > dev.max_dynamic_shared) {
    dev.fail(PORTA_ERROR_UNSUPPORTED,
             "kernel '%s' uses %u bytes of static shared memory; the device allows at most %u per block",
             name, static_shared, dev.max_dynamic_shared);
  }
  // Shared memory the kernel declares beyond its static arrays is dynamic
  // (extern __shared__); above 48 KiB in total it needs the opt-in.
  if (desc.shared_memory_bytes > static_shared) k.dynamic_shared = desc.shared_memory_bytes - static_shared;
  if (k.dynamic_shared > 0 && static_shared + k.dynamic_shared > kDefaultSharedBytes) {
    for (CUfunction f : {k.function, k.aligned})
      if (f)
        dev.check(driver().cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              static_cast<int>(k.dynamic_shared)),
                  "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = %u) of kernel '%s'", k.dynamic_shared,
                  name);
  }
  guard.kernel = nullptr;
  return kernel.release();
}

void Backend::kernel_destroy(Kernel* kernel) {
  if (!kernel) return;
  {
    ContextScope scope(*kernel->device, ContextScope::Releasing{});
    if (kernel->module) driver().cuModuleUnload(kernel->module);
  }
  delete kernel;
}

}  // namespace porta::cuda
