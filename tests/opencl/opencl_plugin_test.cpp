// What is particular to the OpenCL plugin, tested through its plugin table with
// the shared test host (tests/cts/harness) and hand-written OpenCL C in the
// shape the translator produces: storage buffers as __global pointers in
// binding order, then the push constants as one struct by value. What every
// plugin does is checked by the plugin conformance suite (tests/cts).
//
// PORTA_TEST_OPENCL_DEVICE picks the device by name substring (default: the
// first); the oclgrind runs set it to "Oclgrind".
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <vector>

#include "harness/plugin_fixture.hpp"

namespace porta::test {
namespace {

const Plugin& opencl_plugin() { return plugin_at(PORTA_OPENCL_PLUGIN); }

// The device whose name contains PORTA_TEST_OPENCL_DEVICE, else the first.
uint32_t device_under_test() {
  const Plugin& p = opencl_plugin();
  const char* wanted = std::getenv("PORTA_TEST_OPENCL_DEVICE");
  for (uint32_t i = 0; p.available() && i < p.api->device_count(); ++i) {
    porta_device_info info{};
    if (p.api->device_info(i, &info) == PORTA_SUCCESS && (!wanted || std::strstr(info.name, wanted)))
      return i;
  }
  return 0;
}

class Opencl : public PluginTest {
 protected:
  void SetUp() override {
    if (std::getenv("PORTA_TEST_EXPECT_NO_OPENCL")) GTEST_SKIP() << "run without OpenCL drivers";
    ASSERT_TRUE(opencl_plugin().available()) << opencl_plugin().reason;
    open(opencl_plugin(), device_under_test());
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
    for (uint32_t i = 0; i < spec.buffer_count; ++i)
      bufs[i] = {0, i, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ_WRITE};
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
    return try_kernel(desc, kernel);
  }

  using PluginTest::kernel;
  porta_plugin_kernel kernel(const KernelSpec& spec) {
    porta_plugin_kernel k = nullptr;
    EXPECT_EQ(create(spec, &k), PORTA_SUCCESS) << error();
    return k;
  }
};

// Hand-written kernels take what translated ones take: the buffers, the push
// constants, then the buffers' sizes (translator/README.md).
constexpr const char* kAddSource = R"(
typedef struct { uint value; uint n; } PushConstants;
typedef struct { ulong bytes[1]; } porta_buffer_sizes;
__kernel void add(__global uint* data, PushConstants pc, porta_buffer_sizes sizes) {
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
  EXPECT_EQ(opencl_plugin().init_status, PORTA_ERROR_UNAVAILABLE);
  EXPECT_NE(opencl_plugin().reason.find("no OpenCL platform"), std::string::npos) << opencl_plugin().reason;
}

TEST_F(Opencl, EnumeratesPocl) {
  EXPECT_EQ(api().language, PORTA_LANGUAGE_OPENCL_C);
  bool found = false;
  for (uint32_t i = 0; i < api().device_count(); ++i) {
    porta_device_info info{};
    ASSERT_EQ(api().device_info(i, &info), PORTA_SUCCESS) << error();
    EXPECT_EQ(std::strncmp(info.api_version, "OpenCL ", 7), 0) << info.api_version;
    // One heap, the device's memory.
    ASSERT_EQ(info.memory_heap_count, 1u);
    EXPECT_EQ(info.memory_heaps[0].bytes, info.memory_bytes);
    EXPECT_TRUE(info.memory_heaps[0].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL);
    if (std::strstr(info.name, "(Portable Computing Language)")) {
      found = true;
      EXPECT_EQ(info.type, PORTA_DEVICE_CPU);
      EXPECT_NE(std::strstr(info.driver, "Portable Computing Language"), nullptr) << info.driver;
    }
  }
  EXPECT_TRUE(found) << "no PoCL device among " << api().device_count();
}

// The OpenCL parts of a build failure's message (the CTS checks the rest).
TEST_F(Opencl, BuildErrorCarriesTheLog) {
  const char* broken = "__kernel void broken(__global float* y) { y[0] = undeclared_thing; }\n";
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(create({broken, "broken", 1, 0, {1, 1, 1}, 0, unique_key("broken")}, &k), PORTA_ERROR_COMPILE);
  const std::string e = error();
  EXPECT_NE(e.find("kernel 'broken'"), std::string::npos) << e;
  EXPECT_NE(e.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << e;
  EXPECT_NE(e.find("build log"), std::string::npos) << e;
  EXPECT_NE(e.find("undeclared_thing"), std::string::npos) << e;
}

TEST_F(Opencl, MissingEntryPointIsACompileError) {
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(create({kAddSource, "not_there", 1, 8, {64, 1, 1}, 0, unique_key("add")}, &k),
            PORTA_ERROR_COMPILE);
  EXPECT_NE(error().find("CL_INVALID_KERNEL_NAME"), std::string::npos) << error();
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
    EXPECT_EQ(api().stream_write(stream, b, 0, data.data(), 1024), PORTA_SUCCESS);
    const porta_plugin_binding whole_b = whole(b);
    EXPECT_EQ(api().stream_dispatch(stream, k, groups, &whole_b, 1, &push, sizeof push), PORTA_SUCCESS)
        << error();
    EXPECT_EQ(api().stream_read(stream, b, 0, data.data(), 1024), PORTA_SUCCESS);
    sync();
    for (uint32_t v : data) ASSERT_EQ(v, 42u);
  };
  const KernelSpec spec{kAddSource, "add", 1, 8, {64, 1, 1}, 0, key};

  int stores = TestHost::cache_stores(), hits = TestHost::cache_hits();
  std::set<std::string> before;
  for (const std::string& key : TestHost::cache_keys()) before.insert(TestHost::cache_file(key));
  porta_plugin_kernel first = kernel(spec);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(TestHost::cache_stores(), stores + 1) << "first build is stored";
  EXPECT_EQ(TestHost::cache_hits(), hits) << "nothing to load the first time";
  run_add(first);

  // Same key, device and driver: the binary is loaded, nothing is built or stored.
  porta_plugin_kernel second = kernel(spec);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(TestHost::cache_hits(), hits + 1);
  EXPECT_EQ(TestHost::cache_stores(), stores + 1) << "a cache hit stores nothing";
  run_add(second);

  // This kernel's entry is the file the first build added.
  std::string entry;
  for (const std::string& key : TestHost::cache_keys())
    if (!before.count(TestHost::cache_file(key))) entry = TestHost::cache_file(key);
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
  ASSERT_NE(third, nullptr) << error();
  EXPECT_EQ(TestHost::cache_stores(), stores + 2) << "a corrupt entry is rebuilt and stored";
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
  ASSERT_NE(fourth, nullptr) << error();
  EXPECT_EQ(TestHost::cache_stores(), stores + 3) << "a rejected binary is rebuilt and stored";
  run_add(fourth);
}

// The device opened with PORTA_OPENCL_COMMAND_BUFFERS=1: command buffers for
// recorded sequences where it has them, as GPUs use them by default.
class OpenclCommandBuffers : public Opencl {
 protected:
  void SetUp() override {
    setenv("PORTA_OPENCL_COMMAND_BUFFERS", "1", 1);
    Opencl::SetUp();
    unsetenv("PORTA_OPENCL_COMMAND_BUFFERS");
  }
};

// Where the device has cl_khr_command_buffer (PoCL 3.1 and later) and uses
// it, each run of dispatches in a recorded sequence goes into one command
// buffer, which a replay enqueues once; transfers split the runs. The results
// are those of the dispatches (tests/cts Sequences checks them against plain
// dispatches, with command buffers in cts.opencl.command_buffers).
TEST_F(OpenclCommandBuffers, RecordedRunsOfDispatchesBecomeCommandBuffers) {
  if (!TestHost::logged("recorded sequences replay through cl_khr_command_buffer")) {
    std::string why = "no device-open message in the log";
    for (const std::string& m : TestHost::logs())
      if (m.find("recorded sequences replay") != std::string::npos) why = m;
    GTEST_SKIP() << why;
  }
  porta_plugin_kernel add = kernel({kAddSource, "add", 1, 8, {64, 1, 1}, 0, unique_key("cb")});
  ASSERT_NE(add, nullptr);
  const uint32_t n = 256;
  porta_plugin_buffer b = buffer(n * 4);
  std::vector<uint32_t> start(n, 10), out(n);
  struct Push {
    uint32_t value, n;
  };
  TestHost::clear_logs();
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS) << error();
  write(b, start.data(), n * 4);
  dispatch(add, n / 64, {b}, Push{1, n});
  dispatch(add, n / 64, {b}, Push{2, n});
  read(b, out.data(), n * 4);
  dispatch(add, n / 64, {b}, Push{4, n});
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS) << error();
  EXPECT_EQ(TestHost::count_logged("2 recorded dispatches in one command buffer"), 1);
  EXPECT_EQ(TestHost::count_logged("1 recorded dispatches in one command buffer"), 1);
  for (uint32_t round = 0; round < 5; ++round) {
    std::fill(start.begin(), start.end(), round * 100);
    ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << error();
    sync();
    ASSERT_TRUE(every_word_is(out, round * 100 + 3)) << "round " << round;
  }
  read(b, out.data(), n * 4);
  sync();
  EXPECT_TRUE(every_word_is(out, 400 + 7));
  api().sequence_destroy(seq);
}

TEST_F(Opencl, TooLargeAllocationIsAClearError) {
  const uint64_t size = info.limits.max_allocation_bytes + 1;
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api().buffer_create(device, size, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(b, nullptr);
  EXPECT_NE(error().find(std::to_string(size) + " bytes"), std::string::npos) << error();
  EXPECT_NE(error().find("clCreateBuffer"), std::string::npos) << error();
}

// Proves the oclgrind runs would catch a bug: this kernel reads past its buffer.
// Only run by the ctest entry that expects oclgrind's report.
TEST_F(Opencl, OclgrindSeesOutOfBoundsRead) {
  if (!std::getenv("PORTA_TEST_OCLGRIND_SELF_CHECK")) GTEST_SKIP() << "only for the oclgrind self-check";
  const char* bad = R"(
typedef struct { uint n; } PushConstants;
typedef struct { ulong bytes[2]; } porta_buffer_sizes;
__kernel void overrun(__global const uint* in, __global uint* out, PushConstants pc, porta_buffer_sizes sizes) {
  uint i = (uint)get_global_id(0);
  out[i] = in[i + pc.n];
}
)";
  porta_plugin_kernel k = kernel({bad, "overrun", 2, 4, {16, 1, 1}, 0, unique_key("overrun")});
  ASSERT_NE(k, nullptr);
  porta_plugin_buffer in = buffer(64), out = buffer(64);
  ASSERT_EQ(api().stream_fill(stream, in, 0, 64, 1), PORTA_SUCCESS);
  uint32_t n = 8;
  const uint32_t groups[3] = {1, 1, 1};
  porta_plugin_binding args[] = {whole(in), whole(out)};
  ASSERT_EQ(api().stream_dispatch(stream, k, groups, args, 2, &n, 4), PORTA_SUCCESS);
  sync();
}

}  // namespace
}  // namespace porta::test
