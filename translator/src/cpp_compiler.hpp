// Target cpp: C++17 for porta's CPU backend, following translator/runtime/porta_cpu.h.
#pragma once

#include "target_compiler.hpp"

namespace porta::translator::detail {

class CppCompiler final : public TargetCompiler {
 public:
  using TargetCompiler::TargetCompiler;

 private:
  Target target() const override { return Target::Cpp; }
  // Translated C++ is compiled with -fwrapv (the CPU backend and its build).
  bool signed_overflow_wraps() const override { return true; }
  // GCC's spelling, which clang accepts too. Without it GCC at -O2 left the
  // [[unroll]] loops of matmul's item code rolled (1.3-1.7x slower there).
  std::string loop_hint(bool unroll) const override {
    return unroll ? "#pragma GCC unroll 64" : "#pragma GCC unroll 1";
  }
  void emit_translation_unit() override;
  std::string buffer_pointer_type(const std::string& element, Access access) const override;
  const std::unordered_set<std::string>& reserved_words() const override;

  void emit_work_item();
  void emit_group_entry();
};

}  // namespace porta::translator::detail
