// What is particular to libporta-cpu.so, driven through its plugin table with
// the shared test host (tests/cts/harness): kernels compiled at run time and
// their cache, the built-in kernels and their instruction-set variants, the
// kernel entry's own ABI. What every plugin does is checked by the plugin
// conformance suite (tests/cts).
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/plugin_fixture.hpp"

namespace porta::test {
namespace {

// PORTA_CPU_TEST_PLUGIN runs the tests against a plugin that has moved (another machine).
const Plugin& cpu_plugin() {
  return plugin_at(path_from_env("PORTA_CPU_TEST_PLUGIN", PORTA_CPU_PLUGIN_PATH));
}

const porta_plugin_api& api() {
  const Plugin& p = cpu_plugin();
  if (!p.available()) throw std::runtime_error(p.reason);
  return *p.api;
}

// Kernels written the way the translator writes them (porta_cpu.h's contract).
const char* kScaleSource = R"(#include "porta_cpu.h"
#include <cstdint>
namespace {
struct Push { uint32_t n; float a; };
void run_group(const porta_cpu_group_args* args) {
  const float* x = static_cast<const float*>(args->buffers[0]);
  float* y = static_cast<float*>(args->buffers[1]);
  const Push* p = static_cast<const Push*>(args->push);
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t i = args->group_id[0] * 64u + l;
    if (i < p->n) y[i] = p->a * x[i];
  }
}
}  // namespace
PORTA_CPU_EXPORT_KERNEL const porta_cpu_kernel_entry PORTA_CPU_KERNEL_NAME = {
    @ABI@, run_group, {64, 1, 1}, 0, 0};
)";

const char* kIncrementSource = R"(#include "porta_cpu.h"
#include <cstdint>
namespace {
void run_group(const porta_cpu_group_args* args) {
  uint32_t* y = static_cast<uint32_t*>(args->buffers[0]);
  uint32_t n = *static_cast<const uint32_t*>(args->push);
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t i = (args->group_id[1] * args->num_groups[0] + args->group_id[0]) * 32u + l;
    if (i < n) y[i] += 1;
  }
}
}  // namespace
PORTA_CPU_EXPORT_KERNEL const porta_cpu_kernel_entry PORTA_CPU_KERNEL_NAME = {
    PORTA_CPU_KERNEL_ABI_VERSION, run_group, {32, 1, 1}, 0, 0};
)";

// Work-items with a large array each (@WORDS@ words, past the default 64 KiB
// fiber stack): a group of 8 that meets at a barrier (@BARRIER@ 1), or loops
// over its items without one (0). Item i of group g writes the sum of
// (k ^ (8 g + i)) over k = 0, 4096, ... below @WORDS@.
const char* kDeepStackSource = R"(#include "porta_cpu.h"
#include <cstdint>
namespace {
__attribute__((noinline)) uint32_t fill_and_sum(const porta_cpu_group_args* args, uint32_t item) {
  volatile uint32_t big[@WORDS@];
  for (uint32_t k = 0; k < @WORDS@; ++k) big[k] = k ^ item;
  if (@BARRIER@) args->scheduler->barrier(args->scheduler->self);
  uint32_t sum = 0;
  for (uint32_t k = 0; k < @WORDS@; k += 4096) sum += big[k];
  return sum;
}
void item(void* ctx, uint32_t l) {
  auto* args = static_cast<const porta_cpu_group_args*>(ctx);
  const uint32_t i = args->group_id[0] * 8u + l;
  static_cast<uint32_t*>(args->buffers[0])[i] = fill_and_sum(args, i);
}
void run_group(const porta_cpu_group_args* args) {
  if (@BARRIER@)
    args->scheduler->run_items(args->scheduler->self, 8, item, const_cast<porta_cpu_group_args*>(args));
  else
    for (uint32_t l = 0; l < 8; ++l) item(const_cast<porta_cpu_group_args*>(args), l);
}
}  // namespace
PORTA_CPU_EXPORT_KERNEL const porta_cpu_kernel_entry PORTA_CPU_KERNEL_NAME = {
    PORTA_CPU_KERNEL_ABI_VERSION, run_group, {8, 1, 1}, @BARRIER@, 0};
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

const porta_kernel_buffer_desc kBuffers[2] = {{0, 0, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
                                              {0, 1, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_WRITE}};

struct Desc {
  std::string source, name, key;
  porta_kernel_desc d{};
  Desc(std::string src, std::string n, std::string k, uint32_t wg, uint32_t buffers, uint32_t push)
      : source(std::move(src)), name(std::move(n)), key(std::move(k)) {
    d.source = source.c_str();
    d.source_size = source.size();
    d.entry_point = "main";
    d.name = name.c_str();
    d.buffer_count = buffers;
    d.buffers = kBuffers;
    d.push_constant_size = push;
    d.workgroup_size[0] = wg;
    d.workgroup_size[1] = d.workgroup_size[2] = 1;
    d.cache_key = key.c_str();
  }
};

class Cpu : public PluginTest {
 protected:
  void SetUp() override { open(cpu_plugin(), 0); }
  // A kernel the test destroys itself.
  porta_plugin_kernel kernel(const Desc& desc) {
    porta_plugin_kernel k = nullptr;
    EXPECT_EQ(api().kernel_create(device, &desc.d, &k), PORTA_SUCCESS) << error();
    return k;
  }
  // Scales n floats by a through `k` and checks the result.
  void check_scale(porta_plugin_kernel k, uint32_t n) {
    std::vector<float> x(n), y(n, -1.0f);
    std::iota(x.begin(), x.end(), 0.0f);
    porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4);
    struct {
      uint32_t n;
      float a;
    } push{n, 2.5f};
    uint32_t groups[3] = {(n + 63) / 64, 1, 1};
    porta_plugin_binding args[2] = {whole(bx), whole(by)};
    ASSERT_EQ(api().stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS);
    ASSERT_EQ(api().stream_dispatch(stream, k, groups, args, 2, &push, sizeof push), PORTA_SUCCESS)
        << TestHost::last_error();
    ASSERT_EQ(api().stream_read(stream, by, 0, y.data(), n * 4), PORTA_SUCCESS);
    ASSERT_EQ(api().stream_sync(stream), PORTA_SUCCESS);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.5f * i) << i;
  }
};

Desc scale_desc(const std::string& key) {
  return Desc(replace(kScaleSource, "@ABI@", "PORTA_CPU_KERNEL_ABI_VERSION"), "scale", key, 64, 2, 8);
}

// What the CPU plugin says of itself and its one device.
TEST(CpuPlugin, TableAndDeviceInfo) {
  const porta_plugin_api& a = api();
  EXPECT_EQ(a.language, PORTA_LANGUAGE_CPP);
  ASSERT_EQ(a.device_count(), 1u);
  porta_device_info info{};
  ASSERT_EQ(a.device_info(0, &info), PORTA_SUCCESS);
  EXPECT_EQ(std::string(info.name).rfind("porta CPU (", 0), 0u) << info.name;
  EXPECT_EQ(info.type, PORTA_DEVICE_CPU);
  // One heap, the device's memory.
  ASSERT_EQ(info.memory_heap_count, 1u);
  EXPECT_EQ(info.memory_heaps[0].bytes, info.memory_bytes);
  EXPECT_TRUE(info.memory_heaps[0].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL);
  EXPECT_EQ(info.limits.max_workgroup_invocations, 1024u);
  EXPECT_EQ(info.limits.max_buffer_bytes, info.memory_bytes);
  EXPECT_TRUE(info.features & PORTA_FEATURE_FP64);
  EXPECT_TRUE(info.features & PORTA_FEATURE_FP16);
  EXPECT_FALSE(info.features & PORTA_FEATURE_BF16);
  EXPECT_EQ(info.flags, uint32_t{PORTA_DEVICE_FLAG_UNIFIED_MEMORY | PORTA_DEVICE_FLAG_PRECOMPILED_DEFAULTS |
                                 PORTA_DEVICE_FLAG_REFERENCE | PORTA_DEVICE_FLAG_FIBER_BARRIERS});
  EXPECT_EQ(info.timer, PORTA_TIMER_HOST);
  EXPECT_EQ(info.priority, 100u);
  EXPECT_EQ(std::string(info.api_version), "porta-cpu 0.1.0-test");
}

// libporta refuses overlapping copies; the plugin's own copy moves them as memmove does.
TEST_F(Cpu, OverlappingCopyWithinOneBuffer) {
  porta_plugin_buffer a = buffer(1000);
  std::vector<uint8_t> src(1000), dst(1000);
  for (int i = 0; i < 1000; ++i) src[i] = static_cast<uint8_t>(i * 7);
  ASSERT_EQ(api().stream_write(stream, a, 0, src.data(), 1000), PORTA_SUCCESS);
  ASSERT_EQ(api().stream_copy(stream, a, 0, a, 1, 999), PORTA_SUCCESS);
  ASSERT_EQ(api().stream_read(stream, a, 0, dst.data(), 1000), PORTA_SUCCESS);
  EXPECT_EQ(std::memcmp(dst.data() + 1, src.data(), 999), 0);
}

TEST_F(Cpu, BufferIsAligned) {
  porta_plugin_buffer b = buffer(3);
  // The handle is opaque to the core, but its first member is the memory.
  void* data = *reinterpret_cast<void**>(b);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u);
}

TEST_F(Cpu, HugeBufferIsOutOfMemory) {
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api().buffer_create(device, 1ull << 60, &b), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(TestHost::last_error().find("1152921504606846976 bytes"), std::string::npos)
      << TestHost::last_error();
  EXPECT_NE(TestHost::last_error().find("buffer_create"), std::string::npos);
}

TEST_F(Cpu, RuntimeCompiledDispatchAndCacheHit) {
  Desc desc = scale_desc("scale-cache-hit");
  TestHost::clear_logs();
  porta_plugin_kernel k = kernel(desc);
  ASSERT_TRUE(k);
  EXPECT_TRUE(TestHost::logged("compiled into the cache"));
  check_scale(k, 1000);
  check_scale(k, 1);
  check_scale(k, 64 * 300 + 5);
  api().kernel_destroy(k);

  TestHost::clear_logs();
  k = kernel(desc);
  ASSERT_TRUE(k);
  EXPECT_TRUE(TestHost::logged("loaded from the cache"));
  EXPECT_FALSE(TestHost::logged("compiled into the cache"));
  check_scale(k, 777);
  api().kernel_destroy(k);
}

// An entry whose bytes are no kernel library (the test host's cache keeps no
// checksum; libporta's finds changed bytes before the plugin sees them).
TEST_F(Cpu, CorruptCacheEntryIsRebuilt) {
  Desc desc = scale_desc("scale-corrupt");
  porta_plugin_kernel k = kernel(desc);
  ASSERT_TRUE(k);
  api().kernel_destroy(k);
  for (const std::string& key : TestHost::cache_keys())
    std::ofstream(TestHost::cache_file(key), std::ios::binary | std::ios::trunc) << "not a shared object";
  TestHost::clear_logs();
  k = kernel(desc);
  ASSERT_TRUE(k);
  EXPECT_TRUE(TestHost::logged("unusable cache entry", PORTA_LOG_WARN));
  check_scale(k, 500);
  api().kernel_destroy(k);
}

TEST_F(Cpu, CacheOffBuildsInATemporaryDirectory) {
  TestHost::set_cache_enabled(false);
  Desc desc = scale_desc("scale-no-cache");
  porta_plugin_kernel k = kernel(desc);
  TestHost::set_cache_enabled(true);
  ASSERT_TRUE(k);
  check_scale(k, 300);
  api().kernel_destroy(k);
}

TEST_F(Cpu, CompilerErrorIsReported) {
  Desc desc("#include \"porta_cpu.h\"\nthis is not C++;\n", "broken_kernel", "broken", 64, 0, 0);
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(api().kernel_create(device, &desc.d, &k), PORTA_ERROR_COMPILE);
  std::string e = TestHost::last_error();
  EXPECT_NE(e.find("broken_kernel"), std::string::npos) << e;
  EXPECT_NE(e.find("kernel_create"), std::string::npos) << e;
  EXPECT_NE(e.find("error"), std::string::npos) << e;  // the compiler's own log
  EXPECT_NE(e.find("kernel.cpp:2"), std::string::npos) << e;
}

struct NoCompiler {
  NoCompiler() { setenv("PORTA_CXX", "/nonexistent/c++", 1); }
  ~NoCompiler() { unsetenv("PORTA_CXX"); }
};

TEST_F(Cpu, MissingCompilerIsReported) {
  NoCompiler no_compiler;
  Desc desc = scale_desc("scale-no-compiler");
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(api().kernel_create(device, &desc.d, &k), PORTA_ERROR_COMPILE);
  std::string e = TestHost::last_error();
  EXPECT_NE(e.find("cannot run the C++ compiler '/nonexistent/c++'"), std::string::npos) << e;
  EXPECT_NE(e.find("PORTA_CXX"), std::string::npos) << e;
}

// The stacks the items run on are sized from the compiled kernel's frames
// (-fstack-usage): 256 KiB arrays, with and without barriers, run and keep
// their values (a 64 KiB stack would fault).
TEST_F(Cpu, StacksSizedFromTheCompiledKernel) {
  const uint32_t words = 65536, groups = 5, n = groups * 8;
  for (const char* barrier : {"1", "0"}) {
    SCOPED_TRACE(std::string("barrier ") + barrier);
    const std::string source =
        replace(replace(kDeepStackSource, "@WORDS@", std::to_string(words)), "@BARRIER@", barrier);
    Desc desc(source, "deep_stack", std::string("deep-stack-") + barrier, 8, 1, 0);
    porta_plugin_kernel k = kernel(desc);
    ASSERT_TRUE(k);
    porta_plugin_buffer out = buffer(n * 4);
    uint32_t g[3] = {groups, 1, 1};
    porta_plugin_binding args[1] = {whole(out)};
    ASSERT_EQ(api().stream_dispatch(stream, k, g, args, 1, nullptr, 0), PORTA_SUCCESS) << TestHost::last_error();
    std::vector<uint32_t> y(n);
    ASSERT_EQ(api().stream_read(stream, out, 0, y.data(), n * 4), PORTA_SUCCESS);
    ASSERT_EQ(api().stream_sync(stream), PORTA_SUCCESS) << TestHost::last_error();
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t sum = 0;
      for (uint32_t j = 0; j < words; j += 4096) sum += j ^ i;
      ASSERT_EQ(y[i], sum) << "item " << i;
    }
    api().kernel_destroy(k);
  }
}

// Items whose stacks would take more than half the machine's memory at once
// (1 GiB each, groups of 8, on every thread) are refused at dispatch, naming
// the stack, rather than left to the out-of-memory killer.
TEST_F(Cpu, StacksPastHalfTheMemoryAreRefused) {
  cpu_set_t set;
  const unsigned threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  const uint64_t memory = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  if ((uint64_t(8) << 30) * threads <= memory / 2)
    GTEST_SKIP() << "8 GiB of stacks on each of " << threads << " threads fit in half of this machine's "
                 << (memory >> 20) << " MiB";
  const std::string source =
      replace(replace(kDeepStackSource, "@WORDS@", std::to_string(1u << 28)), "@BARRIER@", "1");
  Desc desc(source, "huge_stack", "huge-stack", 8, 1, 0);
  porta_plugin_kernel k = kernel(desc);
  ASSERT_TRUE(k);
  porta_plugin_buffer out = buffer(64);
  uint32_t g[3] = {1, 1, 1};
  porta_plugin_binding args[1] = {whole(out)};
  EXPECT_EQ(api().stream_dispatch(stream, k, g, args, 1, nullptr, 0), PORTA_ERROR_OUT_OF_MEMORY);
  const std::string e = TestHost::last_error();
  EXPECT_NE(e.find("huge_stack"), std::string::npos) << e;
  EXPECT_NE(e.find("KiB of stack"), std::string::npos) << e;
  api().kernel_destroy(k);
}

TEST_F(Cpu, WrongKernelAbiVersionIsRefused) {
  Desc desc(replace(kScaleSource, "@ABI@", "99u"), "scale_abi99", "scale-abi99", 64, 2, 8);
  porta_plugin_kernel k = nullptr;
  EXPECT_NE(api().kernel_create(device, &desc.d, &k), PORTA_SUCCESS);
  EXPECT_NE(TestHost::last_error().find("ABI version 99"), std::string::npos) << TestHost::last_error();
}

TEST_F(Cpu, WorkgroupSizeMismatchIsRefused) {
  Desc desc = scale_desc("scale-wg");
  desc.d.workgroup_size[0] = 128;
  porta_plugin_kernel k = nullptr;
  EXPECT_NE(api().kernel_create(device, &desc.d, &k), PORTA_SUCCESS);
  EXPECT_NE(TestHost::last_error().find("work-group size 64x1x1, expected 128x1x1"), std::string::npos)
      << TestHost::last_error();
}

// libporta refuses events in a recording; the plugin's own sequences stamp
// them at each replay (on a 2-D grid of the hand-written kernel).
TEST_F(Cpu, EventsInASequenceAreStampedAtEachReplay) {
  Desc desc(kIncrementSource, "increment", "increment", 32, 1, 4);
  porta_plugin_kernel k = kernel(desc);
  ASSERT_TRUE(k);
  const uint32_t n = 32 * 40 + 3;
  porta_plugin_buffer y = buffer(n * 4), copy = buffer(n * 4);
  std::vector<uint32_t> out(n);
  ASSERT_EQ(api().stream_fill(stream, y, 0, n * 4, 0), PORTA_SUCCESS);

  porta_plugin_event before = nullptr, after = nullptr;
  ASSERT_EQ(api().stream_begin_record(stream), PORTA_SUCCESS);
  uint32_t g[3] = {8, 6, 1};  // a 2-D grid: 8 * 6 groups of 32 cover n
  ASSERT_EQ(api().event_record(stream, &before), PORTA_SUCCESS);
  const porta_plugin_binding whole_y = whole(y);
  ASSERT_EQ(api().stream_dispatch(stream, k, g, &whole_y, 1, &n, 4), PORTA_SUCCESS);
  ASSERT_EQ(api().stream_copy(stream, y, 0, copy, 0, n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api().stream_read(stream, copy, 0, out.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api().event_record(stream, &after), PORTA_SUCCESS);
  porta_plugin_sequence seq = nullptr;
  ASSERT_EQ(api().stream_end_record(stream, &seq), PORTA_SUCCESS);

  double ms;
  EXPECT_NE(api().event_elapsed_ms(before, after, &ms), PORTA_SUCCESS);

  for (uint32_t r = 1; r <= 3; ++r) {
    ASSERT_EQ(api().stream_replay(stream, seq), PORTA_SUCCESS) << TestHost::last_error();
    ASSERT_EQ(api().stream_sync(stream), PORTA_SUCCESS);
    ASSERT_EQ(out[0], r);
    ASSERT_EQ(out[n - 1], r);
  }
  ASSERT_EQ(api().event_elapsed_ms(before, after, &ms), PORTA_SUCCESS);
  EXPECT_GE(ms, 0.0);
  api().sequence_destroy(seq);
  // An event may outlive the sequence that stamps it, and the other way round.
  api().event_destroy(before);
  api().event_destroy(after);
  api().kernel_destroy(k);
}

std::string builtin_text(const std::string& name) {
  std::ifstream in(std::string(PORTA_CPU_BUILTIN_DIR) + "/" + name + ".cpp", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Translator output that is not built in compiles at run time against the
// embedded runtime headers (porta_glsl.hpp, porta_cpu.h); its barriers run on fibers.
TEST_F(Cpu, TranslatedKernelCompilesAtRunTime) {
  std::string names = PORTA_CPU_BUILTIN_NAMES;
  if (names.find("cpu_selftest_reduce") == std::string::npos) GTEST_SKIP() << "no built-in self-test kernels";
  Desc desc(builtin_text("cpu_selftest_reduce") + "\n// compiled at run time\n", "reduce_translated",
            "reduce-translated", 128, 2, 4);
  desc.d.shared_memory_bytes = 512;
  TestHost::clear_logs();
  porta_plugin_kernel k = kernel(desc);
  ASSERT_TRUE(k) << TestHost::last_error();
  EXPECT_FALSE(TestHost::logged("is built in"));
  EXPECT_TRUE(TestHost::logged("compiled into the cache"));
  const uint32_t n = 128 * 333 + 1, groups = (n + 127) / 128;
  std::vector<float> x(n), partial(groups);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 5);
  porta_plugin_buffer bx = buffer(n * 4), bp = buffer(groups * 4);
  porta_plugin_binding args[2] = {whole(bx), whole(bp)};
  uint32_t g[3] = {groups, 1, 1};
  ASSERT_EQ(api().stream_write(stream, bx, 0, x.data(), n * 4), PORTA_SUCCESS);
  ASSERT_EQ(api().stream_dispatch(stream, k, g, args, 2, &n, 4), PORTA_SUCCESS);
  ASSERT_EQ(api().stream_read(stream, bp, 0, partial.data(), groups * 4), PORTA_SUCCESS);
  for (uint32_t gi = 0; gi < groups; ++gi) {
    float expected = 0;
    for (uint32_t i = gi * 128; i < std::min(n, gi * 128 + 128); ++i) expected += x[i];
    ASSERT_EQ(partial[gi], expected) << "group " << gi;
  }
  api().kernel_destroy(k);
}

// The self-test kernels built into the plugin: their translated text, handed
// to kernel_create as the core would, must be found without any compiler.
TEST_F(Cpu, BuiltinKernelIsFoundByText) {
  std::string names = PORTA_CPU_BUILTIN_NAMES;
  if (names.find("cpu_selftest_scale") == std::string::npos) GTEST_SKIP() << "no built-in self-test kernels";
  Desc desc(builtin_text("cpu_selftest_scale"), "cpu_selftest_scale", "builtin", 64, 2, 8);
  // A compiler that cannot run proves the built-in path.
  NoCompiler no_compiler;
  TestHost::clear_logs();
  porta_plugin_kernel k = kernel(desc);
  ASSERT_TRUE(k);
  EXPECT_TRUE(TestHost::logged("is built in"));
  check_scale(k, 999);
  api().kernel_destroy(k);
}

// The instruction-set levels PORTA_CPU_ISA may ask for, and whether the
// built-in variant of each is the one a kernel gets: the build has it and
// this processor runs it.
struct IsaLevel {
  const char* name;
  bool expected;
};
// Whether the processor has every one of `flags`, as the kernel reports them
// in /proc/cpuinfo: found apart from builtin.cpp's own CPUID query.
bool cpu_has_flags(std::initializer_list<const char*> flags) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, 5, "flags") != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> present{std::istream_iterator<std::string>(words),
                                  std::istream_iterator<std::string>()};
    for (const char* flag : flags)
      if (!present.count(flag)) return false;
    return true;
  }
  return false;
}

std::vector<IsaLevel> isa_levels() {
#if defined(__x86_64__)
  // The features of each level that builtin.cpp asks for.
  const bool host_v3 = cpu_has_flags({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma"});
  const bool host_v4 = host_v3 && cpu_has_flags({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"});
#else
  const bool host_v3 = false, host_v4 = false;
#endif
  const std::string built = PORTA_CPU_ISA_LEVELS;  // "v3,v4" where the compiler had them
  return {{"baseline", true},
          {"x86-64-v3", host_v3 && built.find("v3") != std::string::npos},
          {"x86-64-v4", host_v4 && built.find("v4") != std::string::npos}};
}

// Runs the built-in kernel `name` once per level with PORTA_CPU_ISA set,
// checks the variant it got, and returns what `run` read back each time.
template <class Run>
std::vector<std::vector<float>> run_each_isa_level(porta_plugin_device device, Desc& desc,
                                                   const std::string& name, Run run) {
  std::vector<std::vector<float>> results;
  for (const IsaLevel& level : isa_levels()) {
    SCOPED_TRACE(level.name);
    setenv("PORTA_CPU_ISA", level.name, 1);
    TestHost::clear_logs();
    porta_plugin_kernel kern = nullptr;
    const porta_status status = api().kernel_create(device, &desc.d, &kern);
    unsetenv("PORTA_CPU_ISA");
    EXPECT_EQ(status, PORTA_SUCCESS) << TestHost::last_error();
    if (!kern) return {};
    const std::string variant = "(" + name + ", " + level.name + " variant)";
    EXPECT_EQ(TestHost::logged(variant), level.expected) << variant;
    results.push_back(run(kern));
    api().kernel_destroy(kern);
  }
  return results;
}

// Built-in kernels give the same bits whichever instruction-set variant runs
// them (-ffp-contract=off, and fma() rounded once everywhere): matmul.comp
// (256 items of 8 x 8) with M, N, K not multiples of its 128 x 128 block, and
// matmul_cpu.comp (vectorised at each level's full width), both also checked
// against a float64 sum; logreg_partial.comp in MODE 2, whose sums spirv-opt
// fuses into fma().
TEST_F(Cpu, BuiltinIsaVariantsAgreeBitForBit) {
  std::string names = PORTA_CPU_BUILTIN_NAMES;
  if (names.find("matmul") == std::string::npos || names.find("logreg_partial") == std::string::npos)
    GTEST_SKIP() << "matmul or logreg_partial is not built in";
  auto values = [](uint32_t count, uint32_t prime, uint32_t mod, float scale, float shift) {
    std::vector<float> v(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = static_cast<float>((i * prime) % mod) / scale - shift;
    return v;
  };
  auto upload = [&](const std::vector<float>& v) {
    porta_plugin_buffer b = buffer(v.size() * 4);
    EXPECT_EQ(api().stream_write(stream, b, 0, v.data(), v.size() * 4), PORTA_SUCCESS);
    return b;
  };
  auto dispatch_and_read = [&](porta_plugin_kernel kern, const uint32_t* groups, porta_plugin_buffer* args,
                               uint32_t count, const void* push, uint32_t push_size, porta_plugin_buffer out,
                               uint32_t out_floats) {
    std::vector<float> result(out_floats, -7.0f);
    EXPECT_EQ(api().stream_write(stream, out, 0, result.data(), out_floats * 4), PORTA_SUCCESS);
    std::vector<porta_plugin_binding> bindings;
    for (uint32_t i = 0; i < count; ++i) bindings.push_back(whole(args[i]));
    EXPECT_EQ(api().stream_dispatch(stream, kern, groups, bindings.data(), count, push, push_size),
              PORTA_SUCCESS)
        << TestHost::last_error();
    EXPECT_EQ(api().stream_read(stream, out, 0, result.data(), out_floats * 4), PORTA_SUCCESS);
    return result;
  };

  // Three variants' C = A B (row-major M x K and K x N): the first within a
  // float32 sum's error of the float64 sum, the others the same bits.
  auto expect_product = [](const std::vector<std::vector<float>>& results, const std::vector<float>& a,
                           const std::vector<float>& b, uint32_t m, uint32_t n, uint32_t k) {
    ASSERT_EQ(results.size(), 3u);
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        double sum = 0, magnitude = 0;
        for (uint32_t q = 0; q < k; ++q) {
          sum += double(a[i * k + q]) * b[q * n + j];
          magnitude += std::fabs(double(a[i * k + q]) * b[q * n + j]);
        }
        ASSERT_NEAR(results[0][i * n + j], sum, 1e-6 * k * magnitude + 1e-30) << i << ", " << j;
      }
    for (size_t v = 1; v < results.size(); ++v)
      EXPECT_EQ(0, std::memcmp(results[0].data(), results[v].data(), m * n * 4)) << "variant " << v;
  };

  // A and B read, C written, and a fourth buffer (matmul's bias, matmul_cpu's
  // packed panels) with `fourth` access.
  auto matmul_access = [](uint32_t fourth) {
    return std::array<porta_kernel_buffer_desc, 4>{
        {{0, 0, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
         {0, 1, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
         {0, 2, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ_WRITE},
         {0, 3, 0, PORTA_BUFFER_KIND_STORAGE, fourth}}};
  };

  {
    SCOPED_TRACE("matmul");
    const uint32_t m = 37, n = 70, k = 53;
    const std::vector<float> a = values(m * k, 7919, 101, 37.0f, 1.3f),
                             b = values(k * n, 104729, 89, 23.0f, 1.9f);
    porta_plugin_buffer ba = upload(a), bb = upload(b), bc = buffer(m * n * 4);
    // One matrix, no bias (the fourth buffer, the bias, is A again, unread).
    struct {
      uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
      float alpha, beta;
      uint32_t a_batch, b_batch, c_batch, row_groups, bias_offset;
    } push{m, n, k, k, n, n, 0, 0, 0, 0, 0, 1.0f, 0.0f, 0, 0, 0, (m + 127) / 128, 0};
    const auto access = matmul_access(PORTA_ACCESS_READ);
    // matmul.comp's defaults: 16 x 16 items of 8 x 8 elements, 128 x 128 blocks,
    // two shared stages.
    Desc desc(builtin_text("matmul"), "matmul", "isa-variants", 16, 4, sizeof push);
    desc.d.workgroup_size[1] = 16;
    desc.d.buffers = access.data();
    desc.d.shared_memory_bytes = 32768;
    const uint32_t groups[3] = {(n + 127) / 128, (m + 127) / 128, 1};
    porta_plugin_buffer args[4] = {ba, bb, bc, ba};
    auto results = run_each_isa_level(device, desc, "matmul", [&](porta_plugin_kernel kern) {
      return dispatch_and_read(kern, groups, args, 4, &push, sizeof push, bc, m * n);
    });
    expect_product(results, a, b, m, n, k);
  }
  if (names.find("matmul_cpu") != std::string::npos) {
    // matmul_cpu.comp (8 x 32 blocks of 512-bit sums on x86-64-v4): op(A) and
    // op(B) packed, then multiplied in two 256-deep slices of K, the second
    // shallower than the loop's eight depths per step.
    SCOPED_TRACE("matmul_cpu");
    const uint32_t m = 37, n = 70, k = 300, rows = 8, columns = 32;
    const uint32_t row_panels = (m + rows - 1) / rows, column_panels = (n + columns - 1) / columns;
    const std::vector<float> a = values(m * k, 7919, 101, 37.0f, 1.3f),
                             b = values(k * n, 104729, 89, 23.0f, 1.9f);
    porta_plugin_buffer ba = upload(a), bb = upload(b), bc = buffer(m * n * 4),
                        bp = buffer((row_panels * rows + column_panels * columns) * k * 4);
    struct {
      uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
      float alpha, beta;
      uint32_t mode, row_panels, packed_b;
    } push{m, n, k, k, n, n, 0, 0, 0, 0, 0, 1.0f, 0.0f, 0, row_panels, row_panels * rows * k};
    const auto access = matmul_access(PORTA_ACCESS_READ_WRITE);
    Desc desc(builtin_text("matmul_cpu"), "matmul_cpu", "isa-variants", 1, 4, sizeof push);
    desc.d.buffers = access.data();
    desc.d.shared_memory_bytes = 32768;
    porta_plugin_buffer args[4] = {ba, bb, bc, bp};
    auto results = run_each_isa_level(device, desc, "matmul_cpu", [&](porta_plugin_kernel kern) {
      const uint32_t depth_groups = (k + 63) / 64;
      const uint32_t pack_a[3] = {depth_groups, row_panels, 1}, pack_b[3] = {depth_groups, column_panels, 1},
                     multiply[3] = {(row_panels + 15) / 16, column_panels, 1};
      for (uint32_t mode : {0u, 1u}) {
        push.mode = mode;
        std::vector<porta_plugin_binding> bindings;
        for (porta_plugin_buffer arg : args) bindings.push_back(whole(arg));
        EXPECT_EQ(api().stream_dispatch(stream, kern, mode == 0 ? pack_a : pack_b, bindings.data(), 4, &push,
                                        sizeof push),
                  PORTA_SUCCESS)
            << TestHost::last_error();
      }
      push.mode = 2;
      return dispatch_and_read(kern, multiply, args, 4, &push, sizeof push, bc, m * n);
    });
    expect_product(results, a, b, m, n, k);
  }
  {
    SCOPED_TRACE("logreg_partial");
    const uint32_t m = 301, d = 37, rows_per_group = 16, groups_x = (m + rows_per_group - 1) / rows_per_group;
    porta_plugin_buffer bx = upload(values(m * d, 7919, 97, 29.0f, 1.6f)),
                        by = upload(values(m, 3, 2, 1.0f, 0.0f)), bw = upload(values(d, 31, 13, 11.0f, 0.5f)),
                        bb = upload({0.25f}), bp = buffer(groups_x * (d + 2) * 4);
    struct {
      uint32_t m, d, x_offset, ldx, y_offset, w_offset, b_offset, rows_per_tile, lanes, tiles_per_group,
          partials_offset;
    } push{m, d, 0, d, 0, 0, 0, 1, 1, rows_per_group, 0};
    static const porta_kernel_buffer_desc access[5] = {
        {0, 0, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
        {0, 1, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
        {0, 2, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
        {0, 3, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ},
        {0, 4, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ_WRITE}};
    Desc desc(builtin_text("logreg_partial"), "logreg_partial", "isa-variants", 1, 5, sizeof push);
    desc.d.buffers = access;
    desc.d.shared_memory_bytes = 13 * 1024;
    const uint32_t groups[3] = {groups_x, 1, 1};
    porta_plugin_buffer args[5] = {bx, by, bw, bb, bp};
    auto results = run_each_isa_level(device, desc, "logreg_partial", [&](porta_plugin_kernel kern) {
      return dispatch_and_read(kern, groups, args, 5, &push, sizeof push, bp, groups_x * (d + 2));
    });
    ASSERT_EQ(results.size(), 3u);
    for (float v : results[0]) ASSERT_TRUE(std::isfinite(v));
    for (size_t v = 1; v < results.size(); ++v)
      EXPECT_EQ(0, std::memcmp(results[0].data(), results[v].data(), results[0].size() * 4))
          << "variant " << v;
  }
}

// PORTA_CPU_ISA with a value that names no level fails kernel creation and
// says what it expected.
TEST_F(Cpu, UnknownIsaLevelIsRefused) {
  std::string names = PORTA_CPU_BUILTIN_NAMES;
  if (names.find("cpu_selftest_scale") == std::string::npos) GTEST_SKIP() << "no built-in self-test kernels";
  setenv("PORTA_CPU_ISA", "avx9000", 1);
  Desc desc(builtin_text("cpu_selftest_scale"), "cpu_selftest_scale", "builtin", 64, 2, 8);
  porta_plugin_kernel k = nullptr;
  const porta_status status = api().kernel_create(device, &desc.d, &k);
  unsetenv("PORTA_CPU_ISA");
  EXPECT_EQ(status, PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(k, nullptr);
  EXPECT_NE(
      TestHost::last_error().find("PORTA_CPU_ISA is 'avx9000'; expected baseline, x86-64-v3 or x86-64-v4"),
      std::string::npos)
      << TestHost::last_error();
}

}  // namespace
}  // namespace porta::test
