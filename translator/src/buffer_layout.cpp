// Buffers whose declared layout the target's own structs cannot hold: std140
// arrays (a float every 16 bytes), matrices with a MatrixStride the target's
// matrix does not have or stored row-major, vec3 arrays in C++ (12-byte
// elements, stride 16), a member in a vec3's fourth slot in OpenCL C (whose
// float3 takes 16 bytes), strides no alignas() can give a struct.
//
// Such a buffer (or push-constant block) is "byte-addressed": each access
// chain becomes a byte offset computed from the SPIR-V's Offset, ArrayStride,
// MatrixStride and RowMajor decorations (CompilerGLSL's
// flattened_access_chain_offset, with a stride of one byte), and the access a
// typed load or store at that offset. A chain that ends at a scalar or vector
// the target can address directly is an lvalue (`*buffer_at<float>(base,
// i * 16 + 4)`), so loads, stores and atomics through it read as before;
// matrices, structs, arrays and the columns of row-major matrices are read and
// written one scalar or vector at a time. Buffers whose layout matches keep
// their views: one mechanism per buffer, decided before anything is emitted.
#include <algorithm>

#include "target_compiler.hpp"

namespace porta::translator::detail {

namespace {

// The smallest power-of-two alignment >= `minimum` that moves `from` exactly
// to `to`, or 0 if none does (target_compiler.cpp's rule for alignas()).
uint32_t reaching_alignment(uint32_t from, uint32_t to, uint32_t minimum) {
  for (uint32_t a = std::max<uint32_t>(minimum, 1); a <= 256; a *= 2)
    if (align_up(from, a) == to) return a;
  return 0;
}

const char* const kComponents[] = {".x", ".y", ".z", ".w"};

}  // namespace

bool TargetCompiler::layout_is_natural(uint32_t type_id, uint32_t matrix_stride, bool row_major) {
  const SPIRType& type = get<SPIRType>(type_id);
  if (!type.array.empty()) {
    const uint32_t element = type.parent_type;
    if (!layout_is_natural(element, matrix_stride, row_major)) return false;
    const uint32_t stride = get_decoration(type_id, spv::DecorationArrayStride);
    if (stride == 0) return true;
    const SPIRType& element_type = get<SPIRType>(element);
    uint32_t size = 0, align = 1;
    if (element_type.basetype == SPIRType::Struct && element_type.array.empty())
      return struct_layout_is_natural(element_type.self) && struct_takes_stride(element_type, stride);
    target_layout(element_type, size, align);
    return size == stride;
  }
  if (type.basetype == SPIRType::Struct) return struct_layout_is_natural(type.self);
  if (type.columns > 1) {
    if (row_major) return false;
    if (matrix_stride == 0) return true;  // not in a buffer
    uint32_t size = 0, align = 1;
    target_layout(get<SPIRType>(type.parent_type), size, align);
    return size == matrix_stride;
  }
  return true;
}

bool TargetCompiler::struct_takes_stride(const SPIRType& type, uint32_t stride) {
  // As emit_struct_declaration() does: alignas() on the struct, if any
  // power of two rounds its size up to the stride.
  uint32_t size = 0, align = 1;
  element_layout(type, size, align);
  return size == stride || reaching_alignment(size, stride, align) != 0;
}

bool TargetCompiler::struct_layout_is_natural(uint32_t struct_type) {
  if (auto known = natural_structs_.find(struct_type); known != natural_structs_.end()) return known->second;
  natural_structs_[struct_type] = true;  // a struct cannot contain itself
  const SPIRType& type = get<SPIRType>(struct_type);
  bool natural = true;
  uint32_t end = 0;
  for (uint32_t i = 0; i < type.member_types.size() && natural; ++i) {
    const Bitset flags = combined_decoration_for_member(type, i);
    const SPIRType& member = get<SPIRType>(type.member_types[i]);
    const uint32_t matrix_stride =
        member.columns > 1 && has_member_decoration(struct_type, i, spv::DecorationMatrixStride)
            ? get_member_decoration(struct_type, i, spv::DecorationMatrixStride)
            : 0;
    const bool row_major = member.columns > 1 && flags.get(spv::DecorationRowMajor);
    if (!layout_is_natural(type.member_types[i], matrix_stride, row_major)) {
      natural = false;
      break;
    }
    const bool runtime_array =
        !member.array.empty() && member.array_size_literal.back() && member.array.back() == 0;
    uint32_t size = 0, align = 1;
    target_layout(runtime_array ? get<SPIRType>(member.parent_type) : member, size, align);
    if (runtime_array) size = 0;
    uint32_t at = align_up(end, align);
    if (has_member_decoration(struct_type, i, spv::DecorationOffset)) {
      const uint32_t wanted = type_struct_member_offset(type, i);
      // A member cannot start inside its predecessor, nor off its alignment.
      if (wanted < end || wanted % align != 0) natural = false;
      at = wanted;
    }
    end = at + size;
  }
  natural_structs_[struct_type] = natural;
  return natural;
}

void TargetCompiler::find_byte_addressed_buffers() {
  byte_addressed_.clear();
  natural_structs_.clear();
  auto check = [&](uint32_t variable) {
    const SPIRType& block = get_variable_data_type(get<SPIRVariable>(variable));
    bool natural = struct_layout_is_natural(block.self);
    // A runtime array of arrays (`vec2 grid[][3]`) has no view either: a
    // view's runtime array is a pointer to single elements.
    for (uint32_t member : block.member_types) {
      const SPIRType& type = get<SPIRType>(member);
      if (type.array.size() > 1 && type.array_size_literal.back() && type.array.back() == 0) natural = false;
    }
    if (!natural) byte_addressed_.insert(variable);
  };
  for (const BufferView& view : buffers_) {
    check(view.variable);
    // (Not an array of blocks, which cannot be byte-addressed: there a vec3
    // store still writes the padding after it; no member lies there.)
    if (vector3_stores_write_past_the_end() && view.access != Access::Read && !view.is_array &&
        contains_vector3(get_variable_data_type_id(get<SPIRVariable>(view.variable))))
      byte_addressed_.insert(view.variable);
  }
  if (push_constant_variable_) check(push_constant_variable_);
}

bool TargetCompiler::contains_vector3(uint32_t type_id) const {
  const SPIRType& type = get<SPIRType>(type_id);
  if (!type.array.empty()) return contains_vector3(type.parent_type);
  if (type.basetype == SPIRType::Struct)
    return std::any_of(type.member_types.begin(), type.member_types.end(),
                       [&](uint32_t member) { return contains_vector3(member); });
  return type.vecsize == 3;  // a vector, or a matrix of 3-component columns
}

std::string TargetCompiler::byte_address_base(uint32_t variable) {
  if (variable == push_constant_variable_) return "static_cast<const void*>(&" + to_name(variable) + ")";
  return to_name(variable) + ".base";
}

std::string TargetCompiler::byte_address_lvalue(const SPIRType& type, uint32_t variable,
                                                const std::string& offset, bool read_only) {
  return "(*buffer_at<" + std::string(read_only ? "const " : "") + type_to_glsl(type) + ">(" +
         byte_address_base(variable) + ", " + offset + "))";
}

std::string TargetCompiler::byte_load(const SPIRType& type, uint32_t variable, const std::string& offset) {
  return byte_address_lvalue(type, variable, offset, true);
}

void TargetCompiler::byte_store(const SPIRType& type, uint32_t variable, const std::string& offset,
                                const std::string& value) {
  statement(byte_address_lvalue(type, variable, offset, false), " = ", value, ";");
}

uint32_t TargetCompiler::byte_push_alignment() const {
  const SPIRType& block = get_variable_data_type(get<SPIRVariable>(push_constant_variable_));
  return get_declared_struct_size(block) % 8 == 0 ? 8 : 4;
}

bool TargetCompiler::byte_chain_of(uint32_t id, ByteChain& chain) {
  if (auto known = byte_chains_.find(id); known != byte_chains_.end()) {
    chain = known->second;
    return true;
  }
  if (!byte_addressed_.count(id)) return false;
  chain = ByteChain();
  chain.variable = id;
  chain.type = get_variable_data_type_id(get<SPIRVariable>(id));
  return true;
}

std::string TargetCompiler::byte_offset_text(const ByteChain& chain, uint32_t extra) const {
  const uint32_t offset = chain.offset + extra;
  // flattened_access_chain_offset's form: "i * 16 + j * 4 + ".
  if (offset == 0 && chain.dynamic.size() > 3) return chain.dynamic.substr(0, chain.dynamic.size() - 3);
  return chain.dynamic + std::to_string(offset) + "u";
}

TargetCompiler::ByteChain TargetCompiler::byte_member(const ByteChain& chain, const SPIRType& type,
                                                      uint32_t index) const {
  ByteChain member = chain;
  member.type = type.member_types[index];
  member.offset += type_struct_member_offset(type, index);
  const SPIRType& member_type = get<SPIRType>(member.type);
  member.row_major = false;
  if (member_type.columns > 1) {
    member.matrix_stride = type_struct_member_matrix_stride(type, index);
    member.row_major = combined_decoration_for_member(type, index).get(spv::DecorationRowMajor);
  }
  if (!member_type.array.empty()) member.array_stride = type_struct_member_array_stride(type, index);
  return member;
}

TargetCompiler::ByteChain TargetCompiler::byte_element(const ByteChain& chain, const SPIRType& type,
                                                       const std::string& index) const {
  ByteChain element = chain;
  element.dynamic += index + " * " + std::to_string(chain.array_stride) + "u + ";
  element.type = type.parent_type;
  if (!get<SPIRType>(element.type).array.empty())
    element.array_stride = get_decoration(element.type, spv::DecorationArrayStride);
  return element;
}

// Whether the chain's scalar or vector can be read and written in place.
static bool is_leaf(const spirv_cross::SPIRType& type) {
  return type.array.empty() && type.basetype != spirv_cross::SPIRType::Struct && type.columns == 1;
}

std::string TargetCompiler::byte_value(const ByteChain& chain, const SPIRType& type) {
  if (type.columns > 1) {
    // Column c of a column-major matrix starts c * MatrixStride bytes in; of
    // a row-major one, c components in (its rows are MatrixStride apart).
    std::string value = type_to_glsl(type) + "(";
    for (uint32_t c = 0; c < type.columns; ++c) {
      ByteChain column = chain;
      column.type = type.parent_type;
      column.offset += chain.row_major ? c * (type.width / 8) : c * chain.matrix_stride;
      value += (c ? ", " : "") + byte_value(column, get<SPIRType>(type.parent_type));
    }
    return value + ")";
  }
  if (chain.row_major && type.vecsize > 1) {
    SPIRType scalar = type;
    scalar.vecsize = 1;
    std::string value = type_to_glsl(type) + "(";
    for (uint32_t r = 0; r < type.vecsize; ++r)
      value += (r ? ", " : "") +
               byte_load(scalar, chain.variable, byte_offset_text(chain, r * chain.matrix_stride));
    return value + ")";
  }
  return byte_load(type, chain.variable, byte_offset_text(chain, 0));
}

void TargetCompiler::byte_walk(const ByteChain& chain, const SPIRType& type, const std::string& value,
                               uint32_t depth, const ByteLeaf& leaf) {
  if (!type.array.empty()) {
    const std::string i = "porta_i" + std::to_string(depth);
    const std::string count = type.array_size_literal.back() ? std::to_string(type.array.back()) + "u"
                                                             : to_expression(type.array.back());
    statement("for (uint ", i, " = 0u; ", i, " < ", count, "; ++", i, ")");
    begin_scope();
    const ByteChain element = byte_element(chain, type, i);
    byte_walk(element, get<SPIRType>(element.type), value + "[" + i + "]", depth + 1, leaf);
    end_scope();
    return;
  }
  if (type.basetype == SPIRType::Struct) {
    for (uint32_t m = 0; m < type.member_types.size(); ++m) {
      const ByteChain member = byte_member(chain, type, m);
      byte_walk(member, get<SPIRType>(member.type), value + "." + to_member_name(type, m), depth, leaf);
    }
    return;
  }
  leaf(chain, type, value);
}

void TargetCompiler::byte_fill(const std::string& lhs, const ByteChain& chain, const SPIRType& type) {
  byte_walk(chain, type, lhs, 0,
            [&](const ByteChain& at, const SPIRType& leaf_type, const std::string& part) {
              statement(part, " = ", byte_value(at, leaf_type), ";");
            });
}

void TargetCompiler::byte_write(const ByteChain& chain, const SPIRType& type, const std::string& value) {
  byte_walk(chain, type, value, 0,
            [&](const ByteChain& at, const SPIRType& leaf_type, const std::string& part) {
              byte_write_value(at, leaf_type, part);
            });
}

void TargetCompiler::byte_write_value(const ByteChain& chain, const SPIRType& type,
                                      const std::string& value) {
  if (type.columns > 1) {
    for (uint32_t c = 0; c < type.columns; ++c) {
      ByteChain column = chain;
      column.type = type.parent_type;
      column.offset += chain.row_major ? c * (type.width / 8) : c * chain.matrix_stride;
      byte_write_value(column, get<SPIRType>(type.parent_type), matrix_column(value, c));
    }
    return;
  }
  if (chain.row_major && type.vecsize > 1) {
    SPIRType scalar = type;
    scalar.vecsize = 1;
    for (uint32_t r = 0; r < type.vecsize; ++r)
      byte_store(scalar, chain.variable, byte_offset_text(chain, r * chain.matrix_stride),
                 value + kComponents[r]);
    return;
  }
  byte_store(type, chain.variable, byte_offset_text(chain, 0), value);
}

bool TargetCompiler::emit_byte_addressed(const spirv_cross::Instruction& instruction) {
  if (byte_addressed_.empty()) return false;
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  ByteChain chain;
  switch (opcode) {
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain: {
      ByteChain base;
      if (!byte_chain_of(ops[2], base)) return false;
      // The emitter's own chain: forwarding, dependencies on the indices.
      CompilerGLSL::emit_instruction(instruction);
      bool row_major = base.row_major;
      uint32_t matrix_stride = base.matrix_stride, array_stride = base.array_stride;
      SPIRType base_type = get<SPIRType>(base.type);
      const auto flattened =
          flattened_access_chain_offset(base_type, &ops[3], instruction.length - 3, base.offset, 1,
                                        &row_major, &matrix_stride, &array_stride);
      chain = base;
      chain.dynamic = base.dynamic + flattened.first;
      chain.offset = flattened.second;
      chain.row_major = row_major;
      chain.matrix_stride = matrix_stride;
      chain.array_stride = array_stride;
      chain.type = get_pointee_type_id(ops[0]);
      byte_chains_[ops[1]] = chain;
      auto& expression = get<spirv_cross::SPIRExpression>(ops[1]);
      expression.need_transpose = false;
      const SPIRType& type = get<SPIRType>(chain.type);
      std::string lvalue;
      if (is_leaf(type) && !(chain.row_major && type.vecsize > 1)) {
        const bool read_only = chain.variable == push_constant_variable_ ||
                               std::any_of(buffers_.begin(), buffers_.end(), [&](const BufferView& view) {
                                 return view.variable == chain.variable && view.access == Access::Read;
                               });
        lvalue = byte_address_lvalue(type, chain.variable, byte_offset_text(chain, 0), read_only);
      }
      // A chain that is no lvalue is only loaded from or stored to (below);
      // the name keeps any other use from compiling.
      expression.expression = lvalue.empty() ? "porta_byte_addressed_" + std::to_string(ops[1]) : lvalue;
      return true;
    }
    case spv::OpLoad: {
      if (!byte_chain_of(ops[2], chain)) return false;
      const SPIRType& type = get<SPIRType>(ops[0]);
      if (byte_chains_.count(ops[2]) &&
          get<spirv_cross::SPIRExpression>(ops[2]).expression.rfind("porta_byte_addressed_", 0) != 0)
        return false;  // an lvalue: the emitter's load reads it
      // With bounds checks, read only where in bounds (bounds_checks.cpp); else 0.
      const std::string condition = bounds_condition(ops[2]);
      if (is_leaf(type) || type.columns > 1) {
        const std::string value = byte_value(chain, type);
        emit_op(
            ops[0], ops[1],
            condition.empty() ? value : guarded_value(condition, ops[2], false, value, zero_value(ops[0])),
            false);
      } else {
        // Declared zero (the compilers' force_zero_initialized_variables): 0 out of bounds.
        emit_uninitialized_temporary_expression(ops[0], ops[1]);
        if (!condition.empty()) {
          statement("if ", condition);
          begin_scope();
        }
        byte_fill(to_name(ops[1]), chain, type);
        if (!condition.empty()) {
          end_scope();
          guarded_else(ops[2], false);
        }
      }
      return true;
    }
    case spv::OpStore: {
      if (!byte_chain_of(ops[0], chain)) return false;
      if (byte_chains_.count(ops[0]) &&
          get<spirv_cross::SPIRExpression>(ops[0]).expression.rfind("porta_byte_addressed_", 0) != 0)
        return false;
      const SPIRType& type = expression_type(ops[1]);
      flush_all_active_variables();
      if (is_leaf(type) || type.columns > 1) {
        // One evaluation of the value, however many stores it takes.
        statement("{");
        indent++;
        statement("const ", variable_decl(type, "porta_value"), " = ", to_unpacked_expression(ops[1]), ";");
        byte_write(chain, type, "porta_value");
        indent--;
        statement("}");
      } else {
        byte_write(chain, type, to_enclosed_expression(ops[1]));
      }
      register_write(ops[0]);
      return true;
    }
    case spv::OpPtrAccessChain:
    case spv::OpCopyMemory:
    case spv::OpCopyObject:
    case spv::OpFunctionCall: {
      for (uint32_t i = 0; i < instruction.length; ++i)
        if (byte_chains_.count(ops[i]) || byte_addressed_.count(ops[i]))
          unsupported("a pointer into a buffer whose layout is not the target's (" +
                      to_name(byte_chain_of(ops[i], chain) ? chain.variable : ops[i]) +
                      ") passed on or copied whole");
      return false;
    }
    default:
      return false;
  }
}

}  // namespace porta::translator::detail
