// Internal helpers over raw SPIR-V words shared by reflection and the targets.
#pragma once

#include <cstdint>
#include <spirv.hpp>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace porta::translator {

constexpr uint32_t kSpirvMagic = 0x07230203u;
constexpr uint32_t kSpirvHeaderWords = 5;
// SPV_KHR_bfloat16's capabilities, newer than these SPIR-V headers (the third,
// BFloat16CooperativeMatrixKHR, last of the three).
constexpr uint32_t kBFloat16TypeKHR = 5116, kBFloat16CooperativeMatrixKHR = 5118;

// A string literal operand: `count` words, NUL-terminated and padded.
inline std::string spirv_string(const uint32_t* words, size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i)
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[i] >> (8 * b)) & 0xff);
      if (c == 0) return text;
      text += c;
    }
  return text;
}

// Calls visit(opcode, operands, operand_count) for every instruction; stops at
// a malformed instruction (validation reports those).
template <class Visit>
void for_each_instruction(const std::vector<uint32_t>& spirv, Visit&& visit) {
  size_t at = kSpirvHeaderWords;
  while (at < spirv.size()) {
    const uint32_t length = spirv[at] >> 16;
    const uint32_t opcode = spirv[at] & 0xffffu;
    if (length == 0 || at + length > spirv.size()) return;
    visit(opcode, &spirv[at + 1], length - 1);
    at += length;
  }
}

// The SPIR-V 1.3 subgroup capabilities (GLSL's GL_KHR_shader_subgroup_*).
inline bool is_group_non_uniform(spv::Capability capability) {
  switch (capability) {
    case spv::CapabilityGroupNonUniform:
    case spv::CapabilityGroupNonUniformVote:
    case spv::CapabilityGroupNonUniformArithmetic:
    case spv::CapabilityGroupNonUniformBallot:
    case spv::CapabilityGroupNonUniformShuffle:
    case spv::CapabilityGroupNonUniformShuffleRelative:
    case spv::CapabilityGroupNonUniformClustered:
    case spv::CapabilityGroupNonUniformQuad:
      return true;
    default:
      return false;
  }
}

// The name of the instruction whose words (the first holds the opcode and the
// word count) are given: "OpSMod"; "opcode N" for one the disassembler does not know.
// OpExtInst names its set (`extended_set`, the import's name) and instruction:
// "GLSL.std.450 Fract".
std::string instruction_name(const uint32_t* words, uint32_t count, const std::string& extended_set = "");

// Spec constants replaced by constants with the given values (defaults for the
// others) and spec-constant expressions folded: what a driver would compile.
std::vector<uint32_t> specialize(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs);

// Phis of array-holding values replaced by a variable stored in the
// predecessors (coopmat_lowering.cpp says why); the module unchanged if none.
std::vector<uint32_t> demote_array_phis(const std::vector<uint32_t>& spirv);

// The name (then "MxNxK") of the functions a warp-fragment lowering calls for
// a cooperative-matrix multiply-add on tensor cores: target cuda spells them
// as mma.sync (cuda_compiler.cpp), every other target refuses them.
inline std::string tensor_core_function_prefix() { return "porta_mma_sync_"; }
// The same for Workgroup-scope matrices on sm_90's warpgroup MMA: target
// cuda calls porta_cuda.h's porta_wgmma<D, M, N, K>.
inline std::string warpgroup_function_prefix() { return "porta_wgmma_"; }
// The warp-fragment lowering's loads and stores of a `shared` array
// (porta_fragment_load_RxC_use_layout, porta_fragment_store_...): target cuda
// calls porta_cuda.h's porta_fragment_load/store; the functions' SPIR-V bodies
// are the same per-component loops the other lowering inlines.
inline std::string fragment_function_prefix() { return "porta_fragment_"; }
// The name of the NonSemantic instruction set whose instruction 0 insert_cancel_polls() puts in loop headers.
constexpr const char* kCancelPollSet = "NonSemantic.porta.cancel_poll";
// The module with `OpExtInst %void kCancelPollSet 0` at the top of every loop
// header (after its phis), but those marked Unroll (a count the compiler
// knows; a poll would keep them rolled): where a translation asks whether its dispatch was
// cancelled. Unchanged if the module has no loops.
std::vector<uint32_t> insert_cancel_polls(const std::vector<uint32_t>& spirv);

// The storage buffer TranslateOptions::bounds_report records into: named so,
// a block of one runtime array of uint.
constexpr const char* kBoundsRecordName = "porta_bounds_record";
// The module with that buffer added past the highest binding of the highest
// descriptor set it uses (`set`, `binding`; 0, 0 for a module without
// buffers), so that it is the last buffer parameter; `record` (if not null)
// gets the buffer's variable.
std::vector<uint32_t> add_bounds_record(const std::vector<uint32_t>& spirv, uint32_t& set, uint32_t& binding,
                                        uint32_t* record = nullptr);

}  // namespace porta::translator
