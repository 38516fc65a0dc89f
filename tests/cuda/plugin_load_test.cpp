// The plugin loads anywhere; without an NVIDIA driver it reports itself
// unavailable with the reason, and never crashes.
#include <dlfcn.h>

#include "plugin_fixture.hpp"

namespace porta::test {
namespace {

TEST(CudaPluginLoad, ExportsTheTable) {
  const Plugin& p = cuda_plugin();
  ASSERT_NE(p.api, nullptr) << p.reason;
  EXPECT_EQ(p.api->language, PORTA_LANGUAGE_CUDA);
  // Recorded sequences are implemented by the plugin (CUDA graphs).
  EXPECT_NE(p.api->stream_begin_record, nullptr);
  EXPECT_NE(p.api->stream_replay, nullptr);
}

TEST(CudaPluginLoad, UnavailableWithoutDriver) {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver) {
    dlclose(driver);
    GTEST_SKIP() << "this machine has a CUDA driver";
  }
  const Plugin& p = cuda_plugin();
  ASSERT_NE(p.api, nullptr) << p.reason;
  EXPECT_EQ(p.init_status, PORTA_ERROR_UNAVAILABLE);
  EXPECT_EQ(p.reason.rfind("no CUDA driver (libcuda.so.1: ", 0), 0u) << p.reason;
  EXPECT_EQ(p.api->device_count(), 0u);
  p.api->shutdown();
}

}  // namespace
}  // namespace porta::test
