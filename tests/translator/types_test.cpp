// Types and memory layouts on target cpp: the cases of types_cases.hpp,
// translated, compiled warning-free and run on the host.
#include "kernel_runner.hpp"
#include "types_cases.hpp"

namespace {

using porta::test::CompiledKernel;
using porta::test::spirv_of;
namespace types = porta::test::types;

class CppRun : public types::KernelRun {
 public:
  bool operator()(const std::string& file, uint32_t groups, std::vector<std::vector<float>*> buffers,
                  const std::vector<float>& push) override {
    CompiledKernel kernel(spirv_of(types::kernel_file(file)));
    source = kernel.source();
    if (!kernel.ok()) {
      ADD_FAILURE() << kernel.error();
      return false;
    }
    std::vector<CompiledKernel::Buffer> data;
    for (std::vector<float>* buffer : buffers) data.emplace_back(*buffer);
    kernel.dispatch(groups, 1, 1, data, push.empty() ? nullptr : push.data(),
                    static_cast<uint32_t>(push.size() * sizeof(float)));
    return true;
  }
};

PORTA_TYPES_TESTS(TypesCpp, CppRun)

}  // namespace
