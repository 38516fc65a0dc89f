// Target opencl, golden check: every kernel porta's other tests and built-ins
// use (tests/support/test_kernels.hpp) translates to OpenCL C that the OpenCL
// compiler builds with -Werror and an empty build log. A kernel the target
// refuses is skipped, with the reason, only if target cpp refuses it too or it
// is one of the named gaps of OpenCL C.
#include <gtest/gtest.h>

#include "opencl_harness.hpp"
#include "porta_translator/translator.hpp"
#include "support/translate_test_kernel.hpp"

namespace pt = porta::translator;

namespace {

using porta::test::TestKernel;

class OpenclGolden : public ::testing::TestWithParam<TestKernel> {
 protected:
  static porta::test::OpenclHarness& cl() {
    static porta::test::OpenclHarness harness;
    return harness;
  }
};

TEST_P(OpenclGolden, BuildsWithoutWarnings) {
  const TestKernel& kernel = GetParam();
  const porta::test::FrontEndResult front = porta::test::front_end(kernel);
  if (!front.failure.empty()) FAIL() << front.failure;
  if (!front.skip.empty()) GTEST_SKIP() << front.skip;
  std::string source;
  try {
    source = pt::translate(front.spirv, {pt::Target::OpenCL, {}}).source;
  } catch (const pt::Error& e) {
    // What OpenCL C 1.2 cannot say where C++ can, each refused with its reason:
    //  - a member in the fourth slot of a vec3 (float3 takes 16 bytes in OpenCL C);
    //  - boolean vectors (OpenCL C has none; its relational results are -1/0 int vectors).
    const std::string unexplained =
        porta::test::unexplained_refusal(front.spirv, e, {"fourth slot", "boolean vectors"});
    if (!unexplained.empty()) FAIL() << "target opencl " << unexplained;
    GTEST_SKIP() << "refused by target opencl: " << e.what();
  }
  if (!cl().available()) GTEST_SKIP() << cl().reason();
  if (const std::string missing = cl().missing_extension(source); !missing.empty())
    GTEST_SKIP() << cl().device_name() << " lacks " << missing << ", which the translation needs";
  std::string log;
  EXPECT_TRUE(cl().build(source, log)) << log << "\n" << source;
  EXPECT_EQ(log, "") << source;
  // And as a robust device runs it (porta/robust.h): every buffer access checked.
  pt::TranslateOptions checked{pt::Target::OpenCL, {}};
  checked.bounds_checks = true;
  const std::string robust = pt::translate(front.spirv, checked).source;
  std::string robust_log;
  EXPECT_TRUE(cl().build(robust, robust_log)) << robust_log << "\n" << robust;
  EXPECT_EQ(robust_log, "") << robust;
}

INSTANTIATE_TEST_SUITE_P(Kernels, OpenclGolden,
                         ::testing::ValuesIn(porta::test::all_test_kernels(PORTA_SOURCE_DIR)),
                         [](const ::testing::TestParamInfo<TestKernel>& info) { return info.param.name; });

}  // namespace
