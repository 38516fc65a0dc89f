// Target opencl: OpenCL C 1.2 for porta's OpenCL backend (clBuildProgram
// "-cl-std=CL1.2", then the kernel porta_opencl_kernel with one __global
// pointer per storage buffer in binding order and the push constants as one
// struct by value).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "target_compiler.hpp"

namespace porta::translator::detail {

class OpenclCompiler final : public TargetCompiler {
 public:
  using TargetCompiler::TargetCompiler;

  static constexpr const char* kEntryPoint = "porta_opencl_kernel";
  // The helpers and pragmas the translation copies in (translator/runtime/).
  static constexpr const char* kRuntimeFile = "porta_opencl.cl";

 private:
  // One member of an emitted struct, after the padding that puts it at its
  // SPIR-V Offset.
  struct MemberPlan {
    uint32_t padding_before = 0;
    uint32_t offset = 0;
    bool has_offset = false;
  };
  struct StructPlan {
    std::vector<MemberPlan> members;
    bool packed = false;
    uint32_t tail_padding = 0;
    uint32_t end = 0;            // where the last member ends
    uint32_t size = 0;           // sizeof in OpenCL C
    uint32_t align = 1;          // alignment in OpenCL C
    uint32_t required_size = 0;  // checked sizeof: array stride or push-constant size; 0 = none
  };

  Target target() const override { return Target::OpenCL; }
  void configure_backend() override;
  void emit_translation_unit() override;
  const std::unordered_set<std::string>& reserved_words() const override;
  // Not in OpenCL C 1.2, but the clang-based compilers (PoCL, Intel, AMD) and
  // NVIDIA's accept it, where __attribute__((opencl_unroll_hint)) needs 2.0.
  std::string loop_hint(bool unroll) const override { return unroll ? "#pragma unroll" : "#pragma unroll 1"; }
  std::string shared_variable_prefix() const override { return ""; }
  std::string finish(std::string text) override;
  std::string checked_division_function(const std::string& name, const spirv_cross::SPIRType& type) override;

  std::string type_to_glsl(const spirv_cross::SPIRType& type, uint32_t id = 0) override;
  std::string bitcast_glsl_op(const spirv_cross::SPIRType& result_type,
                              const spirv_cross::SPIRType& argument_type) override;
  std::string to_member_reference(uint32_t base, const spirv_cross::SPIRType& type, uint32_t index,
                                  bool ptr_chain_is_resolved) override;
  void emit_function_prototype(spirv_cross::SPIRFunction& func,
                               const spirv_cross::Bitset& return_flags) override;
  void emit_entry_point_declarations() override;
  void emit_target_instruction(const spirv_cross::Instruction& instruction) override;
  void emit_glsl_op(uint32_t result_type, uint32_t id, uint32_t op, const uint32_t* args,
                    uint32_t count) override;
  std::string constant_op_expression(const spirv_cross::SPIRConstantOp& op) override;
  std::string type_to_array_glsl(const spirv_cross::SPIRType& type) override;
  void emit_array_copy(const std::string& lhs, uint32_t lhs_id, uint32_t rhs_id,
                       spv::StorageClass lhs_storage, spv::StorageClass rhs_storage) override;
  void emit_store_statement(uint32_t lhs_expression, uint32_t rhs_expression) override;

  // A store into one component of a vector in local or global memory as a store of
  // that scalar alone; false for any other store.
  bool store_vector_component(uint32_t lhs_expression, uint32_t rhs_expression);
  // The access chains seen so far, by result: their base, then their indices.
  std::unordered_map<uint32_t, std::vector<uint32_t>> access_chains_;

  // ---- pieces of the translation unit ----
  void prepare_names();
  void emit_prelude();
  std::set<std::string> vector_literal_types_;  // the vector and scalar types finish() turns into casts
  void emit_division_helpers();
  void emit_constants_and_structs();
  void emit_struct(const spirv_cross::SPIRType& type);
  std::string kernel_parameters();
  // "__global const float* restrict": how a kernel parameter points into a buffer.
  std::string buffer_pointer_type(const std::string& element, Access access) const;

  // ---- buffer parameters (the kernel ABI) ----
  // A single block alone at its binding is its own parameter, typed; an
  // array of blocks or blocks aliasing one binding are views declared in the
  // kernel over untyped `porta_buffer_N` parameters.
  bool view_is_parameter(const BufferView& view) const;
  // "float" for a block that is one runtime array, else the block's struct.
  std::string view_element_type(const BufferView& view);
  void emit_buffer_view_declarations();
  std::string buffer_base_pointer(uint32_t variable, const std::string& element = "") override;
  std::string buffer_size_expression(uint32_t variable, const std::string& element = "") override;

  // ---- layout ----
  // OpenCL C lays a 3-component vector out in 16 bytes, not 12.
  void element_layout(const spirv_cross::SPIRType& type, uint32_t& size, uint32_t& align) override;
  const StructPlan& plan_struct(const spirv_cross::SPIRType& type);
  StructPlan layout_struct(const spirv_cross::SPIRType& type, bool packed);
  // A storage block that is a single runtime array at offset 0 is passed as a
  // pointer to its elements; any other block as a pointer to its struct.
  bool block_is_array(const spirv_cross::SPIRType& block) const;
  bool is_buffer_block(uint32_t type_self) const;
  bool is_push_block(uint32_t type_self);
  // A buffer block whose buffer is byte-addressed (buffer_layout.cpp): no struct.
  bool is_byte_addressed_block(uint32_t type_self) const;

  // ---- byte-addressed buffers (buffer_layout.cpp decides, these spell) ----
  // A buffer parameter of such a buffer is a `__global uchar*`; vectors go
  // through vloadn/vstoren (float3 takes 16 bytes, and scalar layouts
  // align vectors only to their components), scalars through casts.
  std::string byte_address_base(uint32_t variable) override;
  std::string byte_address_lvalue(const spirv_cross::SPIRType& type, uint32_t variable,
                                  const std::string& offset, bool read_only) override;
  std::string byte_load(const spirv_cross::SPIRType& type, uint32_t variable,
                        const std::string& offset) override;
  void byte_store(const spirv_cross::SPIRType& type, uint32_t variable, const std::string& offset,
                  const std::string& value) override;
  bool struct_takes_stride(const spirv_cross::SPIRType& type, uint32_t stride) override;
  bool vector3_stores_write_past_the_end() const override { return true; }
  // "(__global const float*)(data + (offset))": a pointer of `type`'s component type.
  std::string byte_pointer(const spirv_cross::SPIRType& type, uint32_t variable, const std::string& offset,
                           bool read_only);

  // ---- matrices and boolean vectors (opencl_types.cpp) ----
  std::string matrix_type_name(const spirv_cross::SPIRType& type);
  std::string matrix_column_type(const spirv_cross::SPIRType& type);
  std::string matrix_column(const std::string& matrix, uint32_t column) override {
    return matrix + ".col[" + std::to_string(column) + "]";
  }
  // The typedefs and constructor macros of every matrix type the kernel has.
  void emit_matrix_types();
  // The operations the kernel uses (requested while its body is emitted).
  void emit_matrix_helpers();
  std::string matrix_helper(const std::string& name, const std::function<std::string()>& body);
  std::string matrix_times_vector(const spirv_cross::SPIRType& m);
  std::string vector_times_matrix(const spirv_cross::SPIRType& m);
  std::string matrix_times_matrix(const spirv_cross::SPIRType& a, const spirv_cross::SPIRType& b,
                                  const spirv_cross::SPIRType& result);
  std::string matrix_times_scalar(const spirv_cross::SPIRType& m);
  std::string outer_product(const spirv_cross::SPIRType& m);
  std::string transpose(const spirv_cross::SPIRType& m, const spirv_cross::SPIRType& result);
  std::string adjugate4(const spirv_cross::SPIRType& m);
  std::string determinant(const spirv_cross::SPIRType& m);
  std::string inverse(const spirv_cross::SPIRType& m);
  bool emit_matrix_glsl_op(uint32_t result_type, uint32_t id, uint32_t op, const uint32_t* args);
  std::string composite_path(std::string path, uint32_t type_id, const uint32_t* indices, uint32_t count,
                             bool literal, uint32_t& result, spv::StorageClass storage);
  bool indexes_matrix(uint32_t type_id, const uint32_t* indices, uint32_t count, bool literal, uint32_t& at);
  std::string bool_vector_value(const std::string& value, const spirv_cross::SPIRType& operands);
  std::string constant_expression_vector(const spirv_cross::SPIRConstant& constant, uint32_t vector) override;
  bool emit_matrix_or_bool_vector(const spirv_cross::Instruction& instruction);
  std::vector<std::string> matrix_helpers_;  // in the order requested: each after what it calls
  std::set<std::string> matrix_helper_names_;
  std::set<uint32_t> bool_vector_lanes_;  // access chains to one component of a bvec

  // ---- instructions ----
  void emit_atomic(const spirv_cross::Instruction& instruction);
  void emit_atomic_load_store(const spirv_cross::Instruction& instruction);  // opencl_lowering.cpp
  void emit_atomic_float_add(const spirv_cross::Instruction& instruction);   // opencl_lowering.cpp
  void emit_barrier(const spirv_cross::Instruction& instruction);
  void emit_conversion(const spirv_cross::Instruction& instruction);
  void emit_bitfield(const spirv_cross::Instruction& instruction);
  void check_helper_function(const spirv_cross::SPIRFunction& func);
  // `expr` of the integer type `from` seen as the same-width unsigned type.
  std::string as_unsigned(const std::string& expr, const spirv_cross::SPIRType& from);
  std::string vector_type_name(spirv_cross::SPIRType::BaseType base, uint32_t vecsize);
  // The integer type of `width` bits (Int for 32).
  static spirv_cross::SPIRType::BaseType integer_of_width(uint32_t width, bool is_signed);
  // The value of a 32-bit scalar (spec) constant expression, folded here so
  // that array sizes stay integer constant expressions; false if it cannot be.
  bool fold_constant(uint32_t id, uint32_t& value) const;
  // Requests a helper function for the prelude (a recompile emits it).
  void require_helper(int rank, const std::string& name);
  // Requests a section of the runtime file for the prelude, with {T} and {S}.
  void require_section(const std::string& section, const std::string& type, const std::string& scalar);
  void require_bounds_failure() override { require_section("bounds_report", "", ""); }
  // opencl_lowering.cpp: what OpenCL C has no built-in for. False: not one of them.
  bool emit_struct_result(const spirv_cross::Instruction& instruction);
  bool emit_extended_glsl(uint32_t result_type, uint32_t id, uint32_t op, const uint32_t* args);

  // ---- float16_t (opencl_half.cpp) ----
  bool holds_half(const spirv_cross::SPIRType& type) const;
  // Where a float16_t is its 16 bits (ushort) rather than a float.
  static bool half_holds_bits(spv::StorageClass storage);
  bool is_byte_addressed_pointer(uint32_t pointer);
  std::string round_half(const std::string& expr, const spirv_cross::SPIRType& type);
  // False: not an instruction on float16_t that needs its own lowering.
  bool emit_half_instruction(const spirv_cross::Instruction& instruction);
  bool emit_half_glsl_op(uint32_t result_type, uint32_t id, uint32_t op, const uint32_t* args,
                         uint32_t count);
  // A float16_t constant as the float it is: INFINITY and NAN by name.
  std::string half_constant_vector(const spirv_cross::SPIRConstant& constant, uint32_t vector);
  bool half_as_bits_ = false;  // while declaring a struct laid out for buffers

  // ---- subgroups (opencl_subgroups.cpp) ----
  // sub_group_* from cl_khr_subgroups and the cl_khr_subgroup_* extensions:
  // always the non-uniform forms, which take the active work-items as Vulkan
  // does. Each extension used is named in a "// requires OpenCL extension:"
  // line, which the OpenCL backend checks against the device before building.
  // With subgroups of one work-item (TranslateOptions::subgroup_size 1, for
  // devices without those extensions), each operation's exact meaning there
  // instead, and no extension.
  std::string subgroup_expression(const SubgroupOperation& operation, uint32_t result_type) override;
  std::string subgroup_barrier_statement(bool control) override;
  bool takes_single_invocation_subgroups() const override { return true; }
  std::string single_invocation_expression(const SubgroupOperation& operation, uint32_t result_type);
  // The identity of a reduction for one scalar of `base` (exclusive scans).
  static std::string reduction_identity(SubgroupReduction reduction, spirv_cross::SPIRType::BaseType base);
  void require_extension(const std::string& name);
  void emit_subgroup_requirements();
  void emit_subgroup_builtins();
  std::set<std::string> extensions_;
  std::set<std::string> extensions_emitted_;

  std::map<uint32_t, StructPlan> struct_plans_;
  // Checked-division helpers the kernel calls, ordered so each follows what it calls.
  std::set<std::pair<int, std::string>> division_helpers_;
  std::set<std::pair<int, std::string>> division_helpers_emitted_;
  bool names_prepared_ = false;
};

}  // namespace porta::translator::detail
