// Subgroup operations (GLSL's GL_KHR_shader_subgroup_*, SPIR-V's
// OpGroupNonUniform*) for every source target: each instruction is decoded
// once here into GLSL's function and its operands; a target spells the call
// (subgroup_expression) and the built-ins. Targets cpp and cuda keep GLSL's
// names, which their runtimes implement (runtime/porta_cpu_kernel.inc,
// runtime/porta_cuda_kernel.inc); target opencl maps them to sub_group_*.
#include <string>

#include "spirv_words.hpp"
#include "target_compiler.hpp"

namespace porta::translator::detail {

std::string TargetCompiler::subgroup_builtin_name(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltInSubgroupSize:
      return "gl_SubgroupSize";
    case spv::BuiltInSubgroupLocalInvocationId:
      return "gl_SubgroupInvocationID";
    case spv::BuiltInNumSubgroups:
      return "gl_NumSubgroups";
    case spv::BuiltInSubgroupId:
      return "gl_SubgroupID";
    case spv::BuiltInSubgroupEqMask:
      return "gl_SubgroupEqMask";
    case spv::BuiltInSubgroupGeMask:
      return "gl_SubgroupGeMask";
    case spv::BuiltInSubgroupGtMask:
      return "gl_SubgroupGtMask";
    case spv::BuiltInSubgroupLeMask:
      return "gl_SubgroupLeMask";
    case spv::BuiltInSubgroupLtMask:
      return "gl_SubgroupLtMask";
    default:
      return "";
  }
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
  R reduction = R::None;
  bool signed_operation = false, unsigned_operation = false;
  switch (opcode) {
    case spv::OpGroupNonUniformElect:
      operation.function = "subgroupElect";
      break;
    case spv::OpGroupNonUniformAll:
      operation.function = "subgroupAll";
      values(3, 1);
      break;
    case spv::OpGroupNonUniformAny:
      operation.function = "subgroupAny";
      values(3, 1);
      break;
    case spv::OpGroupNonUniformAllEqual:
      operation.function = "subgroupAllEqual";
      values(3, 1);
      break;
    case spv::OpGroupNonUniformBroadcast:
      operation.function = "subgroupBroadcast";
      values(3, 2);
      break;
    case spv::OpGroupNonUniformBroadcastFirst:
      operation.function = "subgroupBroadcastFirst";
      values(3, 1);
      break;
    case spv::OpGroupNonUniformBallot:
      operation.function = "subgroupBallot";
      values(3, 1);
      break;
    case spv::OpGroupNonUniformInverseBallot:
      operation.function = "subgroupInverseBallot";
      operation.exchanges = false;
      values(3, 1);
      break;
    case spv::OpGroupNonUniformBallotBitExtract:
      operation.function = "subgroupBallotBitExtract";
      operation.exchanges = false;
      values(3, 2);
      break;
    case spv::OpGroupNonUniformBallotBitCount: {
      const auto group = static_cast<spv::GroupOperation>(ops[3]);
      operation.function = group == spv::GroupOperationReduce          ? "subgroupBallotBitCount"
                           : group == spv::GroupOperationInclusiveScan ? "subgroupBallotInclusiveBitCount"
                           : group == spv::GroupOperationExclusiveScan ? "subgroupBallotExclusiveBitCount"
                                                                       : "";
      if (operation.function.empty()) unsupported("a ballot bit count that is no reduce or scan");
      operation.group_operation = group;
      operation.exchanges = false;
      values(4, 1);
      break;
    }
    case spv::OpGroupNonUniformBallotFindLSB:
      operation.function = "subgroupBallotFindLSB";
      operation.exchanges = false;
      values(3, 1);
      break;
    case spv::OpGroupNonUniformBallotFindMSB:
      operation.function = "subgroupBallotFindMSB";
      operation.exchanges = false;
      values(3, 1);
      break;
    case spv::OpGroupNonUniformShuffle:
      operation.function = "subgroupShuffle";
      values(3, 2);
      break;
    case spv::OpGroupNonUniformShuffleXor:
      operation.function = "subgroupShuffleXor";
      values(3, 2);
      break;
    case spv::OpGroupNonUniformShuffleUp:
      operation.function = "subgroupShuffleUp";
      values(3, 2);
      break;
    case spv::OpGroupNonUniformShuffleDown:
      operation.function = "subgroupShuffleDown";
      values(3, 2);
      break;
    case spv::OpGroupNonUniformQuadBroadcast:
      operation.function = "subgroupQuadBroadcast";
      values(3, 2);
      break;
    case spv::OpGroupNonUniformQuadSwap: {
      const uint32_t direction = evaluate_constant_u32(ops[4]);
      if (direction > 2) unsupported("a quad swap direction other than 0, 1 or 2");
      operation.function = direction == 0   ? "subgroupQuadSwapHorizontal"
                           : direction == 1 ? "subgroupQuadSwapVertical"
                                            : "subgroupQuadSwapDiagonal";
      values(3, 1);
      break;
    }
    case spv::OpGroupNonUniformIAdd:
    case spv::OpGroupNonUniformFAdd:
      reduction = R::Add;
      break;
    case spv::OpGroupNonUniformIMul:
    case spv::OpGroupNonUniformFMul:
      reduction = R::Mul;
      break;
    case spv::OpGroupNonUniformSMin:
      signed_operation = true;
      reduction = R::Min;
      break;
    case spv::OpGroupNonUniformUMin:
      unsigned_operation = true;
      reduction = R::Min;
      break;
    case spv::OpGroupNonUniformFMin:
      reduction = R::Min;
      break;
    case spv::OpGroupNonUniformSMax:
      signed_operation = true;
      reduction = R::Max;
      break;
    case spv::OpGroupNonUniformUMax:
      unsigned_operation = true;
      reduction = R::Max;
      break;
    case spv::OpGroupNonUniformFMax:
      reduction = R::Max;
      break;
    case spv::OpGroupNonUniformBitwiseAnd:
    case spv::OpGroupNonUniformLogicalAnd:
      reduction = R::And;
      break;
    case spv::OpGroupNonUniformBitwiseOr:
    case spv::OpGroupNonUniformLogicalOr:
      reduction = R::Or;
      break;
    case spv::OpGroupNonUniformBitwiseXor:
    case spv::OpGroupNonUniformLogicalXor:
      reduction = R::Xor;
      break;
    default:
      unsupported("this subgroup operation");
  }

  if (reduction != R::None) {
    static const char* const kNames[] = {"", "Add", "Mul", "Min", "Max", "And", "Or", "Xor"};
    const auto group = static_cast<spv::GroupOperation>(ops[3]);
    const char* name = kNames[static_cast<int>(reduction)];
    operation.reduction = reduction;
    operation.group_operation = group;
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
    if ((signed_operation && !is_signed) || (unsigned_operation && is_signed))
      unsupported("a subgroup min/max whose signedness differs from its operand's type");
  }

  operation.generic =
      reduction != R::None || opcode == spv::OpGroupNonUniformAllEqual ||
      opcode == spv::OpGroupNonUniformBroadcast || opcode == spv::OpGroupNonUniformBroadcastFirst ||
      opcode == spv::OpGroupNonUniformShuffle || opcode == spv::OpGroupNonUniformShuffleXor ||
      opcode == spv::OpGroupNonUniformShuffleUp || opcode == spv::OpGroupNonUniformShuffleDown ||
      opcode == spv::OpGroupNonUniformQuadBroadcast || opcode == spv::OpGroupNonUniformQuadSwap;
  for (uint32_t operand : operation.operands) {
    const SPIRType& type = expression_type(operand);
    if (type.columns > 1 || !type.array.empty() || type.basetype == SPIRType::Struct)
      unsupported("a subgroup operation on a matrix, array or struct");
  }
  // The lanes meet here: nothing may be forwarded across the call, and the
  // call itself is a statement even when no one reads its result.
  if (operation.exchanges) {
    flush_control_dependent_expressions(current_emitting_block->self);
    flush_all_active_variables();
  }
  emit_op(result_type, id, subgroup_expression(operation, result_type), false);
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
