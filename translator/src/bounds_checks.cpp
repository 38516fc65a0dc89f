// Bounds checks and cancel polls, the same on every translated target.
//
// Bounds checks (TranslateOptions::bounds_checks) give every buffer access
// Vulkan's robustBufferAccess meaning (robustness2's, in fact): a load out of
// the buffer gives 0, a store is dropped, an atomic returns 0 and changes
// nothing. Each access chain into a storage or uniform block is followed to
// the byte range it reaches, from the SPIR-V's own layout decorations (Offset,
// ArrayStride, MatrixStride, RowMajor), so the check is the same whether the
// buffer is read through a view or byte-addressed (buffer_layout.cpp); a
// load, store or atomic through the chain is then guarded by
// `offset + bytes <= size` in 64-bit arithmetic (indices are converted to 64
// bits first: a negative int index is a huge offset, never a wrapped small
// one). A chain that stays inside the block's fixed part with constant
// indices needs no check: the core refuses a binding smaller than that part.
//
// Cancel polls (TranslateOptions::cancel_polls, target cpp) put a statement
// at the top of every loop: insert_cancel_polls() marks each loop header
// with an instruction of a NonSemantic set that only this file knows, and the
// target writes it as its cancel_poll_statement().
#include <algorithm>

#include "spirv_words.hpp"
#include "target_compiler.hpp"

namespace porta::translator {

std::vector<uint32_t> insert_cancel_polls(const std::vector<uint32_t>& spirv) {
  uint32_t void_type = 0;
  std::unordered_set<uint32_t> headers;
  uint32_t block = 0;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    if (opcode == spv::OpTypeVoid && count >= 1) void_type = w[0];
    if (opcode == spv::OpLabel && count >= 1) block = w[0];
    // Loops to unroll ([[unroll]]: a count the compiler knows) get none: a
    // poll would keep them rolled (and GCC refuses its unroll pragma on the
    // `for (;;)` a header with statements becomes).
    if (opcode == spv::OpLoopMerge && count >= 3 && !(w[2] & spv::LoopControlUnrollMask))
      headers.insert(block);
  });
  if (headers.empty() || void_type == 0) return spirv;
  uint32_t bound = spirv[3];
  const uint32_t set = bound++;
  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + kSpirvHeaderWords);
  size_t at = kSpirvHeaderWords;
  while (at < spirv.size()) {
    const uint32_t length = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (length == 0 || at + length > spirv.size()) break;
    if (opcode == spv::OpMemoryModel) {
      // The import, where imports go: before the memory model.
      const std::string name = kCancelPollSet;
      std::vector<uint32_t> text((name.size() + 4) / 4, 0);
      std::copy(name.begin(), name.end(), reinterpret_cast<char*>(text.data()));
      out.push_back(uint32_t(text.size() + 2) << 16 | spv::OpExtInstImport);
      out.push_back(set);
      out.insert(out.end(), text.begin(), text.end());
    }
    out.insert(out.end(), spirv.begin() + at, spirv.begin() + at + length);
    at += length;
    if (opcode != spv::OpLabel || !headers.count(spirv[at - length + 1])) continue;
    // After the label and the header's OpPhi (and OpLine) instructions.
    while (at < spirv.size()) {
      const uint32_t next_length = spirv[at] >> 16, next = spirv[at] & 0xffffu;
      if (next_length == 0 || (next != spv::OpPhi && next != spv::OpLine && next != spv::OpNoLine)) break;
      out.insert(out.end(), spirv.begin() + at, spirv.begin() + at + next_length);
      at += next_length;
    }
    out.insert(out.end(), {5u << 16 | spv::OpExtInst, void_type, bound++, set, 0u});
  }
  out[3] = bound;
  return out;
}

namespace detail {

std::string TargetCompiler::u64_cast(const std::string& expression) {
  SPIRType type;
  type.basetype = SPIRType::UInt64;
  type.width = 64;
  type.vecsize = 1;
  type.columns = 1;
  return "(" + type_to_glsl(type) + ")(" + expression + ")";
}

bool TargetCompiler::note_checked_chain(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  CheckedChain chain;
  uint32_t first = 3;
  if (auto known = checked_chains_.find(ops[2]); known != checked_chains_.end()) {
    chain = known->second;
  } else {
    const BufferView* view = find_buffer_view(ops[2]);
    if (!view) return false;
    chain.variable = ops[2];
    chain.type = get_variable_data_type_id(get<SPIRVariable>(ops[2]));
    if (view->is_array) {
      if (instruction.length < 4) return false;  // the array of blocks itself
      chain.element = to_unpacked_expression(ops[3]);
      chain.element_count = view->count;
      chain.checked = true;
      chain.type = get<SPIRType>(chain.type).parent_type;
      first = 4;
    }
  }
  // One index: a constant folds into the offset; anything else is a 64-bit term.
  auto add = [&](uint32_t index, uint64_t stride) {
    const auto* constant = maybe_get<SPIRConstant>(index);
    if (constant && !constant->specialization) {
      const SPIRType& type = get<SPIRType>(constant->constant_type);
      const bool is_signed = type.basetype == SPIRType::Int || type.basetype == SPIRType::Int64;
      const int64_t value = type.width == 64 ? int64_t(constant->scalar_u64())
                            : is_signed      ? int64_t(constant->scalar_i32())
                                             : int64_t(constant->scalar());
      if (value >= 0) {
        chain.offset += uint64_t(value) * stride;
        return;
      }
    }
    chain.dynamic += u64_cast(to_unpacked_expression(index)) + " * " + std::to_string(stride) + "u + ";
    chain.checked = true;
  };
  for (uint32_t i = first; i < instruction.length; ++i) {
    const SPIRType& type = get<SPIRType>(chain.type);
    if (!type.array.empty()) {
      if (type.array_size_literal.back() && type.array.back() == 0) chain.checked = true;  // runtime array
      add(ops[i], get_decoration(chain.type, spv::DecorationArrayStride));
      chain.type = type.parent_type;
    } else if (type.basetype == SPIRType::Struct) {
      const uint32_t member = get<SPIRConstant>(ops[i]).scalar();
      chain.offset += type_struct_member_offset(type, member);
      const SPIRType& member_type = get<SPIRType>(type.member_types[member]);
      if (member_type.columns > 1) {
        chain.matrix_stride = type_struct_member_matrix_stride(type, member);
        chain.row_major = combined_decoration_for_member(type, member).get(spv::DecorationRowMajor);
      }
      chain.type = type.member_types[member];
    } else if (type.columns > 1) {
      // Column c: c * MatrixStride bytes in, or c components in a row-major one.
      add(ops[i], chain.row_major ? type.width / 8 : chain.matrix_stride);
      chain.row_major_column = chain.row_major;
      chain.type = type.parent_type;
    } else if (type.vecsize > 1) {
      add(ops[i], chain.row_major_column ? chain.matrix_stride : type.width / 8);
      chain.row_major_column = false;
      chain.type = type.parent_type;
    } else {
      return false;
    }
  }
  checked_chains_[ops[1]] = chain;
  return true;
}

uint64_t TargetCompiler::checked_bytes(const CheckedChain& chain) {
  const SPIRType& type = get<SPIRType>(chain.type);
  const uint64_t component = type.width / 8;
  if (!type.array.empty()) {
    const uint64_t stride = get_decoration(chain.type, spv::DecorationArrayStride);
    const uint64_t count =
        type.array_size_literal.back() ? type.array.back() : get<SPIRConstant>(type.array.back()).scalar();
    CheckedChain element = chain;
    element.type = type.parent_type;
    return count == 0 ? 0 : (count - 1) * stride + checked_bytes(element);
  }
  if (type.basetype == SPIRType::Struct) return get_declared_struct_size(type);
  if (type.columns > 1)
    return chain.row_major ? (type.vecsize - 1) * uint64_t(chain.matrix_stride) + type.columns * component
                           : (type.columns - 1) * uint64_t(chain.matrix_stride) + type.vecsize * component;
  if (chain.row_major_column) return (type.vecsize - 1) * uint64_t(chain.matrix_stride) + component;
  return type.vecsize * component;
}

std::string TargetCompiler::bounds_condition(uint32_t pointer) {
  // While emit_checked_access() emits the instruction it guards, nothing is guarded twice.
  if (!options_.bounds_checks || guarding_) return "";
  auto found = checked_chains_.find(pointer);
  if (found == checked_chains_.end() || !found->second.checked) return "";
  const CheckedChain& chain = found->second;
  std::string condition = chain.dynamic + std::to_string(chain.offset + checked_bytes(chain)) +
                          "u <= " + buffer_size_expression(chain.variable, chain.element);
  if (!chain.element.empty()) {
    // The block's index first: the size of a block that does not exist is never read.
    SPIRType uint_type;
    uint_type.basetype = SPIRType::UInt;
    uint_type.width = 32;
    condition = "(" + type_to_glsl(uint_type) + ")(" + chain.element + ") < " +
                std::to_string(chain.element_count) + "u && " + condition;
  }
  return "(" + condition + ")";
}

std::string TargetCompiler::zero_value(uint32_t type_id) {
  // A bare initialiser list (OpenCL C's structs) becomes a compound literal, a value.
  const std::string zero = to_zero_initialized_expression(type_id);
  return zero.rfind("{", 0) == 0 ? "(" + type_to_glsl(get<SPIRType>(type_id)) + ")" + zero : zero;
}

bool TargetCompiler::is_cancel_poll(const spirv_cross::Instruction& instruction) {
  if (instruction.op != spv::OpExtInst || instruction.length < 4) return false;
  if (cancel_poll_set_ == 0) {
    for_each_instruction(ir.spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
      if (opcode == spv::OpExtInstImport && count >= 2 &&
          spirv_string(&operands[1], count - 1) == kCancelPollSet)
        cancel_poll_set_ = operands[0];
    });
    if (cancel_poll_set_ == 0) cancel_poll_set_ = ~0u;
  }
  return stream(instruction)[2] == cancel_poll_set_;
}

bool TargetCompiler::emit_checked_access(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  switch (static_cast<spv::Op>(instruction.op)) {
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
      note_checked_chain(instruction);
      return false;  // the chain itself is emitted as before
    case spv::OpCopyObject:
      if (auto known = checked_chains_.find(ops[2]); known != checked_chains_.end())
        checked_chains_[ops[1]] = known->second;
      return false;
    case spv::OpLoad: {
      const std::string condition = bounds_condition(ops[2]);
      if (condition.empty()) return false;
      auto* chain = maybe_get<spirv_cross::SPIRExpression>(ops[2]);
      // A byte-addressed value read piece by piece: emit_byte_addressed() guards it.
      if (!chain || chain->expression.rfind("porta_byte_addressed_", 0) == 0) return false;
      const std::string zero = zero_value(ops[0]);
      // A view's lvalue: the load reads `(in bounds ? lvalue : 0)`.
      const std::string lvalue = chain->expression;
      chain->expression = "(" + condition + " ? " + lvalue + " : " + zero + ")";
      guarding_ = true;
      emit_target_instruction(instruction);
      guarding_ = false;
      chain->expression = lvalue;
      return true;
    }
    case spv::OpAtomicLoad: {
      // cpp and cuda read an atomic as an atomic add of 0, as the emitter
      // does (opencl guards its own, emit_atomic_load_store()).
      const std::string condition = target() == Target::OpenCL ? "" : bounds_condition(ops[2]);
      if (condition.empty()) return false;
      flush_all_atomic_capable_variables();
      forced_temporaries.insert(ops[1]);
      emit_op(
          ops[0], ops[1],
          "(" + condition + " ? atomicAdd(" + to_expression(ops[2]) + ", 0) : " + zero_value(ops[0]) + ")",
          false);
      return true;
    }
    case spv::OpStore:
    case spv::OpAtomicStore: {
      const std::string condition = bounds_condition(ops[0]);
      if (condition.empty()) return false;
      flush_all_active_variables();
      statement("if ", condition);
      begin_scope();
      guarding_ = true;
      emit_target_instruction(instruction);
      guarding_ = false;
      end_scope();
      return true;
    }
    default:
      return false;
  }
}

}  // namespace detail
}  // namespace porta::translator
