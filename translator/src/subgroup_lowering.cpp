// Subgroup operations (GLSL's GL_KHR_shader_subgroup_*, SPIR-V's
// OpGroupNonUniform*) for every source target: each instruction is decoded
// once here into GLSL's function and its operands; a target spells the call
// (subgroup_expression) and the built-ins. Targets cpp and cuda keep GLSL's
// names, which their runtimes implement (runtime/porta_cpu_kernel.inc,
// runtime/porta_cuda_kernel.inc); target opencl maps them to sub_group_*,
// or, for a device whose subgroups have one work-item
// (TranslateOptions::subgroup_size 1), to their meaning there.
#include <string>

#include "spirv_words.hpp"
#include "target_compiler.hpp"

namespace porta::translator::detail {

namespace {

enum class Signedness { Any, Signed, Unsigned };

// The instructions that are one GLSL function of their value operands.
struct PlainOperation {
  spv::Op opcode;
  const char* function;
  uint32_t operands;  // value operands after the scope
  bool exchanges;     // SubgroupOperation::exchanges
  bool generic;       // SubgroupOperation::generic
};
constexpr PlainOperation kPlainOperations[] = {
    {spv::OpGroupNonUniformElect, "subgroupElect", 0, true, false},
    {spv::OpGroupNonUniformAll, "subgroupAll", 1, true, false},
    {spv::OpGroupNonUniformAny, "subgroupAny", 1, true, false},
    {spv::OpGroupNonUniformAllEqual, "subgroupAllEqual", 1, true, true},
    {spv::OpGroupNonUniformBroadcast, "subgroupBroadcast", 2, true, true},
    {spv::OpGroupNonUniformBroadcastFirst, "subgroupBroadcastFirst", 1, true, true},
    {spv::OpGroupNonUniformBallot, "subgroupBallot", 1, true, false},
    {spv::OpGroupNonUniformInverseBallot, "subgroupInverseBallot", 1, false, false},
    {spv::OpGroupNonUniformBallotBitExtract, "subgroupBallotBitExtract", 2, false, false},
    {spv::OpGroupNonUniformBallotFindLSB, "subgroupBallotFindLSB", 1, false, false},
    {spv::OpGroupNonUniformBallotFindMSB, "subgroupBallotFindMSB", 1, false, false},
    {spv::OpGroupNonUniformShuffle, "subgroupShuffle", 2, true, true},
    {spv::OpGroupNonUniformShuffleXor, "subgroupShuffleXor", 2, true, true},
    {spv::OpGroupNonUniformShuffleUp, "subgroupShuffleUp", 2, true, true},
    {spv::OpGroupNonUniformShuffleDown, "subgroupShuffleDown", 2, true, true},
    {spv::OpGroupNonUniformQuadBroadcast, "subgroupQuadBroadcast", 2, true, true},
};

}  // namespace

std::string TargetCompiler::subgroup_builtin_name(spv::BuiltIn builtin) {
  static const std::pair<spv::BuiltIn, const char*> kNames[] = {
      {spv::BuiltInSubgroupSize, "gl_SubgroupSize"},
      {spv::BuiltInSubgroupLocalInvocationId, "gl_SubgroupInvocationID"},
      {spv::BuiltInNumSubgroups, "gl_NumSubgroups"},
      {spv::BuiltInSubgroupId, "gl_SubgroupID"},
      {spv::BuiltInSubgroupEqMask, "gl_SubgroupEqMask"},
      {spv::BuiltInSubgroupGeMask, "gl_SubgroupGeMask"},
      {spv::BuiltInSubgroupGtMask, "gl_SubgroupGtMask"},
      {spv::BuiltInSubgroupLeMask, "gl_SubgroupLeMask"},
      {spv::BuiltInSubgroupLtMask, "gl_SubgroupLtMask"},
  };
  for (const auto& [known, name] : kNames)
    if (known == builtin) return name;
  return "";
}

void TargetCompiler::check_subgroup_size() const {
  if (uses_subgroups_ && single_invocation_subgroups() && !takes_single_invocation_subgroups())
    unsupported("subgroups of one invocation (this target's subgroups have 32 lanes)");
}

void TargetCompiler::emit_subgroup_op(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  const uint32_t result_type = ops[0], id = ops[1];
  if (evaluate_constant_u32(ops[2]) != spv::ScopeSubgroup)
    unsupported("a group operation whose scope is not Subgroup");

  SubgroupOperation operation;
  operation.opcode = opcode;
  auto values = [&](uint32_t first, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) operation.operands.push_back(ops[first + i]);
  };
  using R = SubgroupReduction;
  // The reductions, scans and clustered reductions: the combining operation
  // and the signedness the opcode names (min and max only).
  struct ReductionOpcode {
    spv::Op opcode;
    R reduction;
    Signedness signedness;
  };
  static constexpr ReductionOpcode kReductionOpcodes[] = {
      {spv::OpGroupNonUniformIAdd, R::Add, Signedness::Any},
      {spv::OpGroupNonUniformFAdd, R::Add, Signedness::Any},
      {spv::OpGroupNonUniformIMul, R::Mul, Signedness::Any},
      {spv::OpGroupNonUniformFMul, R::Mul, Signedness::Any},
      {spv::OpGroupNonUniformSMin, R::Min, Signedness::Signed},
      {spv::OpGroupNonUniformUMin, R::Min, Signedness::Unsigned},
      {spv::OpGroupNonUniformFMin, R::Min, Signedness::Any},
      {spv::OpGroupNonUniformSMax, R::Max, Signedness::Signed},
      {spv::OpGroupNonUniformUMax, R::Max, Signedness::Unsigned},
      {spv::OpGroupNonUniformFMax, R::Max, Signedness::Any},
      {spv::OpGroupNonUniformBitwiseAnd, R::And, Signedness::Any},
      {spv::OpGroupNonUniformLogicalAnd, R::And, Signedness::Any},
      {spv::OpGroupNonUniformBitwiseOr, R::Or, Signedness::Any},
      {spv::OpGroupNonUniformLogicalOr, R::Or, Signedness::Any},
      {spv::OpGroupNonUniformBitwiseXor, R::Xor, Signedness::Any},
      {spv::OpGroupNonUniformLogicalXor, R::Xor, Signedness::Any},
  };
  const PlainOperation* plain = nullptr;
  for (const PlainOperation& candidate : kPlainOperations)
    if (candidate.opcode == opcode) plain = &candidate;
  const ReductionOpcode* reduction = nullptr;
  for (const ReductionOpcode& candidate : kReductionOpcodes)
    if (candidate.opcode == opcode) reduction = &candidate;

  if (plain) {
    operation.function = plain->function;
    operation.exchanges = plain->exchanges;
    operation.generic = plain->generic;
    values(3, plain->operands);
  } else if (opcode == spv::OpGroupNonUniformBallotBitCount) {
    const auto group = static_cast<spv::GroupOperation>(ops[3]);
    operation.function = group == spv::GroupOperationReduce          ? "subgroupBallotBitCount"
                         : group == spv::GroupOperationInclusiveScan ? "subgroupBallotInclusiveBitCount"
                         : group == spv::GroupOperationExclusiveScan ? "subgroupBallotExclusiveBitCount"
                                                                     : "";
    if (operation.function.empty()) unsupported("a ballot bit count that is no reduce or scan");
    operation.group_operation = group;
    operation.exchanges = false;
    values(4, 1);
  } else if (opcode == spv::OpGroupNonUniformQuadSwap) {
    const uint32_t direction = evaluate_constant_u32(ops[4]);
    if (direction > 2) unsupported("a quad swap direction other than 0, 1 or 2");
    operation.function = direction == 0   ? "subgroupQuadSwapHorizontal"
                         : direction == 1 ? "subgroupQuadSwapVertical"
                                          : "subgroupQuadSwapDiagonal";
    operation.generic = true;
    values(3, 1);
  } else if (reduction) {
    static const char* const kNames[] = {"", "Add", "Mul", "Min", "Max", "And", "Or", "Xor"};
    const auto group = static_cast<spv::GroupOperation>(ops[3]);
    const char* name = kNames[static_cast<int>(reduction->reduction)];
    operation.reduction = reduction->reduction;
    operation.group_operation = group;
    operation.generic = true;
    switch (group) {
      case spv::GroupOperationReduce:
        operation.function = std::string("subgroup") + name;
        break;
      case spv::GroupOperationInclusiveScan:
        operation.function = std::string("subgroupInclusive") + name;
        break;
      case spv::GroupOperationExclusiveScan:
        operation.function = std::string("subgroupExclusive") + name;
        break;
      case spv::GroupOperationClusteredReduce:
        operation.function = std::string("subgroupClustered") + name;
        operation.cluster_size = evaluate_constant_u32(ops[5]);
        if (operation.cluster_size == 0 || (operation.cluster_size & (operation.cluster_size - 1)) != 0)
          unsupported("a cluster size that is not a power of two");
        break;
      default:
        unsupported("partitioned subgroup operations");
    }
    values(4, 1);
    // The signedness comes from the opcode; GLSL's overloads take it from
    // the type, and glslang always makes the two agree.
    const SPIRType& type = get<SPIRType>(result_type);
    const bool is_signed = type.basetype == SPIRType::Int || type.basetype == SPIRType::Int64;
    if ((reduction->signedness == Signedness::Signed && !is_signed) ||
        (reduction->signedness == Signedness::Unsigned && is_signed))
      unsupported("a subgroup min/max whose signedness differs from its operand's type");
  } else {
    unsupported("this subgroup operation");
  }

  for (uint32_t operand : operation.operands) {
    const SPIRType& type = expression_type(operand);
    if (type.columns > 1 || !type.array.empty() || type.basetype == SPIRType::Struct)
      unsupported("a subgroup operation on a matrix, array or struct");
  }
  // The lanes meet here: nothing may be forwarded across the call, and the
  // call itself is a statement even when no one reads its result. A
  // subgroup of one invocation meets no one.
  if (operation.exchanges && !single_invocation_subgroups()) {
    flush_control_dependent_expressions(current_emitting_block->self);
    flush_all_active_variables();
  }
  // In a subgroup of one invocation each operation is a pure function of its
  // operands, forwarded as any expression is (an unread one then vanishes).
  bool forward = single_invocation_subgroups();
  for (uint32_t operand : operation.operands) forward = forward && should_forward(operand);
  emit_op(result_type, id, subgroup_expression(operation, result_type), forward);
  if (forward)
    for (uint32_t operand : operation.operands) inherit_expression_dependencies(id, operand);
}

std::string TargetCompiler::subgroup_expression(const SubgroupOperation& operation, uint32_t) {
  std::string call = operation.function;
  if (operation.generic)
    call.append("<").append(type_to_glsl(expression_type(operation.operands[0]))).append(">");
  call += "(";
  for (size_t i = 0; i < operation.operands.size(); ++i)
    call += (i ? ", " : "") + to_unpacked_expression(operation.operands[i]);
  if (operation.cluster_size) call += ", " + std::to_string(operation.cluster_size) + "u";
  return call + ")";
}

std::string TargetCompiler::subgroup_barrier_statement(bool control) {
  return control ? "subgroupBarrier();" : "subgroupMemoryBarrier();";
}

bool TargetCompiler::emit_subgroup_barrier(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const bool control = instruction.op == spv::OpControlBarrier;
  const uint32_t execution = control ? evaluate_constant_u32(ops[0]) : 0;
  const uint32_t memory = evaluate_constant_u32(ops[control ? 1 : 0]);
  // A workgroup barrier with a subgroup memory scope still waits for the group.
  if (control ? execution != spv::ScopeSubgroup : memory != spv::ScopeSubgroup) return false;
  if (control) {
    flush_control_dependent_expressions(current_emitting_block->self);
    flush_all_active_variables();
  }
  statement(subgroup_barrier_statement(control));
  return true;
}

}  // namespace porta::translator::detail
