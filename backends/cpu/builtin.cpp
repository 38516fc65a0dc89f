#include "builtin.hpp"

#include <string_view>
#include <unordered_map>

namespace porta::cpu {

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
