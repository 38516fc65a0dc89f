// Subgroup operations on target opencl: GLSL's subgroup functions as the
// sub_group_* built-ins of cl_khr_subgroups and the cl_khr_subgroup_*
// extensions. Vulkan's operations take the active invocations, so the
// non-uniform forms are used throughout (sub_group_non_uniform_reduce_add,
// not sub_group_reduce_add, which needs every work-item of the subgroup):
// exact in divergent control flow, at the price of needing the extension.
// Those built-ins take scalars (sub_group_non_uniform_broadcast aside): a
// vector is done component by component. Quads are shuffles. Every
// extension a kernel uses is named in a "// requires OpenCL extension: NAME"
// line; the OpenCL backend refuses a kernel that names one the device lacks.
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
  if (extensions_.empty()) return;
  // Every cl_khr_subgroup_* extension builds on cl_khr_subgroups.
  extensions_.insert(kSubgroups);
  for (const std::string& name : extensions_) statement("// requires OpenCL extension: ", name);
}

void OpenclCompiler::emit_subgroup_builtins() {
  struct Builtin {
    spv::BuiltIn builtin;
    const char* type;
    const char* value;
    const char* extension;
  };
  static const Builtin kBuiltins[] = {
      {spv::BuiltInSubgroupSize, "uint", "get_max_sub_group_size()", kSubgroups},
      {spv::BuiltInSubgroupLocalInvocationId, "uint", "get_sub_group_local_id()", kSubgroups},
      {spv::BuiltInNumSubgroups, "uint", "get_num_sub_groups()", kSubgroups},
      {spv::BuiltInSubgroupId, "uint", "get_sub_group_id()", kSubgroups},
      {spv::BuiltInSubgroupEqMask, "uint4", "get_sub_group_eq_mask()", kBallot},
      {spv::BuiltInSubgroupGeMask, "uint4", "get_sub_group_ge_mask()", kBallot},
      {spv::BuiltInSubgroupGtMask, "uint4", "get_sub_group_gt_mask()", kBallot},
      {spv::BuiltInSubgroupLeMask, "uint4", "get_sub_group_le_mask()", kBallot},
      {spv::BuiltInSubgroupLtMask, "uint4", "get_sub_group_lt_mask()", kBallot},
  };
  bool any = false;
  for (const Builtin& b : kBuiltins) {
    if (!active_input_builtins.get(b.builtin)) continue;
    require_extension(b.extension);
    statement("const ", b.type, " ", subgroup_builtin_name(b.builtin), " = (", b.type, ")", b.value, ";");
    any = true;
  }
  if (any) statement("");
}

std::string OpenclCompiler::subgroup_barrier_statement(bool control) {
  if (!control) return "mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";
  require_extension(kSubgroups);
  return "sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";
}

std::string OpenclCompiler::subgroup_expression(const SubgroupOperation& operation, uint32_t result_type) {
  const auto& ops = operation.operands;
  auto operand = [&](size_t i) { return to_unpacked_expression(ops[i]); };
  // `function(value, extra...)`, component by component for a vector value;
  // `join` combines the components' results ("" builds the result vector).
  auto per_component = [&](const std::string& function, const std::string& extra, const char* join = "") {
    const SPIRType& type = expression_type(ops[0]);
    if (type.vecsize == 1)
      return std::string(function).append("(").append(operand(0)).append(extra).append(")");
    const std::string value = to_enclosed_unpacked_expression(ops[0]);
    std::string out = "(";
    if (!*join) out.append(vector_type_name(get<SPIRType>(result_type).basetype, type.vecsize)).append(")(");
    for (uint32_t c = 0; c < type.vecsize; ++c) {
      if (c) out += *join ? join : ", ";
      out += function + "(" + value + "." + "xyzw"[c] + extra + ")";
    }
    return out + ")";
  };
  switch (operation.opcode) {
    case spv::OpGroupNonUniformElect:
      require_extension(kVote);
      return "sub_group_elect()";
    case spv::OpGroupNonUniformAll:
      require_extension(kVote);
      return "sub_group_non_uniform_all(" + operand(0) + ")";
    case spv::OpGroupNonUniformAny:
      require_extension(kVote);
      return "sub_group_non_uniform_any(" + operand(0) + ")";
    case spv::OpGroupNonUniformAllEqual:
      require_extension(kVote);
      return per_component("sub_group_non_uniform_all_equal", "", " && ");
    case spv::OpGroupNonUniformBroadcast:
      require_extension(kBallot);
      return "sub_group_non_uniform_broadcast(" + operand(0) + ", " + operand(1) + ")";
    case spv::OpGroupNonUniformBroadcastFirst:
      require_extension(kBallot);
      return per_component("sub_group_broadcast_first", "");
    case spv::OpGroupNonUniformBallot:
      require_extension(kBallot);
      return "sub_group_ballot(" + operand(0) + ")";
    case spv::OpGroupNonUniformInverseBallot:
      require_extension(kBallot);
      return "sub_group_inverse_ballot(" + operand(0) + ")";
    case spv::OpGroupNonUniformBallotBitExtract:
      require_extension(kBallot);
      return "sub_group_ballot_bit_extract(" + operand(0) + ", " + operand(1) + ")";
    case spv::OpGroupNonUniformBallotBitCount:
      require_extension(kBallot);
      return (operation.group_operation == spv::GroupOperationReduce ? "sub_group_ballot_bit_count("
              : operation.group_operation == spv::GroupOperationInclusiveScan
                  ? "sub_group_ballot_inclusive_scan("
                  : "sub_group_ballot_exclusive_scan(") +
             operand(0) + ")";
    case spv::OpGroupNonUniformBallotFindLSB:
      require_extension(kBallot);
      return "sub_group_ballot_find_lsb(" + operand(0) + ")";
    case spv::OpGroupNonUniformBallotFindMSB:
      require_extension(kBallot);
      return "sub_group_ballot_find_msb(" + operand(0) + ")";
    case spv::OpGroupNonUniformShuffle:
      require_extension(kShuffle);
      return per_component("sub_group_shuffle", ", " + operand(1));
    case spv::OpGroupNonUniformShuffleXor:
      require_extension(kShuffle);
      return per_component("sub_group_shuffle_xor", ", " + operand(1));
    case spv::OpGroupNonUniformShuffleUp:
      require_extension(kShuffleRelative);
      return per_component("sub_group_shuffle_up", ", " + operand(1));
    case spv::OpGroupNonUniformShuffleDown:
      require_extension(kShuffleRelative);
      return per_component("sub_group_shuffle_down", ", " + operand(1));
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

}  // namespace porta::translator::detail
