// A kernel that faults breaks the CUDA context for good: the fault is reported
// as DEVICE_LOST with the driver's error name, and every later call on the
// device says so too instead of failing in a confusing way. A binary of its
// own, because the primary context stays broken for the rest of the process.
#include "plugin_fixture.hpp"

namespace porta::test {
namespace {

TEST(CudaDeviceLost, FaultIsStickyAndReported) {
  const Plugin& p = cuda_plugin();
  if (p.init_status != PORTA_SUCCESS) GTEST_SKIP() << "no CUDA device: " << p.reason;
  const porta_plugin_api* api = p.api;
  porta_plugin_device device = nullptr;
  porta_plugin_stream stream = nullptr;
  porta_plugin_buffer b = nullptr;
  porta_plugin_kernel k = nullptr;
  ASSERT_EQ(api->device_open(0, &device), PORTA_SUCCESS) << TestHost::last_error();
  ASSERT_EQ(api->stream_create(device, &stream), PORTA_SUCCESS) << TestHost::last_error();
  ASSERT_EQ(api->buffer_create(device, 256, &b), PORTA_SUCCESS) << TestHost::last_error();
  KernelDesc desc(
      "extern \"C\" __global__ void fault(unsigned int* __restrict__ b0) {\n"
      "  b0[(1ull << 40) + threadIdx.x] = 1u;  // a TiB past the buffer: unmapped\n"
      "}\n",
      "fault", 1, 0, 32);
  ASSERT_EQ(api->kernel_create(device, &desc.desc, &k), PORTA_SUCCESS) << TestHost::last_error();
  uint32_t groups[3] = {1, 1, 1};
  // The launch itself may or may not see the fault; the sync must.
  const porta_plugin_binding binding{b, 0, 256};
  porta_status launched = api->stream_dispatch(stream, k, groups, &binding, 1, nullptr, 0);
  porta_status synced = launched == PORTA_SUCCESS ? api->stream_sync(stream) : launched;
  EXPECT_EQ(synced, PORTA_ERROR_DEVICE_LOST) << TestHost::last_error();
  EXPECT_NE(TestHost::last_error().find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos)
      << TestHost::last_error();

  porta_plugin_buffer later = nullptr;
  EXPECT_EQ(api->buffer_create(device, 256, &later), PORTA_ERROR_DEVICE_LOST);
  EXPECT_NE(TestHost::last_error().find("lost earlier"), std::string::npos) << TestHost::last_error();
  EXPECT_NE(TestHost::last_error().find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos)
      << TestHost::last_error();
  EXPECT_EQ(api->stream_sync(stream), PORTA_ERROR_DEVICE_LOST);

  // Releasing objects still works on a lost device.
  api->kernel_destroy(k);
  api->buffer_destroy(b);
  api->stream_destroy(stream);
  api->device_close(device);
}

}  // namespace
}  // namespace porta::test
