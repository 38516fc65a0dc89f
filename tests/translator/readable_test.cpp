// Readable translations (prepare() with readable, porta-translate --readable):
// matmul.comp keeps its GLSL names on every target, reads much shorter than
// the optimised translation where the target keeps helper functions, and the
// readable C++ computes what the optimised C++ does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "kernel_runner.hpp"
#include "support/matmul_case.hpp"

namespace pt = porta::translator;
using porta::test::CompiledKernel;
using porta::test::MatmulCase;

namespace {

pt::PrepareOptions prepare_for(pt::Target target, bool readable = true) {
  pt::PrepareOptions options;
  options.readable = readable;
  options.target = target;
  return options;
}

size_t lines_of(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

bool has_word(const std::string& text, const std::string& word) {
  auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
    if ((at == 0 || !identifier(text[at - 1])) &&
        (at + word.size() == text.size() || !identifier(text[at + word.size()])))
      return true;
  return false;
}

std::vector<uint32_t> matmul_spirv() {
  return pt::compile_glsl(MatmulCase::glsl(PORTA_SOURCE_DIR), "matmul.comp");
}

TEST(Readable, MatmulKeepsGlslNamesOnEveryTarget) {
  const std::vector<uint32_t> spirv = matmul_spirv();
  for (const pt::TargetInfo& target : pt::targets()) {
    SCOPED_TRACE(target.name);
    const std::string readable =
        pt::translate(pt::prepare(spirv, prepare_for(target.target)), {target.target, {}}).source;
    const std::string optimised = pt::translate(pt::prepare(spirv), {target.target, {}}).source;
    // main()'s own variables, which spirv-opt folds away.
    for (const char* name : {"row0", "col0", "rows_inside", "tid", "k0", "k1"}) {
      EXPECT_TRUE(has_word(readable, name)) << name;
      EXPECT_FALSE(has_word(optimised, name)) << name;
    }
    if (!target.calls_helper_functions) continue;  // inlined: no function names, about as long
    // Helper functions and their variables.
    for (const char* name : {"fetch_a", "step_i", "place_b", "multiply_slice_row", "add_product", "store_c"})
      EXPECT_TRUE(has_word(readable, name)) << name;
    // Loops stay loops: about half the optimised text, where [[unroll]] loops are unrolled.
    EXPECT_LT(lines_of(readable) * 3, lines_of(optimised) * 2)
        << lines_of(readable) << " readable lines, " << lines_of(optimised) << " optimised";
  }
}

TEST(Readable, CppMatmulComputesWhatTheOptimisedOneDoes) {
  const std::vector<uint32_t> spirv = matmul_spirv();
  for (uint32_t prefetch : {0u, 2u}) {
    SCOPED_TRACE("PREFETCH " + std::to_string(prefetch));
    for (bool readable : {true, false}) {
      SCOPED_TRACE(readable ? "readable" : "optimised");
      CompiledKernel kernel(pt::prepare(spirv, prepare_for(pt::Target::Cpp, readable)), MatmulCase::specs(prefetch));
      ASSERT_TRUE(kernel.ok()) << kernel.error();
      MatmulCase m;
      kernel.dispatch(m.groups_x(), m.groups_y(), 1, {m.a, m.b, m.c, m.a}, &m.params, sizeof m.params);
      EXPECT_EQ(m.c, m.expected);
    }
  }
}

TEST(Readable, CallResultsNobodyReadsCompileWithoutWarnings) {
  // A call kept for its out parameter: the unoptimised module still declares
  // its result, which must not make -Wall -Werror refuse the C++.
  const std::vector<uint32_t> spirv = pt::compile_glsl(R"(#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer Data { uint v[]; };
bool split(uint x, out uint half_x) {
  half_x = x / 2u;
  return x % 2u == 0u;
}
void main() {
  uint h;
  split(v[gl_GlobalInvocationID.x], h);
  v[gl_GlobalInvocationID.x] = h;
}
)",
                                                       "call.comp");
  CompiledKernel kernel(pt::prepare(spirv, prepare_for(pt::Target::Cpp)));
  ASSERT_TRUE(kernel.ok()) << kernel.error();
  std::vector<uint32_t> v = {10, 7, 0, 41};
  kernel.dispatch(1, 1, 1, {v});
  EXPECT_EQ(v, (std::vector<uint32_t>{5, 3, 0, 20}));
}

}  // namespace
