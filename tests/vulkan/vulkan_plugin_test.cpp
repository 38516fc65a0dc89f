// What is particular to the Vulkan plugin, driven through its ABI table with
// the shared test host (tests/cts/harness) on whatever Vulkan device is
// present (lavapipe on machines without a GPU): the range allocator, the
// pipeline cache, Vulkan's own limits and messages, timeouts, and the
// validation layer. What every plugin does is checked by the plugin
// conformance suite (tests/cts). ctest runs this with
// PORTA_VULKAN_VALIDATION=require: every validation message fails the test,
// and so does a machine where the layer cannot be enabled.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "harness/test_kernels.hpp"
#include "vulkan_fixture.hpp"

namespace porta::test {
namespace {

class VulkanPlugin : public VulkanPluginTest {
 protected:
  porta_plugin_kernel saxpy(uint32_t workgroup, float bias) {
    uint32_t bias_bits;
    std::memcpy(&bias_bits, &bias, 4);
    saxpy_ = glsl(kernels::kSaxpy, "saxpy", {{0, workgroup}, {1, bias_bits}});
    porta_kernel_desc desc = saxpy_->desc();
    desc.cache_key = "0123456789abcdef";
    return kernel(desc);
  }

  // The increment kernel's description, to be changed by a test.
  porta_kernel_desc increment_desc() {
    if (!increment_) increment_ = glsl(kernels::kIncrement, "increment");
    porta_kernel_desc desc = increment_->desc();
    desc.cache_key = "fedcba9876543210";
    return desc;
  }

  void increment(porta_plugin_kernel k, porta_plugin_buffer b, uint32_t n, uint32_t add,
                 uint32_t iterations) {
    dispatch(k, (n + 63) / 64, {b}, IncrementPush{n, add, iterations});
  }

 private:
  std::unique_ptr<GlslKernel> saxpy_, increment_;
};

// PORTA_VULKAN_PIPELINE_STATS=1 (vulkan.plugin.pipeline_stats): each kernel's
// pipeline logs the driver's statistics, one line per executable, or the
// device said at open that its driver has none to give.
TEST_F(VulkanPlugin, PipelineStatisticsAreLoggedOnRequest) {
  const char* knob = std::getenv("PORTA_VULKAN_PIPELINE_STATS");
  if (!knob || std::strcmp(knob, "1") != 0)
    GTEST_SKIP() << "PORTA_VULKAN_PIPELINE_STATS is not 1 (vulkan.plugin.pipeline_stats sets it)";
  const int before = TestHost::count_logged("pipeline statistics of");
  porta_plugin_kernel k = saxpy(64, 0.5f);
  ASSERT_NE(k, nullptr);
  const bool none = TestHost::count_logged("no VK_KHR_pipeline_executable_properties") > 0;
  if (none) {
    EXPECT_EQ(TestHost::count_logged("pipeline statistics of"), before);
  } else {
    EXPECT_GT(TestHost::count_logged("pipeline statistics of"), before)
        << "the driver has VK_KHR_pipeline_executable_properties, and no statistics were logged";
    EXPECT_GT(TestHost::count_logged("kernel 'saxpy': pipeline statistics of"), 0);
  }
}

TEST_F(VulkanPlugin, DescribesTheDevice) {
  const porta_device_info& i = info;
  EXPECT_EQ(api().language, PORTA_LANGUAGE_SPIRV);
  EXPECT_NE(std::string(i.driver).find("driver version"), std::string::npos) << i.driver;
  EXPECT_EQ(std::string(i.api_version).rfind("Vulkan 1.", 0), 0u) << i.api_version;
  // Vulkan's own minimum limits.
  EXPECT_GE(i.limits.max_workgroup_invocations, 128u);
  EXPECT_GE(i.limits.max_workgroup_size[0], 128u);
  EXPECT_GE(i.limits.max_shared_memory_bytes, 16384u);
  EXPECT_GE(i.limits.max_allocation_bytes, i.limits.max_buffer_bytes);
  if (std::string(i.name).find("llvmpipe") != std::string::npos) {
    EXPECT_STREQ(i.vendor, "Mesa");
    EXPECT_EQ(i.type, PORTA_DEVICE_CPU);
    EXPECT_NE(std::string(i.driver).find("llvmpipe"), std::string::npos);
    EXPECT_EQ(i.limits.subgroup_size, 8u);
    const uint64_t expected = PORTA_FEATURE_FP16 | PORTA_FEATURE_INT8 | PORTA_FEATURE_STORAGE_16BIT |
                              PORTA_FEATURE_SUBGROUPS | PORTA_FEATURE_ATOMIC_FLOAT32 |
                              PORTA_FEATURE_TIMELINE_SEMAPHORE | PORTA_FEATURE_INT64;
    EXPECT_EQ(i.features & expected, expected);
  }
}

// The plugin's own answer to 0 bytes, though libporta never passes it: nothing
// happens, queued or recorded, because a 0-byte staging buffer, VkBufferCopy or
// fill is invalid Vulkan. The bytes around each range keep their values.
TEST_F(VulkanPlugin, ZeroByteOperationsAreNoOps) {
  const uint32_t n = 16;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, a, 0, n * 4, 7), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_fill(stream, b, 0, n * 4, 9), PORTA_SUCCESS) << error();
  uint32_t host = 0xdeadbeefu;
  auto zero_byte_operations = [&] {
    EXPECT_EQ(api().stream_write(stream, a, 8, &host, 0), PORTA_SUCCESS) << error();
    EXPECT_EQ(api().stream_write(stream, a, 4, nullptr, 0), PORTA_SUCCESS) << error();
    EXPECT_EQ(api().stream_read(stream, b, n * 4, &host, 0), PORTA_SUCCESS) << error();
    EXPECT_EQ(api().stream_read(stream, b, 0, nullptr, 0), PORTA_SUCCESS) << error();
    EXPECT_EQ(api().stream_copy(stream, a, 0, b, 4, 0), PORTA_SUCCESS) << error();
    EXPECT_EQ(api().stream_fill(stream, a, 4, 0, 1), PORTA_SUCCESS) << error();
  };
  zero_byte_operations();
  sync();
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  zero_byte_operations();
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  for (int i = 0; i < 2; ++i) ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << error();
  std::vector<uint32_t> got_a(n), got_b(n);
  read(a, got_a.data(), n * 4);
  read(b, got_b.data(), n * 4);
  sync();
  api().sequence_destroy(seq);
  EXPECT_EQ(host, 0xdeadbeefu);
  ASSERT_TRUE(every_word_is(got_a, 7u));
  ASSERT_TRUE(every_word_is(got_b, 9u));
}

TEST_F(VulkanPlugin, SubAllocatesManySmallBuffers) {
  const int count = 10000;
  std::vector<porta_plugin_buffer> many(count, nullptr);
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(api().buffer_create(device, 256 + (i % 7) * 16, &many[i]), PORTA_SUCCESS)
        << i << ": " << error();
  for (int i = 0; i < count; i += 97) {
    uint32_t v = 0x1000 + i;
    ASSERT_EQ(api().stream_write(stream, many[i], 0, &v, 4), PORTA_SUCCESS);
  }
  std::vector<uint32_t> got(count, 0);
  for (int i = 0; i < count; i += 97)
    ASSERT_EQ(api().stream_read(stream, many[i], 0, &got[i], 4), PORTA_SUCCESS);
  sync();
  for (int i = 0; i < count; i += 97) EXPECT_EQ(got[i], 0x1000u + i);
  // Freed ranges are reused: a second round of creations fits the same blocks.
  for (int i = 0; i < count; i += 2) api().buffer_destroy(many[i]);
  for (int i = 0; i < count; i += 2) ASSERT_EQ(api().buffer_create(device, 200, &many[i]), PORTA_SUCCESS);
  for (auto b : many) api().buffer_destroy(b);
}

// A second kernel of the same key finds its pipeline cache entry.
TEST_F(VulkanPlugin, PipelineCacheEntryIsStoredAndFound) {
  ASSERT_NE(saxpy(32, 0.5f), nullptr);
  const int hits = TestHost::cache_hits();
  EXPECT_GE(TestHost::cache_stores(), 1);
  ASSERT_NE(saxpy(32, 0.5f), nullptr);
  EXPECT_EQ(TestHost::cache_hits(), hits + 1);
}

TEST_F(VulkanPlugin, CorruptPipelineCacheEntryIsIgnored) {
  ASSERT_NE(saxpy(64, 0.0f), nullptr);
  for (const std::string& key : TestHost::cache_keys()) {
    std::ofstream out(TestHost::cache_file(key), std::ios::binary | std::ios::trunc);
    out << std::string(512, '\x5a');
  }
  std::ofstream(TestHost::cache_file("vk-garbage"), std::ios::binary) << "\x01\x02\x03";
  ASSERT_NE(saxpy(64, 0.0f), nullptr);
}

TEST_F(VulkanPlugin, RefusesBuffersLargerThanTheDeviceAllows) {
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api().buffer_create(device, 1ull << 46, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(b, nullptr);
  EXPECT_NE(error().find("heap"), std::string::npos) << error();
  EXPECT_NE(error().find("vulkan"), std::string::npos) << error();
  std::printf("%s\n", error().c_str());
  if (info.limits.max_allocation_bytes < info.memory_bytes) {
    EXPECT_EQ(api().buffer_create(device, info.limits.max_allocation_bytes + 1, &b),
              PORTA_ERROR_OUT_OF_MEMORY);
    EXPECT_NE(error().find("maxMemoryAllocationSize"), std::string::npos) << error();
  }
}

// A kernel binds at most maxStorageBufferRange of a buffer (the device info's
// max_binding_bytes): a range of a larger buffer binds and runs.
TEST_F(VulkanPlugin, BindsARangeOfABufferLargerThanMaxStorageBufferRange) {
  ASSERT_GT(info.max_binding_bytes, 0u);
  ASSERT_GT(info.binding_offset_alignment, 0u);
  const uint64_t too_big = info.max_binding_bytes + (1ull << 20);
  if (too_big > info.limits.max_buffer_bytes) GTEST_SKIP() << "the device binds its largest buffer whole";
  porta_plugin_kernel k = kernel(increment_desc());
  porta_plugin_buffer b = nullptr;
  if (api().buffer_create(device, too_big, &b) != PORTA_SUCCESS) GTEST_SKIP() << error();
  // The last 64 words, through a range that starts on the alignment.
  const uint64_t offset = (too_big - 256) / info.binding_offset_alignment * info.binding_offset_alignment;
  const porta_plugin_binding range{b, offset, too_big - offset};
  IncrementPush push{64, 7, 0};
  const uint32_t groups[3] = {1, 1, 1};
  ASSERT_EQ(api().stream_fill(stream, b, too_big - 1024, 1024, 0), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_dispatch(stream, k, groups, &range, 1, &push, sizeof push), PORTA_SUCCESS)
      << error();
  std::vector<uint32_t> got(256);
  ASSERT_EQ(api().stream_read(stream, b, too_big - 1024, got.data(), 1024), PORTA_SUCCESS) << error();
  sync();
  api().buffer_destroy(b);
  const size_t first = (offset - (too_big - 1024)) / 4;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], i >= first && i < first + 64 ? 7u : 0u) << "word " << i;
}

TEST_F(VulkanPlugin, RefusesSpirvTheDriverRejects) {
  porta_kernel_desc desc = increment_desc();
  porta_plugin_kernel k = nullptr;
  std::vector<uint32_t> garbage(64, 0x12345678u);
  desc.spirv = garbage.data();
  desc.spirv_words = 3;
  EXPECT_EQ(try_kernel(desc, &k), PORTA_ERROR_INVALID_KERNEL);
}

// Run with PORTA_VULKAN_TIMEOUT_MS small: a dispatch that outlasts it turns into
// DEVICE_LOST on the call that waits, and every later call fails the same way.
TEST_F(VulkanPlugin, WaitThatTimesOutLosesTheDeviceCleanly) {
  const char* timeout = std::getenv("PORTA_VULKAN_TIMEOUT_MS");
  if (!timeout || std::atoi(timeout) > 1000) GTEST_SKIP() << "needs PORTA_VULKAN_TIMEOUT_MS <= 1000";
  porta_plugin_kernel k = kernel(increment_desc());
  // About 0.8 s on lavapipe (which caps a loop at 65535 iterations) at the
  // first size; a fast GPU finishes that in time, so the work grows 16-fold
  // until a wait outlasts the timeout (about 0.25 s of work on an H100).
  const uint32_t kMaxItems = 16u << 20;
  porta_plugin_buffer b = buffer(uint64_t{kMaxItems} * 4);
  porta_status waited = PORTA_SUCCESS;
  auto t0 = std::chrono::steady_clock::now();
  for (uint32_t n = 16384; n <= kMaxItems && waited == PORTA_SUCCESS; n *= 16) {
    ASSERT_EQ(api().stream_fill(stream, b, 0, uint64_t{n} * 4, 0), PORTA_SUCCESS);
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 2; ++i) increment(k, b, n, 1, 60000);
    waited = api().stream_sync(stream);
  }
  EXPECT_EQ(waited, PORTA_ERROR_DEVICE_LOST);
  EXPECT_NE(error().find("PORTA_VULKAN_TIMEOUT_MS"), std::string::npos) << error();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
  porta_plugin_buffer other = nullptr;
  EXPECT_EQ(api().buffer_create(device, 64, &other), PORTA_ERROR_DEVICE_LOST);
  EXPECT_NE(error().find("lost earlier"), std::string::npos) << error();
  EXPECT_EQ(api().stream_sync(stream), PORTA_ERROR_DEVICE_LOST);
}

// The check itself is checked (ctest runs this case alone, with
// PORTA_TEST_VULKAN_VALIDATION_SELF_CHECK=1, and expects the layer's report in
// the output): a kernel whose pipeline layout leaves out the push constants its
// shader reads is invalid Vulkan. The plugin trusts the core's reflection here
// and checks nothing, so only the validation layer can see it, and its report
// must come back through the plugin's log.
TEST_F(VulkanPlugin, ValidationLayerReportsAMisuse) {
  if (!std::getenv("PORTA_TEST_VULKAN_VALIDATION_SELF_CHECK"))
    GTEST_SKIP() << "needs PORTA_TEST_VULKAN_VALIDATION_SELF_CHECK (a deliberate misuse)";
  porta_kernel_desc desc = increment_desc();
  desc.push_constant_size = 0;  // the shader reads 12 bytes of push constants
  desc.cache_key = "self-check-no-push-constant-range";
  porta_plugin_kernel k = nullptr;
  if (api().kernel_create(device, &desc, &k) == PORTA_SUCCESS) api().kernel_destroy(k);
  EXPECT_GT(TestHost::count_logged(kValidation), validation_before_) << "the layer reported nothing";
  validation_before_ = TestHost::count_logged(kValidation);  // the reports were expected
}

}  // namespace
}  // namespace porta::test
