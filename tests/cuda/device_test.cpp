// What is particular to the CUDA plugin, on a real device, through its
// porta_plugin_api table with the shared test host (tests/cts/harness): its
// device description, hand-written kernels (float atomics, launch bounds),
// its messages and its module cache. What every plugin does is checked by the
// plugin conformance suite (tests/cts). Every test skips, with the plugin's
// reason, where no CUDA device exists.
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include "harness/plugin_fixture.hpp"
#include "plugin_fixture.hpp"

namespace porta::test {
namespace {

struct ScaleAddPush {
  float scale;
  float offset;
  uint32_t n;
};

class CudaDevice : public PluginTest {
 protected:
  void SetUp() override {
    if (!cuda_plugin().available()) GTEST_SKIP() << "no CUDA device: " << cuda_plugin().reason;
    open(cuda_plugin(), 0);
  }

  porta_plugin_kernel kernel(const KernelDesc& k) { return PluginTest::kernel(k.desc); }

  porta_plugin_kernel scale_add() {
    return kernel(KernelDesc(kernel_source("scale_add"), "scale_add", 2, 12, 256));
  }
};

TEST_F(CudaDevice, DescribesTheDevice) {
  EXPECT_STREQ(info.vendor, "NVIDIA");
  EXPECT_EQ(std::string(info.api_version).rfind("CUDA ", 0), 0u) << info.api_version;
  EXPECT_NE(std::string(info.api_version).find(", sm_"), std::string::npos) << info.api_version;
  // One heap, the device's memory.
  ASSERT_EQ(info.memory_heap_count, 1u);
  EXPECT_EQ(info.memory_heaps[0].bytes, info.memory_bytes);
  EXPECT_TRUE(info.memory_heaps[0].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL);
  EXPECT_EQ(info.limits.subgroup_size, 32u);
  EXPECT_GE(info.limits.max_workgroup_invocations, 1024u);
  EXPECT_GE(info.limits.max_shared_memory_bytes, 48u * 1024u);
  uint64_t always = PORTA_FEATURE_FP64 | PORTA_FEATURE_INT64 | PORTA_FEATURE_SUBGROUPS |
                    PORTA_FEATURE_ATOMIC_INT32 | PORTA_FEATURE_ATOMIC_FLOAT32;
  EXPECT_EQ(info.features & always, always);
  std::printf("device: %s, %s, %s\n", info.name, info.driver, info.api_version);
}

// Float atomics through a hand-written kernel: the translator has none for
// CUDA, so the CTS's kernel cannot run here.
TEST_F(CudaDevice, FloatAtomicsAcrossWorkGroups) {
  porta_plugin_kernel k = kernel(KernelDesc(kernel_source("block_sum"), "block_sum", 2, 4, 256, 1, 1, 1024));
  ASSERT_NE(k, nullptr);
  const uint32_t n = 65536 + 17;
  std::vector<float> x(n, 1.0f);
  porta_plugin_buffer bx = buffer(n * 4), bs = buffer(4);
  ASSERT_EQ(api().stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_fill(stream, bs, 0, 4, 0), PORTA_SUCCESS) << error();
  uint32_t groups[3] = {(n + 255) / 256, 1, 1};
  porta_plugin_binding args[2] = {whole(bx), whole(bs)};
  ASSERT_EQ(api().stream_dispatch(stream, k, groups, args, 2, &n, 4), PORTA_SUCCESS) << error();
  float sum = 0;
  ASSERT_EQ(api().stream_read(stream, bs, 0, &sum, 4), PORTA_SUCCESS) << error();
  sync();
  EXPECT_EQ(sum, static_cast<float>(n));
}

// The CUDA parts of the message (the CTS checks the rest, and that the device works on).
TEST_F(CudaDevice, TooLargeAllocationIsOutOfMemory) {
  uint64_t size = info.memory_bytes * 4;
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api().buffer_create(device, size, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(error().find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << error();
  EXPECT_NE(error().find("cuda: device 0"), std::string::npos) << error();
}

TEST_F(CudaDevice, MissingEntryPointIsAnInvalidKernel) {
  KernelDesc k(kernel_source("scale_add"), "scale_add", 2, 12, 256);
  k.entry = "not_there";
  k.desc.entry_point = k.entry.c_str();
  porta_plugin_kernel out = nullptr;
  EXPECT_EQ(api().kernel_create(device, &k.desc, &out), PORTA_ERROR_INVALID_KERNEL);
  EXPECT_NE(error().find("not_there"), std::string::npos) << error();
}

TEST_F(CudaDevice, WorkGroupLargerThanTheKernelAllows) {
  // block_sum declares __launch_bounds__(256): its registers are allotted for 256 threads.
  KernelDesc k(kernel_source("block_sum"), "block_sum", 2, 4, 512);
  porta_plugin_kernel out = nullptr;
  EXPECT_EQ(api().kernel_create(device, &k.desc, &out), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(error().find("512"), std::string::npos) << error();
  EXPECT_NE(error().find("256 threads per block"), std::string::npos) << error();
}

TEST_F(CudaDevice, CorruptCacheEntryIsRebuilt) {
  // A source of its own, so that the entry is this test's.
  KernelDesc k(kernel_source("scale_add") + "\n// cache test\n", "scale_add", 2, 12, 256);
  auto keys = [] {
    std::vector<std::string> all = TestHost::cache_keys();
    return std::set<std::string>(all.begin(), all.end());
  };
  std::set<std::string> before = keys();
  ASSERT_NE(kernel(k), nullptr);
  std::string key;
  for (const std::string& name : keys()) {
    if (!before.count(name)) key = name;
  }
  ASSERT_EQ(key.rfind("cuda-sm", 0), 0u) << "the module was stored under a CUDA key: '" << key << "'";
  auto entry = [&] {
    std::ifstream in(TestHost::cache_file(key), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::string data = entry();
  ASSERT_GT(data.size(), 64u);
  std::fill(data.begin(), data.begin() + 64, '\x5a');  // destroy the ELF header
  std::ofstream(TestHost::cache_file(key), std::ios::binary | std::ios::trunc) << data;
  TestHost::clear_logs();
  porta_plugin_kernel again = kernel(k);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(entry().substr(1, 3), "ELF") << "the entry was rebuilt";
  EXPECT_TRUE(TestHost::logged("ignoring the cached module"));
  // The rebuilt kernel runs.
  porta_plugin_buffer bx = buffer(1024), by = buffer(1024);
  std::vector<float> x(256, 2.0f), y(256);
  ASSERT_EQ(api().stream_write(stream, bx, 0, x.data(), 1024), PORTA_SUCCESS) << error();
  ScaleAddPush push{1.5f, 0.0f, 256};
  uint32_t groups[3] = {1, 1, 1};
  porta_plugin_binding args[2] = {whole(bx), whole(by)};
  ASSERT_EQ(api().stream_dispatch(stream, again, groups, args, 2, &push, 12), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_read(stream, by, 0, y.data(), 1024), PORTA_SUCCESS) << error();
  sync();
  EXPECT_EQ(y[255], 3.0f);
}

}  // namespace
}  // namespace porta::test
