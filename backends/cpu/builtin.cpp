#include "builtin.hpp"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "../common/plugin_support.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace porta::cpu {

namespace {

// The widest level whose instructions this processor (and its OS) supports.
IsaLevel host_isa_level() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  // F16C through CPUID (leaf 1, ECX): clang's __builtin_cpu_supports has no "f16c".
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
  const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") && f16c &&
                  __builtin_cpu_supports("avx");
  const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl");
  return v4 ? IsaLevel::X86_64_V4 : v3 ? IsaLevel::X86_64_V3 : IsaLevel::Baseline;
#else
  return IsaLevel::Baseline;
#endif
}

}  // namespace

const char* isa_level_name(IsaLevel level) {
  // Indexed by IsaLevel, as BuiltinKernel::entries is; PORTA_CPU_ISA's values.
  static constexpr const char* kNames[kIsaLevelCount] = {"baseline", "x86-64-v3", "x86-64-v4"};
  return kNames[static_cast<int>(level)];
}

IsaLevel isa_level() {
  static const IsaLevel host = host_isa_level();
  const char* env = std::getenv("PORTA_CPU_ISA");
  if (!env || !*env) return host;
  for (int i = 0; i < kIsaLevelCount; ++i) {
    const auto level = static_cast<IsaLevel>(i);
    if (std::strcmp(env, isa_level_name(level)) == 0) return level < host ? level : host;
  }
  plugin::fail(
      PORTA_ERROR_INVALID_ARGUMENT,
      "cpu: PORTA_CPU_ISA is '%s'; expected baseline, x86-64-v3 or x86-64-v4 (this processor runs up "
      "to %s)",
      env, isa_level_name(host));
}

const porta_cpu_kernel_entry* builtin_entry(const BuiltinKernel& kernel, IsaLevel* chosen) {
  int i = static_cast<int>(isa_level());
  while (i > 0 && !kernel.entries[i]) --i;
  *chosen = static_cast<IsaLevel>(i);
  return kernel.entries[i];
}

const BuiltinKernel* find_builtin(const char* source, size_t size) {
  static const auto by_text = [] {
    std::unordered_map<std::string_view, const BuiltinKernel*> map;
    for (size_t i = 0; i < kBuiltinKernelCount; ++i) {
      map.emplace(std::string_view(kBuiltinKernels[i].source, kBuiltinKernels[i].source_size),
                  &kBuiltinKernels[i]);
    }
    return map;
  }();
  auto it = by_text.find(std::string_view(source, size));
  return it == by_text.end() ? nullptr : it->second;
}

}  // namespace porta::cpu
