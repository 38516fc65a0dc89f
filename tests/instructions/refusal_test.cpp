// Refusals name what the target cannot do, the SPIR-V instruction and, where
// the module has OpLine debug info (GLSL compiled by porta keeps it through
// prepare()), the GLSL file and line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "porta_translator/translator.hpp"

namespace {

using namespace porta::translator;

std::string kernel_source(const std::string& name) {
  std::ifstream file(std::string(PORTA_INSTRUCTION_KERNELS) + "/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string refusal(const std::vector<uint32_t>& spirv, Target target) {
  try {
    translate(spirv, {.target = target, .specs = {}});
  } catch (const Error& e) {
    EXPECT_EQ(e.kind, Error::Kind::UnsupportedFeature) << e.what();
    return e.what();
  }
  return "";
}

TEST(Refusals, NameTheExtendedInstructionAndItsLine) {
  const auto spirv =
      prepare(compile_glsl(kernel_source("amd_trinary_minmax.comp"), "amd_trinary_minmax.comp"));
  for (Target target : {Target::Cpp, Target::OpenCL, Target::Cuda}) {
    const std::string message = refusal(spirv, target);
    EXPECT_NE(message.find("(SPV_AMD_shader_trinary_minmax FMin3AMD at amd_trinary_minmax.comp:10)"),
              std::string::npos)
        << message;
  }
}

TEST(Refusals, NameTheInstructionWithoutDebugInfo) {
  // The same module without OpLine (and OpString): the instruction alone.
  std::vector<uint32_t> spirv =
      prepare(compile_glsl(kernel_source("amd_trinary_minmax.comp"), "amd_trinary_minmax.comp"));
  std::vector<uint32_t> stripped(spirv.begin(), spirv.begin() + 5);
  for (size_t at = 5; at < spirv.size();) {
    const uint32_t length = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (opcode != 8 /* OpLine */ && opcode != 317 /* OpNoLine */)
      stripped.insert(stripped.end(), spirv.begin() + at, spirv.begin() + at + length);
    at += length;
  }
  const std::string message = refusal(stripped, Target::Cpp);
  EXPECT_EQ(message.find(" at "), std::string::npos) << message;
  EXPECT_NE(message.find("(SPV_AMD_shader_trinary_minmax FMin3AMD)"), std::string::npos) << message;
}

TEST(Refusals, ExpectAndAssumeAreLoweredNotRefused) {
  const auto spirv = prepare(compile_glsl(kernel_source("expect_assume.comp"), "expect_assume.comp"));
  for (Target target : {Target::Cpp, Target::OpenCL, Target::Cuda}) {
    const Translation t = translate(spirv, {.target = target, .specs = {}});
    EXPECT_EQ(t.source.find("unimplemented"), std::string::npos) << t.source;
  }
}

}  // namespace
