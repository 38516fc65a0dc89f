// Kernels that must be refused at creation with a message that says why, and
// the kernel cache surviving a corrupt entry.
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "test_support.hpp"

namespace {

using porta::test::open_under_test;

void expect_kernel_error(const porta::Device& dev, const porta::KernelSource& src, porta_status want,
                         const std::string& needle, std::initializer_list<porta::SpecConstant> specs = {}) {
  try {
    dev.kernel(src, specs);
    ADD_FAILURE() << "kernel accepted; expected " << porta_status_name(want);
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), want) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

TEST(KernelErrors, GlslSyntaxErrorNamesTheLine) {
  auto dev = open_under_test();
  const char* src =
      "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  float x = 1.0\n  x += 2.0;\n}\n";
  expect_kernel_error(dev, porta::glsl(src, "broken.comp"), PORTA_ERROR_INVALID_KERNEL, "broken.comp:5");
}

TEST(KernelErrors, InvalidSpirv) {
  auto dev = open_under_test();
  expect_kernel_error(dev, porta::spirv({}, "empty"), PORTA_ERROR_INVALID_KERNEL, "empty");
  expect_kernel_error(dev, porta::spirv({0xdeadbeef, 1, 2, 3, 4, 5}, "garbage"), PORTA_ERROR_INVALID_KERNEL,
                      "garbage");
  // A real module with one word corrupted in the middle.
  std::vector<uint32_t> words;
  {
    std::ifstream in(porta::test::spirv_path("scale.spv"), std::ios::binary);
    uint32_t w;
    while (in.read(reinterpret_cast<char*>(&w), 4)) words.push_back(w);
  }
  ASSERT_GT(words.size(), 40u);
  words[words.size() / 2] = 0xFFFFFFFFu;
  expect_kernel_error(dev, porta::spirv(words, "corrupt.spv"), PORTA_ERROR_INVALID_KERNEL, "corrupt.spv");
}

TEST(KernelErrors, UnknownSpecConstantId) {
  auto dev = open_under_test();
  const char* src = R"(#version 450
layout(local_size_x = 1) in;
layout(constant_id = 3) const float m = 1.0;
layout(binding = 0) buffer D { float v[]; };
void main() { v[0] = m; })";
  expect_kernel_error(dev, porta::glsl(src, "spec"), PORTA_ERROR_INVALID_ARGUMENT,
                      "no specialization constant with id 9", {{9, 1.0f}});
}

// A spec constant's value must fit its declared type: a 64-bit constant takes a
// 64-bit value (a 32-bit one could mean either sign), a narrow one what fits.
TEST(KernelErrors, SpecConstantValueOfTheWrongWidth) {
  auto dev = open_under_test();
  const char* src = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const int64_t BIG = 1l;
layout(constant_id = 1) const int8_t SMALL = int8_t(1);
layout(binding = 0) buffer D { int64_t v[]; };
void main() { int8_t s = SMALL; v[0] = BIG + int64_t(s); })";
  expect_kernel_error(dev, porta::glsl(src, "spec64"), PORTA_ERROR_INVALID_ARGUMENT,
                      "specialization constant 0 (BIG, int64_t) is 64 bits wide: give its value as a "
                      "porta_spec_constant64",
                      {{0, -5}});
  expect_kernel_error(dev, porta::glsl(src, "spec8"), PORTA_ERROR_INVALID_ARGUMENT,
                      "specialization constant 1 (SMALL, int8_t): the value 0x12c does not fit the type",
                      {{1, 300}});
  // -1 as an int8_t: its own bits, or sign-extended, in 32 or 64 bits.
  for (const porta::SpecConstant& ok :
       {porta::SpecConstant(1, 0xffu), porta::SpecConstant(1, -1), porta::SpecConstant(1, int64_t(-1))})
    EXPECT_NO_THROW(dev.kernel(porta::glsl(src, "spec8"), {{0, int64_t(-5000000000)}, ok}));
}

TEST(KernelErrors, WorkgroupLargerThanTheDeviceAllows) {
  auto dev = open_under_test();
  const char* src = R"(#version 450
layout(local_size_x_id = 0) in;
layout(binding = 0) buffer D { float v[]; };
void main() { v[gl_GlobalInvocationID.x] = 1.0; })";
  uint32_t too_many = dev.info().limits.max_workgroup_invocations + 1;
  expect_kernel_error(dev, porta::glsl(src, "wide"), PORTA_ERROR_UNSUPPORTED, "allows at most",
                      {{0, too_many}});
}

TEST(KernelErrors, SharedMemoryLargerThanTheDeviceAllows) {
  auto dev = open_under_test();
  uint32_t floats = dev.info().limits.max_shared_memory_bytes / 4 + 1024;
  std::string src =
      "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer D { float v[]; };\n"
      "shared float big[" +
      std::to_string(floats) +
      "];\n"
      "void main() { big[gl_LocalInvocationID.x] = 1.0; barrier(); v[0] = big[0]; }\n";
  expect_kernel_error(dev, porta::glsl(src, "hungry"), PORTA_ERROR_UNSUPPORTED, "shared memory");
}

// The core refuses a kernel that needs a feature the device lacks, naming the
// feature as porta's feature table spells it.
TEST(KernelErrors, MissingFeatureIsRefusedByName) {
  EXPECT_STREQ(porta_feature_name(PORTA_FEATURE_FP16), "fp16");
  EXPECT_EQ(porta_feature_name(PORTA_FEATURE_FP16 | PORTA_FEATURE_FP64), nullptr);
  EXPECT_EQ(porta_feature_name(0), nullptr);
  auto dev = open_under_test();
  const struct {
    uint64_t bit;
    const char* source;
  } cases[] = {
      {PORTA_FEATURE_FP64, R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { float v[]; };
void main() { double x = double(v[0]); v[0] = float(x * x + 1.0lf / 3.0lf); })"},
      {PORTA_FEATURE_SUBGROUPS, R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { float v[]; };
void main() { v[0] = subgroupAdd(v[0]); })"},
      {PORTA_FEATURE_FP16, R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { float v[]; };
void main() { float16_t h = float16_t(v[0]); v[0] = float(h * h); })"},
      {PORTA_FEATURE_INT8, R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { int v[]; };
void main() { int8_t b = int8_t(v[0]); v[0] = int(b * b); })"},
      {PORTA_FEATURE_STORAGE_16BIT, R"(#version 450
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { float16_t h[]; };
layout(binding = 1) buffer F { float f[]; };
void main() { f[0] = float(h[0]); })"},
  };
  int refused = 0;
  for (const auto& c : cases) {
    if (dev.info().features & c.bit) continue;
    expect_kernel_error(dev, porta::glsl(c.source, "needy"), PORTA_ERROR_UNSUPPORTED,
                        std::string("needs ") + porta_feature_name(c.bit));
    ++refused;
  }
  if (refused == 0) GTEST_SKIP() << dev.name() << " has every feature tried";
}

// How run_child starts the child.
struct Child {
  std::string stderr_path;  // where its standard error goes; empty: inherited
  bool small_disk = false;  // the cache folder on its own 8 KiB tmpfs: a disk that fills up
};

// run_child's exit status when the child cannot mount its small disk.
constexpr int kNoMount = 124;

// Runs this test binary again with `filter` and a cache dir, in a fresh process
// (a process keeps kernels it built in memory).
pid_t spawn_child(const std::string& filter, const std::string& cache, const Child& how = {}) {
  pid_t pid = fork();
  if (pid == 0) {
    setenv("PORTA_CACHE_DIR", cache.c_str(), 1);
    setenv("PORTA_CACHE_CHILD", "1", 1);
    if (!how.stderr_path.empty()) {
      const int fd = open(how.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || dup2(fd, 2) < 0) _exit(126);
    }
    if (how.small_disk) {
      // A mount of its own (needs CAP_SYS_ADMIN), private to the child.
      std::filesystem::create_directories(cache);
      if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
          mount("tmpfs", cache.c_str(), "tmpfs", 0, "size=8k") != 0)
        _exit(kNoMount);
    }
    std::string arg = "--gtest_filter=" + filter;
    execl("/proc/self/exe", "child", arg.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

int wait_child(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int run_child(const std::string& filter, const std::string& cache, const Child& how = {}) {
  return wait_child(spawn_child(filter, cache, how));
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(KernelCache, ChildBuildsAndRuns) {
  if (!std::getenv("PORTA_CACHE_CHILD")) GTEST_SKIP() << "runs only as the child of the KernelCache tests";
  auto dev = open_under_test();
  // Two kernels: a cache that fails at the first store is asked again.
  for (uint32_t m : {3u, 5u}) {
    const std::string src = R"(#version 450
layout(local_size_x = 4) in;
layout(constant_id = 0) const uint M = 1u;
layout(binding = 0) buffer D { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * M + 1u; })";
    auto k = dev.kernel(porta::glsl(src, "cache-probe-" + std::to_string(m)), {{0, m}});
    const std::vector<uint32_t> r = porta::test::run_on_one_buffer(dev, k, {4}, 16);
    for (uint32_t i = 0; i < 16; ++i) ASSERT_EQ(r[i], i * m + 1);
  }
}

// Builds the probe kernel into a fresh cache in a child process, damages
// every entry the backend wrote, then runs the child twice more: the damaged
// entries must be rebuilt (and the process survive), then used.
void expect_damage_rebuilt(const std::function<void(const std::filesystem::path&)>& damage) {
  std::string cache =
      std::filesystem::temp_directory_path() / ("porta-cache-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(cache);
  ASSERT_EQ(run_child("KernelCache.ChildBuildsAndRuns", cache), 0) << "first build";
  size_t damaged = 0;
  for (const auto& e : std::filesystem::directory_iterator(cache)) {
    if (!e.is_regular_file()) continue;
    damage(e.path());
    ++damaged;
  }
  std::printf("damaged %zu cache entr%s\n", damaged, damaged == 1 ? "y" : "ies");
  EXPECT_EQ(run_child("KernelCache.ChildBuildsAndRuns", cache), 0) << "rebuild after the damage";
  EXPECT_EQ(run_child("KernelCache.ChildBuildsAndRuns", cache), 0) << "run from the rebuilt cache";
  std::filesystem::remove_all(cache);
}

TEST(KernelCache, CorruptEntryIsRebuilt) {
  if (std::getenv("PORTA_CACHE_CHILD")) GTEST_SKIP() << "parent only";
  expect_damage_rebuilt([](const std::filesystem::path& entry) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << "this is not a kernel";
  });
}

// Eight processes building the same kernels into one empty cache at once,
// then eight loading them: every one gets right answers.
TEST(KernelCache, EightProcessesShareOneCache) {
  if (std::getenv("PORTA_CACHE_CHILD")) GTEST_SKIP() << "parent only";
  const std::string cache =
      std::filesystem::temp_directory_path() / ("porta-cache-shared-" + std::to_string(getpid()));
  std::filesystem::remove_all(cache);
  for (const char* round : {"building", "loading"}) {
    std::vector<pid_t> children;
    for (int i = 0; i < 8; ++i) children.push_back(spawn_child("KernelCache.ChildBuildsAndRuns", cache));
    for (pid_t child : children) EXPECT_EQ(wait_child(child), 0) << round;
  }
  std::filesystem::remove_all(cache);
}

// A disk that fills up (an 8 KiB tmpfs) and a folder no file can be made in
// (/proc, for root too): the kernels run, and the cache says once that it is
// off.
TEST(KernelCache, UnwritableCacheWarnsOnceAndRuns) {
  if (std::getenv("PORTA_CACHE_CHILD")) GTEST_SKIP() << "parent only";
  const std::string base =
      std::filesystem::temp_directory_path() / ("porta-cache-full-" + std::to_string(getpid()));
  const std::string log = base + ".log";
  std::filesystem::remove_all(base);
  ASSERT_EQ(run_child("KernelCache.ChildBuildsAndRuns", "/proc/porta-cache", {log}), 0) << read_all(log);
  std::string text = read_all(log);
  EXPECT_EQ(count_of(text, "kernel cache off"), 1u) << text;
  const int full = run_child("KernelCache.ChildBuildsAndRuns", base, {log, true});
  std::filesystem::remove_all(base);
  text = read_all(log);
  std::filesystem::remove(log);
  if (full == kNoMount) GTEST_SKIP() << "mounting a small tmpfs for the full-disk case needs CAP_SYS_ADMIN";
  ASSERT_EQ(full, 0) << text;
  EXPECT_LE(count_of(text, "kernel cache off"), 1u) << text;
  EXPECT_EQ(count_of(text, "could not write"), 0u) << text;
}

// Bytes changed inside an entry, its size kept: on the cpu backend the entry
// is a shared library, and int3 (0xcc) bytes in its code would trap.
TEST(KernelCache, ChangedBytesAreRebuilt) {
  if (std::getenv("PORTA_CACHE_CHILD")) GTEST_SKIP() << "parent only";
  expect_damage_rebuilt([](const std::filesystem::path& entry) {
    std::fstream f(entry, std::ios::binary | std::ios::in | std::ios::out);
    const auto size = static_cast<std::streamoff>(std::filesystem::file_size(entry));
    const std::string traps(static_cast<size_t>(std::min<std::streamoff>(size / 2, 4096)), '\xcc');
    f.seekp(size / 4);
    f.write(traps.data(), static_cast<std::streamsize>(traps.size()));
  });
}

}  // namespace
