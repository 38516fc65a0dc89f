// Modules with several entry points: a kernel is one of them. The rest of the
// translator takes modules with a single GLCompute entry point, so the others
// are removed here, before anything else sees the module.
#include <spirv-tools/optimizer.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "porta_translator/translator.hpp"
#include "spirv_words.hpp"

namespace porta::translator {
namespace {

// OpEntryPoint's name: the literal string after the model and the function id.
std::string entry_name(const uint32_t* operands, uint32_t count) {
  return count > 2 ? spirv_string(operands + 2, count - 2) : std::string();
}

void check_module(const std::vector<uint32_t>& spirv) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    throw Error(Error::Kind::InvalidSpirv, "not a SPIR-V module (no magic number 0x07230203)");
}

}  // namespace

std::vector<std::string> entry_points(const std::vector<uint32_t>& spirv) {
  check_module(spirv);
  std::vector<std::string> names;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpEntryPoint && count >= 3 && operands[0] == spv::ExecutionModelGLCompute)
      names.push_back(entry_name(operands, count));
  });
  return names;
}

std::vector<uint32_t> select_entry_point(const std::vector<uint32_t>& spirv, const std::string& name) {
  check_module(spirv);
  uint32_t kept_function = 0;
  bool found = false;
  std::string all;
  std::unordered_set<uint32_t> dropped_functions;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode != spv::OpEntryPoint || count < 3) return;
    const std::string entry = entry_name(operands, count);
    all += (all.empty() ? "" : ", ") + entry;
    if (entry == name && operands[0] == spv::ExecutionModelGLCompute) {
      found = true;
      kept_function = operands[1];
    } else {
      dropped_functions.insert(operands[1]);
    }
  });
  if (!found)
    throw Error(Error::Kind::InvalidSpirv, "the module has no GLCompute entry point '" + name +
                                               "'; its entry points: " + (all.empty() ? "none" : all));
  dropped_functions.erase(kept_function);  // one function may serve several entry points
  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + kSpirvHeaderWords);
  size_t at = kSpirvHeaderWords;
  while (at < spirv.size()) {
    const uint32_t length = spirv[at] >> 16;
    const uint32_t opcode = spirv[at] & 0xffffu;
    if (length == 0 || at + length > spirv.size())
      throw Error(Error::Kind::InvalidSpirv, "malformed instruction at word " + std::to_string(at));
    bool keep = true;
    if (opcode == spv::OpEntryPoint)
      keep = spirv[at + 1] == spv::ExecutionModelGLCompute && spirv[at + 2] == kept_function &&
             entry_name(&spirv[at + 1], length - 1) == name;
    else if (opcode == spv::OpExecutionMode || opcode == spv::OpExecutionModeId)
      keep = !dropped_functions.count(spirv[at + 1]);
    if (keep) out.insert(out.end(), spirv.begin() + at, spirv.begin() + at + length);
    at += length;
  }
  // The functions only the removed entry points called. Their buffers stay:
  // a kernel's parameters are every buffer the module declares, used or not.
  spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_6);
  optimizer.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  std::string log;
  optimizer.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                                   const char* message) { log += std::string(message) + "\n"; });
  std::vector<uint32_t> stripped;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(out.data(), out.size(), &stripped, options))
    throw Error(Error::Kind::InvalidSpirv, "removing the other entry points failed:\n" + log);
  return stripped;
}

}  // namespace porta::translator
