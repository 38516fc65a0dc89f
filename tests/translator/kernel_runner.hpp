// Builds C++ emitted by the translator into a shared object with the system
// compiler (warnings are errors) and runs it through small test schedulers:
// one that runs work-items in sequence (kernels without barriers) and one that
// runs each work-item on its own thread with a real barrier.
#pragma once

#include <cstdint>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "porta_cpu.h"
#include "porta_translator/translator.hpp"

namespace porta::test {

// GLSL → prepared SPIR-V (validate + optimise unless `optimize` is false).
std::vector<uint32_t> spirv_of(const std::string& glsl, bool optimize = true);

// SPIR-V assembly → words (SPIRV-Tools' assembler); a failure is a test
// failure naming the line, and no words.
std::vector<uint32_t> assemble(const std::string& text, spv_target_env env = SPV_ENV_VULKAN_1_0);

class CompiledKernel {
 public:
  // Translates, writes, compiles with -Wall -Wextra -Werror and loads. On
  // failure `error()` holds the compiler's output and the source.
  // `bounds_checks`: as the CPU backend translates by default (TranslateOptions::bounds_checks).
  CompiledKernel(const std::vector<uint32_t>& spirv, const std::vector<translator::SpecValue>& specs = {},
                 bool bounds_checks = false);
  ~CompiledKernel();
  CompiledKernel(const CompiledKernel&) = delete;
  CompiledKernel& operator=(const CompiledKernel&) = delete;

  bool ok() const { return entry_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& source() const { return source_; }
  const porta_cpu_kernel_entry& entry() const { return *entry_; }

  // One buffer parameter: its memory and size in bytes (what .length() reads).
  struct Buffer {
    template <class T>
    Buffer(std::vector<T>& v) : data(v.data()), size(v.size() * sizeof(T)) {}
    template <class T>
    Buffer(T* object) : data(object), size(sizeof(T)) {}
    void* data;
    uint64_t size;
  };
  // Runs every work-group in sequence.
  void dispatch(uint32_t gx, uint32_t gy, uint32_t gz, const std::vector<Buffer>& buffers,
                const void* push = nullptr, uint32_t push_size = 0) const;

 private:
  std::string source_;
  std::string error_;
  std::string directory_;
  void* handle_ = nullptr;
  const porta_cpu_kernel_entry* entry_ = nullptr;
};

}  // namespace porta::test
