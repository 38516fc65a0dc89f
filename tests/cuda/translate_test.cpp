// The CUDA translator target: every built-in kernel and the GLSL in glsl/
// translates to CUDA C++ that NVRTC compiles for sm_90 and sm_80 without a
// warning (no GPU needed), matmul.comp with the tilings GPUs get as well, and
// a translated kernel runs through the plugin on a device where one exists.
#include <cstring>
#include <filesystem>

#include "../common/plugin_support.hpp"
#include "nvrtc.hpp"
#include "plugin_fixture.hpp"
#include "porta_translator/translator.hpp"

namespace porta::test {
namespace {

namespace tr = porta::translator;

std::vector<std::string> glsl_files() {
  std::vector<std::string> files;
  for (const char* dir : {PORTA_KERNELS_DIR, PORTA_CUDA_TEST_GLSL}) {
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".comp") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CudaTranslation, KernelsCompileCleanlyWithNvrtc) {
  const cuda::Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &cuda::Nvrtc::get();
  } catch (const plugin::Failure& f) {
    GTEST_SKIP() << f.what();
  }
  std::vector<std::string> files = glsl_files();
  ASSERT_GE(files.size(), 2u);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    std::string name = std::filesystem::path(file).stem().string();
    tr::Translation t;
    try {
      std::vector<uint32_t> spirv = tr::prepare(tr::compile_glsl(read_text(file), name));
      t = tr::translate(spirv, {tr::Target::Cuda, {{0, 128}}});
    } catch (const tr::Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(t.entry_point, "porta_cuda_kernel");
    for (int arch : {90, 80}) {
      try {
        cuda::CompiledModule m = nvrtc->compile(t.source, name, arch);
        EXPECT_EQ(m.log, "") << "sm_" << arch << ": NVRTC warnings count as failures\n" << t.source;
      } catch (const plugin::Failure& f) {
        ADD_FAILURE() << "sm_" << arch << ": " << f.what() << "\n" << t.source;
      }
    }
  }
}

// kernels/matmul.cpp specializes matmul.comp for GPUs with constants the test
// above leaves at their defaults: 16 x 16 items of 4 x 4, 4 x 8 and 8 x 8, each
// with every PREFETCH, with and without FMA. Each must compile as cleanly.
TEST(CudaTranslation, MatmulGpuTilingsCompileCleanlyWithNvrtc) {
  const cuda::Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &cuda::Nvrtc::get();
  } catch (const plugin::Failure& f) {
    GTEST_SKIP() << f.what();
  }
  const std::vector<uint32_t> spirv =
      tr::prepare(tr::compile_glsl(read_text(std::string(PORTA_KERNELS_DIR) + "/matmul.comp"), "matmul"));
  const uint32_t items[][2] = {{4, 4}, {4, 8}, {8, 8}};  // TM x TN
  const uint32_t schedules[][2] = {{0, 0}, {1, 1}, {2, 0}, {2, 1}};  // PREFETCH, FMA
  for (const auto& [tm, tn] : items)
    for (const auto& [prefetch, fma] : schedules) {
      SCOPED_TRACE("TM " + std::to_string(tm) + " TN " + std::to_string(tn) + " PREFETCH " +
                   std::to_string(prefetch) + " FMA " + std::to_string(fma));
      tr::Translation t;
      try {
        t = tr::translate(spirv, {tr::Target::Cuda,
                                  {{0, 16}, {1, 16}, {2, 16}, {3, tm}, {4, tn}, {5, prefetch}, {6, fma}}});
      } catch (const tr::Error& e) {
        ADD_FAILURE() << e.what();
        continue;
      }
      for (int arch : {90, 80}) {
        try {
          cuda::CompiledModule m = nvrtc->compile(t.source, "matmul", arch);
          EXPECT_EQ(m.log, "") << "sm_" << arch << ": NVRTC warnings count as failures\n" << t.source;
        } catch (const plugin::Failure& f) {
          ADD_FAILURE() << "sm_" << arch << ": " << f.what() << "\n" << t.source;
        }
      }
    }
}

TEST(CudaTranslation, TranslatedKernelRunsOnTheDevice) {
  CudaPlugin& p = CudaPlugin::get();
  if (p.init_status != PORTA_SUCCESS) GTEST_SKIP() << "no CUDA device: " << p.init_reason;
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
  porta_plugin_buffer args[2] = {in, out};
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
