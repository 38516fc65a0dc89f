// Target cuda. The translation unit, in order:
//   porta_cuda.h, porta_glsl.hpp; namespace porta_glsl::kernel {; spec
//   constants, gl_WorkGroupSize, structs, the push-constant struct; buffer
//   views; porta_group_shared; porta_work_item (built-ins from the CUDA
//   registers, views, push constants, shared memory, private globals,
//   barrier(), helper functions, main()); }; the extern "C" __global__ entry.
// The kernel code sits inside porta_glsl so that GLSL's functions (sqrt, min,
// ...) hide the CUDA math library's global overloads of the same names. The
// backend compiles with -default-device: every function here is a device
// function without saying so.
#include "cuda_compiler.hpp"

namespace porta::translator::detail {

std::string CudaCompiler::buffer_pointer_type(const std::string& element, Access access) const {
  return (access == Access::Read ? "const " : "") + element + "*";
}

const std::unordered_set<std::string>& CudaCompiler::reserved_words() const {
  // C++ keywords that are not GLSL keywords, CUDA's built-in variables and
  // keywords, names from porta_glsl.hpp and porta_cuda.h, and the names the
  // generated code itself uses.
  static const std::unordered_set<std::string> words = {"alignas",
                                                        "alignof",
                                                        "and",
                                                        "and_eq",
                                                        "asm",
                                                        "auto",
                                                        "bitand",
                                                        "bitor",
                                                        "catch",
                                                        "char",
                                                        "char8_t",
                                                        "char16_t",
                                                        "char32_t",
                                                        "class",
                                                        "compl",
                                                        "concept",
                                                        "consteval",
                                                        "constexpr",
                                                        "constinit",
                                                        "const_cast",
                                                        "co_await",
                                                        "co_return",
                                                        "co_yield",
                                                        "decltype",
                                                        "delete",
                                                        "dynamic_cast",
                                                        "enum",
                                                        "explicit",
                                                        "export",
                                                        "extern",
                                                        "friend",
                                                        "goto",
                                                        "inline",
                                                        "long",
                                                        "mutable",
                                                        "namespace",
                                                        "new",
                                                        "noexcept",
                                                        "not",
                                                        "not_eq",
                                                        "nullptr",
                                                        "operator",
                                                        "or",
                                                        "or_eq",
                                                        "private",
                                                        "protected",
                                                        "public",
                                                        "register",
                                                        "reinterpret_cast",
                                                        "requires",
                                                        "short",
                                                        "signed",
                                                        "sizeof",
                                                        "static",
                                                        "static_assert",
                                                        "static_cast",
                                                        "template",
                                                        "this",
                                                        "thread_local",
                                                        "throw",
                                                        "try",
                                                        "typedef",
                                                        "typeid",
                                                        "typename",
                                                        "union",
                                                        "unsigned",
                                                        "using",
                                                        "virtual",
                                                        "volatile",
                                                        "wchar_t",
                                                        "xor",
                                                        "xor_eq",
                                                        "NULL",
                                                        "offsetof",
                                                        "main",
                                                        "std",
                                                        "porta_glsl",
                                                        "kernel",
                                                        "buffer_at",
                                                        "array_copy",
                                                        "checked_div",
                                                        "checked_rem",
                                                        "checked_mod",
                                                        "vec",
                                                        "int8_t",
                                                        "int16_t",
                                                        "int32_t",
                                                        "int64_t",
                                                        "uint8_t",
                                                        "uint16_t",
                                                        "uint32_t",
                                                        "uint64_t",
                                                        "size_t",
                                                        "shared",
                                                        "threadIdx",
                                                        "blockIdx",
                                                        "blockDim",
                                                        "gridDim",
                                                        "warpSize",
                                                        "dim3",
                                                        "half",
                                                        "porta_work_item",
                                                        "porta_group_shared",
                                                        "porta_cuda_kernel",
                                                        "porta_shared_storage",
                                                        "porta_no_shared",
                                                        "group_shared",
                                                        "pc",
                                                        "swizzle",
                                                        "components",
                                                        "detail",
                                                        "bit_cast",
                                                        "float_to_half",
                                                        "half_to_float"};
  return words;
}

void CudaCompiler::emit_translation_unit() {
  statement("// Translated by porta-translate (target cuda) from SPIR-V. The CUDA backend compiles");
  statement("// this file with NVRTC; the contract is translator/runtime/porta_cuda.h.");
  statement("#include \"porta_cuda.h\"");
  statement("#include \"porta_glsl.hpp\"");
  statement("");
  statement("namespace porta_glsl");
  statement("{");
  statement("namespace kernel");
  statement("{");
  statement("");
  emit_constants_and_types();
  emit_buffer_views();
  emit_shared_struct();
  emit_work_item();
  statement("} // namespace kernel");
  statement("} // namespace porta_glsl");
  statement("");
  emit_kernel_entry();
}

void CudaCompiler::emit_work_item() {
  statement(
      "// One work-item (a CUDA thread): GLSL's built-ins and resources as members, the kernel as main().");
  statement("struct porta_work_item");
  begin_scope();
  statement("uvec3 gl_NumWorkGroups;");
  statement("uvec3 gl_WorkGroupID;");
  statement("uvec3 gl_LocalInvocationID;");
  statement("uvec3 gl_GlobalInvocationID;");
  statement("uint gl_LocalInvocationIndex;");
  for (const BufferView& view : buffer_views()) statement(view.type_name, " ", to_name(view.variable), ";");
  if (push_constant_variable())
    statement("const ", push_constant_type_name(), "& ", to_name(push_constant_variable()), ";");
  statement("porta_group_shared& shared;");
  emit_private_variables();
  statement("");

  std::string parameters;
  for (const BufferView& view : buffer_views())
    parameters += "void* b" + std::to_string(view.parameter) + ", ";
  if (push_constant_variable()) parameters += "const " + push_constant_type_name() + "& pc, ";
  statement("porta_work_item(", parameters, "porta_group_shared& group_shared)");
  statement("    : gl_NumWorkGroups(gridDim.x, gridDim.y, gridDim.z),");
  statement("      gl_WorkGroupID(blockIdx.x, blockIdx.y, blockIdx.z),");
  statement("      gl_LocalInvocationID(threadIdx.x, threadIdx.y, threadIdx.z),");
  statement("      gl_GlobalInvocationID(gl_WorkGroupID * gl_WorkGroupSize + gl_LocalInvocationID),");
  statement(
      "      gl_LocalInvocationIndex(threadIdx.x + gl_WorkGroupSize.x * (threadIdx.y + gl_WorkGroupSize.y * "
      "threadIdx.z)),");
  for (const BufferView& view : buffer_views())
    statement("      ", to_name(view.variable), "(b", view.parameter, "),");
  if (push_constant_variable()) statement("      ", to_name(push_constant_variable()), "(pc),");
  statement("      shared(group_shared)");
  statement("{");
  statement("}");
  statement("");
  if (kernel_uses_barrier()) {
    statement("// Every thread of the block reaches this point, and sees the others' shared writes.");
    statement("void barrier()");
    begin_scope();
    statement("__syncthreads();");
    end_scope();
    statement("");
  }
  emit_kernel_functions();
  end_scope_decl();
  statement("");
}

void CudaCompiler::emit_kernel_entry() {
  const std::string ns = "porta_glsl::kernel::";
  std::string parameters;
  std::string arguments;
  for (const BufferView& view : buffer_views()) {
    const std::string b = "b" + std::to_string(view.parameter);
    parameters += (parameters.empty() ? "" : ", ") + std::string("void* __restrict__ ") + b;
    arguments += b + ", ";
  }
  if (push_constant_variable()) {
    parameters +=
        (parameters.empty() ? "" : ", ") + std::string("const ") + ns + push_constant_type_name() + " pc";
    arguments += "pc, ";
  }
  statement("// Buffers in binding order, then the push constants by value; one thread per work-item.");
  statement("extern \"C\" __global__ void __launch_bounds__(", ns, "gl_WorkGroupSize.x * ", ns,
            "gl_WorkGroupSize.y * ", ns, "gl_WorkGroupSize.z)");
  statement("porta_cuda_kernel(", parameters, ")");
  begin_scope();
  if (shared_variables().empty()) {
    statement(ns, "porta_group_shared porta_no_shared;");
    statement(ns, "porta_work_item(", arguments, "porta_no_shared).main();");
  } else {
    // Raw storage: __shared__ variables cannot have constructors, and the
    // GLSL types in porta_group_shared do.
    statement("__shared__ alignas(", ns, "porta_group_shared) unsigned char porta_shared_storage[sizeof(", ns,
              "porta_group_shared)];");
    statement(ns, "porta_work_item(", arguments, "*reinterpret_cast<", ns,
              "porta_group_shared*>(porta_shared_storage)).main();");
  }
  end_scope();
}

}  // namespace porta::translator::detail
