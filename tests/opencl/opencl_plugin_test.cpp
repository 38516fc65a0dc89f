// The OpenCL plugin tested through its plugin table, with hand-written OpenCL C
// in the shape the translator produces: storage buffers as __global pointers in
// binding order, then the push constants as one struct by value.
//
// PORTA_TEST_OPENCL_DEVICE picks the device by name substring (default: the
// first); the oclgrind runs set it to "Oclgrind".
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "test_host.hpp"

namespace {

using porta::test::TestHost;

struct Plugin {
  const porta_plugin_api* api = nullptr;
  porta_status init_status = PORTA_ERROR_INTERNAL;
  std::string init_error;
  uint32_t index = 0;
  porta_device_info info{};
  porta_plugin_device device = nullptr;
};

Plugin& plugin() {
  static Plugin p = [] {
    Plugin p;
    std::string error;
    p.api = porta::test::load_plugin(PORTA_OPENCL_PLUGIN, &error);
    if (!p.api) {
      p.init_error = "cannot load " PORTA_OPENCL_PLUGIN ": " + error;
      return p;
    }
    p.init_status = p.api->init(TestHost::table());
    p.init_error = TestHost::last_error;
    if (p.init_status != PORTA_SUCCESS) return p;
    const char* wanted = std::getenv("PORTA_TEST_OPENCL_DEVICE");
    for (uint32_t i = 0; i < p.api->device_count(); ++i) {
      porta_device_info info{};
      if (p.api->device_info(i, &info) != PORTA_SUCCESS) continue;
      if (!wanted || std::strstr(info.name, wanted)) {
        p.index = i;
        p.info = info;
        break;
      }
    }
    if (p.api->device_open(p.index, &p.device) != PORTA_SUCCESS) p.init_error = TestHost::last_error;
    return p;
  }();
  return p;
}

class Environment : public ::testing::Environment {
 public:
  void TearDown() override {
    Plugin& p = plugin();
    if (p.device) p.api->device_close(p.device);
    if (p.init_status == PORTA_SUCCESS) p.api->shutdown();
    TestHost::remove_cache();
  }
};

class Opencl : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("PORTA_TEST_EXPECT_NO_OPENCL")) GTEST_SKIP() << "run without OpenCL drivers";
    ASSERT_EQ(plugin().init_status, PORTA_SUCCESS) << plugin().init_error;
    ASSERT_NE(plugin().device, nullptr) << plugin().init_error;
    api = plugin().api;
    device = plugin().device;
    ASSERT_EQ(api->stream_create(device, &stream), PORTA_SUCCESS) << TestHost::last_error;
  }
  void TearDown() override {
    for (auto b : buffers) api->buffer_destroy(b);
    for (auto k : kernels) api->kernel_destroy(k);
    if (stream) api->stream_destroy(stream);
  }

  porta_plugin_buffer buffer(uint64_t size) {
    porta_plugin_buffer b = nullptr;
    EXPECT_EQ(api->buffer_create(device, size, &b), PORTA_SUCCESS) << TestHost::last_error;
    if (b) buffers.push_back(b);
    return b;
  }

  struct KernelSpec {
    const char* source;
    const char* entry;
    uint32_t buffer_count;
    uint32_t push_size;
    uint32_t workgroup[3] = {64, 1, 1};
    uint64_t features = 0;
    std::string cache_key = "test";
  };

  porta_status create(const KernelSpec& spec, porta_plugin_kernel* kernel) {
    std::vector<porta_kernel_buffer_desc> bufs(spec.buffer_count);
    for (uint32_t i = 0; i < spec.buffer_count; ++i) bufs[i] = {i, PORTA_ACCESS_READ_WRITE};
    porta_kernel_desc desc{};
    desc.source = spec.source;
    desc.source_size = std::strlen(spec.source);
    desc.entry_point = spec.entry;
    desc.name = spec.entry;
    desc.buffer_count = spec.buffer_count;
    desc.buffers = bufs.data();
    desc.push_constant_size = spec.push_size;
    std::copy_n(spec.workgroup, 3, desc.workgroup_size);
    desc.required_features = spec.features;
    desc.cache_key = spec.cache_key.c_str();
    *kernel = nullptr;
    porta_status status = api->kernel_create(device, &desc, kernel);
    if (*kernel) kernels.push_back(*kernel);
    return status;
  }

  porta_plugin_kernel kernel(const KernelSpec& spec) {
    porta_plugin_kernel k = nullptr;
    EXPECT_EQ(create(spec, &k), PORTA_SUCCESS) << TestHost::last_error;
    return k;
  }

  void sync() { ASSERT_EQ(api->stream_sync(stream), PORTA_SUCCESS) << TestHost::last_error; }

  const porta_plugin_api* api = nullptr;
  porta_plugin_device device = nullptr;
  porta_plugin_stream stream = nullptr;
  std::vector<porta_plugin_buffer> buffers;
  std::vector<porta_plugin_kernel> kernels;
};

// y = a * x + y over the first n elements; the struct's members are of mixed
// types so a layout disagreement shows up as a wrong answer.
constexpr const char* kAxpySource = R"(
typedef struct {
  float a;
  uint n;
  int bias;
} PushConstants;

__kernel void axpy(__global const float* x, __global float* y, PushConstants pc) {
  uint i = (uint)get_global_id(0);
  if (i < pc.n) y[i] = pc.a * x[i] + y[i] + (float)pc.bias;
}
)";
struct AxpyPush {
  float a;
  uint32_t n;
  int32_t bias;
};

constexpr const char* kAddSource = R"(
typedef struct { uint value; uint n; } PushConstants;
__kernel void add(__global uint* data, PushConstants pc) {
  uint i = (uint)get_global_id(0);
  if (i < pc.n) data[i] += pc.value;
}
)";

std::string unique_key(const char* base) {
  static std::mt19937_64 rng(std::random_device{}());
  return std::string(base) + "-" + std::to_string(rng());
}

TEST(OpenclInit, NoPlatformIsReported) {
  if (!std::getenv("PORTA_TEST_EXPECT_NO_OPENCL"))
    GTEST_SKIP() << "needs OCL_ICD_VENDORS pointing at no driver";
  // OCL_ICD_VENDORS is ocl-icd's (Debian's loader); another vendor's loader may ignore it.
  void* loader = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  using GetAddress = void* (*)(const char*);
  auto get_address =
      loader ? reinterpret_cast<GetAddress>(dlsym(loader, "clGetExtensionFunctionAddress")) : nullptr;
  const bool ocl_icd = get_address && get_address("clGetICDLoaderInfoOCLICD");
  if (loader) dlclose(loader);
  if (!ocl_icd) GTEST_SKIP() << "the OpenCL ICD loader here is not ocl-icd, which OCL_ICD_VENDORS is for";
  EXPECT_EQ(plugin().init_status, PORTA_ERROR_UNAVAILABLE);
  EXPECT_NE(plugin().init_error.find("no OpenCL platform"), std::string::npos) << plugin().init_error;
}

TEST_F(Opencl, EnumeratesPocl) {
  bool found = false;
  for (uint32_t i = 0; i < api->device_count(); ++i) {
    porta_device_info info{};
    ASSERT_EQ(api->device_info(i, &info), PORTA_SUCCESS) << TestHost::last_error;
    EXPECT_STREQ(info.backend, "opencl");
    EXPECT_EQ(info.index, i);
    EXPECT_EQ(std::strncmp(info.api_version, "OpenCL ", 7), 0) << info.api_version;
    EXPECT_GT(info.memory_bytes, 0u);
    // One heap, the device's memory.
    ASSERT_EQ(info.memory_heap_count, 1u);
    EXPECT_EQ(info.memory_heaps[0].bytes, info.memory_bytes);
    EXPECT_TRUE(info.memory_heaps[0].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL);
    EXPECT_GE(info.limits.max_workgroup_invocations, 64u);
    EXPECT_GT(info.limits.max_shared_memory_bytes, 0u);
    EXPECT_GE(info.limits.max_push_constant_bytes, 128u);
    EXPECT_GT(info.limits.max_allocation_bytes, 0u);
    EXPECT_TRUE(info.features & PORTA_FEATURE_ATOMIC_INT32);
    if (std::strstr(info.name, "(Portable Computing Language)")) {
      found = true;
      EXPECT_EQ(info.type, PORTA_DEVICE_CPU);
      EXPECT_NE(std::strstr(info.driver, "Portable Computing Language"), nullptr) << info.driver;
    }
  }
  EXPECT_TRUE(found) << "no PoCL device among " << api->device_count();
  porta_device_info info{};
  EXPECT_EQ(api->device_info(api->device_count(), &info), PORTA_ERROR_NOT_FOUND);
}

TEST_F(Opencl, RoundTrips) {
  for (uint64_t size : {uint64_t{1}, uint64_t{4}, uint64_t{4097}, uint64_t{64} << 20}) {
    SCOPED_TRACE(size);
    std::vector<uint8_t> in(size), out(size, 0), copied(size, 0);
    std::mt19937 rng(static_cast<uint32_t>(size));
    for (auto& b : in) b = static_cast<uint8_t>(rng());
    porta_plugin_buffer a = buffer(size), b = buffer(size);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(api->stream_write(stream, a, 0, in.data(), size), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_read(stream, a, 0, out.data(), size), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_copy(stream, a, 0, b, 0, size), PORTA_SUCCESS) << TestHost::last_error;
    ASSERT_EQ(api->stream_read(stream, b, 0, copied.data(), size), PORTA_SUCCESS) << TestHost::last_error;
    sync();
    EXPECT_TRUE(out == in);
    EXPECT_TRUE(copied == in);
  }
}

TEST_F(Opencl, FillAndOffsets) {
  porta_plugin_buffer a = buffer(64);
  std::vector<uint32_t> out(16, 0);
  ASSERT_EQ(api->stream_fill(stream, a, 0, 64, 0xdeadbeefu), PORTA_SUCCESS) << TestHost::last_error;
  ASSERT_EQ(api->stream_fill(stream, a, 8, 16, 7u), PORTA_SUCCESS) << TestHost::last_error;
  ASSERT_EQ(api->stream_read(stream, a, 0, out.data(), 64), PORTA_SUCCESS) << TestHost::last_error;
  sync();
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], (i >= 2 && i < 6) ? 7u : 0xdeadbeefu) << i;
}

TEST_F(Opencl, DispatchPassesPushConstantStruct) {
  constexpr uint32_t n = 1000;  // not a multiple of the work-group size: the bounds check matters
  porta_plugin_kernel k =
      kernel({kAxpySource, "axpy", 2, sizeof(AxpyPush), {64, 1, 1}, 0, unique_key("axpy")});
  ASSERT_NE(k, nullptr);
  std::vector<float> x(n), y(n), out(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i);
  }
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4);
  ASSERT_EQ(api->stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api->stream_write(stream, by, 0, y.data(), n * 4), PORTA_SUCCESS);
  AxpyPush push{2.0f, n, -3};
  const uint32_t groups[3] = {(n + 63) / 64, 1, 1};
  porta_plugin_buffer args[] = {bx, by};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &push, sizeof push), PORTA_SUCCESS)
      << TestHost::last_error;
  ASSERT_EQ(api->stream_read(stream, by, 0, out.data(), n * 4), PORTA_SUCCESS);
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0f * x[i] + y[i] - 3.0f) << i;
}

TEST_F(Opencl, PushConstantSizeMismatchIsRefused) {
  // PoCL does not check the size of a by-value struct argument, so the plugin
  // checks the bytes it is given against the kernel's push-constant size.
  porta_plugin_kernel k =
      kernel({kAxpySource, "axpy", 2, sizeof(AxpyPush), {64, 1, 1}, 0, unique_key("axpy")});
  ASSERT_NE(k, nullptr);
  porta_plugin_buffer bx = buffer(256), by = buffer(256);
  uint64_t push = 0;
  const uint32_t groups[3] = {1, 1, 1};
  porta_plugin_buffer args[] = {bx, by};
  EXPECT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &push, 8), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(
      TestHost::last_error.find("kernel 'axpy' takes 2 buffers and 12 push-constant bytes, given 2 and 8"),
      std::string::npos)
      << TestHost::last_error;
}

TEST_F(Opencl, BuildErrorCarriesTheLog) {
  const char* broken = "__kernel void broken(__global float* y) { y[0] = undeclared_thing; }\n";
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(create({broken, "broken", 1, 0, {1, 1, 1}, 0, unique_key("broken")}, &k), PORTA_ERROR_COMPILE);
  EXPECT_EQ(k, nullptr);
  const std::string& e = TestHost::last_error;
  EXPECT_NE(e.find("kernel 'broken'"), std::string::npos) << e;
  EXPECT_NE(e.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << e;
  EXPECT_NE(e.find("build log"), std::string::npos) << e;
  EXPECT_NE(e.find("undeclared_thing"), std::string::npos) << e;
}

TEST_F(Opencl, MissingEntryPointIsACompileError) {
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(create({kAddSource, "not_there", 1, 8, {64, 1, 1}, 0, unique_key("add")}, &k),
            PORTA_ERROR_COMPILE);
  EXPECT_NE(TestHost::last_error.find("CL_INVALID_KERNEL_NAME"), std::string::npos) << TestHost::last_error;
}

TEST_F(Opencl, BinaryCacheHitAndCorruptEntryRebuilt) {
  const std::string key = unique_key("cache");
  auto run_add = [&](porta_plugin_kernel k) {
    std::vector<uint32_t> data(256, 1);
    porta_plugin_buffer b = buffer(data.size() * 4);
    struct {
      uint32_t value, n;
    } push{41, 256};
    const uint32_t groups[3] = {4, 1, 1};
    EXPECT_EQ(api->stream_write(stream, b, 0, data.data(), 1024), PORTA_SUCCESS);
    EXPECT_EQ(api->stream_dispatch(stream, k, groups, &b, 1, &push, sizeof push), PORTA_SUCCESS)
        << TestHost::last_error;
    EXPECT_EQ(api->stream_read(stream, b, 0, data.data(), 1024), PORTA_SUCCESS);
    sync();
    for (uint32_t v : data) ASSERT_EQ(v, 42u);
  };
  const KernelSpec spec{kAddSource, "add", 1, 8, {64, 1, 1}, 0, key};

  int stores = TestHost::cache_stores, hits = TestHost::cache_hits;
  std::set<std::string> before;
  for (const std::string& path : TestHost::cache_entries()) before.insert(path);
  porta_plugin_kernel first = kernel(spec);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(TestHost::cache_stores, stores + 1) << "first build is stored";
  EXPECT_EQ(TestHost::cache_hits, hits) << "nothing to load the first time";
  run_add(first);

  // Same key, device and driver: the binary is loaded, nothing is built or stored.
  porta_plugin_kernel second = kernel(spec);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(TestHost::cache_hits, hits + 1);
  EXPECT_EQ(TestHost::cache_stores, stores + 1) << "a cache hit stores nothing";
  run_add(second);

  // This kernel's entry is the file the first build added.
  std::string entry;
  for (const std::string& path : TestHost::cache_entries())
    if (!before.count(path)) entry = path;
  ASSERT_FALSE(entry.empty());
  auto starts_with_magic = [&] {
    std::ifstream in(entry, std::ios::binary);
    char magic[8] = {};
    in.read(magic, 8);
    return std::string(magic, 8) == "PORTACLB";
  };
  EXPECT_TRUE(starts_with_magic());

  // Garbage where the entry was: detected, ignored, rebuilt from source and stored again.
  {
    std::ofstream out(entry, std::ios::binary | std::ios::trunc);
    out << "this is not a program binary";
  }
  porta_plugin_kernel third = kernel(spec);
  ASSERT_NE(third, nullptr) << TestHost::last_error;
  EXPECT_EQ(TestHost::cache_stores, stores + 2) << "a corrupt entry is rebuilt and stored";
  EXPECT_TRUE(starts_with_magic()) << "the rebuilt binary replaced the garbage";
  run_add(third);

  // A well-formed entry whose binary the driver rejects: rebuilt as well.
  {
    std::ifstream in(entry, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    constexpr size_t kHeader = 24;
    ASSERT_GT(bytes.size(), kHeader);
    for (size_t i = kHeader; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);
    uint64_t hash = 1469598103934665603ull;
    for (size_t i = kHeader; i < bytes.size(); ++i)
      hash = (hash ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
    std::memcpy(bytes.data() + 16, &hash, 8);
    std::ofstream out(entry, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  porta_plugin_kernel fourth = kernel(spec);
  ASSERT_NE(fourth, nullptr) << TestHost::last_error;
  EXPECT_EQ(TestHost::cache_stores, stores + 3) << "a rejected binary is rebuilt and stored";
  run_add(fourth);
}

TEST_F(Opencl, EventsMeasurePositiveTime) {
  constexpr uint32_t n = 1 << 20;
  porta_plugin_kernel k = kernel({kAddSource, "add", 1, 8, {64, 1, 1}, 0, unique_key("add")});
  ASSERT_NE(k, nullptr);
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream, b, 0, n * 4, 0), PORTA_SUCCESS);
  porta_plugin_event start = nullptr, end = nullptr;
  ASSERT_EQ(api->event_record(stream, &start), PORTA_SUCCESS) << TestHost::last_error;
  struct {
    uint32_t value, n;
  } push{1, n};
  const uint32_t groups[3] = {n / 64, 1, 1};
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(api->stream_dispatch(stream, k, groups, &b, 1, &push, 8), PORTA_SUCCESS);
  ASSERT_EQ(api->event_record(stream, &end), PORTA_SUCCESS) << TestHost::last_error;
  sync();
  double ms = -1;
  EXPECT_EQ(api->event_elapsed_ms(start, end, &ms), PORTA_SUCCESS) << TestHost::last_error;
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 60000.0);
  api->event_destroy(start);
  api->event_destroy(end);
}

TEST_F(Opencl, RecordedSequenceReplays1000Times) {
  constexpr uint32_t n = 256;
  porta_plugin_kernel k = kernel({kAddSource, "add", 1, 8, {64, 1, 1}, 0, unique_key("add")});
  ASSERT_NE(k, nullptr);
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api->stream_fill(stream, b, 0, n * 4, 5), PORTA_SUCCESS);
  sync();

  ASSERT_EQ(api->stream_begin_record(stream), PORTA_SUCCESS) << TestHost::last_error;
  struct {
    uint32_t value, n;
  } push{3, n};
  const uint32_t groups[3] = {n / 64, 1, 1};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, &b, 1, &push, 8), PORTA_SUCCESS);
  push.value = 1000000;  // the recording kept its own copy of the push constants
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api->stream_end_record(stream, &seq), PORTA_SUCCESS) << TestHost::last_error;
  std::vector<uint32_t> out(n, 0);
  ASSERT_EQ(api->stream_read(stream, b, 0, out.data(), n * 4), PORTA_SUCCESS);
  sync();
  for (uint32_t v : out) ASSERT_EQ(v, 5u) << "recording must not execute";

  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(api->stream_replay(stream, seq), PORTA_SUCCESS) << TestHost::last_error;
  ASSERT_EQ(api->stream_read(stream, b, 0, out.data(), n * 4), PORTA_SUCCESS);
  sync();
  for (uint32_t v : out) ASSERT_EQ(v, 5u + 3u * 1000u);
  api->sequence_destroy(seq);
}

TEST_F(Opencl, OneKernelDispatchedFromTwoThreads) {
  // Kernel arguments live in the cl_kernel: two threads dispatching it at once
  // must each get their own buffer and push constants.
  constexpr uint32_t n = 256;
  porta_plugin_kernel k = kernel({kAddSource, "add", 1, 8, {64, 1, 1}, 0, unique_key("add")});
  ASSERT_NE(k, nullptr);
  auto work = [&](uint32_t value, std::vector<uint32_t>* out) {
    porta_plugin_stream s = nullptr;
    if (api->stream_create(device, &s) != PORTA_SUCCESS) return;
    porta_plugin_buffer b = nullptr;
    if (api->buffer_create(device, n * 4, &b) == PORTA_SUCCESS) {
      std::vector<uint32_t> zeros(n, 0);
      api->stream_write(s, b, 0, zeros.data(), n * 4);
      struct {
        uint32_t value, n;
      } push{value, n};
      const uint32_t groups[3] = {n / 64, 1, 1};
      for (int i = 0; i < 200; ++i) api->stream_dispatch(s, k, groups, &b, 1, &push, 8);
      api->stream_read(s, b, 0, out->data(), n * 4);
      api->stream_sync(s);
      api->buffer_destroy(b);
    }
    api->stream_destroy(s);
  };
  std::vector<uint32_t> a(n, 0), b(n, 0);
  std::thread t1(work, 1u, &a), t2(work, 7u, &b);
  t1.join();
  t2.join();
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(a[i], 200u) << i;
    ASSERT_EQ(b[i], 1400u) << i;
  }
}

TEST_F(Opencl, OversizedWorkGroupAndSharedMemoryRefused) {
  const porta_device_limits& limits = plugin().info.limits;
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(
      create({kAddSource, "add", 1, 8, {limits.max_workgroup_size[0] + 1, 1, 1}, 0, unique_key("wg")}, &k),
      PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(TestHost::last_error.find("work-group size"), std::string::npos) << TestHost::last_error;

  std::vector<porta_kernel_buffer_desc> bufs{{0, PORTA_ACCESS_READ_WRITE}};
  porta_kernel_desc desc{};
  desc.source = kAddSource;
  desc.entry_point = "add";
  desc.name = "add";
  desc.buffer_count = 1;
  desc.buffers = bufs.data();
  desc.push_constant_size = 8;
  desc.workgroup_size[0] = desc.workgroup_size[1] = desc.workgroup_size[2] = 1;
  desc.shared_memory_bytes = limits.max_shared_memory_bytes + 1;
  desc.cache_key = "shared";
  EXPECT_EQ(api->kernel_create(device, &desc, &k), PORTA_ERROR_UNSUPPORTED);
  EXPECT_NE(TestHost::last_error.find("shared memory"), std::string::npos) << TestHost::last_error;
}

TEST_F(Opencl, TooLargeAllocationIsAClearError) {
  const uint64_t size = plugin().info.limits.max_allocation_bytes + 1;
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api->buffer_create(device, size, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(b, nullptr);
  EXPECT_NE(TestHost::last_error.find(std::to_string(size) + " bytes"), std::string::npos)
      << TestHost::last_error;
  EXPECT_NE(TestHost::last_error.find("clCreateBuffer"), std::string::npos) << TestHost::last_error;
}

// Proves the oclgrind runs would catch a bug: this kernel reads past its buffer.
// Only run by the ctest entry that expects oclgrind's report.
TEST_F(Opencl, OclgrindSeesOutOfBoundsRead) {
  if (!std::getenv("PORTA_TEST_OCLGRIND_SELF_CHECK")) GTEST_SKIP() << "only for the oclgrind self-check";
  const char* bad = R"(
typedef struct { uint n; } PushConstants;
__kernel void overrun(__global const uint* in, __global uint* out, PushConstants pc) {
  uint i = (uint)get_global_id(0);
  out[i] = in[i + pc.n];
}
)";
  porta_plugin_kernel k = kernel({bad, "overrun", 2, 4, {16, 1, 1}, 0, unique_key("overrun")});
  ASSERT_NE(k, nullptr);
  porta_plugin_buffer in = buffer(64), out = buffer(64);
  ASSERT_EQ(api->stream_fill(stream, in, 0, 64, 1), PORTA_SUCCESS);
  uint32_t n = 8;
  const uint32_t groups[3] = {1, 1, 1};
  porta_plugin_buffer args[] = {in, out};
  ASSERT_EQ(api->stream_dispatch(stream, k, groups, args, 2, &n, 4), PORTA_SUCCESS);
  sync();
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new Environment);
  return RUN_ALL_TESTS();
}
