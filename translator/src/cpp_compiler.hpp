// Target cpp: C++17 for porta's CPU backend, following translator/runtime/porta_cpu.h.
#pragma once

#include "target_compiler.hpp"

namespace porta::translator::detail {

class CppCompiler final : public TargetCompiler {
 public:
  CppCompiler(std::vector<uint32_t> spirv, const TranslateOptions& options);

 private:
  // ---- subgroups (cpu_subgroups.cpp) ----
  // Where a lane waits for its subgroup (porta_cpu_kernel.inc,
  // "subgroup_types") depends on the iterations of the loops around the
  // operation: a kernel with subgroup operations gets one private counter
  // per loop, counted up in the loop's header and reset in its merge block.
  struct Loop {
    uint32_t header = 0, merge = 0;
    uint32_t counter = 0;                 // the Private uint variable
    std::unordered_set<uint32_t> blocks;  // the blocks of the loop construct
  };
  struct CountedModule {
    std::vector<uint32_t> spirv;
    std::vector<Loop> loops;
  };
  static CountedModule count_loop_iterations(std::vector<uint32_t> spirv);
  CppCompiler(CountedModule module, const TranslateOptions& options);
  // The braced site of the operation being emitted: {loop place, iteration,
  // ..., operation place}, places in emission order.
  std::string subgroup_site();
  std::string subgroup_expression(const SubgroupOperation& operation, uint32_t result_type) override;
  std::string subgroup_barrier_statement(bool control) override;
  std::string barrier_section() const override {
    return kernel_uses_subgroups() ? "subgroup_barrier" : "barrier";
  }
  std::vector<Loop> loops_;
  std::unordered_map<uint32_t, uint32_t> loop_places_;  // loop index → place, this pass
  uint32_t next_place_ = 0;

  // The fixed parts of the translation (translator/runtime/).
  static constexpr const char* kRuntimeFile = "porta_cpu_kernel.inc";
  // Private float vec4 variables (and arrays of them, any depth) that are
  // only loaded and stored whole, or read by component, through access
  // chains to one vec4 or one component: they are declared as
  // porta_glsl::vec4_register, which the optimiser keeps in registers.
  struct RegisterChain {
    uint32_t variable = 0;
    bool component = false;  // the chain ends at one float of the vec4
  };
  void find_register_variables(const std::vector<uint32_t>& spirv);
  void drop_register_variable(uint32_t variable);
  std::string variable_decl(const spirv_cross::SPIRType& type, const std::string& name, uint32_t id) override;
  void emit_target_instruction(const spirv_cross::Instruction& instruction) override;
  std::unordered_set<uint32_t> register_variables_;
  std::unordered_map<uint32_t, RegisterChain> register_chains_;

  Target target() const override { return Target::Cpp; }
  // Translated C++ is compiled with -fwrapv (the CPU backend and its build).
  bool signed_overflow_wraps() const override { return true; }
  // GCC's spelling, which clang accepts too. Without it GCC at -O2 left the
  // [[unroll]] loops of matmul's item code rolled (1.3-1.7x slower there).
  // None where loops count their iterations (modules with subgroup
  // operations, cpu_subgroups.cpp): their headers are `for (;;)` statements
  // that count, where GCC refuses the pragma.
  std::string loop_hint(bool unroll) const override {
    if (!loops_.empty()) return "";
    return unroll ? "#pragma GCC unroll 64" : "#pragma GCC unroll 1";
  }
  // A loop header's poll: the dispatch's cancel flag (porta_cpu.h); once
  // set, the work-item ends. Only main() holds polls. A volatile read, not
  // __atomic_load_n: GCC 12 takes any atomic builtin, relaxed too, for a
  // statement that may write all memory, so a private array updated in the
  // loop (a matmul's block of sums) went back to the stack at every
  // iteration instead of staying in registers (matmul_cpu.comp: half the
  // speed). The watchdog's store is atomic; an aligned 32-bit volatile read
  // sees it on every host porta runs on, as the atomic load did.
  std::string cancel_poll_statement() override {
    return "if (*static_cast<const volatile uint32_t*>(porta_cancel)) return;";
  }
  void emit_translation_unit() override;
  const std::unordered_set<std::string>& reserved_words() const override;
  std::string items_in_bounds_member() const override { return "porta_items_in_bounds"; }

  void emit_group_entry();
};

}  // namespace porta::translator::detail
