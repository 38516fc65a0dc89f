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
// `offset + bytes <= size` in 64-bit arithmetic that cannot wrap: an index
// no buffer reaches (a negative one of a signed type, or one so large that
// its term could wrap the sum) counts as a limit past every buffer
// (bounds_index()). Sign-extended as it is, index -1 of 4-byte elements
// would otherwise wrap `offset + bytes` to 0 and pass. A chain that stays
// inside the block's fixed part with constant indices needs no check: the
// core refuses a binding smaller than that part.
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

namespace {

// A string literal operand's words.
std::vector<uint32_t> string_operand(const std::string& text) {
  std::vector<uint32_t> words((text.size() + 4) / 4, 0);
  std::copy(text.begin(), text.end(), reinterpret_cast<char*>(words.data()));
  return words;
}

void append(std::vector<uint32_t>& out, spv::Op opcode, std::initializer_list<uint32_t> operands,
            const std::vector<uint32_t>& tail = {}) {
  out.push_back(uint32_t(1 + operands.size() + tail.size()) << 16 | opcode);
  out.insert(out.end(), operands);
  out.insert(out.end(), tail.begin(), tail.end());
}

// A module's logical layout, coarsely: what may precede debug instructions
// (0), source debug instructions (1), names (2), OpModuleProcessed (3),
// annotations (4), types, constants and global variables (5), functions (6).
// Lines may sit anywhere: -1.
int section_of(uint32_t opcode) {
  switch (opcode) {
    case spv::OpLine:
    case spv::OpNoLine:
      return -1;
    case spv::OpCapability:
    case spv::OpExtension:
    case spv::OpExtInstImport:
    case spv::OpMemoryModel:
    case spv::OpEntryPoint:
    case spv::OpExecutionMode:
    case spv::OpExecutionModeId:
      return 0;
    case spv::OpString:
    case spv::OpSourceExtension:
    case spv::OpSource:
    case spv::OpSourceContinued:
      return 1;
    case spv::OpName:
    case spv::OpMemberName:
      return 2;
    case spv::OpModuleProcessed:
      return 3;
    case spv::OpDecorate:
    case spv::OpMemberDecorate:
    case spv::OpDecorationGroup:
    case spv::OpGroupDecorate:
    case spv::OpGroupMemberDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
    case spv::OpMemberDecorateString:
      return 4;
    case spv::OpFunction:
      return 6;
    default:
      return 5;
  }
}

}  // namespace

std::vector<uint32_t> add_bounds_record(const std::vector<uint32_t>& spirv, uint32_t& set, uint32_t& binding,
                                        uint32_t* record) {
  // Past the highest binding of the highest set: the last buffer parameter,
  // in a set the kernel already has (a Vulkan device binds a few sets only,
  // and one set keeps its push-descriptor path).
  std::unordered_map<uint32_t, uint32_t> sets, bindings;
  uint32_t uint_type = 0;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    if (opcode == spv::OpDecorate && count >= 3 && w[1] == spv::DecorationDescriptorSet) sets[w[0]] = w[2];
    if (opcode == spv::OpDecorate && count >= 3 && w[1] == spv::DecorationBinding) bindings[w[0]] = w[2];
    if (opcode == spv::OpTypeInt && count >= 3 && w[1] == 32 && w[2] == 0) uint_type = w[0];
  });
  set = 0;
  for (const auto& [variable, s] : sets) set = std::max(set, s);
  binding = 0;
  for (const auto& [variable, b] : bindings) {
    auto s = sets.find(variable);
    if ((s == sets.end() ? 0 : s->second) == set) binding = std::max(binding, b + 1);
  }
  // SPIR-V 1.3 on has the StorageBuffer class in core; before, a buffer is a
  // Uniform BufferBlock.
  const bool storage_class_buffer = spirv[1] >= 0x10300;
  const uint32_t storage = storage_class_buffer ? spv::StorageClassStorageBuffer : spv::StorageClassUniform;
  uint32_t bound = spirv[3];
  const uint32_t uint_id = uint_type ? uint_type : bound++;
  const uint32_t array = bound++, block = bound++, pointer = bound++, variable = bound++;

  std::vector<uint32_t> groups[7];  // by section
  append(groups[2], spv::OpName, {variable}, string_operand(kBoundsRecordName));
  append(groups[2], spv::OpName, {block}, string_operand("PortaBoundsRecord"));
  append(groups[4], spv::OpDecorate, {array, spv::DecorationArrayStride, 4});
  append(groups[4], spv::OpDecorate,
         {block, uint32_t(storage_class_buffer ? spv::DecorationBlock : spv::DecorationBufferBlock)});
  append(groups[4], spv::OpMemberDecorate, {block, 0, spv::DecorationOffset, 0});
  append(groups[4], spv::OpDecorate, {variable, spv::DecorationDescriptorSet, set});
  append(groups[4], spv::OpDecorate, {variable, spv::DecorationBinding, binding});
  if (!uint_type) append(groups[5], spv::OpTypeInt, {uint_id, 32, 0});
  append(groups[5], spv::OpTypeRuntimeArray, {array, uint_id});
  append(groups[5], spv::OpTypeStruct, {block, array});
  append(groups[5], spv::OpTypePointer, {pointer, storage, block});
  append(groups[5], spv::OpVariable, {pointer, variable, storage});

  if (record) *record = variable;
  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + kSpirvHeaderWords);
  out[3] = bound;
  int placed = 0;  // groups[1..placed] are out
  const auto place_before = [&](int section) {
    for (; placed + 1 < section && placed < 6; ++placed)
      out.insert(out.end(), groups[placed + 1].begin(), groups[placed + 1].end());
  };
  size_t at = kSpirvHeaderWords;
  while (at < spirv.size()) {
    const uint32_t length = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (length == 0 || at + length > spirv.size()) break;
    const int section = section_of(opcode);
    if (section > 0) place_before(section);
    const size_t start = out.size();
    out.insert(out.end(), spirv.begin() + at, spirv.begin() + at + length);
    // From SPIR-V 1.4 an entry point lists every global variable it uses.
    if (opcode == spv::OpEntryPoint && spirv[1] >= 0x10400) {
      out.push_back(variable);
      out[start] += 1u << 16;
    }
    at += length;
  }
  place_before(7);
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

std::string TargetCompiler::bounds_index(const std::string& value, const SPIRType& type, uint64_t stride) {
  // Each term stays below 2^60 (so a sum of up to 15 never wraps), and a
  // term at the limit is past 2^48 bytes, more than any buffer.
  const uint64_t limit =
      std::min<uint64_t>(uint64_t(1) << 48, (uint64_t(1) << 60) / std::max<uint64_t>(stride, 1));
  const bool is_signed = type.basetype == SPIRType::Int || type.basetype == SPIRType::Int64 ||
                         type.basetype == SPIRType::Short || type.basetype == SPIRType::SByte;
  const uint64_t largest = is_signed          ? (uint64_t(1) << (type.width - 1)) - 1
                           : type.width >= 64 ? ~uint64_t(0)
                                              : (uint64_t(1) << type.width) - 1;
  const std::string wide = u64_cast(value);
  if (!is_signed && largest <= limit) return wide;
  const std::string bound = u64_cast(std::to_string(limit) + "u");
  std::string unreachable = is_signed ? value + " < 0" : "";
  if (largest > limit) unreachable += (unreachable.empty() ? "" : " || ") + wide + " > " + bound;
  return "(" + unreachable + " ? " + bound + " : " + wide + ")";
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
    if (chain.index_stride == 0) {
      chain.index_base = chain.offset;
      chain.index_stride = stride;
    }
    chain.global_x = ++chain.dynamic_terms == 1 && global_x_ids().count(index) ? index : 0;
    chain.dynamic += bounds_index(to_enclosed_unpacked_expression(index), expression_type(index), stride) +
                     " * " + std::to_string(stride) + "u + ";
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
  const std::string bytes = std::to_string(chain.offset + checked_bytes(chain)) + "u <= ";
  std::string condition = chain.dynamic + bytes + buffer_size_expression(chain.variable, chain.element);
  const std::string member = items_in_bounds_member();
  if (!member.empty() && chain.global_x && chain.element.empty()) {
    // The same check at this item's gl_GlobalInvocationID.x, spelled without main()'s names.
    const SPIRType& type = expression_type(chain.global_x);
    std::string x = builtin_to_glsl(spv::BuiltInGlobalInvocationId, spv::StorageClassInput) + ".x";
    if (type.basetype != SPIRType::UInt) x = type_to_glsl(type) + "(" + x + ")";
    const std::string group = bounds_index(x, type, chain.index_stride) + " * " +
                              std::to_string(chain.index_stride) + "u + " + bytes +
                              buffer_size_expression(chain.variable, "");
    if (std::find(group_bounds_.begin(), group_bounds_.end(), group) == group_bounds_.end())
      group_bounds_.push_back(group);
    return "(" + member + " || " + condition + ")";
  }
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

const std::unordered_set<uint32_t>& TargetCompiler::global_x_ids() {
  if (global_x_known_) return global_x_ids_;
  global_x_known_ = true;
  std::unordered_set<uint32_t> built_ins, zeros, int32_types, vectors, x_pointers;
  for_each_instruction(ir.spirv, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    if (opcode == spv::OpDecorate && count >= 3 && w[1] == spv::DecorationBuiltIn &&
        w[2] == spv::BuiltInGlobalInvocationId)
      built_ins.insert(w[0]);
    else if (opcode == spv::OpTypeInt && count >= 3 && w[1] == 32)
      int32_types.insert(w[0]);
    else if (opcode == spv::OpConstant && count >= 3 && w[2] == 0)
      zeros.insert(w[1]);
    else if (opcode == spv::OpLoad && count >= 3 && built_ins.count(w[2]))
      vectors.insert(w[1]);
    else if (opcode == spv::OpLoad && count >= 3 && x_pointers.count(w[2]))
      global_x_ids_.insert(w[1]);
    else if ((opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain) && count == 4 &&
             built_ins.count(w[2]) && zeros.count(w[3]))
      x_pointers.insert(w[1]);
    else if (opcode == spv::OpCompositeExtract && count == 4 && vectors.count(w[2]) && w[3] == 0)
      global_x_ids_.insert(w[1]);
    else if ((opcode == spv::OpBitcast || opcode == spv::OpCopyObject) && count >= 3 &&
             int32_types.count(w[0]) && global_x_ids_.count(w[2]))
      global_x_ids_.insert(w[1]);
  });
  return global_x_ids_;
}

void TargetCompiler::emit_group_in_bounds() {
  statement("// Whether every access indexed by gl_GlobalInvocationID.x alone is in");
  statement("// bounds for this item: asked of a group's last item, for the whole group.");
  statement("bool porta_group_in_bounds() const");
  begin_scope();
  std::string all;
  for (const std::string& check : group_bounds_) all += (all.empty() ? "" : " && ") + check;
  statement("return ", all.empty() ? "false" : all, ";");
  end_scope();
}

std::string TargetCompiler::bounds_failure(uint32_t pointer, bool write) {
  if (!options_.bounds_report) return "";
  const CheckedChain& chain = checked_chains_.at(pointer);
  const BufferView* record = nullptr;
  for (const BufferView& view : buffer_views())
    if (get_name(view.variable) == kBoundsRecordName) record = &view;
  const BufferView* view = find_buffer_view(chain.variable);
  if (!record || !view) unsupported("a bounds report without its record buffer");
  const BoundsSite site{view->parameter, write, chain.index_base, chain.index_stride};
  auto known = std::find(bounds_sites_.begin(), bounds_sites_.end(), site);
  if (known == bounds_sites_.end()) known = bounds_sites_.insert(known, site);
  require_bounds_failure();
  std::string size = buffer_size_expression(chain.variable, chain.element);
  if (!chain.element.empty()) {
    // A block past the array's end has no size: 0 says so.
    SPIRType uint_type;
    uint_type.basetype = SPIRType::UInt;
    uint_type.width = 32;
    size = "((" + type_to_glsl(uint_type) + ")(" + chain.element + ") < " +
           std::to_string(chain.element_count) + "u ? " + u64_cast(size) + " : " + u64_cast("0") + ")";
  }
  // The element of an array of blocks, so that the report names it.
  const std::string element = chain.element.empty() ? u64_cast("0") : u64_cast(chain.element);
  return "porta_bounds_fail(" + buffer_base_pointer(record->variable, "") + ", " +
         std::to_string(known - bounds_sites_.begin()) + "u, " + chain.dynamic +
         std::to_string(chain.offset) + "u, " + u64_cast(size) + ", " + element + ")";
}

std::string TargetCompiler::guarded_value(const std::string& condition, uint32_t pointer, bool write,
                                          const std::string& value, const std::string& zero) {
  const std::string failure = bounds_failure(pointer, write);
  return "(" + condition + " ? " + value + " : " +
         (failure.empty() ? zero : "(" + failure + ", " + zero + ")") + ")";
}

void TargetCompiler::guarded_statement(const std::string& condition, uint32_t pointer, bool write,
                                       const std::string& text) {
  statement("if ", condition, " ", text, ";");
  if (const std::string failure = bounds_failure(pointer, write); !failure.empty())
    statement("else ", failure, ";");
}

void TargetCompiler::guarded_else(uint32_t pointer, bool write) {
  const std::string failure = bounds_failure(pointer, write);
  if (failure.empty()) return;
  statement("else");
  begin_scope();
  statement(failure, ";");
  end_scope();
}

std::string TargetCompiler::zero_value(uint32_t type_id) {
  // A bare initialiser list (OpenCL C's structs) becomes a compound literal, a value.
  const std::string zero = CompilerGLSL::to_zero_initialized_expression(type_id);
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
      chain->expression = guarded_value(condition, ops[2], false, lvalue, zero);
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
      emit_op(ops[0], ops[1],
              guarded_value(condition, ops[2], false, "atomicAdd(" + to_expression(ops[2]) + ", 0)",
                            zero_value(ops[0])),
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
      guarded_else(ops[0], true);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace detail
}  // namespace porta::translator
