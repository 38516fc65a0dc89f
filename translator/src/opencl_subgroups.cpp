// Subgroup operations on target opencl, in one of two ways, as the device's
// subgroup size says (TranslateOptions::subgroup_size):
//
// The device's own subgroups: GLSL's subgroup functions as the sub_group_*
// built-ins of cl_khr_subgroups and the cl_khr_subgroup_* extensions.
// Vulkan's operations take the active invocations, so the non-uniform forms
// are used throughout (sub_group_non_uniform_reduce_add, not
// sub_group_reduce_add, which needs every work-item of the subgroup): exact
// in divergent control flow, at the price of needing the extension. Those
// built-ins take scalars (sub_group_non_uniform_broadcast aside): a vector is
// done component by component. Quads are shuffles. Every extension a kernel
// uses is named in a "// requires OpenCL extension: NAME" line; the OpenCL
// backend refuses a kernel that names one the device lacks.
//
// Subgroups of one work-item (size 1), for devices without those extensions
// (the OpenCL backend reports subgroup size 1 for them): Vulkan allows a
// subgroup of one invocation, and there every operation has an exact meaning
// that needs no built-in. The work-item is its subgroup's only invocation
// (gl_SubgroupInvocationID 0, gl_SubgroupID its local index, as many
// subgroups as work-items); elect is true; votes, broadcasts, reductions and
// inclusive scans give its own value; exclusive scans the operation's
// identity; a ballot has bit 0 alone. A shuffle to another index, a quad
// operation and a cluster of more than one invocation read an invocation
// that is not active (or does not exist), which SPIR-V leaves undefined:
// they give the own value, what a reduction over the active invocations of
// the cluster is. Nothing is refused: every operation is exact or undefined
// by SPIR-V itself.
#include "opencl_compiler.hpp"

namespace porta::translator::detail {

namespace {

constexpr const char* kSubgroups = "cl_khr_subgroups";
constexpr const char* kVote = "cl_khr_subgroup_non_uniform_vote";
constexpr const char* kBallot = "cl_khr_subgroup_ballot";
constexpr const char* kArithmetic = "cl_khr_subgroup_non_uniform_arithmetic";
constexpr const char* kShuffle = "cl_khr_subgroup_shuffle";
constexpr const char* kShuffleRelative = "cl_khr_subgroup_shuffle_relative";
constexpr const char* kClustered = "cl_khr_subgroup_clustered_reduce";

// The operations that are one built-in of their operands.
struct Builtin {
  spv::Op opcode;
  const char* extension;
  const char* name;
  // The built-in takes scalars: a vector goes component by component.
  bool per_component;
};
constexpr Builtin kBuiltinOperations[] = {
    {spv::OpGroupNonUniformElect, kVote, "sub_group_elect", false},
    {spv::OpGroupNonUniformAll, kVote, "sub_group_non_uniform_all", false},
    {spv::OpGroupNonUniformAny, kVote, "sub_group_non_uniform_any", false},
    {spv::OpGroupNonUniformAllEqual, kVote, "sub_group_non_uniform_all_equal", true},
    {spv::OpGroupNonUniformBroadcast, kBallot, "sub_group_non_uniform_broadcast", false},
    {spv::OpGroupNonUniformBroadcastFirst, kBallot, "sub_group_broadcast_first", true},
    {spv::OpGroupNonUniformBallot, kBallot, "sub_group_ballot", false},
    {spv::OpGroupNonUniformInverseBallot, kBallot, "sub_group_inverse_ballot", false},
    {spv::OpGroupNonUniformBallotBitExtract, kBallot, "sub_group_ballot_bit_extract", false},
    {spv::OpGroupNonUniformBallotFindLSB, kBallot, "sub_group_ballot_find_lsb", false},
    {spv::OpGroupNonUniformBallotFindMSB, kBallot, "sub_group_ballot_find_msb", false},
    {spv::OpGroupNonUniformShuffle, kShuffle, "sub_group_shuffle", true},
    {spv::OpGroupNonUniformShuffleXor, kShuffle, "sub_group_shuffle_xor", true},
    {spv::OpGroupNonUniformShuffleUp, kShuffleRelative, "sub_group_shuffle_up", true},
    {spv::OpGroupNonUniformShuffleDown, kShuffleRelative, "sub_group_shuffle_down", true},
};

}  // namespace

void OpenclCompiler::require_extension(const std::string& name) {
  extensions_.insert(name);
  if (!extensions_emitted_.count(name)) force_recompile();
}

// These extensions take no #pragma OPENCL EXTENSION (their built-ins exist
// where the device has them; clang warns of a pragma naming them), so the
// translation names them in comments of a fixed form, which the OpenCL
// backend reads.
void OpenclCompiler::emit_subgroup_requirements() {
  if (single_invocation_subgroups() && kernel_uses_subgroups())
    statement("// Subgroups of one work-item: the device has no cl_khr_subgroup_* extensions.");
  if (extensions_.empty()) return;
  // Every cl_khr_subgroup_* extension builds on cl_khr_subgroups.
  extensions_.insert(kSubgroups);
  for (const std::string& name : extensions_) statement("// requires OpenCL extension: ", name);
}

void OpenclCompiler::emit_subgroup_builtins() {
  struct Value {
    spv::BuiltIn builtin;
    const char* type;
    const char* device;  // the device's own subgroups
    const char* extension;
    const char* single;  // subgroups of one work-item
  };
  static const Value kValues[] = {
      {spv::BuiltInSubgroupSize, "uint", "get_max_sub_group_size()", kSubgroups, "1u"},
      {spv::BuiltInSubgroupLocalInvocationId, "uint", "get_sub_group_local_id()", kSubgroups, "0u"},
      {spv::BuiltInNumSubgroups, "uint", "get_num_sub_groups()", kSubgroups,
       "get_local_size(0) * get_local_size(1) * get_local_size(2)"},
      {spv::BuiltInSubgroupId, "uint", "get_sub_group_id()", kSubgroups,
       "get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))"},
      {spv::BuiltInSubgroupEqMask, "uint4", "get_sub_group_eq_mask()", kBallot, "(uint4)(1u, 0u, 0u, 0u)"},
      {spv::BuiltInSubgroupGeMask, "uint4", "get_sub_group_ge_mask()", kBallot, "(uint4)(1u, 0u, 0u, 0u)"},
      {spv::BuiltInSubgroupGtMask, "uint4", "get_sub_group_gt_mask()", kBallot, "(uint4)(0u)"},
      {spv::BuiltInSubgroupLeMask, "uint4", "get_sub_group_le_mask()", kBallot, "(uint4)(1u, 0u, 0u, 0u)"},
      {spv::BuiltInSubgroupLtMask, "uint4", "get_sub_group_lt_mask()", kBallot, "(uint4)(0u)"},
  };
  bool any = false;
  for (const Value& v : kValues) {
    if (!active_input_builtins.get(v.builtin)) continue;
    if (!single_invocation_subgroups()) require_extension(v.extension);
    statement("const ", v.type, " ", subgroup_builtin_name(v.builtin), " = (", v.type, ")(",
              single_invocation_subgroups() ? v.single : v.device, ");");
    any = true;
  }
  if (any) statement("");
}

std::string OpenclCompiler::subgroup_barrier_statement(bool control) {
  // A subgroup of one work-item has no one else to wait for.
  if (!control || single_invocation_subgroups())
    return "mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";
  require_extension(kSubgroups);
  return "sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";
}

std::string OpenclCompiler::subgroup_expression(const SubgroupOperation& operation, uint32_t result_type) {
  if (single_invocation_subgroups()) return single_invocation_expression(operation, result_type);
  // The device's reductions would add float16_t values as floats, unrounded
  // between lanes (opencl_half.cpp); moves (broadcasts, shuffles) are exact.
  if (operation.reduction != SubgroupReduction::None && !operation.operands.empty() &&
      expression_type(operation.operands[0]).basetype == SPIRType::Half)
    unsupported("subgroup arithmetic on float16_t");
  const auto& ops = operation.operands;
  auto operand = [&](size_t i) { return to_unpacked_expression(ops[i]); };
  // `function(value, extra...)`, component by component for a vector value:
  // the results make the result vector, or for a scalar result (all_equal)
  // are and-ed.
  auto per_component = [&](const std::string& function, const std::string& extra) {
    const SPIRType& type = expression_type(ops[0]);
    if (type.vecsize == 1)
      return std::string(function).append("(").append(operand(0)).append(extra).append(")");
    const SPIRType& result = get<SPIRType>(result_type);
    const bool join = result.vecsize == 1;
    const std::string value = to_enclosed_unpacked_expression(ops[0]);
    std::string out = "(";
    if (!join) out.append(vector_type_name(result.basetype, type.vecsize)).append(")(");
    for (uint32_t c = 0; c < type.vecsize; ++c) {
      if (c) out += join ? " && " : ", ";
      out += function + "(" + value + "." + "xyzw"[c] + extra + ")";
    }
    return out + ")";
  };
  for (const Builtin& builtin : kBuiltinOperations) {
    if (builtin.opcode != operation.opcode) continue;
    require_extension(builtin.extension);
    std::string extra;
    for (size_t i = builtin.per_component ? 1 : 0; i < ops.size(); ++i) extra += (i ? ", " : "") + operand(i);
    if (builtin.per_component) return per_component(builtin.name, extra);
    return std::string(builtin.name) + "(" + extra + ")";
  }
  switch (operation.opcode) {
    case spv::OpGroupNonUniformBallotBitCount:
      require_extension(kBallot);
      return (operation.group_operation == spv::GroupOperationReduce ? "sub_group_ballot_bit_count("
              : operation.group_operation == spv::GroupOperationInclusiveScan
                  ? "sub_group_ballot_inclusive_scan("
                  : "sub_group_ballot_exclusive_scan(") +
             operand(0) + ")";
    case spv::OpGroupNonUniformQuadBroadcast:
      require_extension(kShuffle);
      return per_component("sub_group_shuffle",
                           ", (get_sub_group_local_id() & ~3u) | ((uint)(" + operand(1) + ") & 3u)");
    case spv::OpGroupNonUniformQuadSwap: {
      require_extension(kShuffle);
      const char* mask = operation.function == "subgroupQuadSwapHorizontal" ? ", 1u"
                         : operation.function == "subgroupQuadSwapVertical" ? ", 2u"
                                                                            : ", 3u";
      return per_component("sub_group_shuffle_xor", mask);
    }
    default:
      break;
  }

  // Reductions, scans and clustered reductions.
  static const char* const kOperators[] = {"", "add", "mul", "min", "max", "and", "or", "xor"};
  const bool logical = expression_type(ops[0]).basetype == SPIRType::Boolean;
  std::string name = logical ? "logical_" : "";
  name += kOperators[static_cast<int>(operation.reduction)];
  if (operation.group_operation == spv::GroupOperationClusteredReduce) {
    require_extension(kClustered);
    return per_component("sub_group_clustered_reduce_" + name,
                         ", " + std::to_string(operation.cluster_size) + "u");
  }
  require_extension(kArithmetic);
  const char* form = operation.group_operation == spv::GroupOperationReduce          ? "reduce_"
                     : operation.group_operation == spv::GroupOperationInclusiveScan ? "scan_inclusive_"
                                                                                     : "scan_exclusive_";
  return per_component(std::string("sub_group_non_uniform_") + form + name, "");
}

// The identity of a reduction for one scalar of `base` (OpenCL C spelling).
std::string OpenclCompiler::reduction_identity(SubgroupReduction reduction, SPIRType::BaseType base) {
  using R = SubgroupReduction;
  if (reduction == R::Add || reduction == R::Or || reduction == R::Xor) return "0";
  if (reduction == R::Mul) return "1";
  if (reduction == R::And) return base == SPIRType::Boolean ? "1" : "~0";
  // The identity of min is the type's largest value, of max its smallest.
  static const struct {
    SPIRType::BaseType base;
    const char* largest;
    const char* smallest;
  } kRanges[] = {
      {SPIRType::SByte, "SCHAR_MAX", "SCHAR_MIN"}, {SPIRType::UByte, "UCHAR_MAX", "0"},
      {SPIRType::Short, "SHRT_MAX", "SHRT_MIN"},   {SPIRType::UShort, "USHRT_MAX", "0"},
      {SPIRType::Int, "INT_MAX", "INT_MIN"},       {SPIRType::UInt, "UINT_MAX", "0"},
      {SPIRType::Int64, "LONG_MAX", "LONG_MIN"},   {SPIRType::UInt64, "ULONG_MAX", "0"},
  };
  for (const auto& range : kRanges)
    if (range.base == base) return reduction == R::Min ? range.largest : range.smallest;
  return reduction == R::Min ? "INFINITY" : "-INFINITY";  // half, float, double
}

std::string OpenclCompiler::single_invocation_expression(const SubgroupOperation& operation,
                                                         uint32_t result_type) {
  const auto& ops = operation.operands;
  const std::string own = ops.empty() ? "" : to_enclosed_unpacked_expression(ops[0]);
  switch (operation.opcode) {
    case spv::OpGroupNonUniformElect:
      return "true";
    case spv::OpGroupNonUniformAllEqual: {
      // Equal to itself, as the other backends compare: false for a NaN.
      const SPIRType& type = expression_type(ops[0]);
      if (type.basetype != SPIRType::Half && type.basetype != SPIRType::Float &&
          type.basetype != SPIRType::Double)
        return "true";
      return type.vecsize == 1 ? "(!isnan(" + own + "))" : "(!any(isnan(" + own + ")))";
    }
    case spv::OpGroupNonUniformBallot:
      return "((uint4)(" + own + " ? 1u : 0u, 0u, 0u, 0u))";
    case spv::OpGroupNonUniformInverseBallot:
      return "((" + own + ".x & 1u) != 0u)";
    case spv::OpGroupNonUniformBallotBitExtract:
      require_section("ballot_bit_extract", "", "");
      return "porta_ballot_bit_extract(" + to_unpacked_expression(ops[0]) + ", (uint)(" +
             to_unpacked_expression(ops[1]) + "))";
    case spv::OpGroupNonUniformBallotBitCount:
      // Only bit 0 stands for an invocation; none is below it.
      return operation.group_operation == spv::GroupOperationExclusiveScan ? "0u" : "(" + own + ".x & 1u)";
    case spv::OpGroupNonUniformBallotFindLSB:
    case spv::OpGroupNonUniformBallotFindMSB:
      // Bit 0, or GLSL's findLSB/findMSB of no bit set (SPIR-V: undefined).
      return "((" + own + ".x & 1u) != 0u ? 0u : 0xffffffffu)";
    default:
      break;
  }
  if (operation.reduction != SubgroupReduction::None &&
      operation.group_operation == spv::GroupOperationExclusiveScan) {
    const SPIRType& type = get<SPIRType>(result_type);
    const std::string value = reduction_identity(operation.reduction, type.basetype);
    const bool boolean = type.basetype == SPIRType::Boolean;
    if (boolean && type.vecsize == 1) return value == "0" ? "false" : "true";
    // A bvecN is an intN of -1 (true) and 0 (false); a vector's identity is a
    // splat. Parenthesised whole: a cast binds looser than a swizzle after it.
    std::string out = "((";
    out.append(type_to_glsl(type)).append(")(").append(boolean && value != "0" ? "-1" : value).append("))");
    return out;
  }
  // Votes, broadcasts, shuffles, quads, reductions, inclusive scans and
  // clustered reductions: the own value.
  return to_unpacked_expression(ops[0]);
}

}  // namespace porta::translator::detail
