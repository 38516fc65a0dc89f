// Target cuda: CUDA C++ for NVRTC, following translator/runtime/porta_cuda.h.
#pragma once

#include "target_compiler.hpp"

namespace porta::translator::detail {

class CudaCompiler final : public TargetCompiler {
 public:
  using TargetCompiler::TargetCompiler;

 private:
  // The fixed parts of the translation (translator/runtime/).
  static constexpr const char* kRuntimeFile = "porta_cuda_kernel.inc";
  Target target() const override { return Target::Cuda; }
  void emit_translation_unit() override;
  const std::unordered_set<std::string>& reserved_words() const override;
  std::string loop_hint(bool unroll) const override { return unroll ? "#pragma unroll" : "#pragma unroll 1"; }

  // "const void* __restrict__ b0" (the kernel's own parameter, `entry`) or
  // "void* b1": how buffer parameters are declared.
  // Buffer parameter `index` as the entry point (entry) or porta_work_item takes it.
  std::string buffer_parameter(uint32_t index, bool entry) const;
  // The by-value struct of the buffers' sizes (porta_cuda.h).
  std::string buffer_sizes_type() const;
  void emit_kernel_entry();
  // Calls of the warp-fragment lowering's porta_mma_sync_MxNxK become
  // porta_cuda.h's porta_mma_sync<M, N, K, D> (mma.sync on tensor cores).
  void emit_target_instruction(const spirv_cross::Instruction& instruction) override;
};

}  // namespace porta::translator::detail
