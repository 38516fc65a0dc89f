// Types and memory layouts on a porta backend (PORTA_TEST_BACKEND: cpu,
// vulkan, opencl, cuda): the cases of types_cases.hpp through the public API,
// so the same expectations hold for each backend's own compiler and, on
// Vulkan, for the driver reading the layouts natively.
#include <gtest/gtest.h>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"
#include "types_cases.hpp"

namespace {

namespace types = porta::test::types;

class BackendRun : public types::KernelRun {
 public:
  bool operator()(const std::string& file, uint32_t groups, std::vector<std::vector<float>*> buffers,
                  const std::vector<float>& push) override {
    source = file + " on " + porta::test::backend_under_test();
    try {
      static porta::Device device = porta::test::open_under_test();
      const porta::Kernel kernel = device.kernel(porta::glsl(types::kernel_file(file), file));
      std::vector<porta::Buffer> data;
      for (std::vector<float>* buffer : buffers) data.push_back(device.upload(*buffer));
      porta::Stream stream = device.stream();
      stream.dispatch_bytes(
          kernel, {groups, 1, 1}, porta::Span<const porta::Buffer>(data.data(), data.size()),
          push.empty() ? nullptr : push.data(), static_cast<uint32_t>(push.size() * sizeof(float)));
      for (size_t i = 0; i < buffers.size(); ++i) stream.read(data[i], *buffers[i]);
      stream.sync();
    } catch (const porta::Error& e) {
      ADD_FAILURE() << source << ": " << e.what();
      return false;
    }
    return true;
  }
};

PORTA_TYPES_TESTS(TypesBackend, BackendRun)

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
