// Target opencl. The translation unit, in order:
//   FP_CONTRACT OFF; checked integer division helpers (only those the kernel
//   calls; these and the pragmas are sections of runtime/porta_opencl.cl);
//   spec constants as macros with the translated values, gl_WorkGroupSize,
//   constant tables; structs with their std430 offsets checked; helper
//   functions; the __kernel, whose body declares the __local variables and
//   the built-ins it reads.
// OpenCL C 1.2 is C99 with no overloading, no static_assert, no references
// and no program-scope variables outside __constant; each of those shapes a
// decision below. GLSL's vector constructors become vector literals in
// finish().
#define SPV_ENABLE_UTILITY_CODE
#include "opencl_compiler.hpp"

#include <GLSL.std.450.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>

#include "reflect_util.hpp"

namespace porta::translator::detail {

namespace {

bool is_signed(SPIRType::BaseType base) {
  return base == SPIRType::SByte || base == SPIRType::Short || base == SPIRType::Int ||
         base == SPIRType::Int64;
}

}  // namespace

SPIRType::BaseType OpenclCompiler::integer_of_width(uint32_t width, bool signed_type) {
  switch (width) {
    case 8:
      return signed_type ? SPIRType::SByte : SPIRType::UByte;
    case 16:
      return signed_type ? SPIRType::Short : SPIRType::UShort;
    case 64:
      return signed_type ? SPIRType::Int64 : SPIRType::UInt64;
    default:
      return signed_type ? SPIRType::Int : SPIRType::UInt;
  }
}

namespace {

SPIRType::BaseType unsigned_of(SPIRType::BaseType base) {
  switch (base) {
    case SPIRType::SByte:
      return SPIRType::UByte;
    case SPIRType::Short:
      return SPIRType::UShort;
    case SPIRType::Int:
      return SPIRType::UInt;
    case SPIRType::Int64:
      return SPIRType::UInt64;
    default:
      return base;
  }
}

const char* scalar_name(SPIRType::BaseType base) {
  const ScalarSpelling* scalar = scalar_spelling(base);
  return scalar ? scalar->opencl : nullptr;
}

// The operations fold_constant() evaluates on 32-bit words (bools as 0/1):
// the result, and where it is not always defined, when it is.
struct ConstantFold {
  spv::Op opcode;
  uint32_t (*value)(uint32_t a, uint32_t b, uint32_t c);
  bool (*defined)(uint32_t a, uint32_t b) = nullptr;
};
constexpr bool divisor_nonzero(uint32_t, uint32_t b) { return b != 0; }
constexpr bool signed_division_defined(uint32_t a, uint32_t b) {
  return b != 0 && !(static_cast<int32_t>(a) == INT32_MIN && static_cast<int32_t>(b) == -1);
}
constexpr int32_t as_signed(uint32_t x) { return static_cast<int32_t>(x); }
constexpr ConstantFold kConstantFolds[] = {
    {spv::OpIAdd, [](uint32_t a, uint32_t b, uint32_t) { return a + b; }},
    {spv::OpISub, [](uint32_t a, uint32_t b, uint32_t) { return a - b; }},
    {spv::OpIMul, [](uint32_t a, uint32_t b, uint32_t) { return a * b; }},
    {spv::OpUDiv, [](uint32_t a, uint32_t b, uint32_t) { return a / b; }, divisor_nonzero},
    {spv::OpUMod, [](uint32_t a, uint32_t b, uint32_t) { return a % b; }, divisor_nonzero},
    {spv::OpSDiv, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(as_signed(a) / as_signed(b)); },
     signed_division_defined},
    {spv::OpSRem, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(as_signed(a) % as_signed(b)); },
     signed_division_defined},
    {spv::OpShiftLeftLogical, [](uint32_t a, uint32_t b, uint32_t) { return b < 32 ? a << b : 0u; }},
    {spv::OpShiftRightLogical, [](uint32_t a, uint32_t b, uint32_t) { return b < 32 ? a >> b : 0u; }},
    {spv::OpBitwiseAnd, [](uint32_t a, uint32_t b, uint32_t) { return a & b; }},
    {spv::OpBitwiseOr, [](uint32_t a, uint32_t b, uint32_t) { return a | b; }},
    {spv::OpBitwiseXor, [](uint32_t a, uint32_t b, uint32_t) { return a ^ b; }},
    {spv::OpNot, [](uint32_t a, uint32_t, uint32_t) { return ~a; }},
    {spv::OpSNegate, [](uint32_t a, uint32_t, uint32_t) { return 0u - a; }},
    {spv::OpSConvert, [](uint32_t a, uint32_t, uint32_t) { return a; }},
    {spv::OpUConvert, [](uint32_t a, uint32_t, uint32_t) { return a; }},
    {spv::OpBitcast, [](uint32_t a, uint32_t, uint32_t) { return a; }},
    {spv::OpSelect, [](uint32_t a, uint32_t b, uint32_t c) { return a ? b : c; }},
    {spv::OpIEqual, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(a == b); }},
    {spv::OpINotEqual, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(a != b); }},
    {spv::OpULessThan, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(a < b); }},
    {spv::OpUGreaterThan, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(a > b); }},
    {spv::OpSLessThan,
     [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(as_signed(a) < as_signed(b)); }},
    {spv::OpSGreaterThan,
     [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(as_signed(a) > as_signed(b)); }},
};

}  // namespace

// ---------------------------------------------------------------------------
// Target decisions

void OpenclCompiler::configure_backend() {
  backend.swizzle_is_function = false;
  // C initialisers: `Foo x = { a, b };`, `float t[4] = { ... };` (structs and
  // arrays are built into a declared temporary, never inline).
  backend.use_typed_initializer_list = false;
  backend.long_long_literal_suffix = false;  // OpenCL's long is 64-bit: 1l, 1ul
  backend.basic_int8_type = "char";
  backend.basic_uint8_type = "uchar";
  backend.basic_int16_type = "short";
  backend.basic_uint16_type = "ushort";
  backend.boolean_mix_function = "";
}

std::string OpenclCompiler::buffer_pointer_type(const std::string& element, Access access) const {
  // readonly and writeonly buffers are restrict: a kernel that reads and
  // writes one buffer may be handed the same buffer twice (in place).
  switch (access) {
    case Access::Read:
      return "__global const " + element + "* restrict";
    case Access::Write:
      return "__global " + element + "* restrict";
    default:
      return "__global " + element + "*";
  }
}

const std::unordered_set<std::string>& OpenclCompiler::reserved_words() const {
  // C99 and OpenCL C keywords that are not GLSL keywords, OpenCL's type and
  // built-in function names the translated code calls, and the generated names.
  static const std::unordered_set<std::string> words = {
      // C99 keywords
      "auto", "char", "enum", "extern", "goto", "inline", "long", "register", "restrict", "short", "signed",
      "sizeof", "static", "typedef", "union", "unsigned", "volatile", "_Bool", "_Complex", "_Imaginary",
      // OpenCL C qualifiers and types
      "__global", "global", "__local", "local", "__constant", "constant", "__private", "private", "__kernel",
      "kernel", "__read_only", "read_only", "__write_only", "write_only", "__read_write", "read_write",
      "uchar", "ushort", "ulong", "half", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "event_t",
      "sampler_t", "image1d_t", "image2d_t", "image3d_t", "complex", "imaginary", "quad",
      // built-in functions and macros the translated code uses
      "get_global_id", "get_local_id", "get_group_id", "get_num_groups", "get_local_size", "get_global_size",
      "barrier", "mem_fence", "read_mem_fence", "write_mem_fence", "atomic_add", "atomic_sub", "atomic_inc",
      "atomic_dec", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg",
      "atomic_cmpxchg", "fabs", "fmin", "fmax", "rsqrt", "rint", "atan2", "popcount", "clz", "select", "mad",
      "fmod", "as_int", "as_uint", "as_float", "NULL", "offsetof", "CLK_LOCAL_MEM_FENCE",
      "CLK_GLOBAL_MEM_FENCE", "INFINITY", "NAN", "MAXFLOAT", "HUGE_VALF",
      // names the translation defines
      "main", "porta_i", "porta_opencl_kernel", "porta_local_index", "porta_group_size", "porta_b",
      "porta_sizes", "porta_buffer_sizes"};
  return words;
}

std::string OpenclCompiler::vector_type_name(SPIRType::BaseType base, uint32_t vecsize) {
  const char* scalar = scalar_name(base);
  // float16_t values and vectors are floats (type_to_glsl); what else asks
  // for a name of its component type is a matrix.
  if (base == SPIRType::Half) unsupported("float16_t matrices");
  if (!scalar) unsupported("a vector or scalar of an unknown type");
  return vecsize > 1 ? scalar + std::to_string(vecsize) : std::string(scalar);
}

std::string OpenclCompiler::type_to_glsl(const SPIRType& type, uint32_t id) {
  if (type.basetype == SPIRType::Half) {
    // A value is a float; in a buffer's struct, the half's bits (opencl_half.cpp).
    if (type.columns > 1) unsupported("float16_t matrices");
    if (type.vecsize > 4) unsupported("vectors of more than 4 components");
    return vector_type_name(half_as_bits_ ? SPIRType::UShort : SPIRType::Float, type.vecsize);
  }
  if (type.columns > 1 && type.basetype != SPIRType::Struct) return matrix_type_name(type);
  switch (type.basetype) {
    case SPIRType::Struct:
      return CompilerGLSL::type_to_glsl(type, id);
    case SPIRType::Void:
      return "void";
    case SPIRType::Boolean:
      // -1 or 0 per component, as OpenCL C's vector comparisons give them (opencl_types.cpp).
      return type.vecsize > 1 ? vector_type_name(SPIRType::Int, type.vecsize) : "bool";
    default:
      break;
  }
  if (!scalar_name(type.basetype))
    unsupported("the type " + CompilerGLSL::type_to_glsl(type, id) + " (images, samplers and the like)");
  if (type.vecsize > 4) unsupported("vectors of more than 4 components");
  return vector_type_name(type.basetype, type.vecsize);
}

std::string OpenclCompiler::bitcast_glsl_op(const SPIRType& result_type, const SPIRType& argument_type) {
  if (result_type.basetype == argument_type.basetype && result_type.vecsize == argument_type.vecsize)
    return "";
  if (result_type.basetype == SPIRType::Boolean || argument_type.basetype == SPIRType::Boolean)
    return spirv_cross::join("(", type_to_glsl(result_type), ")");
  // The emitter casts a shift's amount to the shifted type; as_T needs equal
  // sizes (a 64-bit value shifted by an int), a conversion keeps the value.
  // Equal sizes are a reinterpretation, uint2 <-> ulong (packUint2x32) too.
  if (result_type.width * result_type.vecsize != argument_type.width * argument_type.vecsize)
    return result_type.vecsize == 1 ? spirv_cross::join("(", type_to_glsl(result_type), ")")
                                    : "convert_" + type_to_glsl(result_type);
  std::string op = "as_";
  op += type_to_glsl(result_type);
  return op;
}

void OpenclCompiler::require_helper(int rank, const std::string& name) {
  division_helpers_.insert({rank, name});
  if (!division_helpers_emitted_.count({rank, name})) force_recompile();
}

std::string OpenclCompiler::checked_division_function(const std::string& name, const SPIRType& type) {
  // OpenCL C has no overloading: one helper per operation and type.
  const int kind = name == "checked_div" ? 0 : name == "checked_rem" ? 1 : 2;
  const std::string short_name = kind == 0 ? "div" : kind == 1 ? "rem" : "mod";
  const std::string scalar = vector_type_name(type.basetype, 1);
  auto request = [&](int rank, const std::string& helper) { require_helper(rank, helper); };
  if (type.vecsize > 1) {
    request(3 + kind, "porta_" + short_name + "_" + vector_type_name(type.basetype, type.vecsize));
  }
  request(kind, "porta_" + short_name + "_" + scalar);
  if (kind == 2) request(1, "porta_rem_" + scalar);
  return "porta_" + short_name + "_" + vector_type_name(type.basetype, type.vecsize);
}

// ---------------------------------------------------------------------------
// The translation unit

void OpenclCompiler::prepare_names() {
  if (names_prepared_) return;
  names_prepared_ = true;
  // A block that is one runtime array is passed as a pointer to its elements,
  // named as the GLSL names it: the member for an anonymous block
  // (`buffer A { float a[]; };` → `a[i]`), else the instance (`} xs;` →
  // `xs[i]` for `xs.x[i]`).
  // A member name another view already has (blocks of one type, say) keeps
  // the view's own.
  std::unordered_set<std::string> taken;
  for (const BufferView& view : buffer_views()) taken.insert(get_name(view.variable));
  for (const BufferView& view : buffer_views()) {
    const SPIRType& block = get_variable_data_type(get<SPIRVariable>(view.variable));
    const std::string member = block_is_array(block) ? to_member_name(block, 0) : "";
    if (view.named_after_block && !member.empty() && !taken.count(member)) {
      taken.insert(member);
      set_name(view.variable, member);
    }
  }
  if (uint32_t push = push_constant_variable(); push && get_name(push).empty()) {
    std::string name = push_constant_type_name();
    if (!name.empty()) name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    set_name(push, name.empty() || name == push_constant_type_name() ? "push_constants" : name);
  }
  // Kernel-scope names, so that locals do not shadow them.
  for (const BufferView& view : buffer_views()) add_resource_name(view.variable);
  if (push_constant_variable()) add_resource_name(push_constant_variable());
  for (uint32_t id : shared_variables()) add_resource_name(id);
  for (uint32_t id : private_variables()) add_resource_name(id);
}

void OpenclCompiler::emit_translation_unit() {
  struct_plans_.clear();
  division_helpers_emitted_ = division_helpers_;
  extensions_emitted_ = extensions_;
  prepare_names();
  ir.for_each_typed_id<SPIRFunction>([&](uint32_t id, SPIRFunction& func) {
    if (id != ir.default_entry_point) check_helper_function(func);
  });

  emit_runtime_section(kRuntimeFile, "begin");
  emit_prelude();
  emit_matrix_types();
  emit_matrix_helpers();
  emit_division_helpers();
  emit_constants_and_structs();
  if (!buffer_parameters().empty()) {
    statement("// The size in bytes of each buffer parameter, for .length().");
    statement("typedef struct porta_buffer_sizes { ulong bytes[", buffer_parameters().size(),
              "]; } porta_buffer_sizes;");
    statement("");
  }
  emit_function(get<SPIRFunction>(ir.default_entry_point), Bitset());
}

void OpenclCompiler::emit_prelude() {
  bool uses_double = false, uses_half = false;
  std::set<std::string> vectors;
  ir.for_each_typed_id<SPIRType>([&](uint32_t, const SPIRType& type) {
    if (type.basetype == SPIRType::Double) uses_double = true;
    if (type.basetype == SPIRType::Half) {
      uses_half = true;
      if (type.vecsize > 1 && type.vecsize <= 4 && type.columns == 1 && !type.pointer)
        vectors.insert(vector_type_name(SPIRType::Float, type.vecsize));  // a float16_t vector's value
    }
    if (type.vecsize > 1 && type.columns == 1 && !type.pointer && type.basetype != SPIRType::Boolean &&
        scalar_name(type.basetype) && type.vecsize <= 4)
      vectors.insert(vector_type_name(type.basetype, type.vecsize));
    if (type.vecsize > 1 && type.vecsize <= 4 && type.basetype == SPIRType::Boolean)
      vectors.insert(vector_type_name(SPIRType::Int, type.vecsize));  // a bvec
  });
  if (uses_double) emit_runtime_section(kRuntimeFile, "fp64");
  emit_subgroup_requirements();
  if (std::find(ir.declared_capabilities.begin(), ir.declared_capabilities.end(),
                spv::CapabilityInt64Atomics) != ir.declared_capabilities.end())
    emit_runtime_section(kRuntimeFile, "int64_atomics");
  emit_runtime_section(kRuntimeFile, "prelude");
  if (uses_half) emit_runtime_section(kRuntimeFile, "half");
  statement("");
  // The emitter also writes GLSL's scalar conversions, int(0x80000000) or
  // short(x): C casts in OpenCL C.
  for (const char* scalar :
       {"bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"})
    vectors.insert(scalar);
  vector_literal_types_ = std::move(vectors);
}

std::string OpenclCompiler::finish(std::string text) {
  // The emitter spells vector constructors as GLSL does, float4(a, b.xy, c);
  // OpenCL C's vector literal is (float4)(a, b.xy, c), and a scalar
  // constructor, int(x), is the cast ((int)(x)). The rewrite is done on
  // the text (a function-like macro would do it too, but NVIDIA's compiler
  // refuses variadic macros). The literal is parenthesised whole, since a
  // postfix operator would otherwise bind to its argument list.
  if (vector_literal_types_.empty()) return text;
  auto identifier_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  // Each open literal: the depth of its argument list's parenthesis.
  std::vector<int> literal_depths;
  int depth = 0;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {  // comment to end of line
      const size_t end = text.find('\n', i);
      const size_t stop = end == std::string::npos ? text.size() : end;
      out.append(text, i, stop - i);
      i = stop;
      continue;
    }
    if (identifier_char(c)) {
      size_t end = i;
      while (end < text.size() && identifier_char(text[end])) ++end;
      const std::string word = text.substr(i, end - i);
      if (end < text.size() && text[end] == '(' && vector_literal_types_.count(word)) {
        out += "((" + word + ")(";
        literal_depths.push_back(++depth);
        i = end + 1;
      } else {
        out += word;
        i = end;
      }
      continue;
    }
    out += c;
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (!literal_depths.empty() && literal_depths.back() == depth) {
        out += ')';
        literal_depths.pop_back();
      }
      --depth;
    }
    ++i;
  }
  if (!literal_depths.empty() || depth != 0)
    unsupported("unbalanced parentheses in the emitted source (vector literal rewrite)");
  return out;
}

void OpenclCompiler::emit_division_helpers() {
  if (division_helpers_.empty()) return;
  for (const auto& [rank, name] : division_helpers_) {
    if (rank != -2) continue;
    // section:T:S
    const size_t first = name.find(':'), second = name.find(':', first + 1);
    emit_runtime_section(kRuntimeFile, name.substr(0, first),
                         {{"T", name.substr(first + 1, second - first - 1)}, {"S", name.substr(second + 1)}});
    statement("");
  }
  for (const auto& [rank, name] : division_helpers_) {
    if (rank >= 0 || name.rfind("porta_bitfield_reverse_", 0) != 0) continue;
    emit_runtime_section(kRuntimeFile, "bitfield_reverse", {{"T", name.substr(23)}});
    statement("");
  }
  bool division_comment = false;
  for (const auto& [rank, name] : division_helpers_) {
    if (rank < 0) continue;
    if (!division_comment) {
      emit_runtime_section(kRuntimeFile, "integer_division");
      division_comment = true;
    }
    // porta_<op>_<type>
    const std::string op = name.substr(6, 3);
    const std::string type = name.substr(10);
    if (rank >= 3)  // a vector: the helper applies the scalar one per component
      emit_runtime_section(kRuntimeFile, "vector" + type.substr(type.size() - 1),
                           {{"OP", op}, {"T", type}, {"S", type.substr(0, type.size() - 1)}});
    else
      emit_runtime_section(kRuntimeFile, op + (type[0] == 'u' ? "_unsigned" : "_signed"),
                           {{"T", type}, {"U", "u" + type}});
  }
  statement("");
}

void OpenclCompiler::emit_constants_and_structs() {
  bool emitted_workgroup_size = false;
  auto workgroup_size = [&] {
    statement("#define gl_WorkGroupSize ((uint3)(", workgroup_size_expression(0), ", ",
              workgroup_size_expression(1), ", ", workgroup_size_expression(2), "))");
    emitted_workgroup_size = true;
  };
  bool any = false;
  for (uint32_t id : ir.ids_for_constant_undef_or_type) {
    auto& holder = ir.ids[id];
    if (holder.get_type() == spirv_cross::TypeConstant) {
      SPIRConstant& constant = holder.get<SPIRConstant>();
      const SPIRType& type = get<SPIRType>(constant.constant_type);
      if (is_workgroup_size_constant(id)) {
        workgroup_size();
        any = true;
      } else if (constant.specialization) {
        // Macros: OpenCL C 1.2 has no other compile-time constants, and array
        // sizes and reqd_work_group_size need them.
        if (type.vecsize == 1 && type.columns == 1 && type.array.empty() && type.basetype != SPIRType::Struct)
          statement("#define ", to_name(id), " ", spec_constant_value(constant), spec_constant_comment(id));
        else
          statement("#define ", to_name(id), " (", constant_expression(constant), ")",
                    spec_constant_comment(id));
        any = true;
      } else if (declared_by_name(constant)) {
        statement("__constant ", variable_decl(type, to_name(id)), " = ", constant_expression(constant), ";");
        any = true;
      }
    } else if (holder.get_type() == spirv_cross::TypeConstantOp) {
      const SPIRConstantOp& op = holder.get<SPIRConstantOp>();
      const SPIRType& type = get<SPIRType>(op.basetype);
      std::string value;
      if (type.vecsize == 1 && type.array.empty() &&
          (type.basetype == SPIRType::UInt || type.basetype == SPIRType::Int)) {
        // Folded, so that array sizes stay integer constant expressions.
        uint32_t bits = 0;
        if (fold_constant(id, bits))
          value = (type.basetype == SPIRType::UInt ? std::to_string(bits) + "u"
                                                   : "(" + std::to_string(static_cast<int32_t>(bits)) + ")") +
                  "  // " + constant_op_expression(op);
      }
      if (value.empty()) value = "(" + constant_op_expression(op) + ")";
      statement("#define ", to_name(id), " ", value);
      any = true;
    } else if (holder.get_type() == spirv_cross::TypeUndef) {
      const auto& undef = holder.get<spirv_cross::SPIRUndef>();
      const SPIRType& type = get<SPIRType>(undef.basetype);
      if (type.basetype == SPIRType::Void || type.pointer) continue;
      statement("__constant ", variable_decl(type, to_name(id)), " = ",
                to_zero_initialized_expression(undef.basetype), ";");
      any = true;
    } else if (holder.get_type() == spirv_cross::TypeType) {
      const SPIRType& type = holder.get<SPIRType>();
      if (type.basetype != SPIRType::Struct || !type.array.empty() || type.pointer || type.self != id)
        continue;
      if (type.type_alias != spirv_cross::TypeID(0)) continue;
      if (is_buffer_block(type.self) && block_is_array(type)) continue;  // passed as an element pointer
      if (is_byte_addressed_block(type.self)) continue;                  // its buffer is a uchar pointer
      const bool block =
          has_decoration(id, spv::DecorationBlock) || has_decoration(id, spv::DecorationBufferBlock);
      if (block && !is_buffer_block(type.self) && !is_push_block(type.self)) continue;
      if (any) statement("");
      emit_struct(type);
      statement("");
      any = false;
    }
  }
  if (!emitted_workgroup_size) {
    workgroup_size();
    any = true;
  }
  if (any) statement("");
}

bool OpenclCompiler::fold_constant(uint32_t id, uint32_t& value) const {
  if (const auto* constant = maybe_get<SPIRConstant>(id)) {
    const SPIRType& type = get<SPIRType>(constant->constant_type);
    if (type.vecsize != 1 || type.columns != 1 || (type.width != 32 && type.basetype != SPIRType::Boolean))
      return false;
    value = constant->scalar();
    return true;
  }
  const auto* op = maybe_get<SPIRConstantOp>(id);
  if (!op) return false;
  if (op->opcode == spv::OpCompositeExtract) {
    const auto* composite = maybe_get<SPIRConstant>(op->arguments[0]);
    if (!composite || op->arguments.size() != 2 || op->arguments[1] >= 4) return false;
    const uint32_t index = op->arguments[1];
    if (composite->m.c[0].id[index] != 0) return fold_constant(composite->m.c[0].id[index], value);
    value = composite->m.c[0].r[index].u32;
    return true;
  }
  uint32_t a = 0, b = 0, c = 0;
  const size_t count = op->arguments.size();
  if (count < 1 || !fold_constant(op->arguments[0], a)) return false;
  if (count > 1 && !fold_constant(op->arguments[1], b)) return false;
  if (count > 2 && !fold_constant(op->arguments[2], c)) return false;
  for (const ConstantFold& fold : kConstantFolds)
    if (fold.opcode == op->opcode) {
      if (fold.defined && !fold.defined(a, b)) return false;
      value = fold.value(a, b, c);
      return true;
    }
  return false;
}

// ---------------------------------------------------------------------------
// Structs: OpenCL C lays members out by their alignment like C, with one
// difference from std430: a 3-component vector takes 16 bytes, not 12.
// Padding members put each member at its SPIR-V Offset; typedefs with a
// negative array size check the result (OpenCL C 1.2 has no static_assert).

void OpenclCompiler::element_layout(const SPIRType& type, uint32_t& size, uint32_t& align) {
  if (type.basetype == SPIRType::Struct) {
    const StructPlan& plan = plan_struct(type);
    size = plan.size;
    align = plan.align;
    return;
  }
  if (type.columns > 1) {
    TargetCompiler::element_layout(type, size, align);  // columns: a float3 one takes 16 bytes
    return;
  }
  // SPIR-V has no bool in buffers (glslang stores uints); a struct holding
  // values only may have one: bool is a byte, a bvec an int vector.
  const uint32_t component = type.basetype == SPIRType::Boolean ? (type.vecsize > 1 ? 4 : 1) : type.width / 8;
  size = component * (type.vecsize == 3 ? 4 : type.vecsize);
  align = size;
}

bool OpenclCompiler::block_is_array(const SPIRType& block) const {
  if (block.member_types.size() != 1) return false;
  const SPIRType& member = get<SPIRType>(block.member_types[0]);
  return member.array.size() == 1 && member.array_size_literal[0] && member.array[0] == 0 &&
         type_struct_member_offset(block, 0) == 0;
}

bool OpenclCompiler::is_buffer_block(uint32_t type_self) const {
  for (const BufferView& view : buffer_views())
    if (get_variable_data_type(get<SPIRVariable>(view.variable)).self == type_self) return true;
  return false;
}

bool OpenclCompiler::is_byte_addressed_block(uint32_t type_self) const {
  for (const BufferView& view : buffer_views())
    if (get_variable_data_type(get<SPIRVariable>(view.variable)).self == type_self)
      return is_byte_addressed(view.variable);
  return false;
}

bool OpenclCompiler::is_push_block(uint32_t type_self) {
  return push_constant_variable() &&
         get_variable_data_type(get<SPIRVariable>(push_constant_variable())).self == type_self;
}

const OpenclCompiler::StructPlan& OpenclCompiler::plan_struct(const SPIRType& type) {
  auto known = struct_plans_.find(type.self);
  if (known != struct_plans_.end()) return known->second;
  const std::string name = to_name(type.self);
  StructPlan plan = layout_struct(type, false);
  if (is_push_block(type.self)) {
    // The push constants arrive as exactly this many bytes (clSetKernelArg's size).
    const uint32_t declared = static_cast<uint32_t>(get_declared_struct_size(type));
    if (plan.size != declared) plan = layout_struct(type, true);
    if (plan.size > declared)
      unsupported(
          "push-constant block " + name + ": its last member takes " + std::to_string(plan.size - declared) +
          " more bytes in OpenCL C than in std430 (a vec3 at the end: add a float after it or use vec4)");
    plan.tail_padding = declared - plan.size;
    plan.size = declared;
    plan.end = declared;
    plan.required_size = declared;
  } else if (const uint32_t stride = array_stride_for(type.self)) {
    if (plan.size > stride)
      unsupported("struct " + name + " takes " + std::to_string(plan.size) +
                  " bytes in OpenCL C but its array stride is " + std::to_string(stride) +
                  " (a vec3 followed by a member in its fourth slot?)");
    if (plan.size < stride) {
      // Tail padding; the struct's alignment divides the stride (std430 rounds to it).
      plan.tail_padding = stride - plan.end;
      plan.size = stride;
    }
    plan.required_size = stride;
  }
  return struct_plans_[type.self] = plan;
}

OpenclCompiler::StructPlan OpenclCompiler::layout_struct(const SPIRType& type, bool packed) {
  const std::string name = to_name(type.self);
  StructPlan plan;
  plan.packed = packed;
  uint32_t offset = 0;
  for (uint32_t i = 0; i < type.member_types.size(); ++i) {
    const SPIRType& member_type = get<SPIRType>(type.member_types[i]);
    const std::string member_name = to_member_name(type, i);
    const bool runtime_array =
        !member_type.array.empty() && member_type.array_size_literal.back() && member_type.array.back() == 0;
    uint32_t size = 0, align = 1;
    if (runtime_array) {
      if (i + 1 != type.member_types.size() || member_type.array.size() > 1)
        unsupported("runtime array " + name + "::" + member_name +
                    " must be the last member, one-dimensional");
      target_layout(get<SPIRType>(member_type.parent_type), size, align);
      const uint32_t stride = get_decoration(type.member_types[i], spv::DecorationArrayStride);
      if (stride != size)
        unsupported(name + "::" + member_name + "[] has array stride " + std::to_string(stride) + " but " +
                    type_to_glsl(get<SPIRType>(member_type.parent_type)) + " takes " + std::to_string(size) +
                    " bytes in OpenCL C (std140 arrays are padded: use std430)");
      size = 0;
    } else {
      target_layout(member_type, size, align);
      if (!member_type.array.empty() && has_decoration(type.member_types[i], spv::DecorationArrayStride)) {
        uint32_t element_size = 0, element_align = 1;
        target_layout(get<SPIRType>(member_type.parent_type), element_size, element_align);
        if (get_decoration(type.member_types[i], spv::DecorationArrayStride) != element_size)
          unsupported(name + "::" + member_name + " has array stride " +
                      std::to_string(get_decoration(type.member_types[i], spv::DecorationArrayStride)) +
                      " but " + std::to_string(element_size) +
                      "-byte elements in OpenCL C (std140 arrays are padded)");
      }
    }
    if (packed) align = 1;
    MemberPlan member;
    uint32_t at = align_up(offset, align);
    if (has_member_decoration(type.self, i, spv::DecorationOffset)) {
      const uint32_t wanted = type_struct_member_offset(type, i);
      if (wanted < offset || wanted % align != 0)
        unsupported(
            "member " + name + "::" + member_name + " at offset " + std::to_string(wanted) +
            " cannot be placed in OpenCL C (a vec3 takes 16 bytes there: its fourth slot is not free)");
      if (wanted != at) member.padding_before = wanted - offset;
      at = wanted;
      member.has_offset = true;
    }
    member.offset = at;
    plan.members.push_back(member);
    offset = at + size;
    plan.align = std::max(plan.align, align);
  }
  plan.end = offset;
  plan.size = align_up(offset, plan.align);
  return plan;
}

void OpenclCompiler::emit_struct(const SPIRType& type) {
  const std::string name = to_name(type.self);
  // A struct laid out for buffers (its members have offsets) holds a
  // float16_t as its bits; other structs hold values.
  struct HalfAsBits {
    bool& flag;
    bool saved;
    ~HalfAsBits() { flag = saved; }
  } half_as_bits{half_as_bits_, half_as_bits_};
  half_as_bits_ = !type.member_types.empty() && has_member_decoration(type.self, 0, spv::DecorationOffset);
  if (!struct_layout_is_natural(type.self)) {
    half_as_bits_ = false;  // byte-addressed: this struct holds values only
    if (is_push_block(type.self)) {
      // Byte-addressed push constants: the bytes as they arrive, in words
      // so that the scalars in them are aligned.
      const uint32_t size = static_cast<uint32_t>(get_declared_struct_size(type)),
                     word = byte_push_alignment();
      statement("// Push constants: the layout is not OpenCL C's, so they are read by byte offset.");
      statement("typedef struct ", name, " { ", word == 8 ? "ulong" : "uint", " words[", size / word, "]; } ",
                name, ";");
      return;
    }
    // Its layout in buffers is not OpenCL C's: buffers holding it are
    // byte-addressed, and this struct holds values only.
    statement("typedef struct ", name);
    begin_scope();
    for (uint32_t i = 0; i < type.member_types.size(); ++i)
      statement(variable_decl(get<SPIRType>(type.member_types[i]), to_member_name(type, i)), ";");
    end_scope_decl(name);
    return;
  }
  const StructPlan& plan = plan_struct(type);
  const bool push = is_push_block(type.self);
  if (push) statement("// Push constants: one struct by value, std430 offsets from the SPIR-V.");
  if (plan.packed)
    statement("// Packed: std430 ends the block before the alignment of its widest member would.");
  statement("typedef struct ", plan.packed ? "__attribute__((packed)) " : "", name);
  begin_scope();
  uint32_t padding = 0;
  for (uint32_t i = 0; i < type.member_types.size(); ++i) {
    const SPIRType& member_type = get<SPIRType>(type.member_types[i]);
    const std::string member_name = to_member_name(type, i);
    if (plan.members[i].padding_before)
      statement("uchar porta_padding", padding++, "[", plan.members[i].padding_before, "];");
    const bool runtime_array =
        !member_type.array.empty() && member_type.array_size_literal.back() && member_type.array.back() == 0;
    if (runtime_array)
      statement(type_to_glsl(get<SPIRType>(member_type.parent_type)), " ", member_name, "[];");
    else
      statement(variable_decl(member_type, member_name), ";");
  }
  if (plan.tail_padding) statement("uchar porta_padding", padding++, "[", plan.tail_padding, "];");
  end_scope_decl(name);
  for (uint32_t i = 0; i < type.member_types.size(); ++i) {
    if (!plan.members[i].has_offset) continue;
    const std::string member_name = to_member_name(type, i);
    statement("typedef char porta_check_", name, "_", member_name, "[__builtin_offsetof(", name, ", ",
              member_name, ") == ", plan.members[i].offset, " ? 1 : -1];");
  }
  if (plan.required_size)
    statement("typedef char porta_check_", name, "_size[sizeof(", name, ") == ", plan.required_size,
              " ? 1 : -1];");
}

bool OpenclCompiler::struct_takes_stride(const SPIRType& type, uint32_t stride) {
  // plan_struct() pads the tail up to the stride; sizeof stays a multiple of
  // the alignment.
  const StructPlan plan = layout_struct(type, false);
  return plan.end <= stride && stride % plan.align == 0;
}

std::string OpenclCompiler::byte_address_base(uint32_t variable) {
  if (variable == push_constant_variable()) return "((const uchar*)&" + to_name(variable) + ")";
  return to_name(variable);
}

std::string OpenclCompiler::byte_pointer(const SPIRType& type, uint32_t variable, const std::string& offset,
                                         bool read_only) {
  SPIRType component = type;
  component.vecsize = 1;
  if (component.basetype == SPIRType::Half) component.basetype = SPIRType::UShort;  // its bits
  const bool push = variable == push_constant_variable();
  return std::string("(") + (push ? "" : "__global ") + (read_only || push ? "const " : "") +
         type_to_glsl(component) + "*)(" + byte_address_base(variable) + " + (" + offset + "))";
}

std::string OpenclCompiler::byte_address_lvalue(const SPIRType& type, uint32_t variable,
                                                const std::string& offset, bool read_only) {
  // A float16_t is no lvalue: its bits are read and written through its conversions.
  if (type.vecsize > 1 || type.basetype == SPIRType::Half) return "";
  return "(*" + byte_pointer(type, variable, offset, read_only) + ")";
}

std::string OpenclCompiler::byte_load(const SPIRType& type, uint32_t variable, const std::string& offset) {
  const std::string bits = type.vecsize == 1 ? "(*" + byte_pointer(type, variable, offset, true) + ")"
                                             : "vload" + std::to_string(type.vecsize) + "(0, " +
                                                   byte_pointer(type, variable, offset, true) + ")";
  if (type.basetype != SPIRType::Half) return bits;
  return "porta_half_value" + (type.vecsize > 1 ? std::to_string(type.vecsize) : std::string()) + "(" + bits +
         ")";
}

void OpenclCompiler::byte_store(const SPIRType& type, uint32_t variable, const std::string& offset,
                                const std::string& value) {
  const std::string stored = type.basetype != SPIRType::Half
                                 ? value
                                 : "porta_half_bits" +
                                       (type.vecsize > 1 ? std::to_string(type.vecsize) : std::string()) +
                                       "(" + value + ")";
  if (type.vecsize == 1) {
    statement("(*", byte_pointer(type, variable, offset, false), ") = ", stored, ";");
    return;
  }
  statement("vstore", type.vecsize, "(", stored, ", 0, ", byte_pointer(type, variable, offset, false), ");");
}

// ---------------------------------------------------------------------------
// Functions

bool OpenclCompiler::view_is_parameter(const BufferView& view) const {
  return !view.is_array && buffer_parameters()[view.parameter].views == 1;
}

std::string OpenclCompiler::view_element_type(const BufferView& view) {
  if (is_byte_addressed(view.variable)) return "uchar";  // addressed by byte offsets (buffer_layout.cpp)
  const SPIRType& block = get_variable_data_type(get<SPIRVariable>(view.variable));
  if (!block_is_array(block)) return to_name(block.self);
  const SPIRType& array = get<SPIRType>(block.member_types[0]);
  const bool saved = half_as_bits_;
  half_as_bits_ = true;  // a float16_t array's elements are bits
  std::string element = type_to_glsl(get<SPIRType>(array.parent_type));
  half_as_bits_ = saved;
  return element;
}

std::string OpenclCompiler::kernel_parameters() {
  std::string parameters;
  auto add = [&](const std::string& parameter) {
    if (!parameters.empty()) parameters += ", ";
    parameters += parameter;
  };
  for (uint32_t i = 0; i < buffer_parameters().size(); ++i) {
    const BufferParameter& parameter = buffer_parameters()[i];
    const BufferView* typed = nullptr;
    for (const BufferView& view : buffer_views())
      if (view.parameter == i && view_is_parameter(view)) typed = &view;
    if (typed)
      add(buffer_pointer_type(view_element_type(*typed), typed->access) + " " + to_name(typed->variable));
    else  // views over it are declared in the kernel; they may alias: no restrict
      add(std::string("__global ") + (parameter.access == Access::Read ? "const " : "") +
          "uchar* porta_buffer_" + std::to_string(i));
  }
  if (push_constant_variable())
    add("const " + push_constant_type_name() + " " + to_name(push_constant_variable()));
  if (!buffer_parameters().empty()) add("const porta_buffer_sizes porta_sizes");
  return parameters;
}

void OpenclCompiler::emit_buffer_view_declarations() {
  for (const BufferView& view : buffer_views()) {
    if (view_is_parameter(view)) continue;
    const std::string pointer = std::string("__global ") + (view.access == Access::Read ? "const " : "") +
                                view_element_type(view) + "*";
    auto cast = [&](uint32_t parameter) {
      return "(" + pointer + ")porta_buffer_" + std::to_string(parameter);
    };
    if (!view.is_array) {
      statement(pointer, " ", to_name(view.variable), " = ", cast(view.parameter), ";");
      continue;
    }
    std::string elements;
    for (uint32_t i = 0; i < view.count; ++i) elements += (i ? ", " : "") + cast(view.parameter + i);
    statement(pointer, " ", to_name(view.variable), "[", view.count, "] = { ", elements, " };");
  }
}

std::string OpenclCompiler::buffer_base_pointer(uint32_t variable, const std::string& element) {
  const BufferView* view = find_buffer_view(variable);
  const std::string index = element.empty() ? "" : "[" + element + "]";
  return std::string("((__global ") + (view && view->access == Access::Read ? "const " : "") + "uchar*)" +
         to_name(variable) + index + ")";
}

std::string OpenclCompiler::buffer_size_expression(uint32_t variable, const std::string& element) {
  const BufferView* view = find_buffer_view(variable);
  if (!view) unsupported("the size of '" + to_name(variable) + "', which is not a buffer");
  std::string index = std::to_string(view->parameter);
  if (!element.empty()) index += " + (" + element + ")";
  return "porta_sizes.bytes[" + index + "]";
}

// Helper functions cannot see the kernel's resources: OpenCL C 1.2 has no
// program-scope variables but __constant ones, and __local ones live in the
// kernel. spirv-opt inlines everything porta prepares; other modules must too.
void OpenclCompiler::check_helper_function(const SPIRFunction& func) {
  const std::string name = CompilerGLSL::to_name(func.self);
  for (uint32_t block_id : func.blocks) {
    const auto& block = get<spirv_cross::SPIRBlock>(block_id);
    for (const auto& instruction : block.ops) {
      const uint32_t* ops = stream(instruction);
      for (uint32_t i = 0; i < instruction.length; ++i) {
        const auto* var = maybe_get<SPIRVariable>(ops[i]);
        if (var && var->storage != spv::StorageClassFunction)
          unsupported("function " + name + " uses the kernel's resource '" + CompilerGLSL::to_name(ops[i]) +
                      "'; OpenCL C 1.2 needs it inlined into the kernel (run spirv-opt "
                      "--inline-entry-points-exhaustive)");
      }
    }
  }
  for (const auto& arg : func.arguments) {
    const SPIRType& type = get<SPIRType>(arg.type);
    if (type.pointer || !type.array.empty())
      unsupported("function " + name +
                  " takes an out/inout or array parameter; OpenCL C 1.2 needs it inlined into the kernel");
  }
}

void OpenclCompiler::emit_function_prototype(SPIRFunction& func, const Bitset&) {
  if (func.self != ir.default_entry_point) add_function_overload(func);
  local_variable_names = resource_names;
  const SPIRType& return_type = get<SPIRType>(func.return_type);
  if (!return_type.array.empty()) unsupported("functions returning arrays");
  if (func.self == ir.default_entry_point) {
    processing_entry_point = true;
    const std::string size = "reqd_work_group_size(" + workgroup_size_expression(0) + ", " +
                             workgroup_size_expression(1) + ", " + workgroup_size_expression(2) + ")";
    statement("// Buffers in (set, binding) order, the push constants by value, the buffers' sizes;");
    statement("// one work-item per invocation.");
    statement("__kernel __attribute__((", size, "))");
    statement("void ", kEntryPoint, "(", kernel_parameters(), ")");
    return;
  }
  std::string decl = type_to_glsl(return_type) + " " + to_name(func.self) + "(";
  bool first = true;
  for (auto& arg : func.arguments) {
    if (skip_argument(arg.id)) continue;
    add_local_variable_name(arg.id);
    decl += (first ? "" : ", ") + type_to_glsl(expression_type(arg.id)) + " " + to_name(arg.id);
    first = false;
    if (auto* var = maybe_get<SPIRVariable>(arg.id)) var->parameter = &arg;
  }
  for (auto& arg : func.shadow_arguments)
    if (auto* var = maybe_get<SPIRVariable>(arg.id)) var->parameter = &arg;
  if (first) decl += "void";
  statement(decl, ")");
}

void OpenclCompiler::emit_entry_point_declarations() {
  emit_buffer_view_declarations();
  bool any = false;
  for (uint32_t id : shared_variables()) {
    const SPIRVariable& var = get<SPIRVariable>(id);
    statement("__local ", variable_decl(get_variable_data_type(var), to_name(id)), ";");
    any = true;
  }
  auto vec3 = [&](const char* name, const char* function) {
    statement("const uint3 ", name, " = (uint3)((uint)", function, "(0), (uint)", function, "(1), (uint)",
              function, "(2));");
    any = true;
  };
  if (active_input_builtins.get(spv::BuiltInNumWorkgroups)) vec3("gl_NumWorkGroups", "get_num_groups");
  if (active_input_builtins.get(spv::BuiltInWorkgroupId)) vec3("gl_WorkGroupID", "get_group_id");
  if (active_input_builtins.get(spv::BuiltInLocalInvocationId)) vec3("gl_LocalInvocationID", "get_local_id");
  if (active_input_builtins.get(spv::BuiltInGlobalInvocationId))
    vec3("gl_GlobalInvocationID", "get_global_id");
  if (active_input_builtins.get(spv::BuiltInLocalInvocationIndex)) {
    statement(
        "const uint gl_LocalInvocationIndex = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) "
        "+ "
        "get_local_size(1) * get_local_id(2)));");
    any = true;
  }
  for (uint32_t id : private_variables()) {
    statement(variable_decl(get<SPIRVariable>(id)), ";");
    any = true;
  }
  // __local variables take no initialiser: the group zeroes them together
  // before any work-item reads them.
  const std::vector<uint32_t> zeroed = zero_initialized_shared_variables();
  if (!zeroed.empty()) {
    statement("// Shared variables with a zero initialiser.");
    begin_scope();
    statement(
        "const uint porta_local_index = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + "
        "get_local_size(1) * get_local_id(2)));");
    statement(
        "const uint porta_group_size = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));");
    for (uint32_t id : zeroed)
      statement("for (uint porta_b = porta_local_index; porta_b < sizeof(", to_name(id),
                "); porta_b += porta_group_size) ((__local uchar*)&", to_name(id), ")[porta_b] = 0;");
    statement("barrier(CLK_LOCAL_MEM_FENCE);");
    end_scope();
    any = true;
  }
  if (any) statement("");
  emit_subgroup_builtins();
}

std::string OpenclCompiler::to_member_reference(uint32_t base, const SPIRType& type, uint32_t index,
                                                bool ptr_chain_is_resolved) {
  if (is_buffer_block(type.self)) {
    if (block_is_array(type)) return "";  // the parameter is the array
    return "->" + to_member_name(type, index);
  }
  return CompilerGLSL::to_member_reference(base, type, index, ptr_chain_is_resolved);
}

void OpenclCompiler::emit_array_copy(const std::string& lhs, uint32_t, uint32_t rhs_id, spv::StorageClass,
                                     spv::StorageClass) {
  // C arrays are not values: copy element by element.
  const SPIRType& type = expression_type(rhs_id);
  const std::string rhs = to_enclosed_expression(rhs_id);
  std::string index;
  for (size_t d = type.array.size(); d-- > 0;) {
    const std::string i = "porta_i" + std::to_string(type.array.size() - 1 - d);
    const std::string count =
        type.array_size_literal[d] ? std::to_string(type.array[d]) + "u" : to_expression(type.array[d]);
    statement("for (uint ", i, " = 0u; ", i, " < ", count, "; ++", i, ")");
    index += "[" + i + "]";
  }
  statement("    ", lhs, index, " = ", rhs, index, ";");
}

// ---------------------------------------------------------------------------
// Instructions

std::string OpenclCompiler::as_unsigned(const std::string& expr, const SPIRType& from) {
  if (!is_signed(from.basetype)) return expr;
  return "as_" + vector_type_name(unsigned_of(from.basetype), from.vecsize) + "(" + expr + ")";
}

// Work-items that write different components of one vector in local or
// global memory (a GLSL `shared vec4 t[]; t[i].y = v;`, each item its own
// component) write different memory locations in SPIR-V; NVIDIA's OpenCL
// compiler stores `t[i].y = v` as the whole vector, so such items overwrote
// each other's components (matmul.comp with A loaded by depths read zeros).
// The store goes through a pointer to the component's scalar instead.
void OpenclCompiler::emit_store_statement(uint32_t lhs_expression, uint32_t rhs_expression) {
  if (!store_vector_component(lhs_expression, rhs_expression))
    TargetCompiler::emit_store_statement(lhs_expression, rhs_expression);
}

bool OpenclCompiler::store_vector_component(uint32_t lhs_expression, uint32_t rhs_expression) {
  const auto chain = access_chains_.find(lhs_expression);
  if (chain == access_chains_.end() || chain->second.size() < 2) return false;
  const SPIRType& pointer = expression_type(lhs_expression);
  const char* space = pointer.storage == spv::StorageClassWorkgroup       ? "__local "
                      : pointer.storage == spv::StorageClassStorageBuffer ? "__global "
                                                                          : nullptr;
  // A byte-addressed buffer's chain is already a store of the scalar alone.
  if (!space || is_byte_addressed_pointer(lhs_expression)) return false;
  const std::vector<uint32_t>& words = chain->second;  // base, then the indices
  const uint32_t base = words[0];
  const uint32_t* indices = words.data() + 1;
  const uint32_t count = static_cast<uint32_t>(words.size() - 1);
  // The type the last index selects from.
  const SPIRType* type = &get_pointee_type(expression_type(base));
  for (uint32_t i = 0; i + 1 < count; ++i) {
    // An array of structs carries the struct's basetype: the array comes first.
    if (type->array.empty() && type->basetype == SPIRType::Struct) {
      const auto* member = maybe_get<SPIRConstant>(indices[i]);
      if (!member || member->scalar() >= type->member_types.size()) return false;
      type = &get<SPIRType>(type->member_types[member->scalar()]);
    } else if (!type->array.empty() || type->columns > 1 || type->vecsize > 1) {
      type = &get<SPIRType>(type->parent_type);
    } else {
      return false;
    }
  }
  if (!type->array.empty() || type->columns != 1 || type->vecsize < 2 || type->pointer) return false;
  // 32- and 64-bit scalars (halves and bools have their own storage here).
  const SPIRType& scalar = expression_type(rhs_expression);
  if (scalar.vecsize != 1 || scalar.columns != 1 || !scalar.array.empty() ||
      (scalar.width != 32 && scalar.width != 64) || scalar.basetype == SPIRType::Boolean)
    return false;
  const std::string vector = access_chain_internal(base, indices, count - 1, 0, nullptr);
  const uint32_t last = indices[count - 1];
  const auto* literal = maybe_get<SPIRConstant>(last);
  const std::string component = literal ? std::to_string(literal->scalar()) : to_expression(last);
  statement("((", space, type_to_glsl(scalar), "*)&", enclose_expression(vector), ")[", component,
            "] = ", to_unpacked_expression(rhs_expression), ";");
  register_write(lhs_expression);
  return true;
}

void OpenclCompiler::emit_target_instruction(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto op = static_cast<spv::Op>(instruction.op);
  if ((op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain) && instruction.length >= 4)
    access_chains_[ops[1]].assign(ops + 2, ops + instruction.length);
  if (is_atomic_read_modify_write(op)) {
    emit_atomic(instruction);
    return;
  }
  if (emit_half_instruction(instruction)) return;
  if (emit_matrix_or_bool_vector(instruction)) return;
  switch (op) {
    case spv::OpAtomicLoad:
    case spv::OpAtomicStore:
      emit_atomic_load_store(instruction);
      return;
    case spv::OpAtomicCompareExchangeWeak:
    case spv::OpAtomicFlagTestAndSet:
    case spv::OpAtomicFlagClear:
      unsupported("atomic flags and weak compare-exchange");
    case spv::OpControlBarrier:
    case spv::OpMemoryBarrier:
      emit_barrier(instruction);
      return;
    case spv::OpConvertSToF:
    case spv::OpConvertUToF:
    case spv::OpConvertFToS:
    case spv::OpConvertFToU:
    case spv::OpSConvert:
    case spv::OpUConvert:
    case spv::OpFConvert:
      emit_conversion(instruction);
      return;
    case spv::OpFMod: {
      // GLSL's mod: x - y * floor(x / y), the sign of y.
      const std::string x = to_enclosed_expression(ops[2]), y = to_enclosed_expression(ops[3]);
      emit_op(ops[0], ops[1], x + " - " + y + " * floor(" + x + " / " + y + ")",
              should_forward(ops[2]) && should_forward(ops[3]));
      inherit_expression_dependencies(ops[1], ops[2]);
      inherit_expression_dependencies(ops[1], ops[3]);
      return;
    }
    case spv::OpBitCount: {
      // popcount keeps its argument's type; GLSL's bitCount returns int.
      const SPIRType& result = get<SPIRType>(ops[0]);
      std::string expr = "popcount(" + to_unpacked_expression(ops[2]) + ")";
      const SPIRType& argument = expression_type(ops[2]);
      const std::string cast = bitcast_glsl_op(result, argument);
      if (!cast.empty()) expr = cast + "(" + expr + ")";
      emit_op(ops[0], ops[1], expr, should_forward(ops[2]));
      inherit_expression_dependencies(ops[1], ops[2]);
      return;
    }
    case spv::OpBitFieldUExtract:
    case spv::OpBitFieldSExtract:
    case spv::OpBitFieldInsert:
      emit_bitfield(instruction);
      return;
    case spv::OpBitReverse: {
      const SPIRType& result = get<SPIRType>(ops[0]);
      if (result.width != 32)
        unsupported("bitfieldReverse of " + std::to_string(result.width) + "-bit integers");
      const std::string helper = "porta_bitfield_reverse_" + vector_type_name(SPIRType::UInt, result.vecsize);
      require_helper(-1, helper);
      std::string expr =
          helper + "(" + as_unsigned(to_unpacked_expression(ops[2]), expression_type(ops[2])) + ")";
      if (is_signed(result.basetype))
        expr = "as_" + vector_type_name(SPIRType::Int, result.vecsize) + "(" + expr + ")";
      emit_op(ops[0], ops[1], expr, should_forward(ops[2]));
      inherit_expression_dependencies(ops[1], ops[2]);
      return;
    }
    case spv::OpSelect: {
      // A scalar condition: C's ?: (the emitter would write float(b) for b ? 1.0 : 0.0).
      const SPIRType& condition = expression_type(ops[2]);
      if (condition.vecsize > 1) break;
      const std::string expr = to_enclosed_expression(ops[2]) + " ? " + to_enclosed_expression(ops[3]) +
                               " : " + to_enclosed_expression(ops[4]);
      emit_op(ops[0], ops[1], expr,
              should_forward(ops[2]) && should_forward(ops[3]) && should_forward(ops[4]));
      for (uint32_t i = 2; i < 5; ++i) inherit_expression_dependencies(ops[1], ops[i]);
      return;
    }
    case spv::OpIAddCarry:
    case spv::OpISubBorrow:
    case spv::OpUMulExtended:
    case spv::OpSMulExtended:
      emit_struct_result(instruction);
      return;
    case spv::OpDPdx:
    case spv::OpDPdy:
    case spv::OpFwidth:
      unsupported("derivatives");
    default:
      break;
  }
  TargetCompiler::emit_target_instruction(instruction);
}

void OpenclCompiler::emit_atomic(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const SPIRType& type = get<SPIRType>(ops[0]);
  const bool wide = type.basetype == SPIRType::Int64 || type.basetype == SPIRType::UInt64;
  if (instruction.op == spv::OpAtomicFAddEXT && type.basetype == SPIRType::Float && type.vecsize == 1) {
    emit_atomic_float_add(instruction);
    return;
  }
  if (type.basetype != SPIRType::Int && type.basetype != SPIRType::UInt && !wide)
    unsupported(type.basetype == SPIRType::Float
                    ? "float atomics"
                    : "atomics on " + type_to_glsl(type) + " (32- and 64-bit integers only)");
  std::string call = atomic_call(instruction, "&" + to_enclosed_expression(ops[2]));
  // 64-bit: cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics spell them atom_*.
  if (wide) call.replace(0, 7, "atom_");
  emit_atomic_call(ops, call);
}

void OpenclCompiler::emit_barrier(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const bool control = instruction.op == spv::OpControlBarrier;
  if (emit_subgroup_barrier(instruction)) return;
  const uint32_t semantics = evaluate_constant_u32(ops[control ? 2 : 1]);
  if (!control) {
    // barrier() already fences both memories: a memoryBarrierShared() before it adds nothing.
    const spirv_cross::Instruction* next = get_next_instruction_in_block(instruction);
    if (next && next->op == spv::OpControlBarrier) return;
  }
  flush_control_dependent_expressions(current_emitting_block->self);
  flush_all_active_variables();
  if (control) {
    // GLSL's barrier() also orders buffer writes within the group.
    statement("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
    return;
  }
  const bool local = semantics & spv::MemorySemanticsWorkgroupMemoryMask;
  const bool global =
      semantics & (spv::MemorySemanticsUniformMemoryMask | spv::MemorySemanticsImageMemoryMask |
                   spv::MemorySemanticsCrossWorkgroupMemoryMask);
  if (local && !global)
    statement("mem_fence(CLK_LOCAL_MEM_FENCE);");
  else if (global && !local)
    statement("mem_fence(CLK_GLOBAL_MEM_FENCE);");
  else
    statement("mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
}

void OpenclCompiler::emit_conversion(const spirv_cross::Instruction& instruction) {
  // Scalars convert with a C cast; vectors need convert_T (casts between
  // vector types are not allowed in OpenCL C).
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  const SPIRType& result = get<SPIRType>(ops[0]);
  const SPIRType& argument = expression_type(ops[2]);
  SPIRType expected = result;
  SPIRType::BaseType input = argument.basetype;
  switch (opcode) {
    case spv::OpConvertSToF:
    case spv::OpSConvert:
      input = integer_of_width(argument.width, true);
      if (opcode == spv::OpSConvert) expected.basetype = integer_of_width(result.width, true);
      break;
    case spv::OpConvertUToF:
    case spv::OpUConvert:
      input = integer_of_width(argument.width, false);
      if (opcode == spv::OpUConvert) expected.basetype = integer_of_width(result.width, false);
      break;
    // To 8 and 16 bits too: convert_short_sat_rtz saturates to the narrow
    // type's own range, as the other targets do.
    case spv::OpConvertFToS:
    case spv::OpConvertFToU:
      expected.basetype = integer_of_width(result.width, opcode == spv::OpConvertFToS);
      break;
    default:
      break;
  }
  std::string function =
      result.vecsize > 1 ? "convert_" + type_to_glsl(expected) : "(" + type_to_glsl(expected) + ")";
  // Float to integer saturates, NaN gives 0: C leaves out-of-range values undefined.
  if (opcode == spv::OpConvertFToS || opcode == spv::OpConvertFToU)
    function = "convert_" + type_to_glsl(expected) + "_sat_rtz";
  emit_unary_func_op_cast(ops[0], ops[1], ops[2], function.c_str(), input, expected.basetype);
}

void OpenclCompiler::emit_bitfield(const spirv_cross::Instruction& instruction) {
  // Base, Insert and the result are scalars or vectors of 32 or 64 bits;
  // Offset and Count are scalars, which OpenCL C applies to every component.
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  const SPIRType& result = get<SPIRType>(ops[0]);
  if (result.width != 32 && result.width != 64)
    unsupported("bitfieldExtract/bitfieldInsert on " + std::to_string(result.width) + "-bit integers");
  const bool wide = result.width == 64;
  const std::string unsigned_type =
      vector_type_name(wide ? SPIRType::UInt64 : SPIRType::UInt, result.vecsize);
  const std::string signed_type = vector_type_name(wide ? SPIRType::Int64 : SPIRType::Int, result.vecsize);
  const std::string scalar = wide ? "(ulong)" : "(uint)";
  const std::string one = wide ? "1ul" : "1u", width = wide ? "64u" : "32u";
  const std::string all_ones =
      "(" + unsigned_type + ")(" + (wide ? "0xfffffffffffffffful" : "0xffffffffu") + ")";
  const std::string ux = as_unsigned(to_enclosed_unpacked_expression(ops[2]), expression_type(ops[2]));
  auto operand = [&](uint32_t id) { return scalar + to_enclosed_unpacked_expression(id); };
  // The field's mask (Count ones), at bit 0.
  auto field_mask = [&](const std::string& bits) {
    return "(" + bits + " == " + width + " ? " + all_ones + " : (" + unsigned_type + ")((" + one + " << " +
           bits + ") - " + one + "))";
  };
  std::string expr;
  if (opcode == spv::OpBitFieldInsert) {
    const std::string insert = as_unsigned(to_enclosed_unpacked_expression(ops[3]), expression_type(ops[3]));
    const std::string offset = operand(ops[4]), bits = operand(ops[5]);
    const std::string mask = "(" + field_mask(bits) + " << " + offset + ")";
    expr = "((" + ux + " & ~" + mask + ") | ((" + insert + " << " + offset + ") & " + mask + "))";
  } else {
    const std::string offset = operand(ops[3]), bits = operand(ops[4]);
    if (opcode == spv::OpBitFieldUExtract) {
      expr = "((" + ux + " >> " + offset + ") & " + field_mask(bits) + ")";
      if (is_signed(result.basetype)) expr = "as_" + signed_type + expr;
    } else {
      // Shift the field to the top, then arithmetic-shift it back down.
      expr = "(" + bits + " == 0 ? (" + signed_type + ")(0) : as_" + signed_type + "(" + ux + " << (" +
             width + " - " + offset + " - " + bits + ")) >> (" + width + " - " + bits + "))";
      if (!is_signed(result.basetype)) expr = "as_" + unsigned_type + expr;
    }
  }
  if (opcode == spv::OpBitFieldInsert && is_signed(result.basetype)) expr = "as_" + signed_type + expr;
  bool forward = true;
  for (uint32_t i = 2; i < instruction.length; ++i) forward = forward && should_forward(ops[i]);
  emit_op(ops[0], ops[1], expr, forward);
  for (uint32_t i = 2; i < instruction.length; ++i) inherit_expression_dependencies(ops[1], ops[i]);
}

void OpenclCompiler::emit_glsl_op(uint32_t result_type, uint32_t id, uint32_t op, const uint32_t* args,
                                  uint32_t count) {
  const SPIRType& result = get<SPIRType>(result_type);
  auto emit_expression = [&](const std::string& expr, std::initializer_list<uint32_t> operands) {
    bool forward = true;
    for (uint32_t operand : operands) forward = forward && should_forward(operand);
    emit_op(result_type, id, expr, forward);
    for (uint32_t operand : operands) inherit_expression_dependencies(id, operand);
  };
  // The result type from an unsigned expression of the same width.
  auto from_unsigned = [&](const std::string& expr) {
    return is_signed(result.basetype) ? "as_" + type_to_glsl(result) + "(" + expr + ")" : expr;
  };
  // SAbs and FindSMsb read an integer of either signedness as signed: the
  // operand's type made signed, and `expr` (the operand) as that type.
  auto signed_operand_type = [&] {
    SPIRType type = expression_type(args[0]);
    type.basetype = SPIRType::Int;
    return type;
  };
  auto signed_operand = [&](const std::string& expr) {
    return is_signed(expression_type(args[0]).basetype) ? expr : bitcast_glsl(signed_operand_type(), args[0]);
  };
  if (emit_half_glsl_op(result_type, id, op, args, count)) return;
  if (emit_extended_glsl(result_type, id, op, args)) return;
  switch (static_cast<GLSLstd450>(op)) {
    case GLSLstd450RoundEven:
      emit_unary_func_op(result_type, id, args[0], "rint");
      return;
    case GLSLstd450FAbs:
      emit_unary_func_op(result_type, id, args[0], "fabs");
      return;
    case GLSLstd450InverseSqrt:
      emit_unary_func_op(result_type, id, args[0], "rsqrt");
      return;
    case GLSLstd450Atan2:
      emit_binary_func_op(result_type, id, args[0], args[1], "atan2");
      return;
    case GLSLstd450NMin:
      emit_binary_func_op(result_type, id, args[0], args[1], "fmin");
      return;
    case GLSLstd450NMax:
      emit_binary_func_op(result_type, id, args[0], args[1], "fmax");
      return;
    case GLSLstd450NClamp:
      emit_trinary_func_op(result_type, id, args[0], args[1], args[2], "clamp");
      return;
    case GLSLstd450Fract: {
      // OpenCL's fract() wants a pointer for the floor and clamps below 1.
      const std::string x = to_enclosed_expression(args[0]);
      emit_expression(x + " - floor(" + x + ")", {args[0]});
      return;
    }
    case GLSLstd450SAbs: {
      // OpenCL's abs() of an int returns uint; abs(INT_MIN) stays INT_MIN as in GLSL.
      emit_expression(from_unsigned("abs(" + signed_operand(to_unpacked_expression(args[0])) + ")"),
                      {args[0]});
      return;
    }
    case GLSLstd450SSign: {
      const std::string x = to_enclosed_expression(args[0]);
      // Vector comparisons give -1 for true (longN for 64-bit components),
      // scalar ones 1 as an int, which a 64-bit result converts.
      std::string sign =
          result.vecsize > 1 ? "(" + x + " < 0) - (" + x + " > 0)" : "(" + x + " > 0) - (" + x + " < 0)";
      if (result.vecsize == 1 && result.width == 64) sign = "(long)(" + sign + ")";
      emit_expression(sign, {args[0]});
      return;
    }
    case GLSLstd450FindILsb: {
      // The lowest set bit alone, then its index; 31 - 32 = -1 for 0, as GLSL wants.
      const std::string u = as_unsigned(to_enclosed_unpacked_expression(args[0]), expression_type(args[0]));
      emit_expression(from_unsigned("31u - clz(" + u + " & (0u - " + u + "))"), {args[0]});
      return;
    }
    case GLSLstd450FindUMsb: {
      const std::string u = as_unsigned(to_enclosed_unpacked_expression(args[0]), expression_type(args[0]));
      emit_expression(from_unsigned("31u - clz(" + u + ")"), {args[0]});
      return;
    }
    case GLSLstd450FindSMsb: {
      // For a negative value the highest clear bit: x ^ (x >> 31) flips those.
      const std::string x = signed_operand(to_enclosed_unpacked_expression(args[0]));
      const std::string flipped = as_unsigned("(" + x + " ^ (" + x + " >> 31))", signed_operand_type());
      emit_expression(from_unsigned("31u - clz(" + flipped + ")"), {args[0]});
      return;
    }
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse:
      emit_matrix_glsl_op(result_type, id, op, args);
      return;
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset:
      unsupported("interpolation functions");
    default:
      break;
  }
  TargetCompiler::emit_glsl_op(result_type, id, op, args, count);
}

std::string OpenclCompiler::type_to_array_glsl(const SPIRType& type) {
  // Sizes from spec constants are folded to numbers: __local arrays need a
  // constant size, and the reader sees it.
  std::string out;
  for (size_t i = type.array.size(); i-- > 0;) {
    uint32_t size = 0;
    out += '[';
    if (type.array_size_literal[i]) {
      if (type.array[i]) out += std::to_string(type.array[i]);
    } else if (fold_constant(type.array[i], size)) {
      out += std::to_string(size);
    } else {
      out += to_array_size(type, static_cast<uint32_t>(i));
    }
    out += ']';
  }
  return out;
}

std::string OpenclCompiler::constant_op_expression(const SPIRConstantOp& op) {
  switch (op.opcode) {
    case spv::OpSConvert:
    case spv::OpUConvert:
    case spv::OpFConvert:
    case spv::OpConvertSToF:
    case spv::OpConvertUToF:
    case spv::OpConvertFToS:
    case spv::OpConvertFToU: {
      const SPIRType& type = get<SPIRType>(op.basetype);
      if (type.vecsize > 1) unsupported("vector conversions in spec-constant expressions");
      return spirv_cross::join("(", type_to_glsl(type), ")", to_enclosed_expression(op.arguments[0]));
    }
    default:
      return CompilerGLSL::constant_op_expression(op);
  }
}

}  // namespace porta::translator::detail
