// GLSL → SPIR-V, validation and optimisation.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace pt = porta::translator;

namespace {

const char* kCopy = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(constant_id = 3) const float scale = 2.0;
void main() { dst[gl_GlobalInvocationID.x] = src[gl_GlobalInvocationID.x] * scale; }
)";

template <class F>
pt::Error expect_error(F&& f) {
  try {
    f();
  } catch (const pt::Error& e) {
    return e;
  }
  ADD_FAILURE() << "no porta::translator::Error thrown";
  return pt::Error(pt::Error::Kind::Internal, "");
}

}  // namespace

TEST(FrontEnd, CompilesGlslToSpirv) {
  const std::vector<uint32_t> spirv = pt::compile_glsl(kCopy, "copy.comp");
  ASSERT_GT(spirv.size(), 5u);
  EXPECT_EQ(spirv[0], 0x07230203u);
  EXPECT_EQ(spirv[1], 0x00010300u);  // SPIR-V 1.3 for Vulkan 1.1
  EXPECT_NO_THROW(pt::validate(spirv));
}

TEST(FrontEnd, SyntaxErrorNamesFileAndLine) {
  const std::string source =
      "#version 450\n"
      "layout(local_size_x = 1) in;\n"
      "void main() {\n"
      "  float x = 1.0;\n"
      "  x = y + 2.0;\n"  // line 5: undeclared identifier
      "}\n";
  const pt::Error e = expect_error([&] { pt::compile_glsl(source, "kernel.comp"); });
  EXPECT_EQ(e.kind, pt::Error::Kind::InvalidGlsl);
  EXPECT_NE(std::string(e.what()).find("kernel.comp:5: error"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
}

// A source without #version compiles as GLSL 4.50, and its errors keep the
// source's own line numbers.
TEST(FrontEnd, MissingVersionMeans450) {
  const std::string body =
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) buffer D { double v[]; };\n"  // double: not in GLSL ES
      "void main() { v[0] = 1.0lf; }\n";
  EXPECT_FALSE(pt::compile_glsl(body, "k.comp").empty());
  const pt::Error e = expect_error([&] { pt::compile_glsl(body + "void f() { x = 1; }\n", "k.comp"); });
  EXPECT_NE(std::string(e.what()).find("k.comp:4: error"), std::string::npos) << e.what();
}

// A #version without compute shaders gets one line, and glslang's built-in
// declarations (which it prints for 1.10 to 1.40) stay off standard output.
TEST(FrontEnd, VersionWithoutComputeIsOneLine) {
  for (const char* number : {"110", "140", "400", "300 es"}) {
    const std::string version = std::string("#version ") + number;
    SCOPED_TRACE(version);
    testing::internal::CaptureStdout();
    const pt::Error e = expect_error(
        [&] { pt::compile_glsl(version + "\nlayout(local_size_x = 1) in;\nvoid main() {}\n", "old.comp"); });
    const std::string printed = testing::internal::GetCapturedStdout();
    EXPECT_EQ(e.kind, pt::Error::Kind::InvalidGlsl);
    const std::string what = e.what();
    EXPECT_EQ(std::count(what.begin(), what.end(), '\n'), 0) << what;
    EXPECT_NE(what.find("old.comp"), std::string::npos) << what;
    EXPECT_NE(what.find(version), std::string::npos) << what;
    EXPECT_TRUE(printed.empty()) << printed.size() << " bytes printed";
  }
}

TEST(FrontEnd, NonComputeStageIsRejected) {
  const pt::Error e = expect_error(
      [] { pt::compile_glsl("#version 450\nvoid main() { gl_Position = vec4(0); }\n", "v.comp"); });
  EXPECT_EQ(e.kind, pt::Error::Kind::InvalidGlsl);
}

TEST(FrontEnd, NotSpirvIsExplained) {
  {
    const pt::Error e = expect_error([] { pt::validate({}); });
    EXPECT_EQ(e.kind, pt::Error::Kind::InvalidSpirv);
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos) << e.what();
  }
  {
    const pt::Error e = expect_error([] { pt::validate({0x12345678u, 0, 0, 0, 0}); });
    EXPECT_EQ(e.kind, pt::Error::Kind::InvalidSpirv);
    EXPECT_NE(std::string(e.what()).find("magic"), std::string::npos) << e.what();
  }
  {
    const char bytes[7] = {3, 2, 0x23, 7, 0, 0, 1};
    const pt::Error e = expect_error([&] { pt::spirv_from_bytes(bytes, sizeof(bytes)); });
    EXPECT_EQ(e.kind, pt::Error::Kind::InvalidSpirv);
    EXPECT_NE(std::string(e.what()).find("whole number of 32-bit words"), std::string::npos) << e.what();
  }
  {
    const std::string text = "#version 450\nvoid main() {}\n";
    const pt::Error e = expect_error([&] { pt::spirv_from_bytes(text.data(), text.size() & ~size_t(3)); });
    EXPECT_NE(std::string(e.what()).find("not SPIR-V"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pt::reflect({}), pt::Error);
  EXPECT_THROW(pt::translate({1, 2, 3}, {}), pt::Error);
}

TEST(FrontEnd, InvalidSpirvCarriesValidatorMessage) {
  std::vector<uint32_t> spirv = pt::compile_glsl(kCopy, "copy.comp");
  spirv.resize(spirv.size() - 3);  // cut the last instructions: OpFunctionEnd goes missing
  const pt::Error e = expect_error([&] { pt::validate(spirv); });
  EXPECT_EQ(e.kind, pt::Error::Kind::InvalidSpirv);
  EXPECT_NE(std::string(e.what()).find("spirv-val"), std::string::npos) << e.what();
  EXPECT_THROW(pt::prepare(spirv), pt::Error);
}

TEST(FrontEnd, OptimizeKeepsSpecConstantsAndBindings) {
  const std::string source = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint unused_count = 7;
layout(constant_id = 2) const float gain = 3.0;
layout(binding = 0) buffer A { float a[]; };
layout(binding = 1) buffer Unused { float b[]; };
layout(binding = 2) buffer C { float c[]; };
void main() { c[gl_GlobalInvocationID.x] = a[gl_GlobalInvocationID.x] * gain; }
)";
  const std::vector<uint32_t> prepared = pt::prepare(pt::compile_glsl(source, "k.comp"));
  const pt::KernelSignature s = pt::reflect(prepared);
  ASSERT_EQ(s.buffers.size(), 3u);  // an unused binding is still a parameter
  EXPECT_EQ(s.buffers[1].binding, 1u);
  ASSERT_EQ(s.spec_constants.size(), 3u);
  EXPECT_EQ(s.spec_constants[1].name, "unused_count");
  EXPECT_EQ(s.spec_constants[1].default_bits, 7u);
  EXPECT_EQ(s.local_size_spec_id[0], 0);
}
