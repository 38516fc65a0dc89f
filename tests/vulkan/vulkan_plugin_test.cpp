// The Vulkan plugin driven through its ABI table, on whatever Vulkan device is
// present (lavapipe on machines without a GPU). ctest runs this with
// PORTA_VULKAN_VALIDATION=require: every validation message fails the test, and
// so does a machine where the layer cannot be enabled.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "test_host.hpp"

namespace porta::test {
namespace {

const porta_plugin_api* api = nullptr;

class VulkanEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string error;
    api = load_plugin(path_from_env("PORTA_TEST_VULKAN_PLUGIN", PORTA_TEST_VULKAN_PLUGIN).c_str(), &error);
    ASSERT_NE(api, nullptr) << error;
    ASSERT_EQ(api->abi_version, PORTA_PLUGIN_ABI_VERSION);
    ASSERT_STREQ(api->name, "vulkan");
    ASSERT_EQ(api->language, PORTA_LANGUAGE_SPIRV);
    ASSERT_EQ(api->init(TestHost::table()), PORTA_SUCCESS) << TestHost::last_error;
  }
  void TearDown() override {
    if (api) {
      keep_driver_libraries_loaded();
      api->shutdown();
    }
    EXPECT_EQ(TestHost::validation_messages.load(), 0) << "validation messages were logged";
  }
};

const auto* const environment = ::testing::AddGlobalTestEnvironment(new VulkanEnvironment);

// Increment's push constants.
struct IncrementPush {
  uint32_t n, add, iterations;
};

class VulkanPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(api, nullptr);
    validation_before_ = TestHost::validation_messages.load();
    ASSERT_GE(api->device_count(), 1u);
    ASSERT_EQ(api->device_info(0, &info_), PORTA_SUCCESS);
    ASSERT_EQ(api->device_open(0, &device_), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_create(device_, &stream_), PORTA_SUCCESS) << TestHost::last_error;
  }
  void TearDown() override {
    // The plugin contract: nothing is destroyed while queued work uses it (the
    // core keeps such objects alive); so the stream finishes first.
    if (stream_) api->stream_sync(stream_);
    for (auto k : kernels_) api->kernel_destroy(k);
    for (auto b : buffers_) api->buffer_destroy(b);
    if (stream_) api->stream_destroy(stream_);
    if (device_) api->device_close(device_);
    EXPECT_EQ(TestHost::validation_messages.load(), validation_before_) << "validation messages were logged";
  }

  porta_plugin_buffer buffer(uint64_t size) {
    porta_plugin_buffer b = nullptr;
    EXPECT_EQ(api->buffer_create(device_, size, &b), PORTA_SUCCESS) << TestHost::last_error;
    if (b) buffers_.push_back(b);
    return b;
  }

  porta_plugin_kernel saxpy(uint32_t workgroup, float bias) {
    static const std::vector<uint32_t> spirv =
        read_spirv(path_from_env("PORTA_TEST_SHADER_DIR", PORTA_TEST_SHADER_DIR) + "/saxpy.spv");
    static const porta_kernel_buffer_desc buffers[3] = {
        {0, PORTA_ACCESS_READ}, {2, PORTA_ACCESS_READ}, {5, PORTA_ACCESS_WRITE}};
    uint32_t bias_bits;
    std::memcpy(&bias_bits, &bias, 4);
    const porta_kernel_spec_value specs[2] = {{0, workgroup}, {1, bias_bits}};
    porta_kernel_desc desc{};
    desc.spirv = spirv.data();
    desc.spirv_words = spirv.size();
    desc.entry_point = "main";
    desc.name = "saxpy";
    desc.buffer_count = 3;
    desc.buffers = buffers;
    desc.push_constant_size = 8;
    desc.spec_count = 2;
    desc.specs = specs;
    desc.workgroup_size[0] = workgroup;
    desc.workgroup_size[1] = desc.workgroup_size[2] = 1;
    desc.cache_key = "0123456789abcdef";
    return make_kernel(desc);
  }

  porta_kernel_desc increment_desc() {
    static const std::vector<uint32_t> spirv =
        read_spirv(path_from_env("PORTA_TEST_SHADER_DIR", PORTA_TEST_SHADER_DIR) + "/increment.spv");
    static const porta_kernel_buffer_desc buffers[1] = {{0, PORTA_ACCESS_READ_WRITE}};
    porta_kernel_desc desc{};
    desc.spirv = spirv.data();
    desc.spirv_words = spirv.size();
    desc.entry_point = "main";
    desc.name = "increment";
    desc.buffer_count = 1;
    desc.buffers = buffers;
    desc.push_constant_size = sizeof(IncrementPush);
    desc.workgroup_size[0] = 64;
    desc.workgroup_size[1] = desc.workgroup_size[2] = 1;
    desc.cache_key = "fedcba9876543210";
    return desc;
  }

  porta_plugin_kernel make_kernel(const porta_kernel_desc& desc) {
    porta_plugin_kernel k = nullptr;
    EXPECT_EQ(api->kernel_create(device_, &desc, &k), PORTA_SUCCESS) << TestHost::last_error;
    if (k) kernels_.push_back(k);
    return k;
  }

  void increment(porta_plugin_stream s, porta_plugin_kernel k, porta_plugin_buffer b, uint32_t n,
                 uint32_t add, uint32_t iterations = 0) {
    IncrementPush push{n, add, iterations};
    const uint32_t groups[3] = {(n + 63) / 64, 1, 1};
    ASSERT_EQ(api->stream_dispatch(s, k, groups, &b, 1, &push, sizeof push), PORTA_SUCCESS)
        << TestHost::last_error;
  }

  void round_trip(uint64_t size, uint64_t offset) {
    porta_plugin_buffer b = buffer(std::max<uint64_t>(size + offset, 1));  // buffers are never empty
    std::vector<uint8_t> in(size), out(size, 0);
    for (uint64_t i = 0; i < size; ++i) in[i] = static_cast<uint8_t>(i * 131 + (i >> 16) + 7);
    ASSERT_EQ(api->stream_write(stream_, b, offset, in.data(), size), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_read(stream_, b, offset, out.data(), size), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_TRUE(in == out) << "round trip of " << size << " bytes at offset " << offset << " differs";
    api->buffer_destroy(b);
    buffers_.pop_back();
  }

  porta_device_info info_{};
  porta_plugin_device device_ = nullptr;
  porta_plugin_stream stream_ = nullptr;
  std::vector<porta_plugin_buffer> buffers_;
  std::vector<porta_plugin_kernel> kernels_;
  int validation_before_ = 0;
};

TEST_F(VulkanPlugin, EnumeratesDevicesWithInfo) {
  const porta_device_info& i = info_;
  EXPECT_STREQ(i.backend, "vulkan");
  EXPECT_GT(std::strlen(i.name), 0u);
  EXPECT_GT(std::strlen(i.vendor), 0u);
  EXPECT_NE(std::string(i.driver).find("driver version"), std::string::npos) << i.driver;
  EXPECT_EQ(std::string(i.api_version).rfind("Vulkan 1.", 0), 0u) << i.api_version;
  EXPECT_EQ(i.index, 0u);
  EXPECT_GT(i.memory_bytes, 0u);
  // Every heap is listed; the device-local ones add up to memory_bytes.
  ASSERT_GE(i.memory_heap_count, 1u);
  ASSERT_LE(i.memory_heap_count, uint32_t(PORTA_MAX_MEMORY_HEAPS));
  uint64_t device_local = 0;
  for (uint32_t h = 0; h < i.memory_heap_count; ++h) {
    EXPECT_GT(i.memory_heaps[h].bytes, 0u) << "heap " << h;
    if (i.memory_heaps[h].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL) device_local += i.memory_heaps[h].bytes;
  }
  EXPECT_EQ(device_local, i.memory_bytes);
  EXPECT_GE(i.limits.max_workgroup_invocations, 128u);
  EXPECT_GE(i.limits.max_workgroup_size[0], 128u);
  EXPECT_GT(i.limits.max_workgroup_count[0], 0u);
  EXPECT_GE(i.limits.max_shared_memory_bytes, 16384u);
  EXPECT_GE(i.limits.max_push_constant_bytes, 128u);
  EXPECT_GT(i.limits.max_buffer_bytes, 0u);
  EXPECT_GE(i.limits.max_allocation_bytes, i.limits.max_buffer_bytes);
  EXPECT_TRUE(i.features & PORTA_FEATURE_ATOMIC_INT32);
  std::printf("device 0: %s | %s | %s | %s | %.2f GiB | subgroup %u | features 0x%llx\n", i.name, i.vendor,
              i.driver, i.api_version, i.memory_bytes / 1073741824.0, i.limits.subgroup_size,
              static_cast<unsigned long long>(i.features));
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
  porta_device_info missing;
  EXPECT_EQ(api->device_info(api->device_count(), &missing), PORTA_ERROR_NOT_FOUND);
}

TEST_F(VulkanPlugin, RoundTripsSmallSizes) {
  for (uint64_t size : {0u, 1u, 4u, 4097u}) {
    round_trip(size, 0);
    round_trip(size, 3);
  }
}

// The plugin's own answer to 0 bytes, though libporta never passes it: nothing
// happens, queued or recorded, because a 0-byte staging buffer, VkBufferCopy or
// fill is invalid Vulkan. The bytes around each range keep their values.
TEST_F(VulkanPlugin, ZeroByteOperationsAreNoOps) {
  const uint32_t n = 16;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream_, a, 0, n * 4, 7), PORTA_SUCCESS) << TestHost::last_error;
  ASSERT_EQ(api->stream_fill(stream_, b, 0, n * 4, 9), PORTA_SUCCESS) << TestHost::last_error;
  uint32_t host = 0xdeadbeefu;
  auto zero_byte_operations = [&] {
    EXPECT_EQ(api->stream_write(stream_, a, 8, &host, 0), PORTA_SUCCESS) << TestHost::last_error;
    EXPECT_EQ(api->stream_write(stream_, a, 4, nullptr, 0), PORTA_SUCCESS) << TestHost::last_error;
    EXPECT_EQ(api->stream_read(stream_, b, n * 4, &host, 0), PORTA_SUCCESS) << TestHost::last_error;
    EXPECT_EQ(api->stream_read(stream_, b, 0, nullptr, 0), PORTA_SUCCESS) << TestHost::last_error;
    EXPECT_EQ(api->stream_copy(stream_, a, 0, b, 4, 0), PORTA_SUCCESS) << TestHost::last_error;
    EXPECT_EQ(api->stream_fill(stream_, a, 4, 0, 1), PORTA_SUCCESS) << TestHost::last_error;
  };
  zero_byte_operations();
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  ASSERT_EQ(api->stream_begin_record(stream_), PORTA_SUCCESS) << TestHost::last_error;
  zero_byte_operations();
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api->stream_end_record(stream_, &seq), PORTA_SUCCESS) << TestHost::last_error;
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(api->stream_replay(stream_, seq), PORTA_SUCCESS) << TestHost::last_error;
  std::vector<uint32_t> got_a(n), got_b(n);
  ASSERT_EQ(api->stream_read(stream_, a, 0, got_a.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_read(stream_, b, 0, got_b.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  api->sequence_destroy(seq);
  EXPECT_EQ(host, 0xdeadbeefu);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_a[i], 7u) << i;
    ASSERT_EQ(got_b[i], 9u) << i;
  }
}

TEST_F(VulkanPlugin, RoundTrips256MiB) { round_trip(256ull << 20, 0); }

TEST_F(VulkanPlugin, SubAllocatesManySmallBuffers) {
  const int count = 10000;
  std::vector<porta_plugin_buffer> many(count, nullptr);
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(api->buffer_create(device_, 256 + (i % 7) * 16, &many[i]), PORTA_SUCCESS)
        << i << ": " << TestHost::last_error;
  for (int i = 0; i < count; i += 97) {
    uint32_t v = 0x1000 + i;
    ASSERT_EQ(api->stream_write(stream_, many[i], 0, &v, 4), PORTA_SUCCESS);
  }
  std::vector<uint32_t> got(count, 0);
  for (int i = 0; i < count; i += 97)
    ASSERT_EQ(api->stream_read(stream_, many[i], 0, &got[i], 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  for (int i = 0; i < count; i += 97) EXPECT_EQ(got[i], 0x1000u + i);
  // Freed ranges are reused: a second round of creations fits the same blocks.
  for (int i = 0; i < count; i += 2) api->buffer_destroy(many[i]);
  for (int i = 0; i < count; i += 2) ASSERT_EQ(api->buffer_create(device_, 200, &many[i]), PORTA_SUCCESS);
  for (auto b : many) api->buffer_destroy(b);
}

TEST_F(VulkanPlugin, FillsAndCopies) {
  const uint32_t n = 1000;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream_, a, 0, n * 4, 0xabcd1234u), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_fill(stream_, b, 0, n * 4, 0), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_copy(stream_, a, 400, b, 800, 400), PORTA_SUCCESS);
  std::vector<uint32_t> out(n, 1);
  ASSERT_EQ(api->stream_read(stream_, b, 0, out.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], (i >= 200 && i < 300) ? 0xabcd1234u : 0u) << i;
}

TEST_F(VulkanPlugin, DispatchesWithBuffersPushAndSpecConstants) {
  const uint32_t n = 1000, wg = 32;
  porta_plugin_kernel k = saxpy(wg, 0.5f);
  ASSERT_NE(k, nullptr);
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1000.0f - static_cast<float>(i);
  }
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4), bo = buffer(n * 4);
  ASSERT_EQ(api->stream_write(stream_, bx, 0, x.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_write(stream_, by, 0, y.data(), n * 4), PORTA_SUCCESS);
  struct {
    uint32_t n;
    float a;
  } push{n, 2.0f};
  porta_plugin_buffer args[3] = {bx, by, bo};
  const uint32_t groups[3] = {(n + wg - 1) / wg, 1, 1};
  ASSERT_EQ(api->stream_dispatch(stream_, k, groups, args, 3, &push, sizeof push), PORTA_SUCCESS)
      << TestHost::last_error;
  ASSERT_EQ(api->stream_read(stream_, bo, 0, out.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(out[i], 2.0f * x[i] + y[i] + 0.5f) << i;

  // A second kernel of the same key finds its pipeline cache entry.
  const int hits = TestHost::cache_hits.load();
  EXPECT_GE(TestHost::cache_stores.load(), 1);
  ASSERT_NE(saxpy(wg, 0.5f), nullptr);
  EXPECT_EQ(TestHost::cache_hits.load(), hits + 1);
}

TEST_F(VulkanPlugin, CorruptPipelineCacheEntryIsIgnored) {
  {
    std::lock_guard<std::mutex> lock(TestHost::cache_mutex);
    for (auto& [key, data] : TestHost::cache) std::fill(data.begin(), data.end(), 0x5a);
    TestHost::cache["vk-garbage"] = {1, 2, 3};
  }
  ASSERT_NE(saxpy(64, 0.0f), nullptr);
}

TEST_F(VulkanPlugin, ReplaysRecordedDispatches1000Times) {
  const uint32_t n = 4096;
  porta_plugin_kernel k = make_kernel(increment_desc());
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream_, b, 0, n * 4, 5), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_begin_record(stream_), PORTA_SUCCESS) << TestHost::last_error;
  increment(stream_, k, b, n, 1);
  increment(stream_, k, b, n, 2);
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api->stream_end_record(stream_, &seq), PORTA_SUCCESS) << TestHost::last_error;
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(api->stream_replay(stream_, seq), PORTA_SUCCESS) << TestHost::last_error;
  std::vector<uint32_t> out(n);
  ASSERT_EQ(api->stream_read(stream_, b, 0, out.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 5u + 3000u) << i;
  api->sequence_destroy(seq);
}

TEST_F(VulkanPlugin, ReplayedSequenceStagesItsWritesAndReadsEachTime) {
  const uint32_t n = 300;
  porta_plugin_kernel k = make_kernel(increment_desc());
  porta_plugin_buffer b = buffer(n * 4);
  std::vector<uint32_t> in(n), out(n);
  ASSERT_EQ(api->stream_begin_record(stream_), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_write(stream_, b, 0, in.data(), n * 4), PORTA_SUCCESS);
  increment(stream_, k, b, n, 10);
  ASSERT_EQ(api->stream_read(stream_, b, 0, out.data(), n * 4), PORTA_SUCCESS);
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api->stream_end_record(stream_, &seq), PORTA_SUCCESS);
  for (uint32_t round = 0; round < 1000; ++round) {
    for (uint32_t i = 0; i < n; ++i) in[i] = round * 1000 + i;
    ASSERT_EQ(api->stream_replay(stream_, seq), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], round * 1000 + i + 10) << "round " << round << " i " << i;
  }
  api->sequence_destroy(seq);
}

TEST_F(VulkanPlugin, TwoThreadsDispatchOnTheirOwnStreams) {
  porta_plugin_kernel k = make_kernel(increment_desc());
  const uint32_t n = 10000;
  auto work = [&](uint32_t add, std::vector<uint32_t>* out, porta_status* status) {
    porta_plugin_stream s = nullptr;
    porta_plugin_buffer b = nullptr;
    *status = api->stream_create(device_, &s);
    if (*status != PORTA_SUCCESS) return;
    *status = api->buffer_create(device_, n * 4, &b);
    if (*status == PORTA_SUCCESS) *status = api->stream_fill(s, b, 0, n * 4, 0);
    for (int i = 0; i < 200 && *status == PORTA_SUCCESS; ++i) {
      IncrementPush push{n, add, 0};
      const uint32_t groups[3] = {(n + 63) / 64, 1, 1};
      *status = api->stream_dispatch(s, k, groups, &b, 1, &push, sizeof push);
      if (i % 50 == 49 && *status == PORTA_SUCCESS) *status = api->stream_sync(s);
    }
    out->assign(n, 0);
    if (*status == PORTA_SUCCESS) *status = api->stream_read(s, b, 0, out->data(), n * 4);
    if (*status == PORTA_SUCCESS) *status = api->stream_sync(s);
    api->stream_destroy(s);
    if (b) api->buffer_destroy(b);
  };
  std::vector<uint32_t> out1, out2;
  porta_status s1 = PORTA_ERROR_INTERNAL, s2 = PORTA_ERROR_INTERNAL;
  std::thread t1(work, 1u, &out1, &s1), t2(work, 3u, &out2, &s2);
  t1.join();
  t2.join();
  ASSERT_EQ(s1, PORTA_SUCCESS);
  ASSERT_EQ(s2, PORTA_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(out1[i], 200u) << i;
    ASSERT_EQ(out2[i], 600u) << i;
  }
}

TEST_F(VulkanPlugin, RefusesBuffersLargerThanTheDeviceAllows) {
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api->buffer_create(device_, 1ull << 46, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(b, nullptr);
  EXPECT_NE(TestHost::last_error.find("heap"), std::string::npos) << TestHost::last_error;
  EXPECT_NE(TestHost::last_error.find("vulkan"), std::string::npos) << TestHost::last_error;
  std::printf("%s\n", TestHost::last_error.c_str());
  if (info_.limits.max_allocation_bytes < info_.memory_bytes) {
    EXPECT_EQ(api->buffer_create(device_, info_.limits.max_allocation_bytes + 1, &b),
              PORTA_ERROR_OUT_OF_MEMORY);
    EXPECT_NE(TestHost::last_error.find("maxMemoryAllocationSize"), std::string::npos)
        << TestHost::last_error;
  }
}

TEST_F(VulkanPlugin, RefusesToBindMoreThanMaxStorageBufferRange) {
  porta_plugin_kernel k = make_kernel(increment_desc());
  const uint64_t too_big = 129ull << 20;  // lavapipe's maxStorageBufferRange is 128 MiB
  porta_plugin_buffer b = nullptr;
  if (api->buffer_create(device_, too_big, &b) != PORTA_SUCCESS) GTEST_SKIP() << TestHost::last_error;
  buffers_.push_back(b);
  IncrementPush push{16, 1, 0};
  const uint32_t groups[3] = {1, 1, 1};
  porta_status s = api->stream_dispatch(stream_, k, groups, &b, 1, &push, sizeof push);
  if (s == PORTA_SUCCESS) GTEST_SKIP() << "the device binds buffers of this size";
  EXPECT_EQ(s, PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(TestHost::last_error.find("maxStorageBufferRange"), std::string::npos) << TestHost::last_error;
}

TEST_F(VulkanPlugin, RefusesKernelsBeyondTheDeviceLimits) {
  porta_kernel_desc desc = increment_desc();
  desc.workgroup_size[0] = info_.limits.max_workgroup_invocations * 2;
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(api->kernel_create(device_, &desc, &k), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(TestHost::last_error.find("maxComputeWorkGroup"), std::string::npos) << TestHost::last_error;

  desc = increment_desc();
  desc.shared_memory_bytes = info_.limits.max_shared_memory_bytes + 4;
  EXPECT_EQ(api->kernel_create(device_, &desc, &k), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(TestHost::last_error.find("maxComputeSharedMemorySize"), std::string::npos)
      << TestHost::last_error;

  desc = increment_desc();
  std::vector<uint32_t> garbage(64, 0x12345678u);
  desc.spirv = garbage.data();
  desc.spirv_words = 3;
  EXPECT_EQ(api->kernel_create(device_, &desc, &k), PORTA_ERROR_INVALID_KERNEL);
}

TEST_F(VulkanPlugin, EventsMeasureAPositiveTime) {
  porta_plugin_kernel k = make_kernel(increment_desc());
  const uint32_t n = 1 << 16;
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream_, b, 0, n * 4, 0), PORTA_SUCCESS);
  porta_plugin_event start = nullptr, end = nullptr;
  ASSERT_EQ(api->event_record(stream_, &start), PORTA_SUCCESS) << TestHost::last_error;
  for (int i = 0; i < 10; ++i) increment(stream_, k, b, n, 1, 100);
  ASSERT_EQ(api->event_record(stream_, &end), PORTA_SUCCESS) << TestHost::last_error;
  ASSERT_EQ(api->stream_sync(stream_), PORTA_SUCCESS) << TestHost::last_error;
  double ms = -1;
  ASSERT_EQ(api->event_elapsed_ms(start, end, &ms), PORTA_SUCCESS) << TestHost::last_error;
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 60000.0);
  std::printf("10 dispatches over %u elements: %.3f ms\n", n, ms);
  api->event_destroy(start);
  api->event_destroy(end);
}

// Run with PORTA_VULKAN_TIMEOUT_MS small: a dispatch that outlasts it turns into
// DEVICE_LOST on the call that waits, and every later call fails the same way.
TEST_F(VulkanPlugin, WaitThatTimesOutLosesTheDeviceCleanly) {
  const char* timeout = std::getenv("PORTA_VULKAN_TIMEOUT_MS");
  if (!timeout || std::atoi(timeout) > 1000) GTEST_SKIP() << "needs PORTA_VULKAN_TIMEOUT_MS <= 1000";
  porta_plugin_kernel k = make_kernel(increment_desc());
  // About 0.8 s on lavapipe (which caps a loop at 65535 iterations) at the
  // first size; a fast GPU finishes that in time, so the work grows 16-fold
  // until a wait outlasts the timeout (about 0.25 s of work on an H100).
  const uint32_t kMaxItems = 16u << 20;
  porta_plugin_buffer b = buffer(uint64_t{kMaxItems} * 4);
  porta_status waited = PORTA_SUCCESS;
  auto t0 = std::chrono::steady_clock::now();
  for (uint32_t n = 16384; n <= kMaxItems && waited == PORTA_SUCCESS; n *= 16) {
    ASSERT_EQ(api->stream_fill(stream_, b, 0, uint64_t{n} * 4, 0), PORTA_SUCCESS);
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 2; ++i) increment(stream_, k, b, n, 1, 60000);
    waited = api->stream_sync(stream_);
  }
  EXPECT_EQ(waited, PORTA_ERROR_DEVICE_LOST);
  EXPECT_NE(TestHost::last_error.find("PORTA_VULKAN_TIMEOUT_MS"), std::string::npos) << TestHost::last_error;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
  porta_plugin_buffer other = nullptr;
  EXPECT_EQ(api->buffer_create(device_, 64, &other), PORTA_ERROR_DEVICE_LOST);
  EXPECT_NE(TestHost::last_error.find("lost earlier"), std::string::npos) << TestHost::last_error;
  EXPECT_EQ(api->stream_sync(stream_), PORTA_ERROR_DEVICE_LOST);
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
  if (api->kernel_create(device_, &desc, &k) == PORTA_SUCCESS) api->kernel_destroy(k);
  EXPECT_GT(TestHost::validation_messages.load(), validation_before_) << "the layer reported nothing";
  TestHost::validation_messages = validation_before_;  // the reports were expected
}

}  // namespace
}  // namespace porta::test
