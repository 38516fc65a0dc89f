// Cooperative matrices (GL_KHR_cooperative_matrix) through the public API on
// the backend under test (PORTA_TEST_BACKEND): the kernels of kernels/,
// compiled to SPIR-V at build time by the build's glslangValidator, checked
// against host references. cpu, OpenCL and CUDA run the translator's lowering
// and must run every kernel; Vulkan runs them natively where the device lists
// the matrix types, and refuses them, naming what it lacks, where not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "porta/quantize.hpp"
#include "support/backend_under_test.hpp"
#include "support/device_test.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<uint32_t> spirv_of(const std::string& kernel) {
  const std::string bytes = read_file(std::string(PORTA_COOPMAT_SPIRV) + "/" + kernel + ".spv");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class CooperativeMatrix : public porta::test::DeviceTest {
 protected:
  bool lowered() const { return porta::test::backend_name_under_test() != "vulkan"; }
  bool supported() const { return (dev.info().features & PORTA_FEATURE_COOPERATIVE_MATRIX) != 0; }

  // The kernel, or null with `reason` where the device refuses it, as only a
  // Vulkan device may: one without cooperative matrices by the feature, one
  // with them by the matrix type it does not list; or where GLSL cannot be
  // compiled here.
  std::unique_ptr<porta::Kernel> kernel_or_refusal(porta::KernelSource source, std::string& reason,
                                                   const std::vector<porta::SpecConstant>& specs = {}) {
    try {
      return std::make_unique<porta::Kernel>(dev.kernel(source, specs));
    } catch (const porta::Error& e) {
      reason = e.what();
      // A tree built here and run elsewhere (the GPU machine's bundle) lacks
      // the build's glslangValidator: GLSL is refused there, SPIR-V runs.
      if (e.status() == PORTA_ERROR_UNSUPPORTED &&
          contains(reason, "GL_KHR_cooperative_matrix needs glslangValidator"))
        return nullptr;
      // An in-place update (load C, multiply-add, store C) cannot be lowered
      // for subgroups of one work-item (OpenCL devices without subgroups).
      if (e.status() == PORTA_ERROR_UNSUPPORTED && dev.info().limits.subgroup_size == 1 &&
          contains(reason, "runs subgroups of one work-item") && contains(reason, "stores them back"))
        return nullptr;
      if (e.status() != PORTA_ERROR_UNSUPPORTED || lowered()) throw;
      EXPECT_TRUE(contains(reason, dev.name())) << reason;
      if (!supported())
        EXPECT_TRUE(contains(reason, "cooperative matrices")) << reason;
      else
        EXPECT_TRUE(contains(reason, "VK_KHR_cooperative_matrix")) << reason;
      return nullptr;
    }
  }

  // A float16_t kernel of kernels/, or null with `reason` where the device
  // has no float16_t or refuses the kernel.
  std::unique_ptr<porta::Kernel> half_kernel(const std::string& name, std::string& reason,
                                             const std::vector<porta::SpecConstant>& specs = {}) {
    const uint64_t half = PORTA_FEATURE_FP16 | PORTA_FEATURE_STORAGE_16BIT;
    if ((dev.info().features & half) != half) {
      reason = dev.name() + " has no float16_t";
      return nullptr;
    }
    return kernel_or_refusal(porta::spirv(spirv_of(name)), reason, specs);
  }

  // C = C0 + alpha * A * B through `kernel` (push constants m, n, k, alpha;
  // dispatched as `groups`) for row-major float16 A (rows x depth) and B
  // (depth x cols) of small integers, exact in float whatever the order of
  // accumulation. in_place: C0 random small integers the kernel adds to; else
  // C starts as NaN and C0 is 0. `what` names the case in failures.
  void check_small_integer_gemm(const porta::Kernel& kernel, porta::Groups groups, uint32_t rows,
                                uint32_t cols, uint32_t depth, uint32_t seed, bool in_place,
                                const std::string& what) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> value(-4, 4);
    std::vector<uint16_t> a(rows * depth), b(depth * cols);
    std::vector<float> c0(rows * cols, 0.0f);
    for (uint16_t& v : a) v = porta::float_to_half(float(value(rng)));
    for (uint16_t& v : b) v = porta::float_to_half(float(value(rng)));
    if (in_place)
      for (float& v : c0) v = float(value(rng));
    porta::Buffer da = dev.upload(a), db = dev.upload(b);
    porta::Buffer dc = dev.upload(in_place ? c0 : std::vector<float>(rows * cols, NAN));
    struct {
      uint32_t m, n, k;
      float alpha;
    } params{rows, cols, depth, alpha};
    stream.dispatch(kernel, groups, {da, db, dc}, params);
    const std::vector<float> c = read<float>(dc, rows * cols);
    for (uint32_t i = 0; i < rows; ++i)
      for (uint32_t j = 0; j < cols; ++j) {
        float sum = 0;
        for (uint32_t l = 0; l < depth; ++l)
          sum += porta::half_to_float(a[i * depth + l]) * porta::half_to_float(b[l * cols + j]);
        ASSERT_EQ(c[i * cols + j], c0[i * cols + j] + alpha * sum) << what << ": C[" << i << "][" << j << "]";
      }
  }

  // gemm_f32's and gemm_f16's sizes (M x K times K x N, row-major) and push
  // constants, and their launch: one subgroup per 16 x 16 tile of C.
  static constexpr uint32_t m = 48, n = 32, k = 64;
  static constexpr float alpha = 0.75f;
  void dispatch_gemm(const porta::Kernel& kernel, std::initializer_list<porta::Buffer> buffers) {
    struct {
      uint32_t m, n, k;
      float alpha;
    } params{m, n, k, alpha};
    stream.dispatch(kernel, {n / 16, m / 16}, buffers, params);
  }

  // C = alpha * A * B with gemm_f32. Small integers: every product and sum is
  // exact in float, so any order of accumulation (and fused or separate
  // multiply-adds) gives these values.
  void check_gemm(porta::KernelSource source) {
    std::string reason;
    auto kernel = kernel_or_refusal(std::move(source), reason);
    if (!kernel) GTEST_SKIP() << reason;
    std::mt19937 rng(19);
    std::uniform_int_distribution<int> value(-8, 8);
    std::vector<float> a(m * k), b(k * n);
    for (float& v : a) v = float(value(rng));
    for (float& v : b) v = float(value(rng));
    porta::Buffer da = dev.upload(a), db = dev.upload(b);
    porta::Buffer dc = dev.upload(std::vector<float>(m * n, NAN));
    dispatch_gemm(*kernel, {da, db, dc});
    const std::vector<float> c = read<float>(dc, m * n);
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        float sum = 0;
        for (uint32_t l = 0; l < k; ++l) sum += a[i * k + l] * b[l * n + j];
        ASSERT_EQ(c[i * n + j], alpha * sum) << "C[" << i << "][" << j << "]";
      }
  }

  // C = alpha * A * B (48 x 64 by 64 x 32) of random 16-bit A and B in
  // [-range, range] (`encode` from float, `decode` to float) with a float
  // accumulator, against a float64 oracle, and H (C converted to the 16-bit
  // type, starting as `nan`) checked by check_h(h, c, exact, bound).
  template <class Encode, class Decode, class CheckH>
  void check_16bit_gemm(const porta::Kernel& kernel, uint32_t seed, float range, uint16_t nan, Encode encode,
                        Decode decode, CheckH check_h) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-range, range);
    std::vector<uint16_t> a(m * k), b(k * n);
    for (uint16_t& v : a) v = encode(value(rng));
    for (uint16_t& v : b) v = encode(value(rng));
    porta::Buffer da = dev.upload(a), db = dev.upload(b);
    porta::Buffer dc = dev.upload(std::vector<float>(m * n, NAN));
    porta::Buffer dh = dev.upload(std::vector<uint16_t>(m * n, nan));
    dispatch_gemm(kernel, {da, db, dc, dh});
    const std::vector<float> c = read<float>(dc, m * n);
    const std::vector<uint16_t> h = read<uint16_t>(dh, m * n);
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        double exact = 0, magnitude = 0;
        for (uint32_t l = 0; l < k; ++l) {
          const double product = double(decode(a[i * k + l])) * double(decode(b[l * n + j]));
          exact += product;
          magnitude += std::fabs(product);
        }
        exact *= alpha;
        // Products of 16-bit floats are exact in float; each of the k float
        // additions in any order is off by at most a unit of the partial
        // sum's last place (half a unit rounded to nearest; tensor cores
        // truncate), at most 2^-23 of the magnitudes' sum, and the scaling
        // rounds once.
        const double bound = alpha * magnitude * k * 0x1p-23 + std::fabs(exact) * 0x1p-24;
        EXPECT_LE(std::fabs(c[i * n + j] - exact), bound)
            << "C[" << i << "][" << j << "]: " << c[i * n + j] << " against " << exact;
        SCOPED_TRACE("H[" + std::to_string(i) + "][" + std::to_string(j) + "]");
        check_h(h[i * n + j], c[i * n + j], exact, bound);
      }
  }

  // C += A * B (16 x 32 by 32 x 16) with int8 A, 8-bit B, signed or not, and
  // int32 C, updated in place.
  void check_int8_multiply_add(const std::string& kernel_name, bool b_signed) {
    const uint64_t int8 = PORTA_FEATURE_INT8 | PORTA_FEATURE_STORAGE_8BIT;
    if ((dev.info().features & int8) != int8) GTEST_SKIP() << dev.name() << " has no 8-bit integers";
    std::string reason;
    auto kernel = kernel_or_refusal(porta::spirv(spirv_of(kernel_name)), reason);
    if (!kernel) GTEST_SKIP() << reason;
    std::mt19937 rng(8);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<int8_t> a(16 * 32);
    std::vector<uint8_t> b(32 * 16);
    std::vector<int32_t> c(16 * 16);
    for (int8_t& v : a) v = static_cast<int8_t>(byte(rng) - 128);
    for (uint8_t& v : b) v = static_cast<uint8_t>(byte(rng));
    for (int32_t& v : c) v = byte(rng) - 128;
    porta::Buffer da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c);
    stream.dispatch(*kernel, {1}, {da, db, dc});
    const std::vector<int32_t> got = read<int32_t>(dc, c.size());
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        int32_t expected = c[i * 16 + j];
        for (int l = 0; l < 32; ++l) {
          const uint8_t bits = b[l * 16 + j];
          expected += int32_t(a[i * 32 + l]) * (b_signed ? int32_t(int8_t(bits)) : int32_t(bits));
        }
        EXPECT_EQ(got[i * 16 + j], expected) << kernel_name << ": C[" << i << "][" << j << "]";
      }
  }
};

TEST_F(CooperativeMatrix, TranslatedBackendsHaveThem) {
  if (!lowered()) GTEST_SKIP() << "Vulkan reports the device's own VK_KHR_cooperative_matrix";
  EXPECT_TRUE(supported()) << dev.name();
}

TEST_F(CooperativeMatrix, GemmF32FromSpirvMatchesTheHostProduct) {
  check_gemm(porta::spirv(spirv_of("gemm_f32")));
}

// The same kernel as GLSL: libporta compiles it with the build's glslangValidator.
TEST_F(CooperativeMatrix, GemmF32FromGlslMatchesTheHostProduct) {
  check_gemm(porta::glsl(read_file(std::string(PORTA_COOPMAT_GLSL) + "/gemm_f32.comp"), "gemm_f32.comp"));
}

TEST_F(CooperativeMatrix, ElementwiseOperationsLayoutsAndIntegerMulAdd) {
  std::string reason;
  auto kernel = kernel_or_refusal(porta::spirv(spirv_of("elementwise")), reason);
  if (!kernel) GTEST_SKIP() << reason;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  std::uniform_int_distribution<int> small(-50, 50);
  std::vector<float> x(256);
  for (float& v : x) v = value(rng);
  std::vector<int32_t> y(16 * 32 + 8 * 32);
  for (int32_t& v : y) v = small(rng);
  const float bias = 1.5f;
  porta::Buffer dx = dev.upload(x), dy = dev.upload(y);
  porta::Buffer dr = dev.upload(std::vector<float>(5 * 256, NAN));
  porta::Buffer ds = dev.upload(std::vector<int32_t>(129, -1));
  stream.dispatch(*kernel, {1}, {dx, dy, dr, ds}, bias);
  const std::vector<float> r = read<float>(dr, 5 * 256);
  const std::vector<int32_t> s = read<int32_t>(ds, 129);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      const float xij = x[i * 16 + j], xji = x[j * 16 + i];
      EXPECT_EQ(r[i * 16 + j], xij + xji) << "a + b at " << i << "," << j;
      EXPECT_EQ(r[256 + j * 16 + i], -xij - xji * 2.0f) << "-a - b * 2 (column-major) at " << i << "," << j;
      EXPECT_EQ(r[512 + i * 16 + j], xij / bias) << "a / bias at " << i << "," << j;
      // GLSL lets a compiler fuse a * a + 1 (spirv-opt does): either rounding.
      const float got = r[768 + i * 16 + j];
      EXPECT_TRUE(got == xij * xij + 1.0f || got == std::fma(xij, xij, 1.0f))
          << "a[i] * a[i] + 1 at " << i << "," << j << ": " << got << " for x = " << xij;
    }
  // ic = A (16 x 32, row-major) * B (32 x 8, stored as B^T row-major) + 3.
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      int32_t expected = 3;
      for (int l = 0; l < 32; ++l) expected += y[i * 32 + l] * y[16 * 32 + j * 32 + l];
      EXPECT_EQ(s[i * 8 + j], expected) << "integer multiply-add at " << i << "," << j;
      EXPECT_EQ(r[1024 + i * 8 + j], float(expected)) << "int to float at " << i << "," << j;
    }
  // How a device spreads a matrix over a subgroup is its own: the length is
  // what one invocation holds, the whole 16 x 8 where porta lowers it.
  if (lowered())
    EXPECT_EQ(s[128], 128);
  else
    EXPECT_GT(s[128], 0);
}

// float16_t A and B, float accumulation (the tensor-core GEMM's types),
// against a float64 oracle: C = alpha * A * B (48 x 64 by 64 x 32) of random
// halves, and C converted to float16_t (H).
TEST_F(CooperativeMatrix, GemmF16WithFloatAccumulatorMatchesTheFloat64Oracle) {
  std::string reason;
  auto kernel = half_kernel("gemm_f16", reason);
  if (!kernel) GTEST_SKIP() << reason;
  check_16bit_gemm(*kernel, 16, 1.0f, 0x7e00, porta::float_to_half, porta::half_to_float,
                   [](uint16_t h, float, double exact, double bound) {
                     // Rounded to half (to nearest: half an ulp, 2^-11 relative; 2^-25 below the normals).
                     const double half_bound = bound + std::fabs(exact) * 0x1p-11 + 0x1p-25;
                     EXPECT_LE(std::fabs(porta::half_to_float(h) - exact), half_bound)
                         << "H: " << porta::half_to_float(h) << " against " << exact;
                   });
}

// gemm_f16_shared: slices staged column-major in shared memory (on CUDA's
// tensor cores, ldmatrix reads them across their rows), accumulators through
// shared memory row-major, a work-group size from a spec constant (2 and 3
// subgroups: the tensor-core lowering takes the value the kernel is created
// with). Small integers: every product and sum is exact.
TEST_F(CooperativeMatrix, GemmF16ThroughSharedMemoryWithSpecSizedGroups) {
  for (uint32_t warps : {2u, 3u}) {
    std::string reason;
    auto kernel = half_kernel("gemm_f16_shared", reason, {{0, 32 * warps}, {1, warps}});
    if (!kernel) GTEST_SKIP() << reason;
    const uint32_t rows = 16 * warps * 2, cols = 32, depth = 48;
    check_small_integer_gemm(*kernel, {cols / 16, rows / (16 * warps)}, rows, cols, depth, warps, false,
                             std::to_string(warps) + " subgroups");
  }
}

// reinterpreted_pointers: float16_t A from a buffer of uvec4 staged in a
// shared uvec4 array, B straight from a buffer of uint words, float C stored
// to a buffer of vec4, each stride in its pointer's elements. The halves are
// uploaded as they lie in memory. Small integers: exact.
TEST_F(CooperativeMatrix, PointersToOtherTypesReadTheMemoryAsComponents) {
  std::string reason;
  auto kernel = half_kernel("reinterpreted_pointers", reason);
  if (!kernel) GTEST_SKIP() << reason;
  check_small_integer_gemm(*kernel, {1, 1}, 64, 64, 64, 5, false, "64 x 64 x 64");
}

// gemm_workgroup: matrices of Workgroup scope, A and B loaded straight from
// their buffers, C updated in place (loaded, alpha * A * B added, stored back),
// in work-groups of 128, 96 and 256 items (the size and the block's shape are
// spec constants): 64 x 32 blocks 16 deep, 64 x 256 blocks 32 deep (wgmma's
// chunks of 64 columns, two slices a product on sm_90) and 128 x 64 in groups
// of 256 (two warpgroups). Each element of C must take the product once: the
// lowering holds a matrix in every item, or spreads it over them, so an item
// storing before another has loaded, or a multiply-add reading an operand
// another item has not stored, would add it twice or wrongly. Small integers:
// every product and sum is exact. A Vulkan device runs the shapes it lists
// (NVIDIA's: groups of 32 to 256 in multiples of 32 rows; not 96 items).
TEST_F(CooperativeMatrix, WorkgroupScopeGemmUpdatesInPlace) {
  struct Shape {
    uint32_t items, bm, bn, bk;
  };
  std::string refused;
  uint32_t ran = 0;
  const Shape shapes[] = {{128, 64, 32, 16}, {96, 64, 32, 16}, {128, 64, 256, 32}, {256, 128, 64, 16}};
  for (const Shape& shape : shapes) {
    std::string reason;
    auto kernel = half_kernel("gemm_workgroup", reason,
                              {{0, shape.items}, {1, shape.bm}, {2, shape.bn}, {3, shape.bk}});
    const std::string name = std::to_string(shape.items) + " items, " + std::to_string(shape.bm) + "x" +
                             std::to_string(shape.bn) + "x" + std::to_string(shape.bk);
    if (!kernel) {
      refused += (refused.empty() ? "" : "; ") + name + ": " + reason;
      continue;
    }
    ++ran;
    const uint32_t rows = 2 * shape.bm, cols = 2 * shape.bn, depth = 3 * shape.bk;
    check_small_integer_gemm(*kernel, {cols / shape.bn, rows / shape.bm}, rows, cols, depth,
                             shape.items + shape.bn, true, name);
  }
  if (!ran) GTEST_SKIP() << refused;
  // The lowering runs every shape.
  if (lowered()) {
    EXPECT_EQ(ran, std::size(shapes)) << refused;
  }
}

// float16_t matrices element by element (scalar multiply, add, indexing up to
// length()), a float16_t-accumulator 32 x 16 x 32 multiply-add (two tensor-core
// tiles each way), a column-major load and store, a conversion to float.
// Integers in [-3, 3]: exact.
TEST_F(CooperativeMatrix, F16ElementwiseAndHalfAccumulator) {
  std::string reason;
  auto kernel = half_kernel("f16_elementwise", reason);
  if (!kernel) GTEST_SKIP() << reason;
  std::mt19937 rng(32);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<double> x(32 * 32);
  std::vector<uint16_t> x_half(x.size());
  for (size_t i = 0; i < x.size(); ++i) x_half[i] = porta::float_to_half(float(x[i] = small(rng)));
  porta::Buffer dx = dev.upload(x_half);
  porta::Buffer dh = dev.upload(std::vector<uint16_t>(2 * 32 * 16, 0x7e00));
  porta::Buffer df = dev.upload(std::vector<float>(32 * 16, NAN));
  porta::Buffer dl = dev.upload(std::vector<uint32_t>(1, 0));
  stream.dispatch(*kernel, {1}, {dx, dh, df, dl});
  const std::vector<uint16_t> h = read<uint16_t>(dh, 2 * 32 * 16);
  const std::vector<float> f = read<float>(df, 32 * 16);
  const uint32_t length = read<uint32_t>(dl, 1)[0];
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 16; ++c) {
      const double y = 1.5 * x[r * 32 + c] * 1.5 * x[r * 32 + c] - 1;
      EXPECT_EQ(porta::half_to_float(h[r * 16 + c]), y) << "y at " << r << "," << c;
      EXPECT_EQ(f[c * 32 + r], y) << "y as float (column-major) at " << r << "," << c;
      double d = y;
      for (int l = 0; l < 32; ++l) d += x[l * 32 + r] * x[l * 32 + c];
      EXPECT_EQ(porta::half_to_float(h[512 + r * 16 + c]), d) << "A B + y at " << r << "," << c;
    }
  // What one invocation holds: the whole matrix where porta lowers it per
  // invocation, a 32nd of it on CUDA's tensor cores, the device's share on Vulkan.
  const bool shares = !lowered() || porta::test::backend_name_under_test() == "cuda";
  EXPECT_TRUE(length == 512 || (shares && length > 0 && 512 % length == 0)) << length;
  // CUDA devices of sm_80 on (where the BF16 bit starts) run these on tensor
  // cores: a lane holds 512 / 32 components.
  if (porta::test::backend_name_under_test() == "cuda" && (dev.info().features & PORTA_FEATURE_BF16)) {
    EXPECT_EQ(length, 512u / 32) << "not on tensor cores";
  }
}

// The shape tensor cores run (16x16x32 int8 -> int32).
TEST_F(CooperativeMatrix, Int8MultiplyAdd) { check_int8_multiply_add("int8_signed_muladd", true); }

// Signed A, unsigned B: each operand's signedness is its own.
TEST_F(CooperativeMatrix, Int8MultiplyAddKeepsEachOperandsSignedness) {
  check_int8_multiply_add("int8_muladd", false);
}

// ---- bfloat16 (SPV_KHR_bfloat16) ----
// kernels/bfloat16's modules: the translated targets lower bfloat16 to its
// bits (on CUDA's tensor cores, mma.sync's bf16 products); Vulkan runs them as
// given where the driver has VK_KHR_shader_bfloat16, and refuses them,
// naming bfloat16, where not.

// The bfloat16 nearest to x, ties to the one whose last bit is 0; by
// distance in double among the neighbours of float(x)'s top half, apart from
// the rounding under test (infinity counts as 2^128). NaN gives 0x7fc0.
uint16_t nearest_bfloat16(double x) {
  if (std::isnan(x)) return 0x7fc0;
  if (std::isinf(x)) return x > 0 ? 0x7f80 : 0xff80;
  const float f = float(x);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  const auto value = [](uint16_t h) {
    if ((h & 0x7fff) == 0x7f80) return std::copysign(std::ldexp(1.0, 128), h & 0x8000 ? -1.0 : 1.0);
    return double(porta::bfloat16_to_float(h));
  };
  uint16_t best = 0;
  double distance = INFINITY;
  for (int step : {-1, 0, 1}) {
    const uint16_t h = uint16_t((u >> 16) + step);
    if ((h & 0x7fff) > 0x7f80 || (((u >> 16) & 0x7fff) == 0 && step < 0)) continue;  // NaNs; below zero
    const double d = std::fabs(value(h) - x);
    if (d < distance || (d == distance && (h & 1) == 0)) best = h, distance = d;
  }
  return best;
}

class BFloat16 : public CooperativeMatrix {
 protected:
  // A kernel of kernels/bfloat16, or null with `reason` where it is not built
  // or Vulkan's device has no bfloat16.
  std::unique_ptr<porta::Kernel> bfloat16_kernel(const std::string& name, std::string& reason) {
    if (!std::ifstream(std::string(PORTA_COOPMAT_SPIRV) + "/" + name + ".spv")) {
      reason = name + ".spv is not built (no spirv-as beside spirv-val; tests/coopmat/CMakeLists.txt)";
      return nullptr;
    }
    if (!(dev.info().features & PORTA_FEATURE_STORAGE_16BIT)) {
      reason = dev.name() + " has no 16-bit storage";
      return nullptr;
    }
    try {
      return std::make_unique<porta::Kernel>(dev.kernel(porta::spirv(spirv_of(name))));
    } catch (const porta::Error& e) {
      reason = e.what();
      if (lowered() || e.status() != PORTA_ERROR_UNSUPPORTED) throw;
      EXPECT_TRUE(contains(reason, "bfloat16") || contains(reason, "cooperative")) << reason;
      return nullptr;
    }
  }
};

TEST_F(BFloat16, ConversionsRoundToNearestEvenAndDotProductsRoundOnce) {
  std::string reason;
  auto kernel = bfloat16_kernel("convert_bf16", reason);
  if (!kernel) GTEST_SKIP() << reason;
  const auto from_bits = [](uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  std::vector<float> x = {
      0.0f,           -0.0f,     1.0f,      -1.5f, 1.0f + 0x1p-8f,         1.0f + 3 * 0x1p-8f,     3.0e38f,
      -3.4028235e38f, INFINITY,  -INFINITY, NAN,   from_bits(0x7f800001u), from_bits(0xffc12345u), 1e-40f,
      -1e-45f,        0x1p-126f, 65504.0f,  1e-3f};
  std::mt19937 rng(1016);
  std::uniform_int_distribution<uint32_t> bits(0, 0xffffu);
  std::uniform_real_distribution<float> exponent(-40.0f, 40.0f);
  while (x.size() < 400) {
    const uint32_t high = bits(rng);
    x.push_back(from_bits(high << 16 | 0x8000u));                // a tie
    x.push_back(from_bits(high << 16 | (bits(rng) & 0xffffu)));  // anything
    x.push_back(std::ldexp(float(bits(rng)) / 65536.0f - 0.5f, int(exponent(rng))));
  }
  const uint32_t n = uint32_t(x.size());
  std::vector<int32_t> in(n);
  std::uniform_int_distribution<int32_t> integer(-(1 << 20), 1 << 20);
  // Ties at 257 + 2g; past 2^24, where rounding through float32 to nearest
  // twice would be off (2^24 + 2^16 + 1), and the ends of int32.
  const int32_t edges[] = {16842753, -16842753, 33685505, 2147483647, -2147483647 - 1, 16777217, 25165825};
  for (uint32_t g = 0; g < n; ++g)
    in[g] = g < 8                      ? int32_t(257 + 2 * g) * (g % 2 ? -1 : 1)
            : g < 8 + std::size(edges) ? edges[g - 8]
                                       : integer(rng);
  porta::Buffer dx = dev.upload(x), di = dev.upload(in);
  porta::Buffer db = dev.upload(std::vector<uint16_t>(n, 0xdead)),
                dy = dev.upload(std::vector<float>(n, 7.0f));
  porta::Buffer dj = dev.upload(std::vector<uint16_t>(n, 0xdead)),
                dd = dev.upload(std::vector<float>(2 * n, 7.0f));
  stream.dispatch(*kernel, {(n + 63) / 64}, {dx, di, db, dy, dj, dd}, n);
  const std::vector<uint16_t> b = read<uint16_t>(db, n), j = read<uint16_t>(dj, n);
  const std::vector<float> y = read<float>(dy, n), d = read<float>(dd, 2 * n);
  const auto subnormal = [](double v) { return v != 0 && std::fabs(v) < 0x1p-126; };
  for (uint32_t g = 0; g < n; ++g) {
    const uint16_t expected = nearest_bfloat16(x[g]);
    // A device may flush subnormal floats (Vulkan, CUDA's -ftz) to zero of the same sign.
    const bool flushed = subnormal(x[g]) && (b[g] & 0x7fff) == 0 && (b[g] >> 15) == std::signbit(x[g]);
    if (std::isnan(x[g]))
      EXPECT_TRUE((b[g] & 0x7f80) == 0x7f80 && (b[g] & 0x7f) != 0) << std::hex << b[g] << " for a NaN";
    else
      EXPECT_TRUE(b[g] == expected || flushed)
          << "bfloat16(" << x[g] << "): " << std::hex << b[g] << " against " << expected;
    const float back = porta::bfloat16_to_float(b[g]);
    if (std::isnan(x[g]))
      EXPECT_TRUE(std::isnan(y[g])) << y[g];
    else
      EXPECT_TRUE(y[g] == back || (subnormal(back) && y[g] == 0))
          << "float(bfloat16(" << x[g] << ")): " << y[g];
    EXPECT_EQ(j[g], nearest_bfloat16(double(in[g]))) << "bfloat16(" << in[g] << ")";
    // dot((x[g], x[next]), (i[g], 3)): exact products, one float addition, one
    // rounding (where no operand or product is subnormal, which a device may flush).
    const float v0 = porta::bfloat16_to_float(expected),
                v1 = porta::bfloat16_to_float(nearest_bfloat16(x[(g + 1) % n]));
    const float w0 = porta::bfloat16_to_float(nearest_bfloat16(double(in[g])));
    const float sum = float(double(v0) * w0) + float(double(v1) * 3);
    if (std::isfinite(sum) && std::fabs(sum) < 1e30f && !subnormal(v0) && !subnormal(v1) &&
        !subnormal(double(v0) * w0) && !subnormal(double(v1) * 3) && !subnormal(sum)) {
      EXPECT_EQ(d[2 * g], porta::bfloat16_to_float(nearest_bfloat16(sum)))
          << "dot at " << g << ": " << v0 << " * " << w0 << " + " << v1 << " * 3";
    }
    if (std::isfinite(back) && std::fabs(back) < 0x1p30f) {
      EXPECT_EQ(d[2 * g + 1], std::trunc(back)) << "int(bfloat16(" << x[g] << "))";
    }
  }
}

// float64 to bfloat16 where rounding through float32 to nearest would round
// twice: 1 + 2^-8 + 2^-30 is above the tie its float32 lands on.
TEST_F(BFloat16, Float64RoundsOnce) {
  if (!(dev.info().features & PORTA_FEATURE_FP64)) GTEST_SKIP() << dev.name() << " has no float64";
  std::string reason;
  auto kernel = bfloat16_kernel("convert_f64_bf16", reason);
  if (!kernel) GTEST_SKIP() << reason;
  std::vector<double> x = {1 + 0x1p-8 + 0x1p-30,
                           -(1 + 0x1p-8 + 0x1p-30),
                           1 + 0x1p-8,
                           1 + 3 * 0x1p-8 - 0x1p-40,
                           3.4e38,
                           1e300,
                           -1e300,
                           1e-300,
                           -1e-300,
                           0.0,
                           1e-39,
                           NAN,
                           INFINITY};
  std::mt19937_64 rng(64);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-130, 130);
  while (x.size() < 256) x.push_back(std::ldexp(value(rng), exponent(rng)));
  const uint32_t n = uint32_t(x.size());
  porta::Buffer dx = dev.upload(x), db = dev.upload(std::vector<uint16_t>(n, 0xdead));
  stream.dispatch(*kernel, {(n + 63) / 64}, {dx, db}, n);
  const std::vector<uint16_t> b = read<uint16_t>(db, n);
  for (uint32_t g = 0; g < n; ++g) {
    if (std::isnan(x[g])) {
      EXPECT_TRUE((b[g] & 0x7f80) == 0x7f80 && (b[g] & 0x7f) != 0) << std::hex << b[g] << " for a NaN";
      continue;
    }
    // A device may flush subnormal results to zero of the same sign.
    const bool flushed =
        std::fabs(x[g]) < 0x1p-126 && (b[g] & 0x7fff) == 0 && (b[g] >> 15) == std::signbit(x[g]);
    EXPECT_TRUE(b[g] == nearest_bfloat16(x[g]) || flushed)
        << "bfloat16(" << x[g] << "): " << std::hex << b[g] << " against " << nearest_bfloat16(x[g]);
  }
}

// gemm_f16's product with bfloat16 A and B into float32, and the result
// rounded to bfloat16, against a float64 oracle.
TEST_F(BFloat16, GemmWithFloatAccumulatorMatchesTheFloat64Oracle) {
  std::string reason;
  auto kernel = bfloat16_kernel("gemm_bf16", reason);
  if (!kernel) GTEST_SKIP() << reason;
  check_16bit_gemm(*kernel, 1617, 4.0f, 0x7fc0, porta::float_to_bfloat16, porta::bfloat16_to_float,
                   [](uint16_t h, float c, double, double) {
                     // C rounded to bfloat16, to nearest even.
                     EXPECT_EQ(h, nearest_bfloat16(c))
                         << "H: " << porta::bfloat16_to_float(h) << " for " << c;
                   });
}

// What porta does not lower is refused by name, with the file and line, on
// every backend (the lowering also checks what Vulkan gets): a kernel that
// loads a matrix of `scope` from a buffer of `element`s and stores it back.
void expect_refused(porta::Device& dev, const std::string& name, const std::string& element,
                    const std::string& scope, const std::string& expected) {
  const std::string source = R"(#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 32) in;
layout(binding = 0) buffer B { )" +
                             element + R"( b[]; };
void main() {
  coopmat<float, )" + scope + R"(, 16, 16, gl_MatrixUseAccumulator> m;
  coopMatLoad(m, b, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatStore(m, b, 256, 16, gl_CooperativeMatrixLayoutRowMajor);
}
)";
  try {
    dev.kernel(porta::glsl(source, name));
    ADD_FAILURE() << name << " was accepted";
  } catch (const porta::Error& e) {
    if (contains(e.what(), "GL_KHR_cooperative_matrix needs glslangValidator")) GTEST_SKIP() << e.what();
    EXPECT_EQ(e.status(), PORTA_ERROR_UNSUPPORTED) << e.what();
    EXPECT_TRUE(contains(e.what(), expected)) << e.what();
  }
}

TEST_F(CooperativeMatrix, UnloweredScopeIsRefusedByName) {
  expect_refused(dev, "device_scope.comp", "float", "gl_ScopeDevice",
                 "cooperative matrix: matrices of scope 1 (Subgroup, 3, and Workgroup, 2, are lowered) "
                 "(OpTypeCooperativeMatrixKHR)");
}

// Pointers to scalars and vectors of other types are lowered where each
// component lies in one scalar of up to 32 bits; float components in
// doubles are refused where they are loaded.
TEST_F(CooperativeMatrix, UnloweredPointerIsRefusedAtItsLine) {
  expect_refused(dev, "double_pointer.comp", "double", "gl_ScopeSubgroup",
                 "cooperative matrix: a pointer to float64 for a matrix of float32 components (components "
                 "are read from numbers as wide as they are, or from words of up to 32 bits) "
                 "(OpCooperativeMatrixLoadKHR at double_pointer.comp:8)");
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
