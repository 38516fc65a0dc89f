// Types and memory layouts on target opencl: the cases of
// tests/translator/types_cases.hpp, translated and run on the OpenCL device.
#include "opencl_harness.hpp"
#include "porta_translator/translator.hpp"
#include "translator/types_cases.hpp"

namespace {

namespace pt = porta::translator;
namespace types = porta::test::types;

porta::test::OpenclHarness& harness() {
  static porta::test::OpenclHarness instance;
  return instance;
}

class OpenclRun : public types::KernelRun {
 public:
  std::string unavailable() const override { return harness().available() ? "" : harness().reason(); }
  bool operator()(const std::string& file, uint32_t groups, std::vector<std::vector<float>*> buffers,
                  const std::vector<float>& push) override {
    std::vector<uint32_t> spirv = pt::prepare(pt::compile_glsl(types::kernel_file(file), file));
    const pt::KernelSignature signature = pt::reflect(spirv, {});
    pt::Translation translation;
    try {
      translation = pt::translate(spirv, {pt::Target::OpenCL, {}});
    } catch (const pt::Error& e) {
      ADD_FAILURE() << e.what();
      return false;
    }
    source = translation.source;
    std::vector<std::vector<uint8_t>> bytes(buffers.size());
    std::vector<std::vector<uint8_t>*> arguments;
    for (size_t i = 0; i < buffers.size(); ++i) {
      bytes[i].resize(buffers[i]->size() * sizeof(float));
      std::memcpy(bytes[i].data(), buffers[i]->data(), bytes[i].size());
      arguments.push_back(&bytes[i]);
    }
    std::vector<uint8_t> push_bytes(push.size() * sizeof(float));
    if (!push.empty()) std::memcpy(push_bytes.data(), push.data(), push_bytes.size());
    const uint32_t group_count[3] = {groups, 1, 1};
    const std::string error = harness().run(translation.source, translation.entry_point, group_count,
                                            signature.local_size, arguments, push_bytes);
    if (!error.empty()) {
      ADD_FAILURE() << error << "\n" << source;
      return false;
    }
    for (size_t i = 0; i < buffers.size(); ++i)
      std::memcpy(buffers[i]->data(), bytes[i].data(), bytes[i].size());
    return true;
  }
};

PORTA_TYPES_TESTS(TypesOpencl, OpenclRun)

}  // namespace
