// The table of targets (translator.hpp).
#include "porta_translator/translator.hpp"

namespace porta::translator {

const std::vector<TargetInfo>& targets() {
  static const std::vector<TargetInfo> table = {
      {Target::Cpp, "cpp", "C++17 for porta's CPU backend", PORTA_LANGUAGE_CPP, true},
      {Target::OpenCL, "opencl", "OpenCL C 1.2", PORTA_LANGUAGE_OPENCL_C, false},
      {Target::Cuda, "cuda", "CUDA C++ for NVRTC", PORTA_LANGUAGE_CUDA, true},
  };
  return table;
}

const TargetInfo& target_info(Target target) {
  for (const TargetInfo& info : targets())
    if (info.target == target) return info;
  throw Error(Error::Kind::Internal, "a target missing from the table of targets");
}

const TargetInfo* find_target(std::string_view name) {
  for (const TargetInfo& info : targets())
    if (name == info.name) return &info;
  return nullptr;
}

const char* target_name(Target target) { return target_info(target).name; }

Target target_for_language(porta_kernel_language language) {
  for (const TargetInfo& info : targets())
    if (info.plugin_language == language) return info.target;
  return Target::Cpp;
}

}  // namespace porta::translator
