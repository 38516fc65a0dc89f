// Kernels built from GLSL the way libporta builds them for the plugin, and
// dispatched with buffers, push constants and specialization constants, in
// 1-D, 2-D and 3-D grids, with shared memory, barriers and atomics.
#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <random>
#include <thread>

#include "cts.hpp"
#include "porta_translator/translator.hpp"

namespace porta::test {
namespace {

namespace k = kernels;

class KernelTest : public Cts {
 protected:
  // Runs `kern`, which adds every element of its first buffer (n of them, the
  // push constant) atomically into the one word of its second, over `x`, in
  // groups of 64; returns that word.
  template <class T>
  T atomic_sum(porta_plugin_kernel kern, const std::vector<T>& x) {
    const uint32_t n = static_cast<uint32_t>(x.size());
    porta_plugin_buffer bx = buffer(n * 4), total = buffer(4);
    write(bx, x.data(), n * 4);
    EXPECT_EQ(api().stream_fill(stream, total, 0, 4, 0), PORTA_SUCCESS) << error();
    dispatch(kern, (n + 63) / 64, {bx, total}, n);
    T sum = 0;
    read(total, &sum, 4);
    sync();
    return sum;
  }
};

PORTA_CTS_SUITE_OF(Kernels, KernelTest);

TEST_P(Kernels, BuffersPushAndSpecConstants) {
  const uint32_t n = 1000;  // not a multiple of the work-group size: the bounds check matters
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1000.0f - static_cast<float>(i);
  }
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4), bo = buffer(n * 4);
  write(bx, x.data(), n * 4);
  write(by, y.data(), n * 4);
  struct {
    uint32_t n;
    float a;
  } push{n, 2.0f};
  // Two value sets of the spec constants: two kernels from one source.
  for (auto [workgroup, bias] : {std::pair{32u, 0.5f}, std::pair{64u, -3.0f}}) {
    SCOPED_TRACE("work-group " + std::to_string(workgroup));
    auto saxpy = glsl(k::kSaxpy, "saxpy", {{0, workgroup}, {1, std::bit_cast<uint32_t>(bias)}});
    EXPECT_EQ(saxpy->desc().workgroup_size[0], workgroup);
    porta_plugin_kernel kern = kernel(*saxpy);
    ASSERT_NE(kern, nullptr);
    std::vector<float> out(n, -1.0f);
    dispatch(kern, (n + workgroup - 1) / workgroup, {bx, by, bo}, push);
    read(bo, out.data(), n * 4);
    sync();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0f * x[i] + y[i] + bias) << i;
  }
}

TEST_P(Kernels, PushConstantsOfMixedTypes) {
  const uint32_t n = 1000;
  porta_plugin_kernel kern = kernel(*glsl(k::kMixedPush, "mixed_push"));
  ASSERT_NE(kern, nullptr);
  std::vector<float> x(n), y(n), out(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i);
  }
  porta_plugin_buffer bx = buffer(n * 4), by = buffer(n * 4);
  write(bx, x.data(), n * 4);
  write(by, y.data(), n * 4);
  struct {
    float a;
    uint32_t n;
    int32_t bias;
  } push{2.0f, n, -3};
  dispatch(kern, (n + 63) / 64, {bx, by}, push);
  read(by, out.data(), n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0f * x[i] + y[i] - 3.0f) << i;
}

TEST_P(Kernels, SharedMemoryAndBarriers) {
  auto reduce = glsl(k::kReduce, "reduce");
  EXPECT_EQ(reduce->desc().shared_memory_bytes, 512u);
  porta_plugin_kernel kern = kernel(*reduce);
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 128 * 500 + 37, groups = (n + 127) / 128;
  std::vector<float> x(n), partial(groups);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
  porta_plugin_buffer bx = buffer(n * 4), bp = buffer(groups * 4);
  write(bx, x.data(), n * 4);
  dispatch(kern, groups, {bx, bp}, n);
  read(bp, partial.data(), groups * 4);
  sync();
  for (uint32_t g = 0; g < groups; ++g) {
    float expected = 0;
    for (uint32_t i = g * 128; i < std::min(n, g * 128 + 128); ++i) expected += x[i];
    ASSERT_EQ(partial[g], expected) << "group " << g;
  }
}

TEST_P(Kernels, TwoDimensionalTilesInSharedMemory) {
  porta_plugin_kernel kern = kernel(*glsl(k::kMatmul, "matmul_tiled"));
  ASSERT_NE(kern, nullptr);
  const uint32_t m = 37, n = 53, kk = 29;
  std::vector<float> a(m * kk), b(kk * n), c(m * n, 1.0f), out(m * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) - 3.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.5f;
  porta_plugin_buffer ba = buffer(a.size() * 4), bb = buffer(b.size() * 4), bc = buffer(c.size() * 4);
  write(ba, a.data(), a.size() * 4);
  write(bb, b.data(), b.size() * 4);
  write(bc, c.data(), c.size() * 4);
  struct {
    uint32_t m, n, k, pad;
    float alpha, beta;
  } push{m, n, kk, 0, 2.0f, 0.5f};
  static_assert(sizeof push == 24);
  dispatch(kern, (n + 15) / 16, (m + 15) / 16, 1, {ba, bb, bc}, &push, sizeof push);
  read(bc, out.data(), out.size() * 4);
  sync();
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      double acc = 0;
      for (uint32_t t = 0; t < kk; ++t) acc += double(a[i * kk + t]) * b[t * n + j];
      // Small integers and halves: every product and partial sum is exact in float.
      ASSERT_EQ(out[i * n + j], static_cast<float>(2.0 * acc + 0.5)) << i << "," << j;
    }
}

TEST_P(Kernels, ThreeDimensionalGridOfThreeDimensionalGroups) {
  porta_plugin_kernel kern = kernel(*glsl(k::kGrid3d, "grid3d"));
  ASSERT_NE(kern, nullptr);
  const uint32_t groups[3] = {3, 2, 5}, local[3] = {4, 2, 2};
  const uint32_t sx = groups[0] * local[0], sy = groups[1] * local[1], sz = groups[2] * local[2];
  const uint32_t items = sx * sy * sz;
  porta_plugin_buffer out = buffer(items * 16);
  ASSERT_EQ(api().stream_fill(stream, out, 0, items * 16, 0xffffffffu), PORTA_SUCCESS) << error();
  dispatch(kern, groups[0], groups[1], groups[2], {out}, nullptr, 0);
  std::vector<uint32_t> got(items * 4);
  read(out, got.data(), items * 16);
  sync();
  const uint32_t grid = groups[0] << 8 | groups[1] << 16 | groups[2] << 24;
  for (uint32_t z = 0; z < sz; ++z)
    for (uint32_t y = 0; y < sy; ++y)
      for (uint32_t x = 0; x < sx; ++x) {
        const uint32_t* o = &got[4 * ((z * sy + y) * sx + x)];
        const uint32_t local_index = ((z % local[2]) * local[1] + y % local[1]) * local[0] + x % local[0];
        ASSERT_EQ(o[0], x);
        ASSERT_EQ(o[1], y);
        ASSERT_EQ(o[2], z);
        ASSERT_EQ(o[3], local_index | grid) << x << "," << y << "," << z;
      }
}

TEST_P(Kernels, IntegerAtomicsAcrossGroups) {
  porta_plugin_kernel kern = kernel(*glsl(k::kAtomicSum, "atomic_sum"));
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 64 * 1000 + 17;
  std::vector<uint32_t> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = i % 13;
  EXPECT_EQ(atomic_sum(kern, x), std::accumulate(x.begin(), x.end(), 0u));
}

TEST_P(Kernels, FloatAtomicsAcrossGroups) {
  if (!has(PORTA_FEATURE_ATOMIC_FLOAT32)) GTEST_SKIP() << "the device has no float atomics";
  std::unique_ptr<GlslKernel> sum_kernel;
  try {
    sum_kernel = glsl(k::kFloatAtomic, "float_atomic");
  } catch (const porta::translator::Error& e) {
    // libporta refuses the kernel the same way, before the plugin sees it.
    GTEST_SKIP() << "the translator refuses float atomics for this plugin's language: " << e.what();
  }
  EXPECT_TRUE(sum_kernel->desc().required_features & PORTA_FEATURE_ATOMIC_FLOAT32);
  porta_plugin_kernel kern = kernel(*sum_kernel);
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 65536 + 17;
  std::vector<float> x(n, 1.0f);
  EXPECT_EQ(atomic_sum(kern, x), static_cast<float>(n));
}

// One description handed to kernel_create from several threads at once (a
// device is shared between threads): every kernel works. A source of this
// process's own, so that the plugin's compiler runs, not its cache.
TEST_P(Kernels, CreatedFromSeveralThreadsAtOnce) {
  const std::vector<std::string> cached_before = TestHost::cache_keys();
  auto increment = glsl(k::kIncrement, "increment");
  if (language() != PORTA_LANGUAGE_SPIRV)
    increment->set_source(increment->source() + "\n// " + std::to_string(std::random_device{}()) + "\n");
  porta_plugin_kernel made[4] = {};
  porta_status status[4];
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { status[t] = api().kernel_create(device, &increment->desc(), &made[t]); });
  for (auto& t : threads) t.join();
  const uint32_t n = 100;
  porta_plugin_buffer b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, b, 0, n * 4, 0), PORTA_SUCCESS) << error();
  for (int t = 0; t < 4; ++t) {
    ASSERT_EQ(status[t], PORTA_SUCCESS) << t;
    dispatch(made[t], 2, {b}, IncrementPush{n, uint32_t(1) << t, 0});
  }
  std::vector<uint32_t> out(n);
  read(b, out.data(), n * 4);
  sync();
  ASSERT_TRUE(every_word_is(out, 15u));
  for (porta_plugin_kernel kern : made) api().kernel_destroy(kern);
  // This process's entries are of no use to another.
  for (const std::string& key : TestHost::cache_keys())
    if (std::find(cached_before.begin(), cached_before.end(), key) == cached_before.end())
      std::filesystem::remove(TestHost::cache_file(key));
}

}  // namespace
}  // namespace porta::test
