// The table of targets (translator.hpp).
#include "porta_translator/translator.hpp"

namespace porta::translator {

const std::vector<TargetInfo>& targets() {
  static const std::vector<TargetInfo> table = {
      {Target::Cpp, "cpp", "C++17 for porta's CPU backend", true},
      {Target::OpenCL, "opencl", "OpenCL C 1.2", false},
      {Target::Cuda, "cuda", "CUDA C++ for NVRTC", true},
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

}  // namespace porta::translator
