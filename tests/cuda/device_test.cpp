// The CUDA plugin on a real device, through its porta_plugin_api table. Every
// test skips, with the plugin's reason, where no CUDA device exists.
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <thread>

#include "plugin_fixture.hpp"

namespace porta::test {
namespace {

struct ScaleAddPush {
  float scale;
  float offset;
  uint32_t n;
};

class CudaDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    CudaPlugin& p = CudaPlugin::get();
    if (p.init_status != PORTA_SUCCESS) GTEST_SKIP() << "no CUDA device: " << p.init_reason;
    api = p.api;
    ASSERT_GT(api->device_count(), 0u);
    ASSERT_EQ(api->device_info(0, &info), PORTA_SUCCESS) << error();
    ASSERT_EQ(api->device_open(0, &device), PORTA_SUCCESS) << error();
    ASSERT_EQ(api->stream_create(device, &stream), PORTA_SUCCESS) << error();
  }

  void TearDown() override {
    if (!api) return;
    for (porta_plugin_kernel k : kernels) api->kernel_destroy(k);
    for (porta_plugin_buffer b : buffers) api->buffer_destroy(b);
    if (stream) {
      api->stream_sync(stream);
      api->stream_destroy(stream);
    }
    if (device) api->device_close(device);
  }

  static std::string error() { return TestHost::last_error(); }

  porta_plugin_buffer buffer(uint64_t size) {
    porta_plugin_buffer b = nullptr;
    EXPECT_EQ(api->buffer_create(device, size, &b), PORTA_SUCCESS) << error();
    if (b) buffers.push_back(b);
    return b;
  }

  porta_plugin_kernel kernel(const KernelDesc& k) {
    porta_plugin_kernel out = nullptr;
    EXPECT_EQ(api->kernel_create(device, &k.desc, &out), PORTA_SUCCESS) << error();
    if (out) kernels.push_back(out);
    return out;
  }

  porta_plugin_kernel scale_add() {
    return kernel(KernelDesc(kernel_source("scale_add"), "scale_add", 2, 12, 256));
  }

  void sync() { ASSERT_EQ(api->stream_sync(stream), PORTA_SUCCESS) << error(); }

  const porta_plugin_api* api = nullptr;
  porta_device_info info{};
  porta_plugin_device device = nullptr;
  porta_plugin_stream stream = nullptr;
  std::vector<porta_plugin_buffer> buffers;
  std::vector<porta_plugin_kernel> kernels;
};

TEST_F(CudaDevice, DescribesTheDevice) {
  EXPECT_STREQ(info.backend, "cuda");
  EXPECT_STREQ(info.vendor, "NVIDIA");
  EXPECT_EQ(std::string(info.api_version).rfind("CUDA ", 0), 0u) << info.api_version;
  EXPECT_NE(std::string(info.api_version).find(", sm_"), std::string::npos) << info.api_version;
  EXPECT_GT(info.memory_bytes, 0u);
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

class CudaRoundTrip : public CudaDevice, public ::testing::WithParamInterface<uint64_t> {};

TEST_P(CudaRoundTrip, WriteThenReadGivesTheBytesBack) {
  uint64_t size = GetParam();
  std::vector<uint8_t> in(size), out(size, 0);
  std::mt19937 rng(static_cast<unsigned>(size));
  for (auto& b : in) b = static_cast<uint8_t>(rng());
  porta_plugin_buffer b = buffer(size + 64);
  ASSERT_NE(b, nullptr);
  // An odd offset: transfers are byte-exact and need no alignment.
  ASSERT_EQ(api->stream_write(stream, b, 7, in.data(), size), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_read(stream, b, 7, out.data(), size), PORTA_SUCCESS) << error();
  sync();
  EXPECT_TRUE(in == out);
}

INSTANTIATE_TEST_SUITE_P(Sizes, CudaRoundTrip, ::testing::Values(1u, 4097u, 256u << 20));

TEST_F(CudaDevice, FillAndCopy) {
  const uint64_t n = 3000;
  porta_plugin_buffer a = buffer(n * 4), c = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream, a, 0, n * 4, 0xdeadbeefu), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_fill(stream, a, 400, 40, 7u), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_copy(stream, a, 0, c, 0, n * 4), PORTA_SUCCESS) << error();
  std::vector<uint32_t> out(n);
  ASSERT_EQ(api->stream_read(stream, c, 0, out.data(), n * 4), PORTA_SUCCESS) << error();
  sync();
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], i >= 100 && i < 110 ? 7u : 0xdeadbeefu) << i;
}

TEST_F(CudaDevice, DispatchWithPushConstants) {
  porta_plugin_kernel k = scale_add();
  ASSERT_NE(k, nullptr);
  const uint32_t n = 100003;
  std::vector<float> x(n), y(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) * 0.25f;
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4);
  ASSERT_EQ(api->stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS) << error();
  ScaleAddPush push{2.0f, 1.0f, n};
  uint32_t groups[3] = {(n + 255) / 256, 1, 1};
  porta_plugin_buffer args[2] = {bx, by};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &push, sizeof push), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_read(stream, by, 0, y.data(), n * 4), PORTA_SUCCESS) << error();
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] * 2.0f + 1.0f) << i;
}

TEST_F(CudaDevice, TwoDimensionalDispatchWithSharedMemory) {
  porta_plugin_kernel k =
      kernel(KernelDesc(kernel_source("matmul_tiled"), "matmul_tiled", 3, 24, 16, 16, 1, 2048));
  ASSERT_NE(k, nullptr);
  const uint32_t m = 37, n = 53, kk = 29;
  std::vector<float> a(m * kk), b(kk * n), c(m * n, 1.0f), out(m * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) - 3.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.5f;
  porta_plugin_buffer ba = buffer(a.size() * 4), bb = buffer(b.size() * 4), bc = buffer(c.size() * 4);
  ASSERT_EQ(api->stream_write(stream, ba, 0, a.data(), a.size() * 4), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_write(stream, bb, 0, b.data(), b.size() * 4), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_write(stream, bc, 0, c.data(), c.size() * 4), PORTA_SUCCESS) << error();
  struct {
    uint32_t m, n, k, pad;
    float alpha, beta;
  } push{m, n, kk, 0, 2.0f, 0.5f};
  static_assert(sizeof push == 24);
  uint32_t groups[3] = {(n + 15) / 16, (m + 15) / 16, 1};
  porta_plugin_buffer args[3] = {ba, bb, bc};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 3, &push, sizeof push), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_read(stream, bc, 0, out.data(), out.size() * 4), PORTA_SUCCESS) << error();
  sync();
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double acc = 0;
      for (uint32_t t = 0; t < kk; ++t) acc += double(a[i * kk + t]) * b[t * n + j];
      // Small integers and halves: every product and partial sum is exact in float.
      ASSERT_EQ(out[i * n + j], static_cast<float>(2.0 * acc + 0.5)) << i << "," << j;
    }
  }
}

TEST_F(CudaDevice, FloatAtomicsAcrossWorkGroups) {
  porta_plugin_kernel k = kernel(KernelDesc(kernel_source("block_sum"), "block_sum", 2, 4, 256, 1, 1, 1024));
  ASSERT_NE(k, nullptr);
  const uint32_t n = 65536 + 17;
  std::vector<float> x(n, 1.0f);
  porta_plugin_buffer bx = buffer(n * 4), bs = buffer(4);
  ASSERT_EQ(api->stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_fill(stream, bs, 0, 4, 0), PORTA_SUCCESS) << error();
  uint32_t groups[3] = {(n + 255) / 256, 1, 1};
  porta_plugin_buffer args[2] = {bx, bs};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &n, 4), PORTA_SUCCESS) << error();
  float sum = 0;
  ASSERT_EQ(api->stream_read(stream, bs, 0, &sum, 4), PORTA_SUCCESS) << error();
  sync();
  EXPECT_EQ(sum, static_cast<float>(n));
}

TEST_F(CudaDevice, GraphReplayedAThousandTimes) {
  porta_plugin_kernel k = kernel(KernelDesc(kernel_source("add_one"), "add_one", 1, 0, 256));
  ASSERT_NE(k, nullptr);
  porta_plugin_buffer b = buffer(1024 * 4);
  ASSERT_EQ(api->stream_fill(stream, b, 0, 1024 * 4, 0), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_begin_record(stream), PORTA_SUCCESS) << error();
  uint32_t groups[3] = {4, 1, 1};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, &b, 1, nullptr, 0), PORTA_SUCCESS) << error();
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api->stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(api->stream_replay(stream, seq), PORTA_SUCCESS) << error();
  std::vector<uint32_t> out(1024);
  ASSERT_EQ(api->stream_read(stream, b, 0, out.data(), out.size() * 4), PORTA_SUCCESS) << error();
  sync();
  api->sequence_destroy(seq);
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(out[i], 1000u) << i;
}

TEST_F(CudaDevice, RecordedTransfersUseTheHostMemoryAtEachReplay) {
  porta_plugin_kernel k = scale_add();
  ASSERT_NE(k, nullptr);
  const uint32_t n = 5000;
  std::vector<float> x(n), y(n);
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4);
  ScaleAddPush push{3.0f, 0.0f, n};
  uint32_t groups[3] = {(n + 255) / 256, 1, 1};
  porta_plugin_buffer args[2] = {bx, by};
  ASSERT_EQ(api->stream_begin_record(stream), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &push, sizeof push), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_read(stream, by, 0, y.data(), n * 4), PORTA_SUCCESS) << error();
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api->stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  for (int round = 1; round <= 5; ++round) {
    for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i + round);
    ASSERT_EQ(api->stream_replay(stream, seq), PORTA_SUCCESS) << error();
    sync();
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(y[i], 3.0f * static_cast<float>(i + round)) << round << ":" << i;
  }
  api->sequence_destroy(seq);
}

TEST_F(CudaDevice, EventsTimeWork) {
  porta_plugin_kernel k = scale_add();
  const uint32_t n = 1 << 22;
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream, bx, 0, n * 4, 0), PORTA_SUCCESS) << error();
  porta_plugin_event start = nullptr, end = nullptr;
  ASSERT_EQ(api->event_record(stream, &start), PORTA_SUCCESS) << error();
  ScaleAddPush push{1.0f, 1.0f, n};
  uint32_t groups[3] = {n / 256, 1, 1};
  porta_plugin_buffer args[2] = {bx, by};
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &push, sizeof push), PORTA_SUCCESS) << error();
  }
  ASSERT_EQ(api->event_record(stream, &end), PORTA_SUCCESS) << error();
  sync();
  double ms = -1;
  ASSERT_EQ(api->event_elapsed_ms(start, end, &ms), PORTA_SUCCESS) << error();
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 10000.0);
  api->event_destroy(start);
  api->event_destroy(end);
}

TEST_F(CudaDevice, TwoThreadsShareTheDevice) {
  porta_plugin_kernel k = scale_add();
  ASSERT_NE(k, nullptr);
  auto work = [&](float scale, std::string* failure) {
    porta_plugin_stream s = nullptr;
    if (api->stream_create(device, &s) != PORTA_SUCCESS) {
      *failure = error();
      return;
    }
    const uint32_t n = 1 << 16;
    porta_plugin_buffer bx = nullptr, by = nullptr;
    api->buffer_create(device, n * 4, &bx);
    api->buffer_create(device, n * 4, &by);
    std::vector<float> x(n), y(n);
    for (int round = 0; round < 50 && failure->empty(); ++round) {
      for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000 + round);
      ScaleAddPush push{scale, 0.0f, n};
      uint32_t groups[3] = {n / 256, 1, 1};
      porta_plugin_buffer args[2] = {bx, by};
      if (api->stream_write(s, bx, 0, x.data(), n * 4) ||
          api->stream_dispatch(s, k, groups, args, 2, &push, 12) ||
          api->stream_read(s, by, 0, y.data(), n * 4) || api->stream_sync(s)) {
        *failure = error();
        break;
      }
      for (uint32_t i = 0; i < n; ++i) {
        if (y[i] != x[i] * scale) {
          *failure = "wrong result at " + std::to_string(i) + " in round " + std::to_string(round);
          break;
        }
      }
    }
    api->buffer_destroy(bx);
    api->buffer_destroy(by);
    api->stream_destroy(s);
  };
  std::string failure_a, failure_b;
  std::thread a(work, 2.0f, &failure_a), b(work, 3.0f, &failure_b);
  a.join();
  b.join();
  EXPECT_EQ(failure_a, "");
  EXPECT_EQ(failure_b, "");
}

TEST_F(CudaDevice, TooLargeAllocationIsOutOfMemory) {
  uint64_t size = info.memory_bytes * 4;
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api->buffer_create(device, size, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(error().find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << error();
  EXPECT_NE(error().find(std::to_string(size)), std::string::npos) << error();
  EXPECT_NE(error().find("cuda: device 0"), std::string::npos) << error();
  // The device still works afterwards.
  EXPECT_NE(buffer(4096), nullptr);
}

TEST_F(CudaDevice, CompileErrorCarriesTheLog) {
  KernelDesc k("extern \"C\" __global__ void bad(float* __restrict__ b0) { b0[0] = nope; }\n", "bad", 1, 0,
               64);
  porta_plugin_kernel out = nullptr;
  EXPECT_EQ(api->kernel_create(device, &k.desc, &out), PORTA_ERROR_COMPILE);
  EXPECT_NE(error().find("nope"), std::string::npos) << error();
  EXPECT_NE(error().find("kernel 'bad'"), std::string::npos) << error();
}

TEST_F(CudaDevice, MissingEntryPointIsAnInvalidKernel) {
  KernelDesc k(kernel_source("scale_add"), "scale_add", 2, 12, 256);
  k.entry = "not_there";
  k.desc.entry_point = k.entry.c_str();
  porta_plugin_kernel out = nullptr;
  EXPECT_EQ(api->kernel_create(device, &k.desc, &out), PORTA_ERROR_INVALID_KERNEL);
  EXPECT_NE(error().find("not_there"), std::string::npos) << error();
}

TEST_F(CudaDevice, WorkGroupLargerThanTheKernelAllows) {
  // block_sum declares __launch_bounds__(256): its registers are allotted for 256 threads.
  KernelDesc k(kernel_source("block_sum"), "block_sum", 2, 4, 512);
  porta_plugin_kernel out = nullptr;
  EXPECT_EQ(api->kernel_create(device, &k.desc, &out), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(error().find("512"), std::string::npos) << error();
  EXPECT_NE(error().find("256 threads per block"), std::string::npos) << error();
}

TEST_F(CudaDevice, CorruptCacheEntryIsRebuilt) {
  TestHost& host = TestHost::get();
  // A source of its own, so that the entry is this test's.
  KernelDesc k(kernel_source("scale_add") + "\n// cache test\n", "scale_add", 2, 12, 256);
  auto keys = [&] {
    std::lock_guard<std::mutex> lock(host.mutex);
    std::set<std::string> out;
    for (auto& entry : host.cache) out.insert(entry.first);
    return out;
  };
  std::set<std::string> before = keys();
  ASSERT_NE(kernel(k), nullptr);
  std::string key;
  for (const std::string& name : keys()) {
    if (!before.count(name)) key = name;
  }
  ASSERT_EQ(key.rfind("cuda-sm", 0), 0u) << "the module was stored under a CUDA key: '" << key << "'";
  {
    std::lock_guard<std::mutex> lock(host.mutex);
    std::vector<char>& data = host.cache[key];
    ASSERT_GT(data.size(), 64u);
    std::fill(data.begin(), data.begin() + 64, '\x5a');  // destroy the ELF header
  }
  ASSERT_FALSE(key.empty());
  porta_plugin_kernel again = kernel(k);
  ASSERT_NE(again, nullptr);
  {
    std::lock_guard<std::mutex> lock(host.mutex);
    EXPECT_EQ(std::string(host.cache[key].data() + 1, 3), "ELF") << "the entry was rebuilt";
    bool logged = false;
    for (const std::string& m : host.logs)
      logged |= m.find("ignoring the cached module") != std::string::npos;
    EXPECT_TRUE(logged);
  }
  // The rebuilt kernel runs.
  porta_plugin_buffer bx = buffer(1024), by = buffer(1024);
  std::vector<float> x(256, 2.0f), y(256);
  ASSERT_EQ(api->stream_write(stream, bx, 0, x.data(), 1024), PORTA_SUCCESS) << error();
  ScaleAddPush push{1.5f, 0.0f, 256};
  uint32_t groups[3] = {1, 1, 1};
  porta_plugin_buffer args[2] = {bx, by};
  ASSERT_EQ(api->stream_dispatch(stream, again, groups, args, 2, &push, 12), PORTA_SUCCESS) << error();
  ASSERT_EQ(api->stream_read(stream, by, 0, y.data(), 1024), PORTA_SUCCESS) << error();
  sync();
  EXPECT_EQ(y[255], 3.0f);
}

}  // namespace
}  // namespace porta::test
