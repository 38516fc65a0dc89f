// Target cuda: CUDA C++ for NVRTC, following translator/runtime/porta_cuda.h.
#pragma once

#include <map>
#include <optional>
#include <unordered_map>

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
  // porta_cuda_kernel (buffers anywhere), or porta_cuda_kernel_aligned.
  void emit_kernel_entry_function(bool aligned, const std::string& parameters, const std::string& arguments);
  // Calls of the warp-fragment lowering's porta_mma_sync_MxNxK become
  // porta_cuda.h's porta_mma_sync<M, N, K, D> (mma.sync on tensor cores).
  void emit_target_instruction(const spirv_cross::Instruction& instruction) override;
  void emit_store_statement(uint32_t lhs_expression, uint32_t rhs_expression) override;

  // Wide accesses: porta's vector types are aligned like their components,
  // so NVRTC moves a vec4 element by element. A vector of 8 or 16 bytes
  // (wide_vector_bytes) in a buffer array whose stride is its size, or a
  // buffer member at a multiple of its size, is loaded and stored whole
  // (porta_cuda.h's porta_load_wide) where its address is a multiple of
  // its size, which is where the buffer's start is (imported memory may
  // start anywhere); an element of a shared array of them is aligned
  // (emit_shared_struct) and untested. Access chains to such vectors, with
  // their bytes, whether they are known aligned, whether no view writes
  // their buffer (read through the read-only data cache then, as NVRTC
  // reads the __restrict__ parameters' narrow loads), and the buffer's view
  // variable (0: shared memory).
  struct WideChain {
    uint32_t bytes;
    bool aligned;
    bool read_only;
    uint32_t view = 0;
  };
  std::unordered_map<uint32_t, WideChain> wide_chains_;
  // The chain's wide access, if the OpAccessChain `ops` (length words) ends at one.
  std::optional<WideChain> wide_chain(const uint32_t* ops, uint32_t length) const;
  std::string wide_call(const char* function, uint32_t chain) const;
  // A test of alignment at every wide access to a buffer, with a fallback
  // whose values the loaded registers merge with, keeps NVRTC from
  // overlapping the loads with other work (matmul_coop.comp's f16 GEMM ran
  // 13% slower with it on an H200). So a kernel with such accesses is
  // compiled twice, porta_work_item<porta_buffers_aligned>, each instance
  // an entry point: porta_cuda_kernel_aligned need not test (true), and the
  // host runs it where every buffer accessed wide starts on a multiple of
  // the accesses' size (porta_wide_alignment); porta_cuda_kernel tests each
  // buffer's start at each access (false). The buffers' parameters and the
  // largest such access of each, as found while emitting (it grows; a pass
  // that finds more is redone), and as the current pass's work item was
  // declared with.
  std::map<uint32_t, uint32_t> wide_buffers_, wide_buffers_declared_;
  // ", view.porta_bytes": the start a wide buffer access tests where its
  // instance tests; "" for the others.
  std::string wide_buffer_argument(const WideChain& wide);
};

}  // namespace porta::translator::detail
