// The CUDA translator target: every built-in and test kernel
// (tests/support/test_kernels.hpp) translates to CUDA C++ that NVRTC compiles
// for sm_90 and sm_80 without an error or a warning (no GPU needed), matmul.comp
// with the tilings GPUs get as well, aligned 8- and 16-byte vectors move whole,
// and a translated kernel runs through the plugin on a device where one exists.
#include <cstring>
#include <string>

#include "../common/plugin_support.hpp"
#include "nvrtc.hpp"
#include "plugin_fixture.hpp"
#include "porta_translator/translator.hpp"
#include "support/translate_test_kernel.hpp"

namespace porta::test {
namespace {

namespace tr = porta::translator;

// NVRTC, or nullptr with the reason where the toolkit's library is missing.
const cuda::Nvrtc* nvrtc_or_null(std::string& reason) {
  try {
    return &cuda::Nvrtc::get();
  } catch (const plugin::Failure& f) {
    reason = f.what();
    return nullptr;
  }
}

// What NVRTC says of `source` for sm_90 and sm_80: every error and warning,
// "" when both compile cleanly.
std::string nvrtc_complaints(const cuda::Nvrtc& nvrtc, const std::string& source, const std::string& name) {
  std::string complaints;
  for (int arch : {90, 80}) {
    try {
      const cuda::CompiledModule m = nvrtc.compile(source, name, arch);
      if (!m.log.empty()) complaints += "sm_" + std::to_string(arch) + ", warnings: " + m.log + "\n";
    } catch (const plugin::Failure& f) {
      complaints += "sm_" + std::to_string(arch) + ": " + f.what() + "\n";
    }
  }
  return complaints;
}

std::string cuda_source(const std::string& glsl) {
  return tr::translate(tr::prepare(tr::compile_glsl(glsl, "kernel.comp")), {tr::Target::Cuda, {}}).source;
}

class CudaTranslation : public ::testing::TestWithParam<TestKernel> {};

TEST_P(CudaTranslation, CompilesCleanlyWithNvrtc) {
  const TestKernel& kernel = GetParam();
  const FrontEndResult front = front_end(kernel);
  if (!front.failure.empty()) FAIL() << front.failure;
  if (!front.skip.empty()) GTEST_SKIP() << front.skip;
  tr::Translation t;
  try {
    t = tr::translate(front.spirv, {tr::Target::Cuda, {}});
  } catch (const tr::Error& e) {
    const std::string unexplained = unexplained_refusal(front.spirv, e, {});
    if (!unexplained.empty()) FAIL() << "target cuda " << unexplained;
    GTEST_SKIP() << "refused by target cuda: " << e.what();
  }
  EXPECT_EQ(t.entry_point, "porta_cuda_kernel");
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  EXPECT_EQ(nvrtc_complaints(*nvrtc, t.source, kernel.name), "") << t.source;
  // And as a reporting device runs it (porta/robust.h): every buffer access
  // checked as on a robust device, and each failure recorded.
  tr::TranslateOptions checked{tr::Target::Cuda, {}};
  checked.bounds_checks = true;
  checked.bounds_report = true;
  const tr::Translation robust = tr::translate(front.spirv, checked);
  EXPECT_EQ(nvrtc_complaints(*nvrtc, robust.source, kernel.name), "") << robust.source;
}

INSTANTIATE_TEST_SUITE_P(Kernels, CudaTranslation, ::testing::ValuesIn(all_test_kernels(PORTA_SOURCE_DIR)),
                         [](const ::testing::TestParamInfo<TestKernel>& info) { return info.param.name; });

TEST(CudaTranslationSource, ReadonlyBuffersAloneAreConstRestrict) {
  // mul(a, b, a) runs in place: the written buffer may be an input too, so
  // only the readonly ones may promise that nothing else reaches them.
  const std::string source = cuda_source(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };
layout(binding = 2) buffer Acc { float acc[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = x[i];
  acc[i] += x[i];
}
)");
  EXPECT_NE(source.find("porta_cuda_kernel(const void* __restrict__ b0, void* b1, void* b2, const "
                        "porta_buffer_sizes<3> porta_sizes)"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("explicit In(const void* base, uint64_t size)"), std::string::npos) << source;
  // Scalars only: one work item, no alignment to test.
  EXPECT_EQ(source.find("porta_buffers_aligned"), std::string::npos) << source;
  EXPECT_NE(source.find("porta_work_item(b0, b1, b2, porta_sizes, porta_no_shared).main();"),
            std::string::npos)
      << source;
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  EXPECT_EQ(nvrtc_complaints(*nvrtc, source, "restrict"), "") << source;
}

TEST(CudaTranslationSource, GroupsThatShareMemoryAskForTwoPerMultiprocessor) {
  // Groups of up to 256 items that share memory (and so wait at barriers)
  // are held to registers that let two fit on a multiprocessor; groups
  // without shared memory, and larger ones, are left to the compiler.
  const auto kernel = [](uint32_t items, bool shared) {
    return cuda_source("#version 450\nlayout(local_size_x = " + std::to_string(items) + ") in;\n" +
                       (shared ? "shared float s[1024];\n" : "") +
                       "layout(binding = 0) buffer Data { float v[]; };\n"
                       "void main() {\n"
                       "  uint i = gl_GlobalInvocationID.x;\n" +
                       (shared ? "  s[gl_LocalInvocationID.x] = v[i];\n  barrier();\n"
                                 "  v[i] = s[(gl_LocalInvocationID.x + 1u) % gl_WorkGroupSize.x];\n"
                               : "  v[i] *= 2.0;\n") +
                       "}\n");
  };
  const std::string two_groups = ") <= 256 ? 2 : 1)";
  const std::string shared256 = kernel(256, true), shared1024 = kernel(1024, true), plain = kernel(256, false);
  EXPECT_NE(shared256.find(two_groups), std::string::npos) << shared256;
  EXPECT_NE(shared1024.find(two_groups), std::string::npos) << shared1024;  // the expression gives 1 there
  EXPECT_EQ(plain.find(two_groups), std::string::npos) << plain;
  EXPECT_NE(plain.find("__launch_bounds__("), std::string::npos) << plain;
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  for (const std::string* source : {&shared256, &shared1024, &plain})
    EXPECT_EQ(nvrtc_complaints(*nvrtc, *source, "bounds"), "") << *source;
}

TEST(CudaTranslationSource, UnreadSpecConstantCompilesWithoutAWarning) {
  // The kernel's interface keeps every spec constant it declares; NVRTC must
  // not warn (#177-D) of the one main() never reads.
  const std::string source = cuda_source(R"(#version 450
layout(local_size_x = 32) in;
layout(constant_id = 1) const uint UNREAD = 7;
layout(constant_id = 2) const float GAIN = 3.0;
layout(binding = 0) buffer Data { float v[]; };
void main() { v[gl_GlobalInvocationID.x] *= GAIN; }
)");
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  EXPECT_EQ(nvrtc_complaints(*nvrtc, source, "unread_spec_constant"), "") << source;
}

// kernels/matmul/matmul.cpp specializes matmul.comp for GPUs with constants the test
// above leaves at their defaults: 16 x 16 items of 4 x 4, 4 x 8 and 8 x 8, each
// with every PREFETCH, with and without FMA, and the 8 x 8 tiles other
// backends take. Each must compile as cleanly.
TEST(CudaTranslationSource, MatmulGpuTilingsCompileCleanlyWithNvrtc) {
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  const std::vector<uint32_t> spirv = tr::prepare(
      tr::compile_glsl(read_text(std::string(PORTA_SOURCE_DIR) + "/kernels/matmul/matmul.comp"), "matmul"));
  const uint32_t items[][2] = {{4, 4}, {4, 8}, {8, 8}};              // TM x TN
  const uint32_t schedules[][2] = {{0, 0}, {1, 1}, {2, 0}, {2, 1}};  // PREFETCH, FMA
  for (const auto& [tm, tn] : items)
    for (const auto& [prefetch, fma] : schedules) {
      SCOPED_TRACE("TM " + std::to_string(tm) + " TN " + std::to_string(tn) + " PREFETCH " +
                   std::to_string(prefetch) + " FMA " + std::to_string(fma));
      const tr::Translation t = tr::translate(
          spirv, {tr::Target::Cuda, {{0, 16}, {1, 16}, {2, 16}, {3, tm}, {4, tn}, {5, prefetch}, {6, fma}}});
      EXPECT_EQ(nvrtc_complaints(*nvrtc, t.source, "matmul"), "") << t.source;
    }
  // The large tiles of the other backends: 16 x 8 items, and slices 8 deep.
  for (const auto& [ly, bk] : {std::pair<uint32_t, uint32_t>{8, 16}, {16, 8}}) {
    SCOPED_TRACE("LY " + std::to_string(ly) + " BK " + std::to_string(bk));
    const tr::Translation t =
        tr::translate(spirv, {tr::Target::Cuda, {{0, 16}, {1, ly}, {2, bk}, {3, 8}, {4, 8}, {5, 2}, {6, 1}}});
    EXPECT_EQ(nvrtc_complaints(*nvrtc, t.source, "matmul"), "") << t.source;
  }
  // porta_ops_gemm's constants: 16-byte loads (VEC4 1 and 3), float16 and
  // bfloat16 inputs, the bias and each activation.
  const uint32_t gemm_variants[][4] = {
      {0, 1, 0, 0}, {0, 3, 1, 1}, {1, 0, 1, 2}, {2, 0, 1, 3}};  // INPUT, VEC4, BIAS, ACT
  for (const auto& [input, vec4, bias, act] : gemm_variants) {
    SCOPED_TRACE("INPUT " + std::to_string(input) + " VEC4 " + std::to_string(vec4) + " ACTIVATION " +
                 std::to_string(act));
    const tr::Translation t = tr::translate(spirv, {tr::Target::Cuda,
                                                    {{0, 16},
                                                     {1, 16},
                                                     {2, 16},
                                                     {3, 8},
                                                     {4, 8},
                                                     {5, 2},
                                                     {6, 1},
                                                     {7, input},
                                                     {8, bias},
                                                     {9, act},
                                                     {10, vec4}}});
    EXPECT_EQ(nvrtc_complaints(*nvrtc, t.source, "matmul"), "") << t.source;
  }
}

// porta-translate --readable: matmul unoptimised, its helper functions kept,
// compiles as cleanly.
TEST(CudaTranslationSource, ReadableMatmulCompilesCleanlyWithNvrtc) {
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  const std::vector<uint32_t> spirv = tr::prepare(
      tr::compile_glsl(read_text(std::string(PORTA_SOURCE_DIR) + "/kernels/matmul/matmul.comp"), "matmul"),
      {true, tr::Target::Cuda});
  for (uint32_t prefetch : {0u, 2u}) {
    SCOPED_TRACE("PREFETCH " + std::to_string(prefetch));
    const tr::Translation t = tr::translate(
        spirv, {tr::Target::Cuda, {{0, 16}, {1, 16}, {2, 16}, {3, 8}, {4, 8}, {5, prefetch}, {6, 1}}});
    EXPECT_NE(t.source.find("void multiply_slice_row("), std::string::npos) << t.source;
    EXPECT_EQ(nvrtc_complaints(*nvrtc, t.source, "matmul_readable"), "") << t.source;
  }
}

// Vectors of 16 and 8 bytes move whole (porta_cuda.h's porta_load_wide and
// porta_store_wide) where their place proves them aligned in the buffer's
// layout: buffer arrays of them with that stride, aligned where the buffer's
// start is, which the host tests once to pick the work item's instance
// (porta_cuda_kernel_aligned: no test at any access; porta_cuda_kernel: each
// access tests its buffer's start); shared arrays of them, known aligned. A
// member off its size (scalar layout), a single component and a guarded load
// keep the narrow access.
TEST(CudaTranslationSource, AlignedVectorsMoveWhole) {
  const std::string glsl = R"(#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { uvec4 q[]; };
layout(binding = 1) buffer Out { vec2 pairs[]; };
layout(binding = 2, scalar) buffer Packed { float lead; vec4 off[]; };
layout(binding = 3) buffer Head { vec4 head; uint tail[]; };
shared uvec4 staged[64];
void main() {
  uint i = gl_LocalInvocationIndex;
  staged[i] = q[i];
  barrier();
  uvec4 v = staged[63u - i];
  pairs[i] = vec2(v.xy) + pairs[i + 1u];
  off[i] = vec4(v) + off[i + 1u];
  head = vec4(q[i].w);
  tail[i] = q[i + 64u].z;
}
)";
  const tr::Translation t =
      tr::translate(tr::prepare(tr::compile_glsl(glsl, "kernel.comp")), {tr::Target::Cuda, {}});
  const std::string& source = t.source;
  const auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = source.find(what); at != std::string::npos; at = source.find(what, at + 1)) ++n;
    return n;
  };
  // q[i] (not q[i].w, q[i + 64].z), tested against In's start where the instance tests.
  EXPECT_EQ(count("porta_load_wide<16, porta_buffers_aligned, true>(&in_buffer.q[gl_LocalInvocationIndex], "
                  "in_buffer.porta_bytes)"),
            1u)
      << source;
  EXPECT_EQ(count("porta_store_wide<16, true>(&"), 1u) << source;                   // staged[i]
  EXPECT_EQ(count("porta_load_wide<16, true>(&"), 1u) << source;                    // staged[63 - i]
  EXPECT_EQ(count("porta_load_wide<8, porta_buffers_aligned>(&"), 1u) << source;    // pairs[i + 1]
  EXPECT_EQ(count("porta_store_wide<8, porta_buffers_aligned>(&"), 1u) << source;   // pairs[i]
  EXPECT_EQ(count("porta_store_wide<16, porta_buffers_aligned>(&"), 1u) << source;  // head (offset 0)
  EXPECT_EQ(source.find("wide<16, porta_buffers_aligned>(&packed"), std::string::npos)
      << source;                                 // off[] at 4
  EXPECT_EQ(count(", false>(&"), 0u) << source;  // no buffer access tests outside the instance that may
  // One work item, two instances, each an entry point; the table gives each
  // buffer the largest of its wide accesses (Packed and its off[] at 4: none).
  EXPECT_EQ(count("template <bool porta_buffers_aligned>\nstruct porta_work_item"), 1u) << source;
  EXPECT_EQ(count("porta_wide_alignment[4] = {16, 8, 0, 16};"), 1u) << source;
  EXPECT_EQ(count("porta_cuda_kernel("), 1u) << source;
  EXPECT_EQ(count("porta_cuda_kernel_aligned("), 1u) << source;
  EXPECT_EQ(count("porta_work_item<true>("), 1u) << source;
  EXPECT_EQ(count("porta_work_item<false>("), 1u) << source;
  EXPECT_LT(source.find("porta_work_item<false>("), source.find("porta_cuda_kernel_aligned(")) << source;
  EXPECT_GT(source.find("porta_work_item<true>("), source.find("porta_cuda_kernel_aligned(")) << source;
  std::string reason;
  const cuda::Nvrtc* nvrtc = nvrtc_or_null(reason);
  if (!nvrtc) GTEST_SKIP() << reason;
  EXPECT_EQ(nvrtc_complaints(*nvrtc, source, "wide"), "") << source;
  // Bounds checks guard loads as before (narrow) and stores around the wide store.
  tr::TranslateOptions checked{tr::Target::Cuda, {}};
  checked.bounds_checks = true;
  const tr::Translation robust = tr::translate(tr::prepare(tr::compile_glsl(glsl, "kernel.comp")), checked);
  EXPECT_EQ(robust.source.find("porta_load_wide<16, false"), std::string::npos) << robust.source;
  EXPECT_NE(robust.source.find("porta_store_wide<16, true>"), std::string::npos) << robust.source;
  EXPECT_EQ(nvrtc_complaints(*nvrtc, robust.source, "wide_checked"), "") << robust.source;
}

TEST(CudaTranslationRun, TranslatedKernelRunsOnTheDevice) {
  const Plugin& p = cuda_plugin();
  if (p.init_status != PORTA_SUCCESS) GTEST_SKIP() << "no CUDA device: " << p.reason;
  const porta_plugin_api* api = p.api;

  float scale = 2.0f;
  uint32_t scale_bits;
  std::memcpy(&scale_bits, &scale, 4);
  std::vector<tr::SpecValue> specs = {{0, 128}, {1, scale_bits}};
  std::vector<uint32_t> spirv = tr::prepare(
      tr::compile_glsl(read_text(std::string(PORTA_CUDA_TEST_GLSL) + "/reduce_vec4.comp"), "reduce"));
  tr::KernelSignature sig = tr::reflect(spirv, specs);
  tr::Translation t = tr::translate(spirv, {tr::Target::Cuda, specs});
  uint32_t size[3];
  tr::resolve_local_size(sig, specs, size);
  ASSERT_EQ(size[0], 128u);

  KernelDesc k(t.source, t.entry_point, 2, sig.push_constant_size, size[0], size[1], size[2],
               sig.shared_memory_bytes);
  porta_plugin_device device = nullptr;
  porta_plugin_stream stream = nullptr;
  porta_plugin_kernel kernel = nullptr;
  porta_plugin_buffer in = nullptr, out = nullptr;
  ASSERT_EQ(api->device_open(0, &device), PORTA_SUCCESS) << TestHost::last_error();
  ASSERT_EQ(api->stream_create(device, &stream), PORTA_SUCCESS) << TestHost::last_error();
  ASSERT_EQ(api->kernel_create(device, &k.desc, &kernel), PORTA_SUCCESS) << TestHost::last_error() << "\n"
                                                                         << t.source;

  const uint32_t n = 1000, groups = (n + 127) / 128;
  std::vector<float> v(n * 4), partial(groups, -1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    v[i * 4 + 0] = static_cast<float>(i % 4);
    v[i * 4 + 1] = 1.0f;
    v[i * 4 + 2] = 0.0f;
    v[i * 4 + 3] = 0.5f;
  }
  ASSERT_EQ(api->buffer_create(device, v.size() * 4, &in), PORTA_SUCCESS) << TestHost::last_error();
  ASSERT_EQ(api->buffer_create(device, groups * 4, &out), PORTA_SUCCESS) << TestHost::last_error();
  ASSERT_EQ(api->stream_write(stream, in, 0, v.data(), v.size() * 4), PORTA_SUCCESS)
      << TestHost::last_error();
  struct {
    uint32_t n;
    float bias;
  } push{n, 0.25f};
  ASSERT_EQ(sig.push_constant_size, sizeof push);
  uint32_t grid[3] = {groups, 1, 1};
  porta_plugin_binding args[2] = {{in, 0, v.size() * 4}, {out, 0, uint64_t{groups} * 4}};
  ASSERT_EQ(api->stream_dispatch(stream, kernel, grid, args, 2, &push, sizeof push), PORTA_SUCCESS)
      << TestHost::last_error();
  ASSERT_EQ(api->stream_read(stream, out, 0, partial.data(), groups * 4), PORTA_SUCCESS)
      << TestHost::last_error();
  ASSERT_EQ(api->stream_sync(stream), PORTA_SUCCESS) << TestHost::last_error();
  for (uint32_t g = 0; g < groups; ++g) {
    double expected = 0;
    for (uint32_t i = g * 128; i < std::min(n, g * 128 + 128); ++i) expected += (i % 4 + 1.5) * 2.0 + 0.25;
    // Multiples of 0.25 below 2^20: every partial sum is exact in float.
    EXPECT_EQ(partial[g], static_cast<float>(expected)) << "group " << g;
  }
  api->buffer_destroy(in);
  api->buffer_destroy(out);
  api->kernel_destroy(kernel);
  api->stream_destroy(stream);
  api->device_close(device);
}

}  // namespace
}  // namespace porta::test
