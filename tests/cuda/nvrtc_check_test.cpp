// NVRTC compile checks that need no GPU: the hand-written kernels in kernels/
// (the shape the CUDA translator emits) compile without a single warning for
// sm_90 (H100) and sm_80 (A100), with the loader and options the plugin uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "../common/plugin_support.hpp"
#include "nvrtc.hpp"
#include "plugin_fixture.hpp"

namespace porta::test {
namespace {

using cuda::CompiledModule;
using cuda::Nvrtc;

const Nvrtc* nvrtc_or_skip(std::string& reason) {
  try {
    return &Nvrtc::get();
  } catch (const plugin::Failure& f) {
    reason = f.what();
    return nullptr;
  }
}

#define REQUIRE_NVRTC(var)                        \
  std::string nvrtc_reason;                       \
  const Nvrtc* var = nvrtc_or_skip(nvrtc_reason); \
  if (!var) GTEST_SKIP() << nvrtc_reason

TEST(NvrtcCheck, KnowsTheTargetArchitectures) {
  REQUIRE_NVRTC(nvrtc);
  const auto& archs = nvrtc->architectures();
  EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end());
  EXPECT_NE(std::find(archs.begin(), archs.end(), 80), archs.end());
}

TEST(NvrtcCheck, KernelsCompileCleanly) {
  REQUIRE_NVRTC(nvrtc);
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kernels_dir())) {
    if (entry.path().extension() != ".cu") continue;
    std::string source = read_text(entry.path().string());
    for (int arch : {90, 80}) {
      SCOPED_TRACE(entry.path().filename().string() + " sm_" + std::to_string(arch));
      CompiledModule m;
      try {
        m = nvrtc->compile(source, entry.path().stem().string(), arch);
      } catch (const plugin::Failure& f) {
        ADD_FAILURE() << f.what();
        continue;
      }
      EXPECT_EQ(m.log, "") << "NVRTC warnings count as failures";
      EXPECT_FALSE(m.is_ptx);
      EXPECT_EQ(m.target, "sm_" + std::to_string(arch));
      ASSERT_GE(m.image.size(), 4u);
      EXPECT_EQ(std::string(m.image.data() + 1, 3), "ELF") << "a cubin is an ELF image";
    }
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

TEST(NvrtcCheck, ErrorCarriesTheCompilerLog) {
  REQUIRE_NVRTC(nvrtc);
  std::string source = "extern \"C\" __global__ void broken(float* b0) { b0[0] = undeclared_name; }\n";
  try {
    nvrtc->compile(source, "broken", 90);
    FAIL() << "compiled a kernel with an undeclared name";
  } catch (const plugin::Failure& f) {
    EXPECT_EQ(f.status, PORTA_ERROR_COMPILE);
    std::string message = f.what();
    EXPECT_NE(message.find("broken.cu"), std::string::npos) << message;
    EXPECT_NE(message.find("undeclared_name"), std::string::npos) << message;
    EXPECT_NE(message.find("sm_90"), std::string::npos) << message;
  }
}

TEST(NvrtcCheck, WarningsReachTheLog) {
  REQUIRE_NVRTC(nvrtc);
  std::string source =
      "extern \"C\" __global__ void warns(float* b0) { int unused_local = 3; b0[0] = 1.0f; }\n";
  CompiledModule m = nvrtc->compile(source, "warns", 90);
  EXPECT_NE(m.log.find("unused_local"), std::string::npos) << "log: " << m.log;
}

TEST(NvrtcCheck, NewerArchitectureFallsBackToPtx) {
  REQUIRE_NVRTC(nvrtc);
  int newest = nvrtc->architectures().back();
  CompiledModule m = nvrtc->compile(kernel_source("scale_add"), "scale_add", newest + 1000);
  EXPECT_TRUE(m.is_ptx);
  EXPECT_EQ(m.target, "compute_" + std::to_string(newest));
  ASSERT_FALSE(m.image.empty());
  EXPECT_EQ(m.image.back(), '\0') << "PTX handed to the driver is NUL-terminated";
  EXPECT_NE(std::string(m.image.data()).find(".entry scale_add"), std::string::npos);
}

TEST(NvrtcCheck, OlderArchitectureIsUnsupported) {
  REQUIRE_NVRTC(nvrtc);
  try {
    nvrtc->compile(kernel_source("scale_add"), "scale_add", 10);
    FAIL() << "compiled for sm_10";
  } catch (const plugin::Failure& f) {
    EXPECT_EQ(f.status, PORTA_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(f.what()).find("sm_10"), std::string::npos) << f.what();
  }
}

}  // namespace
}  // namespace porta::test
