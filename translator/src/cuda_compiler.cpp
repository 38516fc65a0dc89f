// Target cuda. The translation unit, in order:
//   porta_cuda.h, porta_glsl.hpp; namespace porta_glsl::kernel {; spec
//   constants, gl_WorkGroupSize, structs, the push-constant struct; buffer
//   views; porta_group_shared; porta_work_item (built-ins from the CUDA
//   registers, views, push constants, shared memory, private globals,
//   barrier(), helper functions, main()); }; the extern "C" __global__ entry.
// The kernel code sits inside porta_glsl so that GLSL's functions (sqrt, min,
// ...) hide the CUDA math library's global overloads of the same names. The
// backend compiles with -default-device: every function here is a device
// function without saying so. The parts that do not depend on the kernel
// (the includes and namespaces, barrier()) are sections of
// runtime/porta_cuda_kernel.inc.
#include "cuda_compiler.hpp"

#include "spirv_words.hpp"

namespace porta::translator::detail {

std::string CudaCompiler::buffer_parameter(uint32_t index, bool entry) const {
  std::string name = "b";
  name += std::to_string(index);
  if (buffer_parameters()[index].access != Access::Read) return "void* " + name;
  // Only a buffer no view writes is __restrict__ (NVCC may then load it through
  // the read-only data cache). A buffer the kernel writes may be the very buffer
  // another parameter points to: an elementwise op run in place (mul(a, b, a))
  // passes one buffer as an input and as the output. Its readonly side may keep
  // restrict because the only overlap porta's ops allow is exactly the same
  // view (require_disjoint_or_same), where each element is read only by the
  // work-item that writes it, before it writes it.
  return std::string("const void*") + (entry ? " __restrict__ " : " ") + name;
}

std::string CudaCompiler::buffer_sizes_type() const {
  return "porta_buffer_sizes<" + std::to_string(buffer_parameters().size()) + ">";
}

const std::unordered_set<std::string>& CudaCompiler::reserved_words() const {
  // The C++ words, CUDA's built-in variables and types, and the names the
  // generated code uses.
  static const std::unordered_set<std::string> words =
      cxx_reserved_words({"kernel", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3",
                          "half", "porta_cuda_kernel", "porta_shared_storage", "porta_no_shared",
                          "group_shared", "pc", "porta_b", "porta_sizes", "porta_buffer_sizes",
                          "porta_buffers_aligned", "porta_cuda_kernel_aligned", "porta_wide_alignment"});
  return words;
}

std::optional<CudaCompiler::WideChain> CudaCompiler::wide_chain(const uint32_t* ops, uint32_t length) const {
  // ops: result type, result, base, indexes.
  const auto* pointee = maybe_get<spirv_cross::SPIRType>(ops[0]);
  if (!pointee || length < 4) return std::nullopt;
  const uint32_t bytes = wide_vector_bytes(get<spirv_cross::SPIRType>(pointee->parent_type));
  const auto* variable = maybe_get<spirv_cross::SPIRVariable>(ops[2]);
  if (!bytes || !variable || has_decoration(variable->self, spv::DecorationVolatile)) return std::nullopt;
  const spirv_cross::SPIRType& type = get_variable_data_type(*variable);
  if (variable->storage == spv::StorageClassWorkgroup) {
    // shared T s[N] with T the vector: emit_shared_struct aligns it to `bytes`.
    const bool element = length == 4 && type.array.size() == 1 && wide_vector_bytes(type) == bytes &&
                         type.vecsize == pointee->vecsize && type.basetype == pointee->basetype;
    return element ? std::optional<WideChain>(WideChain{bytes, true, false}) : std::nullopt;
  }
  const BufferView* view = find_buffer_view(ops[2]);
  if (!view || view->is_array || is_byte_addressed(ops[2]) || (length != 4 && length != 5))
    return std::nullopt;
  const auto* member_index = maybe_get<spirv_cross::SPIRConstant>(ops[3]);
  if (!member_index || member_index->specialization) return std::nullopt;
  const uint32_t member = member_index->scalar();
  if (member >= type.member_types.size() || type_struct_member_offset(type, member) % bytes != 0)
    return std::nullopt;
  const spirv_cross::SPIRType& member_type = get<spirv_cross::SPIRType>(type.member_types[member]);
  // A vector member (one index), or an element of an array of them whose
  // stride is the vector's size (two).
  const bool whole = length == 4 && member_type.array.empty();
  const bool element =
      length == 5 && member_type.array.size() == 1 && type_struct_member_array_stride(type, member) == bytes;
  if (!whole && !element) return std::nullopt;
  return WideChain{bytes, false, buffer_parameters()[view->parameter].access == Access::Read, view->variable};
}

std::string CudaCompiler::wide_call(const char* function, uint32_t chain) const {
  const WideChain& wide = wide_chains_.at(chain);
  const bool versioned = !wide.aligned && !wide_buffers_declared_.empty();
  std::string call = std::string(function) + "<" + std::to_string(wide.bytes) +
                     (wide.aligned ? ", true"
                      : versioned  ? ", porta_buffers_aligned"
                                   : ", false");
  return call + (wide.read_only ? ", true>" : ">");
}

std::string CudaCompiler::wide_buffer_argument(const WideChain& wide) {
  if (wide.aligned || wide_buffers_declared_.empty()) return "";
  return ", " + buffer_base_pointer(wide.view, "");
}

void CudaCompiler::emit_store_statement(uint32_t lhs_expression, uint32_t rhs_expression) {
  if (!wide_chains_.count(lhs_expression)) {
    TargetCompiler::emit_store_statement(lhs_expression, rhs_expression);
    return;
  }
  statement(wide_call("porta_store_wide", lhs_expression), "(&", to_expression(lhs_expression), ", ",
            to_unpacked_expression(rhs_expression), wide_buffer_argument(wide_chains_.at(lhs_expression)),
            ");");
  register_write(lhs_expression);
}

void CudaCompiler::emit_target_instruction(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  if (instruction.op == spv::OpAccessChain || instruction.op == spv::OpInBoundsAccessChain) {
    if (const std::optional<WideChain> wide = wide_chain(ops, instruction.length)) {
      wide_chains_[ops[1]] = *wide;
      if (!wide->aligned) {
        uint32_t& bytes = wide_buffers_[find_buffer_view(wide->view)->parameter];
        bytes = std::max(bytes, wide->bytes);
        // The work item of this pass was declared without it: again.
        if (wide_buffers_ != wide_buffers_declared_) force_recompile();
      }
    }
  } else if (instruction.op == spv::OpLoad && wide_chains_.count(ops[2]) && !guarding_ &&
             (instruction.length < 4 || !(ops[3] & spv::MemoryAccessVolatileMask))) {
    // (A load that bounds checks guard reads its guarded expression as before.)
    emit_op(ops[0], ops[1],
            wide_call("porta_load_wide", ops[2]) + "(&" + to_expression(ops[2]) +
                wide_buffer_argument(wide_chains_.at(ops[2])) + ")",
            false);
    return;
  }
  if (instruction.op == spv::OpFunctionCall && instruction.length == 6) {
    const std::string shape = tensor_core_shape(ops[2]);
    if (!shape.empty()) {
      const std::string prefix = warpgroup_function_prefix();
      const bool warpgroup = ir.get_name(ops[2]).compare(0, prefix.size(), prefix) == 0;
      emit_op(ops[0], ops[1],
              std::string(warpgroup ? "porta_wgmma<" : "porta_mma_sync<") +
                  type_to_glsl(get<spirv_cross::SPIRType>(ops[0])) + ", " + shape + ">(" +
                  to_expression(ops[3]) + ", " + to_expression(ops[4]) + ", " + to_expression(ops[5]) + ")",
              false);
      return;
    }
    bool load = false;
    const std::string transfer = fragment_transfer(ops[2], load);
    if (!transfer.empty()) {
      emit_op(ops[0], ops[1],
              "porta_fragment_load<" + type_to_glsl(get<spirv_cross::SPIRType>(ops[0])) + ", " + transfer +
                  ">(" + to_expression(ops[3]) + ", " + to_expression(ops[4]) + ", " + to_expression(ops[5]) +
                  ")",
              false);
      return;
    }
  }
  if (instruction.op == spv::OpFunctionCall && instruction.length == 7) {
    bool load = false;
    const std::string transfer = fragment_transfer(ops[2], load);
    if (!transfer.empty() && !load) {
      statement("porta_fragment_store<", transfer, ">(", to_expression(ops[3]), ", ", to_expression(ops[4]),
                ", ", to_expression(ops[5]), ", ", to_expression(ops[6]), ");");
      register_write(ops[3]);  // expressions that read the array before are not forwarded past it
      return;
    }
  }
  TargetCompiler::emit_target_instruction(instruction);
}

void CudaCompiler::emit_translation_unit() {
  // The tensor-core helpers' SPIR-V bodies are placeholders (calls to them
  // become mma.sync), and the fragment loads and stores are porta_cuda.h's:
  // marked as emitted, the emitter skips them.
  ir.for_each_typed_id<spirv_cross::SPIRFunction>([&](uint32_t id, spirv_cross::SPIRFunction& function) {
    bool load = false;
    if (!tensor_core_shape(id).empty() || !fragment_transfer(id, load).empty()) function.active = true;
  });
  WorkItemConstructor constructor;
  constructor.comment =
      "// One work-item (a CUDA thread): GLSL's built-ins and resources as members, the kernel as main().";
  wide_buffers_declared_ = wide_buffers_;
  if (!wide_buffers_declared_.empty()) {
    constructor.comment +=
        "\n// porta_buffers_aligned: every buffer accessed wide starts aligned for its accesses, which\n"
        "// then need not test it (the entry point tests once).";
    constructor.template_header = "template <bool porta_buffers_aligned>";
  }
  for (uint32_t i = 0; i < buffer_parameters().size(); ++i)
    constructor.parameters += buffer_parameter(i, false) + ", ";
  if (push_constant_variable()) constructor.parameters += "const " + push_constant_type_name() + "& pc, ";
  if (!buffer_parameters().empty())
    constructor.parameters += "const ::" + buffer_sizes_type() + "& porta_sizes, ";
  constructor.parameters += "porta_group_shared& group_shared";
  constructor.built_ins = {
      "gridDim.x, gridDim.y, gridDim.z", "blockIdx.x, blockIdx.y, blockIdx.z",
      "threadIdx.x, threadIdx.y, threadIdx.z", "gl_WorkGroupID * gl_WorkGroupSize + gl_LocalInvocationID",
      "threadIdx.x + gl_WorkGroupSize.x * (threadIdx.y + gl_WorkGroupSize.y * threadIdx.z)"};
  constructor.view_base = [](uint32_t parameter) {
    std::string name = "b";  // appended: "b" + std::string trips GCC 12's -Wrestrict false positive
    return name += std::to_string(parameter);
  };
  constructor.view_size = [](uint32_t parameter) {
    return "porta_sizes.bytes[" + std::to_string(parameter) + "]";
  };
  constructor.push_constants = "pc";
  emit_cxx_kernel(kRuntimeFile, constructor);
  emit_runtime_section(kRuntimeFile, "end");
  statement("");
  emit_kernel_entry();
}

void CudaCompiler::emit_kernel_entry() {
  const std::string ns = "porta_glsl::kernel::";
  std::string parameters;
  std::string arguments;
  auto add_parameter = [&](const std::string& declaration) {
    if (!parameters.empty()) parameters += ", ";
    parameters += declaration;
  };
  for (uint32_t i = 0; i < buffer_parameters().size(); ++i) {
    add_parameter(buffer_parameter(i, true));
    arguments += "b";
    arguments += std::to_string(i) + ", ";
  }
  if (push_constant_variable()) {
    add_parameter("const " + ns + push_constant_type_name() + " pc");
    arguments += "pc, ";
  }
  if (!buffer_parameters().empty()) {
    add_parameter("const " + buffer_sizes_type() + " porta_sizes");
    arguments += "porta_sizes, ";
  }
  if (!wide_buffers_declared_.empty()) {
    // Each instance of porta_work_item is an entry point of its own, so that
    // each gets the registers it needs (one entry point branching to both ran
    // matmul.comp's float32 GEMM 10% slower on an H200: the two instances'
    // register budget is the larger one's). The host runs the _aligned one
    // where every buffer's start is a multiple of the alignment this table
    // gives it (0: no wide access).
    std::string table;
    for (uint32_t i = 0; i < buffer_parameters().size(); ++i) {
      const auto wide = wide_buffers_declared_.find(i);
      table += (i ? ", " : "") + std::to_string(wide == wide_buffers_declared_.end() ? 0u : wide->second);
    }
    statement("// The alignment each buffer's start needs for porta_cuda_kernel_aligned.");
    statement("extern \"C\" __device__ const unsigned int porta_wide_alignment[", buffer_parameters().size(),
              "] = {", table, "};");
    statement("");
  }
  for (const bool aligned : {false, true}) {
    if (aligned && wide_buffers_declared_.empty()) break;
    emit_kernel_entry_function(aligned, parameters, arguments);
  }
}

void CudaCompiler::emit_kernel_entry_function(bool aligned, const std::string& parameters,
                                              const std::string& arguments) {
  const std::string ns = "porta_glsl::kernel::";
  if (!aligned) {
    statement("// Buffers in (set, binding) order, the push constants by value, the buffers' sizes;");
    statement("// one thread per work-item.");
  } else {
    statement("");
    statement("// The same where every buffer starts aligned for its wide accesses (porta_wide_alignment).");
  }
  // Groups that share memory meet at barriers: with two groups on a
  // multiprocessor, one computes while the other waits. A group of up to 256
  // items is therefore held to the registers that let two fit (128 at 256
  // items; no limit below 129); ptxas otherwise takes more for an unrolled
  // loop and leaves one group per multiprocessor (matmul.comp: 133 registers
  // and 0.75 of cuBLAS SGEMM against 128 and 0.85). Larger groups and groups
  // without shared memory are left to the compiler.
  const std::string items =
      ns + "gl_WorkGroupSize.x * " + ns + "gl_WorkGroupSize.y * " + ns + "gl_WorkGroupSize.z";
  if (shared_variables().empty())
    statement("extern \"C\" __global__ void __launch_bounds__(", items, ")");
  else
    statement("extern \"C\" __global__ void __launch_bounds__(", items, ", (", items, ") <= 256 ? 2 : 1)");
  statement(aligned ? "porta_cuda_kernel_aligned(" : "porta_cuda_kernel(", parameters, ")");
  begin_scope();
  // porta_work_item, or the instance of it this entry point runs.
  const auto run = [&](const std::string& shared) {
    const std::string call = "(" + arguments + shared + ").main();";
    if (wide_buffers_declared_.empty())
      statement(ns, "porta_work_item", call);
    else
      statement(ns, aligned ? "porta_work_item<true>" : "porta_work_item<false>", call);
  };
  if (shared_variables().empty()) {
    statement(ns, "porta_group_shared porta_no_shared;");
    run("porta_no_shared");
  } else {
    // Raw storage: __shared__ variables cannot have constructors, and the
    // GLSL types in porta_group_shared do.
    statement("__shared__ alignas(", ns, "porta_group_shared) unsigned char porta_shared_storage[sizeof(", ns,
              "porta_group_shared)];");
    if (!zero_initialized_shared_variables().empty()) {
      // Some shared variables have a zero initialiser: the block zeroes the
      // storage together before any thread reads it.
      statement(
          "for (unsigned porta_b = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); "
          "porta_b < "
          "sizeof(",
          ns, "porta_group_shared); porta_b += blockDim.x * blockDim.y * blockDim.z)");
      statement("    porta_shared_storage[porta_b] = 0;");
      statement("__syncthreads();");
    }
    run("*reinterpret_cast<" + ns + "porta_group_shared*>(porta_shared_storage)");
  }
  end_scope();
}

}  // namespace porta::translator::detail
