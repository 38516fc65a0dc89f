// The base of porta's source targets (C++, OpenCL C, CUDA C++), built on
// SPIRV-Cross's GLSL emitter the way its own MSL/HLSL/C++ backends are: the
// emitter gives structured control flow and expressions; this class decides
// what every non-Vulkan target shares, and each subclass makes its target's
// decisions in one place.
//
// Shared decisions (the kernel ABI of DESIGN.md):
//  - storage and uniform buffers, at any set, are kernel parameters in
//    (set, binding, array element) order (reflect.cpp's order); each block
//    variable becomes a "buffer view": a struct named after the block, with a
//    pointer for its runtime array and a reference for each member before it,
//    so the GLSL expressions `block.member[i]` read unchanged; an array of N
//    blocks is an array of N views over N parameters, and blocks declared at
//    one binding are several views of one parameter. Every kernel also gets
//    each buffer's size in bytes (for .length(): OpArrayLength); a buffer
//    whose declared layout the target's types cannot hold is byte-addressed
//    instead (buffer_layout.cpp);
//  - the push-constant block is one struct whose std430 offsets (the SPIR-V
//    Offset decorations) are checked by static_assert;
//  - spec constants are compile-time constants carrying the values fixed at
//    translation, under their source names; gl_WorkGroupSize is one too;
//  - the compute built-ins keep their GLSL names (a target maps them);
//  - shared variables live in one per-group struct;
//  - barrier(), memoryBarrier*() and atomic*() keep their GLSL names; each
//    target's runtime header implements them.
#pragma once

#include <array>
#include <functional>
#include <initializer_list>
#include <spirv_glsl.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "porta_translator/translator.hpp"
#include "runtime_files.hpp"

namespace porta::translator::detail {

// The SPIRV-Cross types every target's compiler works with.
using spirv_cross::Bitset;
using spirv_cross::SPIRConstant;
using spirv_cross::SPIRConstantOp;
using spirv_cross::SPIRFunction;
using spirv_cross::SPIRType;
using spirv_cross::SPIRVariable;

inline uint32_t align_up(uint32_t value, uint32_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

class TargetCompiler : public spirv_cross::CompilerGLSL {
 public:
  TargetCompiler(std::vector<uint32_t> spirv, const TranslateOptions& options);

  // Runs the emitter; throws Error on anything the target cannot express.
  std::string compile() final;

  // TranslateOptions::bounds_report: what each record call names.
  const std::vector<BoundsSite>& bounds_sites() const { return bounds_sites_; }

 protected:
  // One block variable (a storage or uniform block, or an array of them), in
  // parameter order.
  struct BufferView {
    uint32_t variable = 0;
    uint32_t set = 0;
    uint32_t binding = 0;
    uint32_t parameter = 0;  // index of its (first) parameter among the kernel's buffers
    uint32_t count = 1;      // parameters it spans: N for an array of N blocks, else 1
    bool is_array = false;   // declared as an array of blocks (its expression is indexed)
    BufferKind kind = BufferKind::Storage;
    Access access = Access::ReadWrite;  // this view's own (uniform blocks: Read)
    std::string type_name;              // the view struct's name (the block name)
    bool named_after_block = false;     // an anonymous instance, named `<block>_buffer` here
  };
  // One kernel parameter: what every view of it does together.
  struct BufferParameter {
    uint32_t set = 0, binding = 0, array_index = 0;
    BufferKind kind = BufferKind::Storage;
    Access access = Access::ReadWrite;
    uint32_t views = 0;  // block variables over it: more than 1 when blocks alias one binding
  };

  // ---- what each target decides ----
  virtual Target target() const = 0;
  // backend.* variations beyond the shared ones.
  virtual void configure_backend() {}
  // The whole translation unit, built from the emit_* pieces below.
  virtual void emit_translation_unit() = 0;
  // Words kept out of user names (the target language's keywords and the
  // names its runtime defines).
  virtual const std::unordered_set<std::string>& reserved_words() const = 0;
  // The words both C++-based targets (cpp, cuda) keep out, with `target_words`.
  static std::unordered_set<std::string> cxx_reserved_words(std::initializer_list<std::string> target_words);
  // How the body names a shared variable: "shared." when they live in the
  // per-group struct (cpp), "" when the target declares them itself.
  virtual std::string shared_variable_prefix() const { return "shared."; }
  // The emitted text after the last pass; targets rewrite spellings the
  // emitter cannot be told about here.
  virtual std::string finish(std::string text) { return text; }
  // Whether the target's compiler wraps signed overflow (the CPU backend
  // compiles with -fwrapv); if not, signed arithmetic goes through unsigned.
  virtual bool signed_overflow_wraps() const { return false; }
  // The line put before a loop the source marks [[unroll]] (unroll true) or
  // [[dont_unroll]]; "" where the target has no spelling every one of its
  // compilers accepts.
  virtual std::string loop_hint(bool unroll) const {
    (void)unroll;
    return "";
  }

  // Whether `opcode` is a read-modify-write atomic (atomicAdd() and friends).
  static bool is_atomic_read_modify_write(spv::Op opcode);
  // Its call on `pointer`, as the target spells it.
  std::string atomic_call(const spirv_cross::Instruction& instruction, const std::string& pointer);
  // Emits an atomic instruction (`ops`: result type, result, pointer, ...)
  // as `call`: a value where the result is read, else a statement.
  void emit_atomic_call(const uint32_t* ops, const std::string& call);

  // ---- what the C++-based targets (cpp, cuda) share ----
  // How a target builds porta_work_item from what its entry point hands it.
  struct WorkItemConstructor {
    std::string comment;          // the line above the struct
    std::string template_header;  // "template <...>" where the struct is a template
    std::string parameters;       // the constructor's parameter list
    // The constructor arguments of gl_NumWorkGroups, gl_WorkGroupID,
    // gl_LocalInvocationID, gl_GlobalInvocationID, gl_LocalInvocationIndex.
    std::array<std::string, 5> built_ins;
    // The memory parameter `parameter` points into, and its size in bytes.
    std::function<std::string(uint32_t parameter)> view_base;
    std::function<std::string(uint32_t parameter)> view_size;
    std::string push_constants;  // what the push-constant reference binds to
    // Members of the target's own after the shared memory, and their initialisers.
    std::vector<std::string> extra_members;
    std::vector<std::string> extra_initialisers;
  };
  // The section of `runtime_file` defining barrier(), for kernels that have barriers.
  virtual std::string barrier_section() const { return "barrier"; }
  // The translation unit up to the entry point: the section "begin" of
  // `runtime_file`; spec constants, gl_WorkGroupSize, constant tables and
  // structs in declaration order, the push-constant struct with its
  // static_asserts; one view struct per storage buffer; porta_group_shared
  // with every Workgroup variable; with subgroup operations, the section
  // "subgroup_types"; porta_work_item, holding the built-ins, the
  // views, the push constants, the shared memory and the private variables,
  // with barrier() (barrier_section()) when the kernel has barriers, the
  // section "subgroups" when it has subgroup operations, the helper
  // functions and main() (the entry point keeps the name main).
  void emit_cxx_kernel(std::string_view runtime_file, const WorkItemConstructor& constructor);

  const std::vector<BufferView>& buffer_views() const { return buffers_; }
  const std::vector<BufferParameter>& buffer_parameters() const { return parameters_; }

  // ---- buffer parameters, for lowering that addresses buffers directly ----
  // The view of a block variable (or of an array of blocks), or nullptr.
  const BufferView* find_buffer_view(uint32_t variable) const;
  // Its parameter indexes, in order: one, or N for an array of N blocks.
  std::vector<uint32_t> buffer_parameter_indexes(uint32_t variable) const;
  // The buffer's first byte as a byte pointer expression (`const` where the
  // view is read-only); `element` is the index expression into an array of
  // blocks ("" for a single block).
  virtual std::string buffer_base_pointer(uint32_t variable, const std::string& element = "");
  // The buffer's size in bytes, a 64-bit unsigned expression.
  virtual std::string buffer_size_expression(uint32_t variable, const std::string& element = "");
  const std::vector<uint32_t>& private_variables() const { return private_variables_; }
  // Whether any instruction reads the result `id` (an atomic's old value, say).
  bool result_is_read(uint32_t id) const { return read_ids_.count(id) != 0; }
  // The value of a scalar spec constant as a literal of its type ("2.5f", "-4", "16u").
  std::string spec_constant_value(const spirv_cross::SPIRConstant& constant);
  std::string spec_constant_comment(uint32_t id);
  bool is_workgroup_size_constant(uint32_t id) const;
  // The ArrayStride of arrays of the struct type, 0 when it is not an array element.
  uint32_t array_stride_for(uint32_t struct_type) const;
  // The function checked integer division calls: `name` is checked_div,
  // checked_rem or checked_mod; `type` the operands' type after the cast to
  // the signedness the opcode wants. Targets without overloading name one per type.
  virtual std::string checked_division_function(const std::string& name, const spirv_cross::SPIRType& type) {
    (void)type;
    return name;
  }
  uint32_t push_constant_variable() const { return push_constant_variable_; }
  std::string push_constant_type_name();
  const std::vector<uint32_t>& shared_variables() const { return shared_variables_; }
  // 8 or 16: the bytes of a 2- or 4-component vector of that size, which
  // shared arrays of it are aligned to (emit_shared_struct) and which CUDA
  // loads and stores whole where aligned; 0 for any other type.
  static uint32_t wide_vector_bytes(const SPIRType& type);
  // The shared variables the module initialises (OpVariable's initializer;
  // GLSL's `shared uint s = {};`), which each work-group must see set before
  // its first use. Only zero initialisers are taken (GLSL allows no others);
  // any other is refused.
  std::vector<uint32_t> zero_initialized_shared_variables();
  bool kernel_uses_barrier() const { return uses_barrier_; }
  bool bounds_checks() const { return options_.bounds_checks; }
  bool cancel_polls() const { return options_.cancel_polls; }
  std::string workgroup_size_expression(int dimension);
  // "uint" for target cpp: a literal of the named scalar type.
  std::string literal(uint32_t value) const { return std::to_string(value) + "u"; }

  // Throws Error(UnsupportedFeature): "target T: <what> (<instruction> at
  // <file>:<line>)" while an instruction is being emitted, the file and line
  // from the module's OpLine debug info where it has some; "target T: <what>"
  // otherwise.
  [[noreturn]] void unsupported(const std::string& what) const;
  // ---- subgroup operations (subgroup_lowering.cpp) ----
  // One GroupNonUniform instruction, decoded: GLSL's function for it
  // (subgroupAdd, subgroupInclusiveMul, subgroupClusteredMax, subgroupBallot,
  // subgroupQuadSwapHorizontal, ...) and its value operands.
  enum class SubgroupReduction { None, Add, Mul, Min, Max, And, Or, Xor };
  struct SubgroupOperation {
    spv::Op opcode = spv::OpNop;
    std::string function;            // GLSL's name
    std::vector<uint32_t> operands;  // value ids, after the scope and group operation
    SubgroupReduction reduction = SubgroupReduction::None;
    spv::GroupOperation group_operation = spv::GroupOperationReduce;
    uint32_t cluster_size = 0;  // subgroupClustered*: the constant cluster size
    // Whether the lanes meet (every operation but the ballot helpers, which
    // read only their own operand).
    bool exchanges = true;
    // Whether GLSL's function is generic over its first operand's type
    // (broadcasts, shuffles, quads, reductions, scans, subgroupAllEqual):
    // cpp and cuda then name the type, `subgroupAdd<vec2>(...)`, so that a
    // swizzle proxy never becomes the type.
    bool generic = false;
  };
  bool kernel_uses_subgroups() const { return uses_subgroups_; }
  // Whether the device's subgroups have one invocation (TranslateOptions::subgroup_size).
  bool single_invocation_subgroups() const { return options_.subgroup_size == 1; }
  // Whether the target translates for subgroups of one invocation (opencl);
  // a kernel with subgroup operations is refused by one that does not.
  virtual bool takes_single_invocation_subgroups() const { return false; }
  void check_subgroup_size() const;
  // The expression computing `operation` (result type `result_type`); by
  // default GLSL's call, which the cpp and cuda runtimes implement.
  virtual std::string subgroup_expression(const SubgroupOperation& operation, uint32_t result_type);
  // Emits OpControlBarrier / OpMemoryBarrier at subgroup scope; false for the others.
  bool emit_subgroup_barrier(const spirv_cross::Instruction& instruction);
  // subgroupBarrier() / subgroupMemoryBarrier() as the target spells them.
  virtual std::string subgroup_barrier_statement(bool control);
  // The name of a subgroup built-in variable (gl_SubgroupSize, ...), or "" if
  // `builtin` is none.
  static std::string subgroup_builtin_name(spv::BuiltIn builtin);

  // Copies a section of a runtime file into the translation (runtime_files.hpp).
  void emit_runtime_section(std::string_view file, std::string_view section,
                            const Substitutions& substitutions = {});

  // ---- buffers whose declared layout the target's structs cannot hold (buffer_layout.cpp) ----
  // A buffer (or the push-constant block) whose layout decorations (ArrayStride,
  // MatrixStride, RowMajor, Offset) differ from what the target's own types
  // give is "byte-addressed": its accesses become typed loads and stores at
  // byte offsets computed from the SPIR-V decorations, so every backend reads
  // exactly the bytes Vulkan reads. Buffers whose layout matches keep views.
  //
  // Whether values of `type_id`, laid out as the SPIR-V says (its ArrayStride
  // decorations; `matrix_stride` and `row_major` for a matrix member), have the
  // target's own layout.
  bool layout_is_natural(uint32_t type_id, uint32_t matrix_stride = 0, bool row_major = false);
  // The same for a struct type: its members at their Offsets and, where it is
  // an array element, its ArrayStride reachable with alignas().
  bool struct_layout_is_natural(uint32_t struct_type);
  // Whether the target's declaration of a struct with a natural layout can
  // take `stride` bytes as an array element.
  virtual bool struct_takes_stride(const SPIRType& type, uint32_t stride);
  // Whether storing one of the target's 3-component vectors writes the 4
  // bytes after it (OpenCL C's float3 is 16 bytes): a buffer that stores
  // them is byte-addressed, so that a store writes the vector's 12 bytes
  // alone, as Vulkan does, and never a neighbour's.
  virtual bool vector3_stores_write_past_the_end() const { return false; }
  bool is_byte_addressed(uint32_t variable) const { return byte_addressed_.count(variable) != 0; }
  // Whether `id` is a byte-addressed buffer or an access chain into one.
  bool is_byte_addressed_pointer(uint32_t id) const {
    return byte_addressed_.count(id) != 0 || byte_chains_.count(id) != 0;
  }
  // Column `column` of the matrix expression `matrix`.
  virtual std::string matrix_column(const std::string& matrix, uint32_t column) {
    return matrix + "[" + std::to_string(column) + "]";
  }
  // Access chains into byte-addressed buffers, and the loads and stores through
  // them that are not plain lvalues; false for every other instruction.
  bool emit_byte_addressed(const spirv_cross::Instruction& instruction);
  // The expression of a byte-addressed buffer's first byte.
  virtual std::string byte_address_base(uint32_t variable);
  // An lvalue of the scalar or vector `type` at `offset` bytes into the
  // byte-addressed `variable` ("" where the target cannot make one for this
  // type: then loads and stores go through byte_load()/byte_store()).
  virtual std::string byte_address_lvalue(const SPIRType& type, uint32_t variable, const std::string& offset,
                                          bool read_only);
  // The value of a scalar or vector at `offset`, and the statement storing one.
  virtual std::string byte_load(const SPIRType& type, uint32_t variable, const std::string& offset);
  virtual void byte_store(const SPIRType& type, uint32_t variable, const std::string& offset,
                          const std::string& value);
  // The alignment of a byte-addressed push-constant struct: 8 where its size allows, else 4.
  uint32_t byte_push_alignment() const;

  // ---- bounds checks and cancel polls (bounds_checks.cpp) ----
  // With TranslateOptions::bounds_checks, each access chain into a buffer
  // is followed to the byte range it reaches (the SPIR-V's Offset,
  // ArrayStride, MatrixStride and RowMajor decorations, whatever mechanism
  // the buffer is read with), and each load, store and atomic through it is
  // guarded by that range's end against the buffer's size.
  struct CheckedChain {
    uint32_t variable = 0;  // the block variable (or array of blocks)
    std::string element;    // the index into an array of blocks, "" for one block
    uint32_t element_count = 1;
    uint32_t type = 0;     // what the chain points to
    std::string dynamic;   // "(ulong)(i) * 16u + " terms, 64-bit
    uint64_t offset = 0;   // constant bytes
    bool checked = false;  // a dynamic index, a runtime array or a block element: needs a check
    bool row_major = false;
    bool row_major_column = false;  // a column of a row-major matrix: components matrix_stride apart
    uint32_t matrix_stride = 0;
    uint64_t index_base = 0, index_stride = 0;  // the first dynamic index: bytes before it, and its stride
    uint32_t dynamic_terms = 0;
    // The one dynamic index, where it is gl_GlobalInvocationID.x (as uint or int): its id.
    uint32_t global_x = 0;
  };
  // Notes an access chain (before it is emitted); false for chains not into a buffer.
  bool note_checked_chain(const spirv_cross::Instruction& instruction);
  // The condition under which the access through `pointer` is in bounds,
  // parenthesised; "" when it needs none (no bounds checks, not a buffer, or
  // within the block's fixed part, which the core checks at dispatch).
  std::string bounds_condition(uint32_t pointer);
  // Loads, stores and atomic loads/stores through checked chains, guarded;
  // false for every other instruction.
  bool emit_checked_access(const spirv_cross::Instruction& instruction);
  uint64_t checked_bytes(const CheckedChain& chain);
  // `(condition ? value : zero)` for a guarded read (or an atomic: `write`)
  // through `pointer`; with TranslateOptions::bounds_report, the failure is
  // recorded before the zero is taken.
  std::string guarded_value(const std::string& condition, uint32_t pointer, bool write,
                            const std::string& value, const std::string& zero);
  // `if condition text;`, recording the failure where reporting.
  void guarded_statement(const std::string& condition, uint32_t pointer, bool write, const std::string& text);
  // After a guarded block that end_scope() closed: `else { record; }` where reporting.
  void guarded_else(uint32_t pointer, bool write);
  // The statement that records a failed access through `pointer` (no `;`); "" when not reporting.
  std::string bounds_failure(uint32_t pointer, bool write);
  // Makes porta_bounds_fail() part of the translation, where the runtime is copied in sections.
  virtual void require_bounds_failure() {}
  // The value 0 of a type, as an expression (a read out of bounds).
  std::string zero_value(uint32_t type_id);
  std::string u64_cast(const std::string& expression);
  // A dynamic index's factor in a chain's byte offset, 64-bit: `value` (of
  // `type`, enclosed) as is, or a limit past every buffer where it is
  // negative or its term could wrap the sum.
  std::string bounds_index(const std::string& value, const spirv_cross::SPIRType& type, uint64_t stride);
  // Group bounds: where a target names a member here (cpp), a check of a
  // chain whose only dynamic index is gl_GlobalInvocationID.x reads
  // `(member || check)`, and the work-item gets porta_group_in_bounds(),
  // every such check at once. Along x within a group that does not wrap,
  // these checks only grow harder to pass, so the group's last item passing
  // them all means every item does, and the group can run with the member
  // true (run_group_loop). "" (the default): no group bounds.
  virtual std::string items_in_bounds_member() const { return ""; }
  // The ids whose value is gl_GlobalInvocationID.x, as a 32-bit uint or int.
  const std::unordered_set<uint32_t>& global_x_ids();
  // porta_group_in_bounds(), from the checks main() took (emit_work_item()).
  void emit_group_in_bounds();
  std::vector<std::string> group_bounds_;  // the checks of gl_GlobalInvocationID.x alone, at that index
  std::unordered_set<uint32_t> global_x_ids_;
  bool global_x_known_ = false;
  // The statement a loop header's cancel poll becomes (TranslateOptions::cancel_polls); "" for none.
  virtual std::string cancel_poll_statement() { return ""; }
  bool is_cancel_poll(const spirv_cross::Instruction& instruction);
  std::unordered_map<uint32_t, CheckedChain> checked_chains_;
  bool guarding_ = false;                 // emit_checked_access() is emitting the guarded instruction
  uint32_t cancel_poll_set_ = 0;          // the NonSemantic import insert_cancel_polls() added
  std::vector<BoundsSite> bounds_sites_;  // TranslateOptions::bounds_report: what each record call names

  // ---- CompilerGLSL hooks ----
  std::string builtin_to_glsl(spv::BuiltIn builtin, spv::StorageClass storage) override;
  void emit_function_prototype(spirv_cross::SPIRFunction& func,
                               const spirv_cross::Bitset& return_flags) override;
  // Notes the instruction (and its OpLine) for unsupported(), then
  // emit_target_instruction().
  void emit_instruction(const spirv_cross::Instruction& instruction) final;
  // What the targets share; a target's override handles its own instructions first.
  virtual void emit_target_instruction(const spirv_cross::Instruction& instruction);
  // "M, N, K" (8-bit integers: then whether A and B are signed, "true" or
  // "false") where `function` is a tensor-core multiply-add of the
  // warp-fragment lowering (porta_mma_sync_MxNxK[_su], or porta_wgmma_MxNxK
  // for Workgroup-scope matrices), else "".
  std::string tensor_core_shape(uint32_t function) const;
  // "R, C, USE, ROW_MAJOR" (use 0 A, 1 B, 2 accumulator; ROW_MAJOR true or
  // false) where `function` is a warp-fragment load or store of a `shared`
  // array (porta_fragment_load|store_RxC_use_row|col; `load` says which), else "".
  std::string fragment_transfer(uint32_t function, bool& load) const;
  std::string type_to_glsl(const spirv_cross::SPIRType& type, uint32_t id = 0) override;
  std::string bitcast_glsl_op(const spirv_cross::SPIRType& result_type,
                              const spirv_cross::SPIRType& argument_type) override;
  void replace_illegal_names() override;
  std::string to_name(uint32_t id, bool allow_alias = true) const override;
  void emit_array_copy(const std::string& lhs, uint32_t lhs_id, uint32_t rhs_id,
                       spv::StorageClass lhs_storage, spv::StorageClass rhs_storage) override;
  void emit_store_statement(uint32_t lhs_expression, uint32_t rhs_expression) override;
  void emit_block_hints(const spirv_cross::SPIRBlock& block) override;
  void emit_subgroup_op(const spirv_cross::Instruction& instruction) override;
  std::string variable_decl(const spirv_cross::SPIRVariable& variable) override;
  std::string to_zero_initialized_expression(uint32_t type_id) override;
  std::string variable_decl(const spirv_cross::SPIRType& type, const std::string& name,
                            uint32_t id = 0) override;

  // Size and alignment of a type as the target's structs lay it out: an
  // array as its elements, anything else as element_layout() says.
  void target_layout(const spirv_cross::SPIRType& type, uint32_t& size, uint32_t& align);
  // A struct, vector or scalar: C++'s layout (vectors aligned like their
  // scalar, structs as emitted here).
  virtual void element_layout(const spirv_cross::SPIRType& type, uint32_t& size, uint32_t& align);
  // A constant that expressions name rather than spell out, declared once
  // among the constants: a look-up table, or a struct or array an
  // instruction uses.
  bool declared_by_name(const spirv_cross::SPIRConstant& constant) const;

 private:
  void collect_named_constants();
  void collect_interface();
  void apply_spec_values();
  void emit_constants_and_types();
  void emit_buffer_views();
  void emit_shared_struct();
  void emit_work_item(std::string_view runtime_file, const WorkItemConstructor& constructor);
  void emit_struct_declaration(const spirv_cross::SPIRType& type, bool explicit_padding);
  void emit_scalar_spec_constant(const spirv_cross::SPIRConstant& constant);
  std::string member_declaration(const spirv_cross::SPIRType& member_type, const std::string& name);

  std::string emitting_position() const;
  // Shifts with porta's defined semantics; false when the emitter's own are exact.
  bool emit_shift(const spirv_cross::Instruction& instruction);
  // .length(): (size - offset of the runtime array) / its stride.
  void emit_array_length(const spirv_cross::Instruction& instruction);

  TranslateOptions options_;
  // The instruction being emitted and the last OpLine seen (file id 0: none).
  const spirv_cross::Instruction* emitting_ = nullptr;
  uint32_t line_file_ = 0, line_ = 0;
  std::vector<BufferView> buffers_;
  std::vector<BufferParameter> parameters_;
  // An access chain picking one block of an array of blocks → (variable, index id).
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> buffer_element_chains_;
  uint32_t push_constant_variable_ = 0;
  std::vector<uint32_t> shared_variables_;
  std::vector<uint32_t> private_variables_;
  bool uses_barrier_ = false;
  bool uses_subgroups_ = false;
  // The module declares an extension for which Debian's spirv-opt skips its
  // local passes (SPV_EXT_shader_atomic_float_add, SPV_KHR_expect_assume): dead locals stay.
  bool locals_unoptimised_ = false;
  // Set while the emitter writes a call whose result nothing reads: its
  // declaration is marked [[maybe_unused]] (variable_decl).
  bool declaring_call_result_ = false;
  std::unordered_set<uint32_t> read_ids_;
  // The struct and array constants instructions and initializers use.
  std::unordered_set<uint32_t> named_constants_;
  bool emitted_workgroup_size_ = false;
  std::unordered_map<uint32_t, uint32_t> struct_alignment_;
  // buffer_layout.cpp
  struct ByteChain {
    uint32_t variable = 0;   // the byte-addressed buffer or push-constant variable
    uint32_t type = 0;       // what the chain points to
    std::string dynamic;     // flattened_access_chain_offset's "i * 16 + " part
    uint32_t offset = 0;     // constant bytes
    bool row_major = false;  // a row-major matrix, or a column of one
    uint32_t matrix_stride = 0, array_stride = 0;
  };
  void find_byte_addressed_buffers();
  bool contains_vector3(uint32_t type_id) const;
  bool byte_chain_of(uint32_t id, ByteChain& chain);
  std::string byte_offset_text(const ByteChain& chain, uint32_t extra) const;
  std::string byte_value(const ByteChain& chain, const SPIRType& type);
  // Visits the scalars, vectors and matrices of a value of `type` at `chain`
  // (arrays in loops over porta_i<depth>, structs member by member), each
  // with its part of `value`, the expression of the whole in registers.
  using ByteLeaf = std::function<void(const ByteChain&, const SPIRType&, const std::string&)>;
  void byte_walk(const ByteChain& chain, const SPIRType& type, const std::string& value, uint32_t depth,
                 const ByteLeaf& leaf);
  // Loads the buffer's value into `lhs`, and stores `value` into the buffer.
  void byte_fill(const std::string& lhs, const ByteChain& chain, const SPIRType& type);
  void byte_write(const ByteChain& chain, const SPIRType& type, const std::string& value);
  // Stores a scalar, vector or matrix (column by column; row-major ones a component at a time).
  void byte_write_value(const ByteChain& chain, const SPIRType& type, const std::string& value);
  ByteChain byte_member(const ByteChain& chain, const SPIRType& type, uint32_t index) const;
  ByteChain byte_element(const ByteChain& chain, const SPIRType& type, const std::string& index) const;
  std::unordered_set<uint32_t> byte_addressed_;
  std::unordered_map<uint32_t, ByteChain> byte_chains_;
  std::unordered_map<uint32_t, bool> natural_structs_;
  // struct type → alignas() to emit, 0 = none
};

}  // namespace porta::translator::detail
