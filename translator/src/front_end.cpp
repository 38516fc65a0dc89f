// GLSL → SPIR-V (shaderc), validation (spirv-val) and optimisation (spirv-opt).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <regex>
#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "bfloat16_lowering.hpp"
#include "porta_translator/translator.hpp"
#include "spirv_words.hpp"

namespace porta::translator {
namespace {

constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_1;

// Collects spirv-val / spirv-opt diagnostics as text, one per line.
class MessageLog {
 public:
  spvtools::MessageConsumer consumer() {
    return [this](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
      if (!text_.empty()) text_ += '\n';
      text_ += message;
      if (position.index != 0) text_ += " (at word " + std::to_string(position.index) + ")";
    };
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

void check_header(const std::vector<uint32_t>& spirv) {
  if (spirv.empty()) throw Error(Error::Kind::InvalidSpirv, "not SPIR-V: the module is empty");
  if (spirv[0] != kSpirvMagic) {
    char found[16];
    std::snprintf(found, sizeof(found), "0x%08x", spirv[0]);
    const bool swapped = spirv[0] == __builtin_bswap32(kSpirvMagic);
    throw Error(Error::Kind::InvalidSpirv, std::string("not SPIR-V: the first word is ") + found +
                                               ", expected the magic number 0x07230203" +
                                               (swapped ? " (the module has the other byte order)" : ""));
  }
  if (spirv.size() < kSpirvHeaderWords)
    throw Error(Error::Kind::InvalidSpirv, "not SPIR-V: the module is shorter than the 5-word header");
}

// spirv-opt with the passes `register_passes` adds; the result is validated.
std::vector<uint32_t> run_passes(const std::vector<uint32_t>& spirv,
                                 const std::function<void(spvtools::Optimizer&)>& register_passes) {
  check_header(spirv);
  spvtools::Optimizer optimizer(kTargetEnv);
  MessageLog log;
  optimizer.SetMessageConsumer(log.consumer());
  register_passes(optimizer);
  std::vector<uint32_t> optimized;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // prepare() validates before and after
  // Unused buffers keep their bindings and unused spec constants stay
  // settable: the kernel's interface is what its source declares.
  options.set_preserve_bindings(true);
  options.set_preserve_spec_constants(true);
  if (!optimizer.Run(spirv.data(), spirv.size(), &optimized, options))
    throw Error(Error::Kind::Internal,
                "spirv-opt failed:\n" + (log.text().empty() ? "no details" : log.text()));
  try {
    validate(optimized);
  } catch (const Error& e) {
    throw Error(Error::Kind::Internal, std::string("spirv-opt produced invalid SPIR-V: ") + e.what());
  }
  return optimized;
}

// The source's #version directive (glslang needs it first, after comments
// and blank lines; a misplaced one is the compiler's error to report).
struct VersionDirective {
  bool present = false;
  int number = 0;  // 0: no number glslang could read either; its error then
  bool es = false;
};

VersionDirective version_directive(const std::string& source) {
  static const std::regex directive(R"((^|\n)[ \t]*#[ \t]*version\b([ \t]+([0-9]+)([ \t]+es\b)?)?)");
  std::smatch m;
  if (!std::regex_search(source, m, directive)) return {};
  return {true, m[3].matched ? std::atoi(m[3].str().c_str()) : 0, m[4].matched};
}

// `text` in single quotes for /bin/sh.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// GL_KHR_cooperative_matrix is beyond shaderc's glslang (Debian's, 12): such a
// source goes to the glslangValidator (13 or later) the build found
// (PORTA_COOPMAT_GLSLANG, from CMake's PORTA_GLSLANG_VALIDATOR), with the
// options shaderc gets (Vulkan 1.1, SPIR-V 1.3, debug info). Without one it is
// refused, asking for SPIR-V, which needs no GLSL compiler.
std::vector<uint32_t> compile_with_glslang_validator(const std::string& source, const std::string& label) {
  const std::string tool = PORTA_COOPMAT_GLSLANG;
  if (tool.empty() || access(tool.c_str(), X_OK) != 0)
    throw Error(Error::Kind::UnsupportedFeature,
                "GLSL compilation of " + label +
                    ": GL_KHR_cooperative_matrix needs glslangValidator 13 or later, " +
                    (tool.empty()
                         ? std::string("which this porta was built without (CMake's PORTA_GLSLANG_VALIDATOR)")
                         : "and " + tool + " is gone") +
                    "; compile the kernel to SPIR-V (glslangValidator -V --target-env vulkan1.1) and pass "
                    "the SPIR-V");
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/porta-glsl-XXXXXX";
  if (!mkdtemp(dir.data())) throw Error(Error::Kind::Internal, "cannot make a temporary folder for " + label);
  // The file keeps the label's own name: glslangValidator's messages and the
  // module's OpLine debug info name it.
  std::string file = label.substr(label.find_last_of('/') + 1);
  if (file.empty() || file[0] == '.' || file.find_first_of("'\"\\") != std::string::npos)
    file = "kernel.comp";
  { std::ofstream(dir + "/" + file) << source; }
  const std::string command = "cd " + shell_quoted(dir) + " && " + shell_quoted(tool) +
                              " -V --target-env vulkan1.1 -g -S comp -o kernel.spv " + shell_quoted(file) +
                              " 2>&1";
  std::string log;
  int status = -1;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) log.append(chunk, n);
    status = pclose(pipe);
  }
  std::ifstream in(dir + "/kernel.spv", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string spv = bytes.str();
  std::remove((dir + "/kernel.spv").c_str());
  std::remove((dir + "/" + file).c_str());
  rmdir(dir.c_str());
  if (status != 0 || spv.empty()) {
    // glslangValidator first echoes the file name, and ends with a blank line.
    if (log.compare(0, file.size() + 1, file + "\n") == 0) log.erase(0, file.size() + 1);
    while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
    throw Error(Error::Kind::InvalidGlsl, "GLSL compilation of " + label + " failed (" + tool + "):\n" + log);
  }
  return spirv_from_bytes(spv.data(), spv.size());
}

}  // namespace

std::vector<uint32_t> compile_glsl(const std::string& given, const std::string& name) {
  const std::string label = name.empty() ? "kernel.comp" : name;
  // Without #version glslang takes GLSL ES 1.00, which has no compute
  // shaders: a source without one is compiled as `#version 450`, with its own
  // line numbers.
  const VersionDirective version = version_directive(given);
  const std::string source = version.present ? given : "#version 450\n#line 1\n" + given;
  // Compute shaders need GLSL 4.20 or ES 3.10; below that glslang fails on
  // its own built-in declarations, and for 1.10 to 1.40 prints all of them
  // (about 4,500 lines) to standard output.
  if (version.number > 0 && version.number < (version.es ? 310 : 420))
    throw Error(Error::Kind::InvalidGlsl, "GLSL compilation of " + label + " failed: #version " +
                                              std::to_string(version.number) + (version.es ? " es" : "") +
                                              " has no compute shaders (they need 420 and later, or 310 es "
                                              "and later)");
  static const std::regex cooperative_matrix(
      R"((^|\n)[ \t]*#[ \t]*extension[ \t]+GL_KHR_cooperative_matrix\b)");
  if (std::regex_search(source, cooperative_matrix)) return compile_with_glslang_validator(source, label);
  shaderc::Compiler compiler;
  if (!compiler.IsValid())
    throw Error(Error::Kind::Internal, "the GLSL compiler (shaderc) failed to initialise");
  shaderc::CompileOptions options;
  options.SetSourceLanguage(shaderc_source_language_glsl);
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetTargetSpirv(shaderc_spirv_version_1_3);
  // Keep names: they make reflection and translated code readable.
  options.SetGenerateDebugInfo();
  shaderc::SpvCompilationResult result = compiler.CompileGlslToSpv(
      source.data(), source.size(), shaderc_compute_shader, label.c_str(), "main", options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    std::string log = result.GetErrorMessage();
    while (!log.empty() && log.back() == '\n') log.pop_back();
    throw Error(Error::Kind::InvalidGlsl, "GLSL compilation of " + label + " failed:\n" + log);
  }
  return std::vector<uint32_t>(result.cbegin(), result.cend());
}

std::vector<uint32_t> spirv_from_bytes(const void* data, size_t size) {
  if (size == 0 || data == nullptr) throw Error(Error::Kind::InvalidSpirv, "not SPIR-V: the module is empty");
  if (size % 4 != 0)
    throw Error(Error::Kind::InvalidSpirv,
                "not SPIR-V: " + std::to_string(size) + " bytes is not a whole number of 32-bit words");
  std::vector<uint32_t> words(size / 4);
  std::memcpy(words.data(), data, size);
  check_header(words);
  return words;
}

void validate(const std::vector<uint32_t>& spirv) {
  check_header(spirv);
  spvtools::SpirvTools tools(kTargetEnv);
  MessageLog log;
  tools.SetMessageConsumer(log.consumer());
  spvtools::ValidatorOptions options;
  if (tools.Validate(spirv.data(), spirv.size(), options)) return;
  // GL_EXT_scalar_block_layout leaves no mark in SPIR-V but the layouts
  // themselves (a Vulkan device feature, scalarBlockLayout): a module whose
  // only fault is a scalar layout is valid. Every target reads such buffers
  // at the offsets declared (translator/src/buffer_layout.cpp).
  spvtools::SpirvTools scalar_tools(kTargetEnv);
  spvtools::ValidatorOptions scalar_options;
  scalar_options.SetScalarBlockLayout(true);
  if (!scalar_tools.Validate(spirv.data(), spirv.size(), scalar_options))
    throw Error(Error::Kind::InvalidSpirv, "invalid SPIR-V (spirv-val, Vulkan 1.1):\n" +
                                               (log.text().empty() ? "no details" : log.text()));
}

std::vector<uint32_t> optimize(const std::vector<uint32_t>& spirv) {
  return run_passes(spirv, [](spvtools::Optimizer& optimizer) {
    // Inline everything first so that the targets without real function calls
    // on pointers (OpenCL C) and the CPU target see one function. The
    // performance passes do not freeze spec constants: they stay adjustable.
    optimizer.RegisterPass(spvtools::CreateInlineExhaustivePass());
    optimizer.RegisterPerformancePasses();
  });
}

std::vector<uint32_t> prepare(const std::vector<uint32_t>& given, const PrepareOptions& options) {
  check_header(given);
  // Cooperative matrices lowered (bfloat16 with them); bfloat16 alone likewise.
  const std::vector<uint32_t> spirv =
      uses_cooperative_matrix(given)
          ? (options.tensor_cores ? lower_cooperative_matrix_to_warp_fragments(
                                        given, options.specs, options.tf32, options.warpgroups)
                                  : lower_cooperative_matrix(given, options.specs, options.fix_group_size))
          : lower_bfloat16(given).spirv;
  validate(spirv);
  if (!options.readable) {
    const std::vector<uint32_t> optimized = optimize(spirv);
    const std::vector<uint32_t> demoted = demote_array_phis(optimized);
    if (demoted != optimized) validate(demoted);
    return demoted;
  }
  // Target cpp places a subgroup operation by the loops around it within one
  // function (cpu_subgroups.cpp): a module with subgroup operations is
  // inlined for it too.
  bool subgroups = false;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpCapability && count >= 1 &&
        is_group_non_uniform(static_cast<spv::Capability>(operands[0])))
      subgroups = true;
  });
  // Lowered cooperative matrices are helper functions that return arrays,
  // which no target declares: they are inlined too.
  if (target_info(options.target).calls_helper_functions && !(options.target == Target::Cpp && subgroups) &&
      spirv == given)
    return spirv;
  // Inlining alone. The inlined functions' locals lose their names (spirv-opt
  // does not copy them); the kernel's own keep theirs.
  return run_passes(spirv, [](spvtools::Optimizer& optimizer) {
    optimizer.RegisterPass(spvtools::CreateMergeReturnPass());
    optimizer.RegisterPass(spvtools::CreateInlineExhaustivePass());
    optimizer.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  });
}

std::vector<uint32_t> specialize(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs) {
  check_header(spirv);
  // The value's SPIR-V literal words: a 64-bit type takes two, low word
  // first; a narrower signed integer is sign-extended to 32 bits.
  struct Declared {
    uint32_t width = 32;
    bool is_signed = false;
  };
  std::unordered_map<uint32_t, Declared> types;     // OpTypeInt / OpTypeFloat result ids
  std::unordered_map<uint32_t, uint32_t> spec_ids;  // result id -> SpecId
  std::unordered_map<uint32_t, Declared> by_spec_id;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpTypeInt && count >= 3) types[operands[0]] = {operands[1], operands[2] != 0};
    if (opcode == spv::OpTypeFloat && count >= 2) types[operands[0]] = {operands[1], false};
    if (opcode == spv::OpDecorate && count >= 3 && operands[1] == spv::DecorationSpecId)
      spec_ids[operands[0]] = operands[2];
    if ((opcode == spv::OpSpecConstant || opcode == spv::OpSpecConstantTrue ||
         opcode == spv::OpSpecConstantFalse) &&
        count >= 2 && spec_ids.count(operands[1]) && types.count(operands[0]))
      by_spec_id[spec_ids[operands[1]]] = types[operands[0]];
  });
  std::unordered_map<uint32_t, std::vector<uint32_t>> values;
  for (const SpecValue& spec : specs) {
    const Declared declared = by_spec_id.count(spec.id) ? by_spec_id[spec.id] : Declared{};
    uint64_t bits = spec.bits;
    if (declared.is_signed && declared.width < 32) {
      const int shift = 64 - static_cast<int>(declared.width);
      bits = static_cast<uint64_t>(static_cast<int64_t>(bits << shift) >> shift);
    }
    if (declared.width == 64)
      values[spec.id] = {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
    else
      values[spec.id] = {static_cast<uint32_t>(bits)};
  }
  spvtools::Optimizer optimizer(kTargetEnv);
  MessageLog log;
  optimizer.SetMessageConsumer(log.consumer());
  if (!values.empty()) optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(values));
  optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
  optimizer.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
  std::vector<uint32_t> out;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(spirv.data(), spirv.size(), &out, options))
    throw Error(Error::Kind::InvalidSpirv,
                "applying spec-constant values failed:\n" + (log.text().empty() ? "no details" : log.text()));
  return out;
}

}  // namespace porta::translator
