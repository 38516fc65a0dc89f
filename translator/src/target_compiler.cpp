// What porta's source targets share; see target_compiler.hpp.
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include "target_compiler.hpp"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "spirv_words.hpp"

namespace porta::translator::detail {

using spirv_cross::join;

namespace {

// A kernel need not read every spec constant it declares (prepare() keeps the
// unread ones, so that the interface stays the declared one), and NVRTC warns
// (#177-D) of a namespace-scope variable that nothing references.
constexpr const char* kSpecConstantDeclaration = "[[maybe_unused]] constexpr ";
constexpr const char* kMaybeUnused = "[[maybe_unused]] ";

// The smallest power-of-two alignment >= `minimum` that moves `from` exactly
// to `to`, or 0 if none does.
uint32_t alignment_reaching(uint32_t from, uint32_t to, uint32_t minimum) {
  for (uint32_t a = std::max<uint32_t>(minimum, 1); a <= 256; a *= 2)
    if (align_up(from, a) == to) return a;
  return 0;
}

std::string float_literal(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  if (value != value || value - value != 0.0f) {
    char text[64];
    std::snprintf(text, sizeof(text), "uintBitsToFloat(0x%08" PRIx32 "u)", bits);
    return text;
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(value));
  std::string out = text;
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out + "f";
}

// The read-modify-write atomics, as GLSL (which porta_glsl.hpp and
// porta_cuda.h implement) and OpenCL C 1.2 call them: the function, and what
// follows the pointer.
enum class AtomicOperands { Value, NegatedValue, One, MinusOne, None, CompareExchange };
struct AtomicSpelling {
  const char* function;
  AtomicOperands operands;
};
struct AtomicOperation {
  spv::Op opcode;
  AtomicSpelling glsl, opencl;
};
const AtomicOperation* find_atomic(spv::Op opcode) {
  using enum AtomicOperands;
  static constexpr AtomicOperation kAtomics[] = {
      {spv::OpAtomicIAdd, {"atomicAdd", Value}, {"atomic_add", Value}},
      {spv::OpAtomicISub, {"atomicAdd", NegatedValue}, {"atomic_sub", Value}},
      {spv::OpAtomicSMin, {"atomicMin", Value}, {"atomic_min", Value}},
      {spv::OpAtomicUMin, {"atomicMin", Value}, {"atomic_min", Value}},
      {spv::OpAtomicSMax, {"atomicMax", Value}, {"atomic_max", Value}},
      {spv::OpAtomicUMax, {"atomicMax", Value}, {"atomic_max", Value}},
      {spv::OpAtomicAnd, {"atomicAnd", Value}, {"atomic_and", Value}},
      {spv::OpAtomicOr, {"atomicOr", Value}, {"atomic_or", Value}},
      {spv::OpAtomicXor, {"atomicXor", Value}, {"atomic_xor", Value}},
      {spv::OpAtomicExchange, {"atomicExchange", Value}, {"atomic_xchg", Value}},
      {spv::OpAtomicFAddEXT, {"atomicAdd", Value}, {"atomic_add", Value}},
      {spv::OpAtomicIIncrement, {"atomicAdd", One}, {"atomic_inc", None}},
      {spv::OpAtomicIDecrement, {"atomicAdd", MinusOne}, {"atomic_dec", None}},
      {spv::OpAtomicCompareExchange,
       {"atomicCompSwap", CompareExchange},
       {"atomic_cmpxchg", CompareExchange}},
  };
  for (const AtomicOperation& atomic : kAtomics)
    if (atomic.opcode == opcode) return &atomic;
  return nullptr;
}

}  // namespace

TargetCompiler::TargetCompiler(std::vector<uint32_t> spirv, const TranslateOptions& options)
    : CompilerGLSL(spirv), options_(options) {
  // Which results are read: an atomic whose old value nobody reads becomes a
  // plain call instead of an unused variable. Literal operands inside
  // functions may look like ids; they only make a result look used.
  bool in_function = false;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpControlBarrier) uses_barrier_ = true;
    if (opcode == spv::OpExtension && count >= 1)
      for (const char* extension : {"SPV_EXT_shader_atomic_float_add", "SPV_KHR_expect_assume"})
        if (std::strcmp(reinterpret_cast<const char*>(operands), extension) == 0) locals_unoptimised_ = true;
    if (opcode == spv::OpFunction) in_function = true;
    if (!in_function) return;
    if (opcode == spv::OpFunctionEnd) in_function = false;
    bool has_result = false, has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(opcode), &has_result, &has_type);
    const uint32_t result_slot = has_result ? (has_type ? 1u : 0u) : ~0u;
    for (uint32_t i = 0; i < count; ++i)
      if (i != result_slot) read_ids_.insert(operands[i]);
  });
  for (spv::Capability capability : ir.declared_capabilities)
    if (is_group_non_uniform(capability)) uses_subgroups_ = true;
}

std::unordered_set<std::string> TargetCompiler::cxx_reserved_words(
    std::initializer_list<std::string> target_words) {
  // C++ keywords that are not GLSL keywords, and the names porta_glsl.hpp
  // defines, which the C++ and CUDA translations both include.
  std::unordered_set<std::string> words = {
      // C++ keywords
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "catch", "char", "char8_t",
      "char16_t", "char32_t", "class", "compl", "concept", "consteval", "constexpr", "constinit",
      "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast", "enum",
      "explicit", "export", "extern", "friend", "goto", "inline", "long", "mutable", "namespace", "new",
      "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
      "register", "reinterpret_cast", "requires", "short", "signed", "sizeof", "static", "static_assert",
      "static_cast", "template", "this", "thread_local", "throw", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "volatile", "wchar_t", "xor", "xor_eq",
      // standard library names
      "NULL", "offsetof", "std", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
      "uint64_t", "size_t",
      // names porta_glsl.hpp and the translation define
      "main", "porta_glsl", "buffer_at", "array_copy", "checked_div", "checked_rem", "checked_mod", "vec",
      "mat", "adjugate", "shared", "porta_work_item", "porta_group_shared", "swizzle", "components", "detail",
      "bit_cast", "float_to_half", "half_to_float", "porta_bytes", "porta_size", "porta_bounds_fail"};
  words.insert(target_words);
  return words;
}

void TargetCompiler::unsupported(const std::string& what) const {
  const std::string where = emitting_position();
  throw Error(Error::Kind::UnsupportedFeature, std::string("target ") +
                                                   target_name(const_cast<TargetCompiler*>(this)->target()) +
                                                   ": " + what + (where.empty() ? "" : " (" + where + ")"));
}

std::string TargetCompiler::emitting_position() const {
  if (!emitting_ || emitting_->offset == 0) return "";
  const uint32_t* words = &ir.spirv[emitting_->offset - 1];
  std::string extended_set;
  if (emitting_->op == spv::OpExtInst && emitting_->length >= 4) {
    // The import's name: SPIRV-Cross keeps only the sets it knows.
    for_each_instruction(ir.spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
      if (opcode == spv::OpExtInstImport && count >= 2 && operands[0] == words[3])
        extended_set = reinterpret_cast<const char*>(&operands[1]);
    });
  }
  std::string where = instruction_name(words, emitting_->length + 1, extended_set);
  if (line_file_ != 0)
    if (const auto* file = maybe_get<spirv_cross::SPIRString>(line_file_))
      where += " at " + file->str + ":" + std::to_string(line_);
  return where;
}

void TargetCompiler::emit_runtime_section(std::string_view file, std::string_view section,
                                          const Substitutions& substitutions) {
  for (const std::string& line : runtime_section(file, section, substitutions)) statement(line);
}

std::string TargetCompiler::compile() {
  ir.fixup_reserved_names();
  options.es = false;
  options.version = 450;
  options.vulkan_semantics = false;
  // Variables the emitter declares ahead of their first store start at zero:
  // no uninitialised reads for the C compilers to warn about.
  options.force_zero_initialized_variables = true;

  backend.float_literal_suffix = true;
  backend.double_literal_suffix = false;
  // A 64-bit literal has the type of int64_t: long on the LP64 hosts target
  // cpp compiles for (1l; porta_glsl.hpp checks), long long under NVRTC
  // (1ll). Another type would make calls like sign(x * 5000000000) ambiguous.
  backend.long_long_literal_suffix = target() != Target::Cpp;
  backend.uint32_t_literal_suffix = true;
  backend.int16_t_literal_suffix = "";
  backend.uint16_t_literal_suffix = "";
  backend.swizzle_is_function = true;
  backend.shared_is_implied = true;
  backend.unsized_array_supported = false;
  backend.explicit_struct_type = false;
  backend.use_initializer_list = true;
  backend.use_typed_initializer_list = true;
  backend.can_declare_struct_inline = false;
  backend.can_declare_arrays_inline = false;
  backend.can_return_array = false;
  backend.array_is_value_type = false;
  backend.array_is_value_type_in_buffer_blocks = false;
  backend.supports_extensions = false;
  backend.supports_empty_struct = true;
  backend.use_array_constructor = false;
  backend.workgroup_size_is_hidden = false;
  backend.support_precise_qualifier = false;
  backend.allow_precision_qualifiers = false;
  backend.implicit_c_integer_promotion_rules = true;
  configure_backend();
  check_subgroup_size();

  const auto entry_points = get_entry_points_and_stages();
  if (entry_points.size() != 1 || entry_points[0].execution_model != spv::ExecutionModelGLCompute)
    unsupported("a kernel needs exactly one GLCompute entry point");

  fixup_anonymous_struct_names();
  fixup_type_alias();
  reorder_type_alias();
  build_function_control_flow_graphs_and_analyze();
  update_active_builtins();
  analyze_image_and_sampler_usage();
  apply_spec_values();
  collect_named_constants();
  replace_illegal_names();
  collect_interface();
  find_byte_addressed_buffers();
  // Byte-addressed accesses start from one buffer's base, not from an element
  // of an array of blocks.
  for (const BufferView& view : buffers_)
    if (view.is_array && is_byte_addressed(view.variable))
      unsupported("an array of blocks ('" + get_name(view.variable) + "') whose layout is byte-addressed");

  // The warp-fragment lowering's multiply-adds are mma.sync, which only target cuda spells.
  ir.for_each_typed_id<spirv_cross::SPIRFunction>([&](uint32_t id, spirv_cross::SPIRFunction&) {
    bool load = false;
    if (target() != Target::Cuda && (!tensor_core_shape(id).empty() || !fragment_transfer(id, load).empty()))
      unsupported("cooperative matrices lowered for tensor cores (" + get_name(id) + "; target cuda only)");
  });

  uint32_t pass_count = 0;
  do {
    reset(pass_count);
    buffer.reset();
    emitted_workgroup_size_ = false;
    struct_alignment_.clear();
    emit_translation_unit();
    pass_count++;
  } while (is_forcing_recompilation());
  return finish(buffer.str());
}

std::string TargetCompiler::fragment_transfer(uint32_t function, bool& load) const {
  const std::string& name = ir.get_name(function);
  const std::string prefix = fragment_function_prefix();
  if (name.compare(0, prefix.size(), prefix) != 0) return "";
  // "load_" or "store_", then "RxC_use_layout".
  load = name.compare(prefix.size(), 5, "load_") == 0;
  std::string rest = name.substr(prefix.size() + (load ? 5 : 6));
  const size_t x = rest.find('x'), use = rest.find('_'), layout = rest.rfind('_');
  if (x == std::string::npos || use == std::string::npos || layout == use) return "";
  const std::string use_name = rest.substr(use + 1, layout - use - 1);
  return rest.substr(0, x) + ", " + rest.substr(x + 1, use - x - 1) + ", " +
         (use_name == "a"   ? "0"
          : use_name == "b" ? "1"
                            : "2") +
         ", " + (rest.substr(layout + 1) == "row" ? "true" : "false");
}

std::string TargetCompiler::tensor_core_shape(uint32_t function) const {
  const std::string& name = ir.get_name(function);
  std::string prefix = tensor_core_function_prefix();
  if (name.compare(0, prefix.size(), prefix) != 0) prefix = warpgroup_function_prefix();
  if (name.compare(0, prefix.size(), prefix) != 0) return "";
  // "MxNxK", then "_" and s or u for A's and B's signedness where they are integers.
  std::string arguments;
  for (char c : name.substr(prefix.size()))
    arguments += c == 'x'   ? std::string(", ")
                 : c == '_' ? std::string()
                 : c == 's' ? std::string(", true")
                 : c == 'u' ? std::string(", false")
                            : std::string(1, c);
  return arguments;
}

void TargetCompiler::apply_spec_values() {
  // Unnamed spec constants driving the work-group size (local_size_x_id) read
  // best as local_size_x; others are named after their constant_id.
  spirv_cross::SpecializationConstant dims[3];
  get_work_group_size_specialization_constants(dims[0], dims[1], dims[2]);
  for (int d = 0; d < 3; ++d)
    if (dims[d].id != spirv_cross::ID(0) && get_name(dims[d].id).empty())
      set_name(dims[d].id, std::string("local_size_") + "xyz"[d]);
  ir.for_each_typed_id<SPIRConstant>([&](uint32_t id, SPIRConstant& constant) {
    if (!constant.specialization || !has_decoration(id, spv::DecorationSpecId)) return;
    const uint32_t spec_id = get_decoration(id, spv::DecorationSpecId);
    if (get_name(id).empty()) set_name(id, "constant_id_" + std::to_string(spec_id));
    for (const SpecValue& spec : options_.specs) {
      if (spec.id != spec_id) continue;
      // SPIRV-Cross holds a constant as its SPIR-V literal: 64 bits whole,
      // narrower signed integers sign-extended to 32.
      const SPIRType& type = get<SPIRType>(constant.constant_type);
      const bool is_signed = type.basetype == SPIRType::SByte || type.basetype == SPIRType::Short;
      if (type.basetype == SPIRType::Boolean)
        constant.m.c[0].r[0].u32 = spec.bits != 0;
      else if (type.width == 64)
        constant.m.c[0].r[0].u64 = spec.bits;
      else if (is_signed)
        constant.m.c[0].r[0].i32 = type.width == 8 ? int8_t(spec.bits) : int16_t(spec.bits);
      else
        constant.m.c[0].r[0].u32 = static_cast<uint32_t>(spec.bits);
    }
  });
}

void TargetCompiler::collect_interface() {
  std::vector<BufferView> buffers;
  ir.for_each_typed_id<SPIRVariable>([&](uint32_t id, SPIRVariable& var) {
    const SPIRType& type = get_variable_data_type(var);
    switch (var.storage) {
      case spv::StorageClassStorageBuffer:
      case spv::StorageClassUniform: {
        BufferView view;
        view.variable = id;
        view.set = get_decoration(id, spv::DecorationDescriptorSet);
        view.binding = get_decoration(id, spv::DecorationBinding);
        view.kind = var.storage == spv::StorageClassStorageBuffer ||
                            has_decoration(type.self, spv::DecorationBufferBlock)
                        ? BufferKind::Storage
                        : BufferKind::Uniform;
        const std::string what = std::string(view.kind == BufferKind::Uniform ? "uniform" : "storage") +
                                 " buffer '" + get_name(id) + "' (set " + std::to_string(view.set) +
                                 ", binding " + std::to_string(view.binding) + ")";
        if (type.array.size() > 1) unsupported(what + ": arrays of arrays of blocks");
        if (type.array.size() == 1) {
          if (!type.array_size_literal[0] || type.array[0] == 0)
            unsupported(what + ": an array of blocks whose size is not a literal (descriptor indexing)");
          view.count = type.array[0];
          view.is_array = true;
        }
        if (view.kind == BufferKind::Uniform) {
          view.access = Access::Read;
        } else {
          const Bitset flags = get_buffer_block_flags(id);
          const bool no_write = flags.get(spv::DecorationNonWritable),
                     no_read = flags.get(spv::DecorationNonReadable);
          view.access = no_write && !no_read   ? Access::Read
                        : no_read && !no_write ? Access::Write
                                               : Access::ReadWrite;
        }
        buffers.push_back(view);
        break;
      }
      case spv::StorageClassPushConstant:
        push_constant_variable_ = id;
        break;
      case spv::StorageClassWorkgroup:
        shared_variables_.push_back(id);
        break;
      case spv::StorageClassPrivate:
        private_variables_.push_back(id);
        break;
      case spv::StorageClassUniformConstant:
        unsupported("images and samplers ('" + get_name(id) + "')");
      default:
        break;
    }
  });
  // Parameter order: (set, binding), then the elements of an array of
  // blocks; views at one (set, binding) share its parameters.
  std::stable_sort(buffers.begin(), buffers.end(), [](const BufferView& a, const BufferView& b) {
    return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
  });
  std::vector<BufferParameter> parameters;
  std::unordered_set<std::string> view_names;
  for (size_t i = 0; i < buffers.size(); ++i) {
    BufferView& view = buffers[i];
    const bool alias = i > 0 && buffers[i - 1].set == view.set && buffers[i - 1].binding == view.binding;
    if (alias) {
      const BufferView& first = buffers[i - 1];
      if (first.kind != view.kind || first.count != view.count)
        unsupported("blocks '" + get_name(first.variable) + "' and '" + get_name(view.variable) +
                    "' alias set " + std::to_string(view.set) + ", binding " + std::to_string(view.binding) +
                    " with different descriptor types or array sizes");
      view.parameter = first.parameter;
    } else {
      view.parameter = static_cast<uint32_t>(parameters.size());
      for (uint32_t element = 0; element < view.count; ++element)
        parameters.push_back({view.set, view.binding, element, view.kind, Access(0), 0});
    }
    for (uint32_t element = 0; element < view.count; ++element) {
      BufferParameter& parameter = parameters[view.parameter + element];
      parameter.access =
          static_cast<Access>(static_cast<uint32_t>(parameter.access) | static_cast<uint32_t>(view.access));
      parameter.views++;
    }
    const SPIRType& block = get_variable_data_type(get<SPIRVariable>(view.variable));
    view.type_name = to_name(block.self);
    // An anonymous instance (`buffer In { float x[]; };`) is named after its
    // block so the body reads `in_buffer.x[i]`. Variables that share a block
    // type (one struct for several buffers, as HLSL's front ends write it,
    // or as spirv-opt merges identical ones in a module without names), or
    // that carry one name, take their id after it: each view is a member of
    // the work-item.
    std::string name = get_name(view.variable);
    view.named_after_block = name.empty();
    if (view.named_after_block) {
      name = view.type_name;
      if (!name.empty()) name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
      name += "_buffer";
    }
    if (view_names.count(name)) name += "_" + std::to_string(view.variable);
    view_names.insert(name);
    set_name(view.variable, name);
  }
  // A view's struct holds const pointers where the view is read only, so a
  // block type that read-only and writable views share takes two structs.
  std::unordered_map<uint32_t, uint32_t> constness;  // block type: 1 read only, 2 written, 3 both
  auto block_of = [&](const BufferView& view) {
    return get_variable_data_type(get<SPIRVariable>(view.variable)).self;
  };
  for (const BufferView& view : buffers) constness[block_of(view)] |= view.access == Access::Read ? 1u : 2u;
  for (BufferView& view : buffers)
    if (constness[block_of(view)] == 3u && view.access == Access::Read) view.type_name += "_const";
  buffers_ = std::move(buffers);
  parameters_ = std::move(parameters);

  // SPV_KHR_bfloat16's capabilities (spirv_words.hpp).
  for (spv::Capability capability : ir.declared_capabilities) {
    if (capability >= kBFloat16TypeKHR && capability <= kBFloat16CooperativeMatrixKHR)
      unsupported(
          "the bfloat16 type (SPV_KHR_bfloat16; keep bfloat16 as uint16_t, "
          "translator/runtime/porta_bfloat16.glsl)");
    switch (capability) {
      case spv::CapabilitySubgroupBallotKHR:
      case spv::CapabilitySubgroupVoteKHR:
        unsupported("GL_ARB_shader_ballot / GL_ARB_shader_group_vote (use GL_KHR_shader_subgroup_*)");
      case spv::CapabilityAtomicFloat16AddEXT:
      case spv::CapabilityAtomicFloat16MinMaxEXT:
        unsupported("float16_t atomics");
      case spv::CapabilityAtomicFloat32AddEXT:
        // Add only (CUDA's atomicAdd, compare-exchange loops in C++ and OpenCL C).
        break;
      case spv::CapabilityPhysicalStorageBufferAddresses:
        unsupported("buffer device addresses");
      default:
        break;
    }
  }
}

std::vector<uint32_t> TargetCompiler::zero_initialized_shared_variables() {
  std::function<bool(uint32_t)> is_zero = [&](uint32_t id) {
    const auto* constant = maybe_get<SPIRConstant>(id);
    if (!constant || constant->specialization) return false;
    for (uint32_t sub : constant->subconstants)
      if (!is_zero(sub)) return false;
    for (uint32_t col = 0; col < constant->columns(); ++col)
      for (uint32_t row = 0; row < constant->vector_size(); ++row) {
        if (constant->m.c[col].id[row] != 0) {
          if (!is_zero(constant->m.c[col].id[row])) return false;
        } else if (constant->scalar_u64(col, row) != 0) {
          return false;
        }
      }
    return true;
  };
  std::vector<uint32_t> variables;
  for (uint32_t id : shared_variables_) {
    const SPIRVariable& var = get<SPIRVariable>(id);
    if (!var.initializer) continue;
    if (!is_zero(var.initializer))
      unsupported("shared variable '" + CompilerGLSL::to_name(id) +
                  "' with an initial value other than zero");
    variables.push_back(id);
  }
  return variables;
}

bool TargetCompiler::is_workgroup_size_constant(uint32_t id) const {
  return has_decoration(id, spv::DecorationBuiltIn) &&
         get_decoration(id, spv::DecorationBuiltIn) == spv::BuiltInWorkgroupSize;
}

std::string TargetCompiler::workgroup_size_expression(int dimension) {
  spirv_cross::SpecializationConstant dims[3];
  get_work_group_size_specialization_constants(dims[0], dims[1], dims[2]);
  if (dims[dimension].id != spirv_cross::ID(0)) return to_name(dims[dimension].id);
  const auto& size = get_entry_point().workgroup_size;
  return literal(dimension == 0 ? size.x : dimension == 1 ? size.y : size.z);
}

std::string TargetCompiler::spec_constant_comment(uint32_t id) {
  if (!has_decoration(id, spv::DecorationSpecId)) return "";
  return "  // constant_id = " + std::to_string(get_decoration(id, spv::DecorationSpecId));
}

std::string TargetCompiler::spec_constant_value(const SPIRConstant& constant) {
  const SPIRType& type = get<SPIRType>(constant.constant_type);
  const uint32_t bits = constant.m.c[0].r[0].u32;
  switch (type.basetype) {
    case SPIRType::Boolean:
      return bits ? "true" : "false";
    case SPIRType::Float:
      return float_literal(bits);
    case SPIRType::Int:
      return static_cast<int32_t>(bits) == INT32_MIN ? "(-2147483647 - 1)"
                                                     : std::to_string(static_cast<int32_t>(bits));
    case SPIRType::UInt:
      return std::to_string(bits) + "u";
    case SPIRType::SByte:
    case SPIRType::UByte:
    case SPIRType::Short:
    case SPIRType::UShort:
    case SPIRType::Int64:
    case SPIRType::UInt64:
    case SPIRType::Half:
    case SPIRType::Double:
      // The other widths as the target spells any constant of the type.
      return constant_expression(constant);
    default:
      unsupported("spec constant '" + to_name(constant.self) + "' of type " + type_to_glsl(type));
  }
}

void TargetCompiler::emit_scalar_spec_constant(const SPIRConstant& constant) {
  const SPIRType& type = get<SPIRType>(constant.constant_type);
  const std::string value = spec_constant_value(constant);
  statement(kSpecConstantDeclaration, type_to_glsl(type), " ", to_name(constant.self), " = ", value, ";",
            spec_constant_comment(constant.self));
}

bool TargetCompiler::declared_by_name(const SPIRConstant& constant) const {
  if (constant.specialization) return false;
  if (constant.is_used_as_lut) return true;
  // Neither a struct nor an array can be written inline here
  // (can_declare_struct_inline, can_declare_arrays_inline): an expression
  // names such a constant, which must then be declared (a struct constant of
  // a lowered cooperative matrix, say, stored to an element of an array). A
  // store that starts a variable spells the constant out instead, so the
  // declaration may go unread.
  return named_constants_.count(constant.self) != 0;
}

void TargetCompiler::collect_named_constants() {
  const auto note = [&](uint32_t id) {
    if (id >= ir.ids.size() || ir.ids[id].get_type() != spirv_cross::TypeConstant) return;
    const SPIRConstant& constant = get<SPIRConstant>(id);
    const SPIRType& type = get<SPIRType>(constant.constant_type);
    if (!constant.specialization && (type.basetype == SPIRType::Struct || !type.array.empty()))
      named_constants_.insert(id);
  };
  // Every operand word is looked up: a literal that happens to equal a
  // constant's id only declares a constant nothing reads ([[maybe_unused]]).
  ir.for_each_typed_id<spirv_cross::SPIRBlock>([&](uint32_t, const spirv_cross::SPIRBlock& block) {
    for (const spirv_cross::Instruction& instruction : block.ops) {
      const uint32_t* operands = stream(instruction);
      for (uint32_t i = 0; i < instruction.length; ++i) note(operands[i]);
    }
  });
  ir.for_each_typed_id<SPIRVariable>([&](uint32_t, const SPIRVariable& variable) {
    if (variable.initializer) note(variable.initializer);
  });
}

void TargetCompiler::emit_constants_and_types() {
  bool any = false;
  for (uint32_t id : ir.ids_for_constant_undef_or_type) {
    auto& holder = ir.ids[id];
    if (holder.get_type() == spirv_cross::TypeConstant) {
      SPIRConstant& constant = holder.get<SPIRConstant>();
      if (is_workgroup_size_constant(id)) {
        statement("constexpr uvec3 gl_WorkGroupSize = uvec3(", workgroup_size_expression(0), ", ",
                  workgroup_size_expression(1), ", ", workgroup_size_expression(2), ");");
        emitted_workgroup_size_ = true;
        any = true;
        continue;
      }
      if (constant.specialization) {
        const SPIRType& type = get<SPIRType>(constant.constant_type);
        if (type.vecsize == 1 && type.columns == 1 && type.array.empty() && type.basetype != SPIRType::Struct)
          emit_scalar_spec_constant(constant);
        else
          statement(kSpecConstantDeclaration, variable_decl(type, to_name(id)), " = ",
                    constant_expression(constant), ";");
        any = true;
      } else if (declared_by_name(constant)) {
        const SPIRType& type = get<SPIRType>(constant.constant_type);
        statement(constant.is_used_as_lut ? "" : kMaybeUnused, "constexpr ", variable_decl(type, to_name(id)),
                  " = ", constant_expression(constant), ";");
        any = true;
      }
    } else if (holder.get_type() == spirv_cross::TypeConstantOp) {
      const SPIRConstantOp& op = holder.get<SPIRConstantOp>();
      const SPIRType& type = get<SPIRType>(op.basetype);
      statement("constexpr ", variable_decl(type, to_name(id)), " = ", constant_op_expression(op), ";");
      any = true;
    } else if (holder.get_type() == spirv_cross::TypeUndef) {
      const auto& undef = holder.get<spirv_cross::SPIRUndef>();
      const SPIRType& type = get<SPIRType>(undef.basetype);
      if (type.basetype == SPIRType::Void || type.pointer) continue;
      statement("constexpr ", variable_decl(type, to_name(id)), "{};");
      any = true;
    } else if (holder.get_type() == spirv_cross::TypeType) {
      SPIRType& type = holder.get<SPIRType>();
      if (type.basetype != SPIRType::Struct || !type.array.empty() || type.pointer || type.self != id)
        continue;
      if (type.type_alias != spirv_cross::TypeID(0)) continue;
      const bool block =
          has_decoration(id, spv::DecorationBlock) || has_decoration(id, spv::DecorationBufferBlock);
      const bool push_block =
          push_constant_variable_ != 0 &&
          get_variable_data_type(get<SPIRVariable>(push_constant_variable_)).self == type.self;
      if (block && !push_block) continue;  // storage blocks become views
      if (any) statement("");
      if (push_block) statement("// Push constants: one struct, std430 offsets from the SPIR-V.");
      emit_struct_declaration(type, push_block);
      any = false;
      statement("");
    }
  }
  if (!emitted_workgroup_size_) {
    statement("constexpr uvec3 gl_WorkGroupSize = uvec3(", workgroup_size_expression(0), ", ",
              workgroup_size_expression(1), ", ", workgroup_size_expression(2), ");");
    emitted_workgroup_size_ = true;
    any = true;
  }
  if (any) statement("");
}

uint32_t TargetCompiler::array_stride_for(uint32_t struct_type) const {
  uint32_t stride = 0;
  ir.for_each_typed_id<SPIRType>([&](uint32_t id, const SPIRType& type) {
    if (!type.array.empty() && type.parent_type == struct_type &&
        has_decoration(id, spv::DecorationArrayStride))
      stride = get_decoration(id, spv::DecorationArrayStride);
  });
  return stride;
}

void TargetCompiler::target_layout(const SPIRType& type, uint32_t& size, uint32_t& align) {
  if (!type.array.empty()) {
    uint32_t element_size = 0, element_align = 1;
    target_layout(get<SPIRType>(type.parent_type), element_size, element_align);
    uint64_t count = 1;
    for (size_t i = 0; i < type.array.size(); ++i) {
      if (type.array_size_literal[i])
        count *= type.array[i];
      else
        count *= evaluate_constant_u32(type.array[i]);
    }
    size = static_cast<uint32_t>(element_size * count);
    align = element_align;
    return;
  }
  element_layout(type, size, align);
}

void TargetCompiler::element_layout(const SPIRType& type, uint32_t& size, uint32_t& align) {
  if (type.basetype == SPIRType::Struct) {
    uint32_t offset = 0, max_align = 1;
    auto known = struct_alignment_.find(type.self);
    const uint32_t forced = known == struct_alignment_.end() ? 0 : known->second;
    for (size_t i = 0; i < type.member_types.size(); ++i) {
      uint32_t member_size = 0, member_align = 1;
      target_layout(get<SPIRType>(type.member_types[i]), member_size, member_align);
      uint32_t at = align_up(offset, member_align);
      if (has_member_decoration(type.self, static_cast<uint32_t>(i), spv::DecorationOffset)) {
        const uint32_t wanted = type_struct_member_offset(type, static_cast<uint32_t>(i));
        if (wanted > at) {
          const uint32_t a = alignment_reaching(offset, wanted, member_align);
          if (a) member_align = a;
        }
        at = wanted;
      }
      offset = at + member_size;
      max_align = std::max(max_align, member_align);
    }
    max_align = std::max(max_align, forced);
    size = align_up(offset, max_align);
    align = max_align;
    return;
  }
  if (type.columns > 1) {
    // C columns of the column vector (porta_glsl.hpp's mat<T, C, R>).
    target_layout(get<SPIRType>(type.parent_type), size, align);
    size *= type.columns;
    return;
  }
  const uint32_t component = type.basetype == SPIRType::Boolean ? 1 : type.width / 8;
  size = component * type.vecsize;
  align = component;
}

std::string TargetCompiler::member_declaration(const SPIRType& member_type, const std::string& name) {
  return variable_decl(member_type, name);
}

void TargetCompiler::emit_struct_declaration(const SPIRType& type, bool explicit_padding) {
  const std::string name = to_name(type.self);
  if (!struct_layout_is_natural(type.self)) {
    if (explicit_padding) {
      // Byte-addressed push constants: the bytes as they arrive.
      statement("struct ", name, " { alignas(", byte_push_alignment(), ") unsigned char bytes[",
                get_declared_struct_size(type), "]; };");
      return;
    }
    // Its layout in buffers is not C++'s: buffers holding it are
    // byte-addressed, and this struct holds values only.
    statement("struct ", name);
    begin_scope();
    for (uint32_t i = 0; i < type.member_types.size(); ++i)
      statement(member_declaration(get<SPIRType>(type.member_types[i]), to_member_name(type, i)), ";");
    end_scope_decl();
    return;
  }
  std::vector<std::string> members;
  std::vector<std::string> checks;
  uint32_t offset = 0, max_align = 1, padding_count = 0;
  bool has_offsets = false;
  for (uint32_t i = 0; i < type.member_types.size(); ++i) {
    const SPIRType& member_type = get<SPIRType>(type.member_types[i]);
    if (!member_type.array.empty() && member_type.array_size_literal.back() && member_type.array.back() == 0)
      unsupported("runtime array in struct " + name);
    uint32_t size = 0, align = 1;
    target_layout(member_type, size, align);
    const std::string member_name = to_member_name(type, i);
    std::string prefix;
    uint32_t at = align_up(offset, align);
    if (has_member_decoration(type.self, i, spv::DecorationOffset)) {
      has_offsets = true;
      const uint32_t wanted = type_struct_member_offset(type, i);
      if (wanted < at)
        unsupported("member " + name + "::" + member_name + " at offset " + std::to_string(wanted) +
                    " overlaps its predecessor");
      if (wanted > at) {
        const uint32_t a = explicit_padding ? 0 : alignment_reaching(offset, wanted, align);
        if (a) {
          prefix = "alignas(" + std::to_string(a) + ") ";
          align = a;
        } else {
          members.push_back("uint8_t _padding" + std::to_string(padding_count++) + "[" +
                            std::to_string(wanted - offset) + "];");
        }
      }
      at = wanted;
      checks.push_back("static_assert(offsetof(" + name + ", " + member_name + ") == " +
                       std::to_string(wanted) + ", \"std430 offset of " + name + "::" + member_name + "\");");
    }
    members.push_back(prefix + member_declaration(member_type, member_name) + ";");
    offset = at + size;
    max_align = std::max(max_align, align);
  }
  std::string head = "struct " + name;
  const uint32_t stride = array_stride_for(type.self);
  if (stride != 0) {
    const uint32_t natural = align_up(offset, max_align);
    if (natural != stride) {
      const uint32_t a = alignment_reaching(offset, stride, max_align);
      if (a) {
        head = "struct alignas(" + std::to_string(a) + ") " + name;
        struct_alignment_[type.self] = a;
      }
    }
    // Without an alignas() reaching the stride, the arrays of it are in
    // byte-addressed buffers (layout_is_natural) and need no check.
    if (natural == stride || struct_alignment_.count(type.self))
      checks.push_back("static_assert(sizeof(" + name + ") == " + std::to_string(stride) +
                       ", \"array stride of " + name + "\");");
  }
  (void)has_offsets;
  statement(head);
  begin_scope();
  for (const std::string& member : members) statement(member);
  end_scope_decl();
  for (const std::string& check : checks) statement(check);
}

std::string TargetCompiler::push_constant_type_name() {
  if (!push_constant_variable_) return "";
  return to_name(get_variable_data_type(get<SPIRVariable>(push_constant_variable_)).self);
}

void TargetCompiler::emit_buffer_views() {
  if (buffers_.empty()) return;
  statement("// Buffers, in parameter order. Each view points into one buffer and knows its size.");
  std::unordered_set<std::string> emitted;
  for (const BufferView& view : buffers_) {
    const SPIRType& block = get_variable_data_type(get<SPIRVariable>(view.variable));
    if (!emitted.insert(view.type_name).second) continue;  // one type, many views
    const char* access = view.kind == BufferKind::Uniform ? "uniform"
                         : view.access == Access::Read    ? "readonly"
                         : view.access == Access::Write   ? "writeonly"
                                                          : "readwrite";
    std::string parameters =
        "parameter" + std::string(view.count > 1 ? "s " : " ") + std::to_string(view.parameter);
    if (view.count > 1) parameters += "-" + std::to_string(view.parameter + view.count - 1);
    statement("// ", parameters, ": set ", view.set, ", binding ", view.binding, ", ", access,
              parameters_[view.parameter].views > 1 ? ", one of several views of this binding" : "");
    if (is_byte_addressed(view.variable)) {
      // Its layout is not C++'s (buffer_layout.cpp): accesses read and write
      // at byte offsets from the SPIR-V's layout decorations.
      const char* constness = view.access == Access::Read ? "const " : "";
      statement("struct ", view.type_name, " { ", constness, "void* base; ", constness,
                "unsigned char* porta_bytes; uint64_t porta_size; explicit ", view.type_name, "(", constness,
                "void* base, uint64_t size) : base(base), porta_bytes(static_cast<", constness,
                "unsigned char*>(base)), porta_size(size) {} };");
      statement("");
      continue;
    }
    statement("struct ", view.type_name);
    begin_scope();
    std::vector<std::string> initialisers;
    for (uint32_t i = 0; i < block.member_types.size(); ++i) {
      const SPIRType& member_type = get<SPIRType>(block.member_types[i]);
      const std::string member_name = to_member_name(block, i);
      const uint32_t offset = type_struct_member_offset(block, i);
      const bool runtime_array = !member_type.array.empty() && member_type.array_size_literal.back() &&
                                 member_type.array.back() == 0;
      if (runtime_array) {
        if (member_type.array.size() > 1) unsupported("runtime arrays of arrays in buffer " + view.type_name);
        const SPIRType& element = get<SPIRType>(member_type.parent_type);
        uint32_t size = 0, align = 1;
        target_layout(element, size, align);
        const uint32_t stride = get_decoration(block.member_types[i], spv::DecorationArrayStride);
        if (stride != size)
          unsupported("buffer " + view.type_name + ": " + member_name + "[] has array stride " +
                      std::to_string(stride) + " but " + type_to_glsl(element) + " takes " +
                      std::to_string(size) + " bytes (std430 vec3 arrays are padded: use vec4 or a struct)");
        const std::string qualified = (view.access == Access::Read ? "const " : "") + type_to_glsl(element);
        statement(qualified, "* ", member_name, ";");
        initialisers.push_back(member_name + "(buffer_at<" + qualified + ">(base, " + std::to_string(offset) +
                               "))");
      } else {
        // A reference to a C++ array reads elements at the element's own
        // size apart: only right where the block's ArrayStride says the same.
        if (!member_type.array.empty()) {
          uint32_t size = 0, align = 1;
          target_layout(get<SPIRType>(member_type.parent_type), size, align);
          const uint32_t stride = type_struct_member_array_stride(block, i);
          if (stride != size)
            unsupported("buffer " + view.type_name + ": " + member_name + " has array stride " +
                        std::to_string(stride) + " but its elements take " + std::to_string(size) +
                        " bytes (std140 arrays of scalars and vec2/vec3 are padded to 16 bytes)");
        }
        std::string element = type_to_glsl(member_type) + type_to_array_glsl(member_type);
        if (view.access == Access::Read) element = "const " + element;
        std::string declarator = member_type.array.empty()
                                     ? "& " + member_name
                                     : "(&" + member_name + ")" + type_to_array_glsl(member_type);
        std::string base_type = type_to_glsl(member_type);
        if (view.access == Access::Read) base_type = "const " + base_type;
        statement(base_type, declarator, ";");
        initialisers.push_back(member_name + "(*buffer_at<" + element + ">(base, " + std::to_string(offset) +
                               "))");
      }
    }
    // The buffer's bytes and size, for .length() and byte-addressed lowering.
    const char* constness = view.access == Access::Read ? "const " : "";
    statement(constness, "unsigned char* porta_bytes;");
    statement("uint64_t porta_size;");
    initialisers.push_back(std::string("porta_bytes(static_cast<") + constness + "unsigned char*>(base))");
    initialisers.push_back("porta_size(size)");
    std::string init;
    for (size_t i = 0; i < initialisers.size(); ++i) init += (i ? ", " : "") + initialisers[i];
    statement("explicit ", view.type_name, "(", constness, "void* base, uint64_t size) : ", init, " {}");
    end_scope_decl();
    statement("");
  }
}

void TargetCompiler::emit_shared_struct() {
  statement("// Work-group shared memory: one instance per work-group.");
  statement("struct porta_group_shared");
  begin_scope();
  // Arrays that warp-fragment loads read (ldmatrix: 16-byte rows) start on 16 bytes.
  bool fragments = false;
  ir.for_each_typed_id<SPIRFunction>([&](uint32_t id, SPIRFunction&) {
    bool load = false;
    fragments = fragments || !fragment_transfer(id, load).empty();
  });
  for (uint32_t id : shared_variables_) {
    const SPIRVariable& var = get<SPIRVariable>(id);
    const SPIRType& type = get_variable_data_type(var);
    // Vectors (and arrays of them) of 8 or 16 bytes get their size as
    // alignment, so that a vec4 read from shared memory can be one 16-byte load.
    const uint32_t bytes = wide_vector_bytes(type);
    const std::string align = bytes                              ? "alignas(" + std::to_string(bytes) + ") "
                              : fragments && !type.array.empty() ? "alignas(16) "
                                                                 : "";
    statement(align, variable_decl(type, CompilerGLSL::to_name(id)), ";");
  }
  end_scope_decl();
  statement("");
}

uint32_t TargetCompiler::wide_vector_bytes(const SPIRType& type) {
  if (type.columns != 1 || (type.vecsize != 2 && type.vecsize != 4) || type.basetype == SPIRType::Boolean ||
      type.basetype == SPIRType::Struct)
    return 0;
  const uint32_t bytes = type.vecsize * type.width / 8;
  return bytes == 8 || bytes == 16 ? bytes : 0;
}

void TargetCompiler::emit_cxx_kernel(std::string_view runtime_file, const WorkItemConstructor& constructor) {
  emit_runtime_section(runtime_file, "begin");
  statement("");
  emit_constants_and_types();
  emit_buffer_views();
  emit_shared_struct();
  if (uses_subgroups_) {
    emit_runtime_section(runtime_file, "subgroup_types");
    statement("");
  }
  emit_work_item(runtime_file, constructor);
}

void TargetCompiler::emit_work_item(std::string_view runtime_file, const WorkItemConstructor& constructor) {
  static const char* const built_ins[] = {"gl_NumWorkGroups", "gl_WorkGroupID", "gl_LocalInvocationID",
                                          "gl_GlobalInvocationID", "gl_LocalInvocationIndex"};
  statement(constructor.comment);
  if (!constructor.template_header.empty()) statement(constructor.template_header);
  statement("struct porta_work_item");
  begin_scope();
  for (const char* built_in : built_ins)
    statement(built_in == built_ins[4] ? "uint " : "uvec3 ", built_in, ";");
  for (const BufferView& view : buffers_)
    statement(view.type_name, " ", to_name(view.variable),
              view.is_array ? "[" + std::to_string(view.count) + "]" : "", ";");
  if (push_constant_variable_)
    statement("const ", push_constant_type_name(), "& ", to_name(push_constant_variable_), ";");
  statement("porta_group_shared& shared;");
  for (const std::string& member : constructor.extra_members) statement(member);
  for (uint32_t id : private_variables_) statement(variable_decl(get<SPIRVariable>(id)), ";");
  statement("");

  std::vector<std::string> initialisers;
  for (size_t i = 0; i < constructor.built_ins.size(); ++i)
    initialisers.push_back(std::string(built_ins[i]) + "(" + constructor.built_ins[i] + ")");
  for (const BufferView& view : buffers_) {
    auto view_of = [&](uint32_t parameter) {
      return constructor.view_base(parameter) + ", " + constructor.view_size(parameter);
    };
    if (!view.is_array) {
      initialisers.push_back(to_name(view.variable) + "(" + view_of(view.parameter) + ")");
      continue;
    }
    std::string elements;
    for (uint32_t i = 0; i < view.count; ++i)
      elements += (i ? ", " : "") + view.type_name + "(" + view_of(view.parameter + i) + ")";
    initialisers.push_back(to_name(view.variable) + "{" + elements + "}");
  }
  if (push_constant_variable_)
    initialisers.push_back(to_name(push_constant_variable_) + "(" + constructor.push_constants + ")");
  initialisers.push_back("shared(group_shared)");
  for (const std::string& initialiser : constructor.extra_initialisers) initialisers.push_back(initialiser);
  statement("porta_work_item(", constructor.parameters, ")");
  for (size_t i = 0; i < initialisers.size(); ++i)
    statement(i == 0 ? "    : " : "      ", initialisers[i], i + 1 < initialisers.size() ? "," : "");
  statement("{");
  statement("}");
  statement("");
  if (uses_barrier_) {
    emit_runtime_section(runtime_file, barrier_section());
    statement("");
  }
  if (uses_subgroups_) {
    emit_runtime_section(runtime_file, "subgroups");
    statement("");
  }
  group_bounds_.clear();
  emit_function(get<SPIRFunction>(ir.default_entry_point), Bitset());
  if (!items_in_bounds_member().empty()) {
    statement("");
    emit_group_in_bounds();
  }
  end_scope_decl();
  statement("");
}

std::string TargetCompiler::builtin_to_glsl(spv::BuiltIn builtin, spv::StorageClass storage) {
  // The compute built-ins keep their GLSL names.
  switch (builtin) {
    case spv::BuiltInGlobalInvocationId:
    case spv::BuiltInLocalInvocationId:
    case spv::BuiltInWorkgroupId:
    case spv::BuiltInNumWorkgroups:
    case spv::BuiltInLocalInvocationIndex:
    case spv::BuiltInWorkgroupSize:
      return CompilerGLSL::builtin_to_glsl(builtin, storage);
    default:
      if (std::string name = subgroup_builtin_name(builtin); !name.empty()) return name;
      unsupported("built-in variable " + CompilerGLSL::builtin_to_glsl(builtin, storage));
  }
}

std::string TargetCompiler::to_name(uint32_t id, bool allow_alias) const {
  std::string name = CompilerGLSL::to_name(id, allow_alias);
  if (std::find(shared_variables_.begin(), shared_variables_.end(), id) != shared_variables_.end())
    return shared_variable_prefix() + name;
  return name;
}

void TargetCompiler::emit_function_prototype(SPIRFunction& func, const Bitset&) {
  if (func.self != ir.default_entry_point) add_function_overload(func);
  local_variable_names = resource_names;
  const SPIRType& return_type = get<SPIRType>(func.return_type);
  if (!return_type.array.empty()) unsupported("functions returning arrays");
  std::string decl = type_to_glsl(return_type) + " ";
  if (func.self == ir.default_entry_point) {
    decl += "main";
    processing_entry_point = true;
  } else {
    decl += to_name(func.self);
  }
  decl += "(";
  bool first = true;
  for (auto& arg : func.arguments) {
    if (skip_argument(arg.id)) continue;
    add_local_variable_name(arg.id);
    const SPIRType& type = expression_type(arg.id);
    const std::string name = to_name(arg.id);
    std::string param;
    if (arg.read_count == 0 && arg.write_count == 0) param = "[[maybe_unused]] ";
    if (type.pointer && arg.write_count) {
      // out / inout: the callee writes the caller's variable.
      param += type.array.empty() ? type_to_glsl(type) + "& " + name
                                  : type_to_glsl(type) + " (&" + name + ")" + type_to_array_glsl(type);
    } else if (!type.array.empty()) {
      param += "const " + type_to_glsl(type) + " (&" + name + ")" + type_to_array_glsl(type);
    } else {
      param += type_to_glsl(type) + " " + name;
    }
    decl += (first ? "" : ", ") + param;
    first = false;
    if (auto* var = maybe_get<SPIRVariable>(arg.id)) var->parameter = &arg;
  }
  for (auto& arg : func.shadow_arguments) {
    if (auto* var = maybe_get<SPIRVariable>(arg.id)) var->parameter = &arg;
  }
  decl += ")";
  statement(decl);
}

bool TargetCompiler::is_atomic_read_modify_write(spv::Op opcode) { return find_atomic(opcode) != nullptr; }

std::string TargetCompiler::atomic_call(const spirv_cross::Instruction& instruction,
                                        const std::string& pointer) {
  // Operands: result type, result, pointer, scope, semantics, then the value
  // (OpAtomicCompareExchange: unequal semantics, value, comparator).
  const uint32_t* ops = stream(instruction);
  const AtomicOperation& atomic = *find_atomic(static_cast<spv::Op>(instruction.op));
  const AtomicSpelling& spelling = target() == Target::OpenCL ? atomic.opencl : atomic.glsl;
  std::string call = spelling.function;
  call += "(" + pointer;
  switch (spelling.operands) {
    case AtomicOperands::Value:
      call += ", " + to_unpacked_expression(ops[5]);
      break;
    case AtomicOperands::NegatedValue:
      call += ", -" + to_enclosed_unpacked_expression(ops[5]);
      break;
    case AtomicOperands::One:
      call += ", 1";
      break;
    case AtomicOperands::MinusOne:
      call += ", -1";
      break;
    case AtomicOperands::None:
      break;
    case AtomicOperands::CompareExchange:
      call += ", " + to_unpacked_expression(ops[7]) + ", " + to_unpacked_expression(ops[6]);
      break;
  }
  return call + ")";
}

void TargetCompiler::emit_instruction(const spirv_cross::Instruction& instruction) {
  if (instruction.op == spv::OpLine && instruction.length >= 2) {
    line_file_ = stream(instruction)[0];
    line_ = stream(instruction)[1];
  } else if (instruction.op == spv::OpNoLine) {
    line_file_ = 0;
  }
  // Restored on the way out: an instruction may emit others (a block's phi copies).
  const spirv_cross::Instruction* outer = emitting_;
  emitting_ = &instruction;
  try {
    if (!guarding_ && is_cancel_poll(instruction)) {
      // Only in the entry point, where a poll may end the work-item.
      const std::string poll = cancel_poll_statement();
      if (!poll.empty() && current_function && current_function->self == ir.default_entry_point)
        statement(poll);
    } else if (guarding_ || !options_.bounds_checks || !emit_checked_access(instruction)) {
      emit_target_instruction(instruction);
    }
  } catch (...) {
    emitting_ = outer;
    throw;
  }
  emitting_ = outer;
}

void TargetCompiler::emit_atomic_call(const uint32_t* ops, const std::string& call) {
  // As the emitter does for atomics: no load may be forwarded across one.
  flush_all_atomic_capable_variables();
  // With bounds checks, an atomic out of bounds returns 0 and changes nothing.
  const std::string condition = bounds_condition(ops[2]);
  if (result_is_read(ops[1])) {
    forced_temporaries.insert(ops[1]);
    emit_op(ops[0], ops[1],
            condition.empty() ? call : guarded_value(condition, ops[2], true, call, zero_value(ops[0])),
            false);
  } else if (condition.empty()) {
    statement(call, ";");
  } else {
    guarded_statement(condition, ops[2], true, call);
  }
  register_write(ops[2]);
}

void TargetCompiler::emit_target_instruction(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  if (emit_byte_addressed(instruction)) return;
  // An array taken out of a composite into a temporary the emitter declared
  // before a loop (a large lowered cooperative matrix carried around it): C++
  // and CUDA arrays are copied (porta_glsl.hpp's array_copy), not assigned.
  // (OpenCL C has no such copy of an expression; its compiler refuses the
  // assignment.)
  if (opcode == spv::OpCompositeExtract && instruction.length >= 4 && target() != Target::OpenCL &&
      hoisted_temporaries.count(ops[1]) && !get<SPIRType>(ops[0]).array.empty()) {
    const std::string value = access_chain_internal(ops[2], ops + 3, instruction.length - 3,
                                                    spirv_cross::ACCESS_CHAIN_INDEX_IS_LITERAL_BIT, nullptr);
    statement("array_copy(", to_name(ops[1]), ", ", value, ");");
    set<spirv_cross::SPIRExpression>(ops[1], to_name(ops[1]), ops[0], true);
    return;
  }
  // An atomic whose old value is read: the emitter keeps it.
  // An atomic whose old value is read but which needs a bounds check too.
  if (is_atomic_read_modify_write(opcode) &&
      (!read_ids_.count(ops[1]) || !bounds_condition(ops[2]).empty())) {
    emit_atomic_call(ops, atomic_call(instruction, to_non_uniform_aware_expression(ops[2])));
    return;
  }
  if ((opcode == spv::OpControlBarrier || opcode == spv::OpMemoryBarrier) &&
      emit_subgroup_barrier(instruction))
    return;
  if (opcode == spv::OpAtomicFAddEXT) {
    // The emitter writes float atomics for Vulkan GLSL only.
    emit_atomic_call(ops, atomic_call(instruction, to_non_uniform_aware_expression(ops[2])));
    return;
  }
  switch (opcode) {
    case spv::OpFOrdNotEqual:
    case spv::OpFUnordEqual: {
      // C's == is ordered and its != unordered; these two are the other way
      // round (false, and true, where a side is NaN). Vectors: porta_glsl.hpp's
      // functions (cpp, cuda); OpenCL C's relational functions (opencl_types.cpp).
      const bool vector = get<SPIRType>(ops[0]).vecsize != 1;
      if (vector && target() == Target::OpenCL) break;
      std::string expression;
      if (vector) {
        expression = std::string(opcode == spv::OpFOrdNotEqual ? "porta_ordered_not_equal("
                                                               : "porta_unordered_equal(") +
                     to_unpacked_expression(ops[2]) + ", " + to_unpacked_expression(ops[3]) + ")";
      } else {
        const std::string a = to_enclosed_unpacked_expression(ops[2]),
                          b = to_enclosed_unpacked_expression(ops[3]);
        const std::string differ = "(" + a + " < " + b + " || " + a + " > " + b + ")";
        expression = opcode == spv::OpFOrdNotEqual ? differ : "!" + differ;
      }
      emit_op(ops[0], ops[1], expression, should_forward(ops[2]) && should_forward(ops[3]));
      inherit_expression_dependencies(ops[1], ops[2]);
      inherit_expression_dependencies(ops[1], ops[3]);
      return;
    }
    case spv::OpArrayLength:
      emit_array_length(instruction);
      return;
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain: {
      // One block of an array of blocks: .length() needs its size.
      const BufferView* view = find_buffer_view(ops[2]);
      if (view && view->is_array && instruction.length == 4)
        buffer_element_chains_[ops[1]] = {ops[2], ops[3]};
      break;
    }
    case spv::OpIAdd:
    case spv::OpISub:
    case spv::OpIMul:
    case spv::OpSNegate: {
      // SPIR-V integer arithmetic wraps; signed overflow in C and C++ is
      // undefined, and NVRTC's and OpenCL's optimisers rely on that. Signed
      // results are computed in the unsigned type and converted back.
      const SPIRType& type = get<SPIRType>(ops[0]);
      const bool is_signed = type.basetype == SPIRType::Int || type.basetype == SPIRType::Int64;
      if (signed_overflow_wraps() || !is_signed || type.columns != 1) break;
      const SPIRType::BaseType as_unsigned =
          type.basetype == SPIRType::Int ? SPIRType::UInt : SPIRType::UInt64;
      if (opcode == spv::OpSNegate) {
        // The result is the unsigned negation, seen as the signed type again.
        emit_unary_func_op_cast(ops[0], ops[1], ops[2], "-", as_unsigned, as_unsigned);
        return;
      }
      const char* op = opcode == spv::OpIAdd ? "+" : opcode == spv::OpISub ? "-" : "*";
      emit_binary_op_cast(ops[0], ops[1], ops[2], ops[3], op, as_unsigned, false, false);
      return;
    }
    case spv::OpUDiv:
    case spv::OpSDiv:
    case spv::OpUMod:
    case spv::OpSRem:
    case spv::OpSMod: {
      // Integer division by zero traps on CPUs; GLSL leaves the result
      // undefined. A divisor known not to be 0 (or -1 for signed) keeps `/`.
      const uint32_t result_type = ops[0], id = ops[1], a = ops[2], b = ops[3];
      bool safe = false;
      if (const auto* divisor = maybe_get<SPIRConstant>(b); divisor && !divisor->specialization) {
        const SPIRType& t = get<SPIRType>(divisor->constant_type);
        if (t.width == 32 && t.columns == 1) {
          safe = true;
          for (uint32_t c = 0; c < t.vecsize; ++c) {
            const uint32_t v = divisor->m.c[0].r[c].u32;
            if (v == 0 || (opcode != spv::OpUDiv && opcode != spv::OpUMod && v == 0xffffffffu)) safe = false;
          }
        }
      }
      // C's % takes the dividend's sign, OpSMod the divisor's: never plain %.
      if (safe && opcode != spv::OpSMod) break;
      const SPIRType& type = get<SPIRType>(result_type);
      const bool is_signed = opcode == spv::OpSDiv || opcode == spv::OpSRem || opcode == spv::OpSMod;
      SPIRType::BaseType base = type.basetype;
      if (type.width == 32) base = is_signed ? SPIRType::Int : SPIRType::UInt;
      if (type.width == 64) base = is_signed ? SPIRType::Int64 : SPIRType::UInt64;
      const char* function = opcode == spv::OpUDiv || opcode == spv::OpSDiv ? "checked_div"
                             : opcode == spv::OpSMod                        ? "checked_mod"
                                                                            : "checked_rem";
      SPIRType operand_type = type;
      operand_type.basetype = base;
      const std::string name = checked_division_function(function, operand_type);
      emit_binary_func_op_cast(result_type, id, a, b, name.c_str(), base, !is_signed);
      return;
    }
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
      if (emit_shift(instruction)) return;
      break;
    case spv::OpConvertFToS:
    case spv::OpConvertFToU: {
      // Out-of-range values saturate, NaN gives 0 (porta_glsl.hpp's
      // saturating_cast; OpenCL's convert_T_sat_rtz): never C++'s undefined behaviour.
      if (target() == Target::OpenCL) break;
      const SPIRType& type = get<SPIRType>(ops[0]);
      SPIRType integer = type;
      integer.vecsize = 1;
      const bool to_signed = opcode == spv::OpConvertFToS;
      integer.basetype = type.width == 64   ? (to_signed ? SPIRType::Int64 : SPIRType::UInt64)
                         : type.width == 16 ? (to_signed ? SPIRType::Short : SPIRType::UShort)
                         : type.width == 8  ? (to_signed ? SPIRType::SByte : SPIRType::UByte)
                                            : (to_signed ? SPIRType::Int : SPIRType::UInt);
      const std::string expr =
          join("saturating_cast<", type_to_glsl(integer), ">(", to_unpacked_expression(ops[2]), ")");
      emit_op(ops[0], ops[1], bitcast_expression(type, integer.basetype, expr), should_forward(ops[2]));
      inherit_expression_dependencies(ops[1], ops[2]);
      return;
    }
    case spv::OpExpectKHR:
      // A hint: its value is the value.
      emit_op(ops[0], ops[1], to_unpacked_expression(ops[2]), should_forward(ops[2]));
      inherit_expression_dependencies(ops[1], ops[2]);
      return;
    case spv::OpAssumeTrueKHR:
      return;  // a hint; the targets' compilers need none
    case spv::OpExtInst: {
      // GLSL.std.450 is the targets' to lower; non-semantic sets (debug info,
      // printf) carry no computation, and the emitter drops them. Any other
      // set (SPV_AMD_*) the emitter would write as GLSL calls none of the
      // targets has.
      using Extension = spirv_cross::SPIRExtension;
      const Extension::Extension set = get<Extension>(ops[2]).ext;
      if (set != Extension::GLSL && set != Extension::SPV_debug_info &&
          set != Extension::NonSemanticDebugPrintf && set != Extension::NonSemanticShaderDebugInfo &&
          set != Extension::NonSemanticGeneric)
        unsupported("an instruction of an extended instruction set other than GLSL.std.450");
      break;
    }
    default:
      break;
  }
  struct CallResult {
    bool& flag;
    ~CallResult() { flag = false; }
  } call_result{declaring_call_result_};
  declaring_call_result_ = instruction.op == spv::OpFunctionCall && instruction.length >= 2 &&
                           !read_ids_.count(stream(instruction)[1]) && target() != Target::OpenCL;
  CompilerGLSL::emit_instruction(instruction);
  // The emitter writes "// unimplemented op" for an instruction it does not
  // know and leaves the result undefined (later: "Cannot resolve expression
  // type"): refused here, naming it.
  bool has_result = false, has_type = false;
  spv::HasResultAndType(opcode, &has_result, &has_type);
  if (has_result && has_type && instruction.length >= 2 &&
      ir.ids[ops[1]].get_type() == spirv_cross::TypeNone && get<SPIRType>(ops[0]).basetype != SPIRType::Void)
    unsupported("this instruction");
}

// SPIR-V leaves a shift by the base's bit width or more undefined; C and C++
// make it undefined behaviour, which optimisers exploit. porta defines it the
// way OpenCL C does, and Vulkan drivers built on NIR (Mesa) and x86 do: the
// amount is taken modulo the bit width (x << 33 == x << 1). A left shift of a
// signed value is done in the unsigned type (C's rules make shifting a
// negative value, or into the sign bit, undefined).
bool TargetCompiler::emit_shift(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  const SPIRType& type = get<SPIRType>(ops[0]);
  if (type.columns != 1 || type.width < 8 || type.basetype == SPIRType::Boolean) return false;
  const SPIRType& amount_type = expression_type(ops[3]);
  bool in_range = false;
  if (const auto* constant = maybe_get<SPIRConstant>(ops[3]); constant && !constant->specialization) {
    in_range = true;
    for (uint32_t c = 0; c < amount_type.vecsize; ++c)
      if ((amount_type.width == 64 ? constant->scalar_u64(0, c) : constant->scalar(0, c)) >= type.width)
        in_range = false;
  }
  const bool signed_result = type.basetype == SPIRType::Int || type.basetype == SPIRType::Int64 ||
                             type.basetype == SPIRType::Short || type.basetype == SPIRType::SByte;
  // The emitter casts an amount of another width to the base's type, which
  // OpenCL's as_T reinterpretation cannot do: those are written here too.
  if (in_range && (opcode != spv::OpShiftLeftLogical || !signed_result) && amount_type.width == type.width)
    return false;
  // The operand as the opcode reads it: arithmetic shifts signed, the others unsigned.
  SPIRType operand = type;
  const bool arithmetic = opcode == spv::OpShiftRightArithmetic;
  switch (type.width) {
    case 8:
      operand.basetype = arithmetic ? SPIRType::SByte : SPIRType::UByte;
      break;
    case 16:
      operand.basetype = arithmetic ? SPIRType::Short : SPIRType::UShort;
      break;
    case 64:
      operand.basetype = arithmetic ? SPIRType::Int64 : SPIRType::UInt64;
      break;
    default:
      operand.basetype = arithmetic ? SPIRType::Int : SPIRType::UInt;
      break;
  }
  const SPIRType& value_type = expression_type(ops[2]);
  const std::string value = value_type.basetype == operand.basetype ? to_enclosed_unpacked_expression(ops[2])
                                                                    : bitcast_glsl(operand, ops[2]);
  std::string amount = to_enclosed_unpacked_expression(ops[3]);
  // OpenCL C masks shift amounts itself.
  if (!in_range && target() != Target::OpenCL) {
    SPIRType scalar = amount_type;
    scalar.vecsize = 1;
    std::string mask = std::to_string(type.width - 1);
    if (amount_type.width == 32)
      mask += amount_type.basetype == SPIRType::UInt ? "u" : "";
    else
      mask = type_to_glsl(scalar) + "(" + mask + ")";
    amount = "(" + amount + " & " + mask + ")";
  }
  const std::string expr = bitcast_expression(
      type, operand.basetype, value + (opcode == spv::OpShiftLeftLogical ? " << " : " >> ") + amount);
  emit_op(ops[0], ops[1], expr, should_forward(ops[2]) && should_forward(ops[3]));
  inherit_expression_dependencies(ops[1], ops[2]);
  inherit_expression_dependencies(ops[1], ops[3]);
  return true;
}

const TargetCompiler::BufferView* TargetCompiler::find_buffer_view(uint32_t variable) const {
  for (const BufferView& view : buffers_)
    if (view.variable == variable) return &view;
  return nullptr;
}

std::vector<uint32_t> TargetCompiler::buffer_parameter_indexes(uint32_t variable) const {
  std::vector<uint32_t> indexes;
  if (const BufferView* view = find_buffer_view(variable))
    for (uint32_t i = 0; i < view->count; ++i) indexes.push_back(view->parameter + i);
  return indexes;
}

// The C++-based targets keep each buffer's bytes and size in its view.
std::string TargetCompiler::buffer_base_pointer(uint32_t variable, const std::string& element) {
  const std::string index = element.empty() ? "" : "[" + element + "]";
  return to_name(variable) + index + ".porta_bytes";
}

std::string TargetCompiler::buffer_size_expression(uint32_t variable, const std::string& element) {
  const std::string index = element.empty() ? "" : "[" + element + "]";
  return to_name(variable) + index + ".porta_size";
}

void TargetCompiler::emit_array_length(const spirv_cross::Instruction& instruction) {
  // Operands: result type, result, the block's pointer, the runtime array's member index.
  const uint32_t* ops = stream(instruction);
  uint32_t variable = ops[2];
  std::string element;
  if (auto chain = buffer_element_chains_.find(ops[2]); chain != buffer_element_chains_.end()) {
    variable = chain->second.first;
    element = to_unpacked_expression(chain->second.second);
  }
  const BufferView* view = find_buffer_view(variable);
  if (!view || (view->is_array && element.empty()))
    unsupported(
        "the length of a runtime array (.length()) of a block reached through a pointer porta does not "
        "follow");
  const SPIRType& block = get_variable_data_type(get<SPIRVariable>(view->variable));
  const uint32_t offset = type_struct_member_offset(block, ops[3]);
  const uint32_t stride = type_struct_member_array_stride(block, ops[3]);
  // The core refuses a buffer smaller than the block's fixed part, so the
  // subtraction does not wrap.
  const std::string size = buffer_size_expression(view->variable, element);
  emit_op(ops[0], ops[1],
          "(uint)((" + size + " - " + std::to_string(offset) + "u) / " + std::to_string(stride) + "u)",
          false);
}

std::string TargetCompiler::type_to_glsl(const SPIRType& type, uint32_t id) {
  return CompilerGLSL::type_to_glsl(type, id);
}

std::string TargetCompiler::bitcast_glsl_op(const SPIRType& result_type, const SPIRType& argument_type) {
  const std::string name = CompilerGLSL::bitcast_glsl_op(result_type, argument_type);
  if (result_type.vecsize == argument_type.vecsize || result_type.pointer || argument_type.pointer)
    return name;
  // A bitcast between vectors of different sizes: GLSL has names for a few
  // (porta_glsl.hpp defines the 2x32 ones); for the rest (ivec2 -> int64,
  // uvec4 -> u64vec2, the 8- and 16-bit packs) CompilerGLSL gives a name the
  // runtime lacks or none, which would leave the operand's type in place.
  if (name == "packUint2x32" || name == "unpackUint2x32") return name;
  // Both types named, so that a swizzle argument converts to its vector.
  return "bit_cast<" + type_to_glsl(result_type) + ", " + type_to_glsl(argument_type) + ">";
}

void TargetCompiler::emit_array_copy(const std::string& lhs, uint32_t, uint32_t rhs_id, spv::StorageClass,
                                     spv::StorageClass) {
  statement("array_copy(", lhs, ", ", to_expression(rhs_id), ");");
}

// GLSL's control-flow attributes (GL_EXT_control_flow_attributes) reach
// SPIR-V as loop and selection controls. CompilerGLSL writes them as
// SPIRV_CROSS_* macros that only its own GLSL output defines; here the loop
// hints take the target's spelling and [[flatten]] / [[dont_flatten]], which
// no target can say, are dropped: all of them are hints.
void TargetCompiler::emit_block_hints(const spirv_cross::SPIRBlock& block) {
  std::string hint;
  if (block.hint == spirv_cross::SPIRBlock::HintUnroll)
    hint = loop_hint(true);
  else if (block.hint == spirv_cross::SPIRBlock::HintDontUnroll)
    hint = loop_hint(false);
  // A header with a cancel poll is a `for (;;)` whose first statement is the
  // poll, where GCC refuses its unroll pragma: the hint goes (a hint only).
  for (const spirv_cross::Instruction& instruction : block.ops)
    if (is_cancel_poll(instruction)) hint.clear();
  if (!hint.empty()) statement(hint);
}

// Where spirv-opt left dead locals (locals_unoptimised_), the target
// compilers must not warn about them (NVRTC's #177 and #550).
std::string TargetCompiler::variable_decl(const SPIRVariable& variable) {
  std::string declaration = CompilerGLSL::variable_decl(variable);
  if (locals_unoptimised_ && variable.storage == spv::StorageClassFunction && target() != Target::OpenCL &&
      declaration.rfind(kMaybeUnused, 0) != 0)
    declaration = kMaybeUnused + declaration;
  return declaration;
}

// The initializer of a variable declared zeroed (force_zero_initialized_
// variables; the emitter uses it in declarations only, zero_value() is the
// value): an array gets an empty list, which zeroes it too, rather than one
// zero per element, which for a 2^20-element array is megabytes of source.
// OpenCL C (C99) wants one element, and only arrays of scalars take a bare 0
// there without a warning.
std::string TargetCompiler::to_zero_initialized_expression(uint32_t type_id) {
  const SPIRType& type = get<SPIRType>(type_id);
  if (type.array.empty() || type.pointer) return CompilerGLSL::to_zero_initialized_expression(type_id);
  if (target() != Target::OpenCL) return "{}";
  // An array type carries its element's basetype and sizes.
  const bool scalars = type.basetype != SPIRType::Struct && type.vecsize == 1 && type.columns == 1;
  return scalars && type.array.size() == 1 ? "{ 0 }" : CompilerGLSL::to_zero_initialized_expression(type_id);
}

// The same for the temporary that holds the result of a call that nothing
// reads (a call kept for its out parameters, which the emitter declares all
// the same; unoptimised modules have them).
std::string TargetCompiler::variable_decl(const SPIRType& type, const std::string& name, uint32_t id) {
  std::string declaration = CompilerGLSL::variable_decl(type, name, id);
  if (declaring_call_result_ && declaration.rfind(kMaybeUnused, 0) != 0)
    declaration = kMaybeUnused + declaration;
  return declaration;
}

// C-family arrays are not values: a store of a whole array becomes a copy, and
// a variable first written with a constant array is declared with it.
void TargetCompiler::emit_store_statement(uint32_t lhs_expression, uint32_t rhs_expression) {
  const SPIRType& type = expression_type(rhs_expression);
  if (type.array.empty()) {
    CompilerGLSL::emit_store_statement(lhs_expression, rhs_expression);
    return;
  }
  auto* var = maybe_get<SPIRVariable>(lhs_expression);
  if (var && var->deferred_declaration && ir.ids[rhs_expression].get_type() == spirv_cross::TypeConstant) {
    statement(variable_decl(*var), " = ", constant_expression(get<SPIRConstant>(rhs_expression)), ";");
    var->deferred_declaration = false;
  } else {
    if (var) flush_variable_declaration(var->self);
    emit_array_copy(to_expression(lhs_expression), lhs_expression, rhs_expression, spv::StorageClassFunction,
                    spv::StorageClassFunction);
  }
  register_write(lhs_expression);
}

void TargetCompiler::replace_illegal_names() {
  CompilerGLSL::replace_illegal_names();
  const auto& reserved = reserved_words();
  for (auto& entry : ir.meta) {
    auto& decoration = entry.second.decoration;
    if (reserved.count(decoration.alias)) decoration.alias += "_";
    for (auto& member : entry.second.members)
      if (reserved.count(member.alias)) member.alias += "_";
  }
  // Constant tables and constants computed from spec constants are declared
  // at namespace scope: two functions' local `const float t[4]`, or their
  // `const uint n = gl_WorkGroupSize.x`, must not both become one name there.
  std::unordered_set<std::string> taken;
  auto claim_unique_name = [&](uint32_t id) {
    std::string name = CompilerGLSL::to_name(id);
    if (taken.insert(name).second) return;
    for (uint32_t n = 1;; ++n) {
      const std::string candidate = name + "_" + std::to_string(n);
      if (!taken.count(candidate)) {
        set_name(id, candidate);
        taken.insert(candidate);
        break;
      }
    }
  };
  ir.for_each_typed_id<SPIRConstant>([&](uint32_t id, SPIRConstant& constant) {
    if (declared_by_name(constant) || constant.specialization) claim_unique_name(id);
  });
  ir.for_each_typed_id<SPIRConstantOp>([&](uint32_t id, SPIRConstantOp&) { claim_unique_name(id); });
  // Struct types too: the emitter names the results of modf, frexp,
  // uaddCarry and friends "ResType", whatever their members; C and C++ need
  // one name per type. A type that aliases another is not declared.
  ir.for_each_typed_id<SPIRType>([&](uint32_t id, SPIRType& type) {
    if (type.basetype == SPIRType::Struct && type.self == id && type.array.empty() && !type.pointer &&
        type.type_alias == spirv_cross::TypeID(0))
      claim_unique_name(id);
  });
}

}  // namespace porta::translator::detail
