// What every translator target's compile test of all_test_kernels() decides
// the same way: which kernels the front end must refuse, and which refusals
// by a target are legitimate.
#pragma once

#include <string>
#include <vector>

#include "porta_translator/translator.hpp"
#include "support/test_kernels.hpp"

namespace porta::test {

// The front end's verdict on one kernel: its prepared SPIR-V, or why the test
// stops there — `failure` (a kernel meant to compile did not, or one meant to
// be refused compiled) or `skip` (refused, as intended).
struct FrontEndResult {
  std::vector<uint32_t> spirv;
  std::string failure;
  std::string skip;
};

inline FrontEndResult front_end(const TestKernel& kernel) {
  namespace pt = porta::translator;
  FrontEndResult result;
  try {
    result.spirv = pt::prepare(pt::compile_glsl(kernel.glsl, kernel.name + ".comp"));
  } catch (const pt::Error& e) {
    // A cooperative-matrix kernel where the build has no glslangValidator 13
    // (scripts/common.sh installs it from PyPI): nothing to compile it with.
    const bool no_coopmat_compiler = e.kind == pt::Error::Kind::UnsupportedFeature &&
                                     kernel.glsl.find("GL_KHR_cooperative_matrix") != std::string::npos &&
                                     std::string(e.what()).find("glslangValidator 13") != std::string::npos;
    if (no_coopmat_compiler)
      result.skip = std::string("not compiled here: ") + e.what();
    else if (kernel.invalid_because.empty())
      result.failure = std::string("the front end refuses it: ") + e.what();
    else
      result.skip = "refused by the front end, as intended (" + kernel.invalid_because + "): " + e.what();
    return result;
  }
  if (!kernel.invalid_because.empty())
    result.failure = "meant to be refused by the front end (" + kernel.invalid_because + "), but it compiles";
  return result;
}

// A target's refusal is legitimate when it is an UnsupportedFeature that
// target cpp (the reference, which says the most) refuses too, or one of the
// target's `known_gaps` (substrings of the message, each something the target
// language cannot say). Returns why it is not, or "" when it is.
inline std::string unexplained_refusal(const std::vector<uint32_t>& spirv,
                                       const porta::translator::Error& refusal,
                                       const std::vector<std::string>& known_gaps) {
  namespace pt = porta::translator;
  if (refusal.kind != pt::Error::Kind::UnsupportedFeature)
    return std::string("refused, not as an unsupported feature: ") + refusal.what();
  try {
    pt::translate(spirv, {pt::Target::Cpp, {}});
  } catch (const pt::Error&) {
    return "";
  }
  const std::string reason = refusal.what();
  for (const std::string& gap : known_gaps)
    if (reason.find(gap) != std::string::npos) return "";
  return "refused where target cpp translates it: " + reason;
}

}  // namespace porta::test
