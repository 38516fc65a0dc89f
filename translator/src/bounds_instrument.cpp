// PORTA_ROBUST=report on a device that runs SPIR-V itself (Vulkan): the
// module's own accesses checked and the first one out of bounds recorded, as
// bounds_checks.cpp does in the translations of the other targets.
//
// Each access chain into a storage or uniform block is followed the way
// TargetCompiler::note_checked_chain() follows it: member offsets and
// constant indices fold into a byte offset, every other index adds
// `index * stride`, and the access covers the bytes of the type it reaches
// (checked_bytes()); a chain that stays in the block's fixed part with
// constant indices needs no check (the core refuses a smaller binding). A
// load, store or atomic through a checked chain becomes
//
//       <offset + bytes <= the binding's size, in 64 bits>
//       OpSelectionMerge %merge
//       OpBranchConditional %in_bounds %access %record
//   %access: the instruction as it was;                      OpBranch %merge
//   %record: OpFunctionCall porta_bounds_fail(site, ...);    OpBranch %merge
//   %merge:  its result: OpPhi of the value and 0
//
// so a read out of bounds gives 0 and a write or an atomic changes nothing.
// The arithmetic is 32-bit pairs (OpUMulExtended, OpIAddCarry), so no device
// needs Int64 for it; a negative index (of a signed type) or one above 32 bits
// is out of bounds whatever the buffer. The binding sizes come from the record
// buffer itself (after its BoundsRecord, written by the host for each
// dispatch): they are the sizes of the ranges bound, to the byte, as the
// translated targets check them, for blocks with and without a runtime array.
//
// A block that holds the instruction is split there; a loop header is split
// first into its phis and merge instruction, and the rest (a header may hold
// only one merge instruction, and its back edge must still reach it). Phis
// that named a split block name the block that now ends it.
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "spirv_words.hpp"

namespace porta::translator {
namespace {

using Words = std::vector<uint32_t>;

// The record buffer's words: BoundsRecord's fields, then a (low, high) pair per parameter.
constexpr uint32_t kFailuresWord = 0, kSiteWord = 1, kOffsetWord = 2, kSizeWord = 4, kElementWord = 6,
                   kSizesWord = kBoundsRecordBytes / 4;
constexpr uint32_t kScopeDevice = 1;

struct Inst {
  uint32_t opcode = 0;
  Words operands;  // every word after the first
};

struct Type {
  uint32_t opcode = 0;
  uint32_t width = 0;  // integers and floats: bits
  bool is_signed = false;
  uint32_t element = 0;  // vectors, matrices, arrays: the element; pointers: the pointee
  uint32_t count = 0;    // vectors: components; matrices: columns
  uint32_t length = 0;   // OpTypeArray: the length's id
  uint32_t storage = 0;  // pointers: the storage class
  Words members;         // structs
};

// One buffer variable of the kernel.
struct Buffer {
  uint32_t parameter = 0;  // its (first) parameter among the kernel's buffers
  uint32_t count = 1;      // an array of blocks: its length
  bool is_array = false;
};

// Where an access chain into a buffer has got to (bounds_checks.cpp's CheckedChain).
struct Chain {
  uint32_t variable = 0;
  uint32_t type = 0;                                   // the type it points to
  uint32_t element = 0;                                // the index into an array of blocks (an id); 0: none
  uint64_t offset = 0;                                 // constant bytes
  std::vector<std::pair<uint32_t, uint32_t>> dynamic;  // (index id, stride) terms
  bool checked = false;
  uint64_t index_base = 0, index_stride = 0;  // the first dynamic index, for messages
  uint32_t matrix_stride = 0;
  bool row_major = false, row_major_column = false;
};

class Instrumenter {
 public:
  Instrumenter(const Words& spirv, const std::vector<SpecValue>& specs) : specs_(specs) {
    module_ = add_bounds_record(spirv, result_.record_set, result_.record_binding, &record_);
    bound_ = module_[3];
    parse();
  }
  BoundsInstrumentation run();

 private:
  void parse();
  void find_buffers();
  [[noreturn]] void refuse(const std::string& what) const;
  std::string describe(const Inst& inst) const;

  uint32_t new_id() { return bound_++; }
  uint32_t type(uint32_t opcode, const Words& operands);
  uint32_t uint_type() { return type(spv::OpTypeInt, {32, 0}); }
  uint32_t bool_type() { return type(spv::OpTypeBool, {}); }
  uint32_t pair_type();
  uint32_t constant(uint32_t type_id, uint64_t value);
  uint32_t uint_constant(uint64_t value) { return constant(uint_type(), value); }
  uint32_t null_constant(uint32_t type_id);
  const Type& type_of(uint32_t type_id) const;
  // The value of an integer constant; false for anything else (spec constants included).
  bool constant_value(uint32_t id, int64_t& value) const;
  uint64_t array_length(uint32_t array_type) const;

  // Chains and the bytes they reach, as bounds_checks.cpp reckons them.
  bool follow(const Inst& chain, Chain& out) const;
  uint64_t member_size(uint32_t struct_type, uint32_t member) const;
  uint64_t struct_size(uint32_t struct_type) const;
  uint64_t access_bytes(const Chain& chain) const;
  uint32_t innermost(uint32_t type_id) const;
  // 8- and 16-bit scalars the module may only load, store and convert.
  enum class Narrow { None, Integer, Other };  // Integer: a scalar or vector of them
  Narrow narrow_kind(uint32_t type_id) const;
  bool limited(uint32_t scalar_type) const;
  uint32_t innermost_component(uint32_t type_id) const;

  // Function bodies.
  void rewrite_function(std::vector<Inst>& body);
  uint32_t emit(uint32_t opcode, uint32_t result_type, Words operands);
  uint32_t index_u32(uint32_t index, std::vector<uint32_t>& bad);
  // Emits `access` (a load, store or atomic through `pointer`) checked; returns
  // the label of the block that goes on after it.
  uint32_t guard(const Inst& access, uint32_t pointer, bool write, std::vector<Inst>& out);
  void emit_fail_function();

  const std::vector<SpecValue>& specs_;
  Words module_;
  BoundsInstrumentation result_;
  uint32_t record_ = 0, bound_ = 0;
  std::vector<Inst> globals_, functions_;  // before the first OpFunction; from it on
  Words added_;                            // new types and constants, after the module's
  std::map<std::pair<uint32_t, Words>, uint32_t> type_ids_;
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> constant_ids_;
  std::map<uint32_t, uint32_t> null_ids_;
  std::unordered_map<uint32_t, Type> types_;
  std::unordered_map<uint32_t, uint32_t> result_types_;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint64_t>> constants_;  // id: (type, bits)
  std::unordered_map<uint32_t, uint64_t> spec_constants_;                  // id: value (OpSpecConstant)
  std::unordered_map<uint32_t, uint32_t> array_stride_, set_, binding_, spec_id_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> member_offset_, matrix_stride_;
  std::set<std::pair<uint32_t, uint32_t>> row_major_;
  std::set<uint32_t> blocks_, buffer_blocks_;
  std::set<uint32_t> capabilities_;
  std::unordered_map<uint32_t, Buffer> buffers_;
  std::unordered_map<uint32_t, Chain> chains_;
  std::set<uint32_t> buffer_pointer_types_;
  uint32_t record_pointer_ = 0, fail_function_ = 0;
  std::vector<Inst>* out_ = nullptr;  // the body being written
};

void Instrumenter::refuse(const std::string& what) const {
  throw Error(Error::Kind::UnsupportedFeature, "accesses out of bounds cannot be reported: " + what);
}

std::string Instrumenter::describe(const Inst& inst) const {
  Words words{uint32_t(inst.operands.size() + 1) << 16 | inst.opcode};
  words.insert(words.end(), inst.operands.begin(), inst.operands.end());
  return instruction_name(words.data(), uint32_t(words.size()));
}

void Instrumenter::parse() {
  bool in_functions = false;
  for_each_instruction(module_, [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
    Inst inst{opcode, Words(w, w + count)};
    in_functions |= opcode == spv::OpFunction;
    bool has_result = false, has_type = false;
    spv::HasResultAndType(spv::Op(opcode), &has_result, &has_type);
    if (has_result && has_type && count >= 2) result_types_[w[1]] = w[0];
    (in_functions ? functions_ : globals_).push_back(std::move(inst));
  });
  for (const Inst& inst : globals_) {
    const Words& o = inst.operands;
    Type t;
    t.opcode = inst.opcode;
    switch (inst.opcode) {
      case spv::OpTypeInt:
        t.width = o[1];
        t.is_signed = o[2] != 0;
        break;
      case spv::OpTypeFloat:
        t.width = o[1];
        break;
      case spv::OpTypeVector:
      case spv::OpTypeMatrix:
      case spv::OpTypeArray:
      case spv::OpTypeRuntimeArray:
        t.element = o[1];
        // A vector's or matrix's count is a literal, an array's length an id.
        (inst.opcode == spv::OpTypeArray ? t.length : t.count) = o.size() > 2 ? o[2] : 0;
        break;
      case spv::OpTypeStruct:
        t.members.assign(o.begin() + 1, o.end());
        break;
      case spv::OpTypePointer:
        t.storage = o[1];
        t.element = o[2];
        break;
      case spv::OpConstant:
        if (types_.count(o[0]) && types_[o[0]].opcode == spv::OpTypeInt)
          constants_[o[1]] = {o[0], o.size() > 3 ? uint64_t(o[3]) << 32 | o[2] : o[2]};
        break;
      case spv::OpSpecConstant:
        spec_constants_[o[1]] = o.size() > 3 ? uint64_t(o[3]) << 32 | o[2] : o[2];
        break;
      case spv::OpDecorate:
        if (o[1] == spv::DecorationArrayStride) array_stride_[o[0]] = o[2];
        if (o[1] == spv::DecorationDescriptorSet) set_[o[0]] = o[2];
        if (o[1] == spv::DecorationBinding) binding_[o[0]] = o[2];
        if (o[1] == spv::DecorationSpecId) spec_id_[o[0]] = o[2];
        if (o[1] == spv::DecorationBlock) blocks_.insert(o[0]);
        if (o[1] == spv::DecorationBufferBlock) buffer_blocks_.insert(o[0]);
        break;
      case spv::OpMemberDecorate:
        if (o[2] == spv::DecorationOffset) member_offset_[{o[0], o[1]}] = o[3];
        if (o[2] == spv::DecorationMatrixStride) matrix_stride_[{o[0], o[1]}] = o[3];
        if (o[2] == spv::DecorationRowMajor) row_major_.insert({o[0], o[1]});
        break;
      case spv::OpCapability:
        capabilities_.insert(o[0]);
        if (o[0] == spv::CapabilityVariablePointers || o[0] == spv::CapabilityVariablePointersStorageBuffer)
          refuse("the module uses variable pointers");
        if (o[0] == spv::CapabilityPhysicalStorageBufferAddresses || o[0] == spv::CapabilityAddresses)
          refuse("the module addresses memory through raw pointers (buffer device addresses)");
        break;
      default:
        break;
    }
    if (inst.opcode >= spv::OpTypeVoid && inst.opcode <= spv::OpTypeForwardPointer) {
      types_[o[0]] = t;
      type_ids_.emplace(std::make_pair(inst.opcode, Words(o.begin() + 1, o.end())), o[0]);
    }
  }
  for (auto& [id, value] : spec_constants_) {
    auto spec = spec_id_.find(id);
    if (spec == spec_id_.end()) continue;
    for (const SpecValue& v : specs_)
      if (v.id == spec->second) value = v.bits;
  }
  for (const auto& [id, t] : types_)
    if (t.opcode == spv::OpTypePointer &&
        (t.storage == spv::StorageClassStorageBuffer || t.storage == spv::StorageClassUniform))
      buffer_pointer_types_.insert(id);
  find_buffers();
}

void Instrumenter::find_buffers() {
  // Parameters are ordered by (set, binding), an array of N blocks taking N.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> by_binding;
  for (const Inst& inst : globals_) {
    if (inst.opcode != spv::OpVariable) continue;
    const uint32_t variable = inst.operands[1], storage = inst.operands[2];
    if (storage != spv::StorageClassStorageBuffer && storage != spv::StorageClassUniform) continue;
    if (variable == record_) continue;
    Buffer b;
    uint32_t block = type_of(inst.operands[0]).element;
    if (type_of(block).opcode == spv::OpTypeRuntimeArray) refuse("a runtime-sized array of buffers");
    if (type_of(block).opcode == spv::OpTypeArray) {
      b.is_array = true;
      b.count = uint32_t(array_length(block));
      block = type_of(block).element;
    }
    if (!blocks_.count(block) && !buffer_blocks_.count(block)) continue;
    buffers_[variable] = b;
    by_binding[{set_.count(variable) ? set_[variable] : 0, binding_[variable]}].push_back(variable);
  }
  uint32_t parameter = 0;
  for (const auto& [where, variables] : by_binding) {
    uint32_t count = 1;
    for (uint32_t v : variables) {
      buffers_[v].parameter = parameter;
      count = std::max(count, buffers_[v].count);
    }
    parameter += count;
  }
}

const Type& Instrumenter::type_of(uint32_t type_id) const {
  static const Type none;
  auto it = types_.find(type_id);
  return it == types_.end() ? none : it->second;
}

uint32_t Instrumenter::type(uint32_t opcode, const Words& operands) {
  auto key = std::make_pair(opcode, operands);
  if (auto it = type_ids_.find(key); it != type_ids_.end()) return it->second;
  const uint32_t id = new_id();
  added_.push_back(uint32_t(operands.size() + 2) << 16 | opcode);
  added_.push_back(id);
  added_.insert(added_.end(), operands.begin(), operands.end());
  type_ids_.emplace(key, id);
  Type t;
  t.opcode = opcode;
  if (opcode == spv::OpTypeInt) t.width = operands[0], t.is_signed = operands[1] != 0;
  types_[id] = t;
  return id;
}

uint32_t Instrumenter::pair_type() {
  // Structs may repeat; one is enough for every OpUMulExtended and OpIAddCarry.
  static constexpr uint32_t kNone = 0;
  auto key = std::make_pair(uint32_t(spv::OpTypeStruct), Words{uint_type(), uint_type(), kNone});
  if (auto it = type_ids_.find(key); it != type_ids_.end()) return it->second;
  const uint32_t id = new_id(), u = uint_type();
  added_.insert(added_.end(), {4u << 16 | spv::OpTypeStruct, id, u, u});
  type_ids_.emplace(key, id);
  return id;
}

uint32_t Instrumenter::constant(uint32_t type_id, uint64_t value) {
  auto key = std::make_pair(type_id, value);
  if (auto it = constant_ids_.find(key); it != constant_ids_.end()) return it->second;
  const uint32_t id = new_id();
  if (type_of(type_id).width == 64)
    added_.insert(added_.end(),
                  {5u << 16 | spv::OpConstant, type_id, id, uint32_t(value), uint32_t(value >> 32)});
  else
    added_.insert(added_.end(), {4u << 16 | spv::OpConstant, type_id, id, uint32_t(value)});
  constant_ids_.emplace(key, id);
  return id;
}

uint32_t Instrumenter::null_constant(uint32_t type_id) {
  if (auto it = null_ids_.find(type_id); it != null_ids_.end()) return it->second;
  const uint32_t id = new_id();
  added_.insert(added_.end(), {3u << 16 | spv::OpConstantNull, type_id, id});
  null_ids_[type_id] = id;
  return id;
}

bool Instrumenter::constant_value(uint32_t id, int64_t& value) const {
  auto it = constants_.find(id);
  if (it == constants_.end()) return false;
  const Type& t = type_of(it->second.first);
  const uint64_t bits = it->second.second;
  if (t.width >= 64)
    value = int64_t(bits);
  else if (t.is_signed)
    value = int64_t(bits << (64 - t.width)) >> (64 - t.width);  // sign-extended
  else
    value = int64_t(bits & ((uint64_t(1) << t.width) - 1));
  return true;
}

uint64_t Instrumenter::array_length(uint32_t array_type) const {
  const uint32_t length = type_of(array_type).length;
  int64_t value = 0;
  if (constant_value(length, value)) return uint64_t(value);
  if (auto spec = spec_constants_.find(length); spec != spec_constants_.end()) return spec->second;
  refuse("an array whose length is a specialization-constant expression");
}

uint32_t Instrumenter::innermost(uint32_t type_id) const {
  while (type_of(type_id).opcode == spv::OpTypeArray || type_of(type_id).opcode == spv::OpTypeRuntimeArray)
    type_id = type_of(type_id).element;
  return type_id;
}

bool Instrumenter::limited(uint32_t scalar_type) const {
  const Type& t = type_of(scalar_type);
  if (t.opcode == spv::OpTypeInt && t.width == 8) return !capabilities_.count(spv::CapabilityInt8);
  if (t.opcode == spv::OpTypeInt && t.width == 16) return !capabilities_.count(spv::CapabilityInt16);
  if (t.opcode == spv::OpTypeFloat && t.width == 16) return !capabilities_.count(spv::CapabilityFloat16);
  return false;
}

uint32_t Instrumenter::innermost_component(uint32_t type_id) const {
  const Type& t = type_of(type_id);
  return t.opcode == spv::OpTypeVector ? t.element : type_id;
}

Instrumenter::Narrow Instrumenter::narrow_kind(uint32_t type_id) const {
  const Type& t = type_of(type_id);
  if (t.opcode == spv::OpTypeInt || t.opcode == spv::OpTypeFloat || t.opcode == spv::OpTypeVector) {
    const uint32_t scalar = innermost_component(type_id);
    if (!limited(scalar)) return Narrow::None;
    return type_of(scalar).opcode == spv::OpTypeInt ? Narrow::Integer : Narrow::Other;
  }
  if (t.opcode == spv::OpTypeMatrix)
    return narrow_kind(t.element) == Narrow::None ? Narrow::None : Narrow::Other;
  if (t.opcode == spv::OpTypeArray || t.opcode == spv::OpTypeRuntimeArray)
    return narrow_kind(t.element) == Narrow::None ? Narrow::None : Narrow::Other;
  if (t.opcode == spv::OpTypeStruct)
    for (uint32_t member : t.members)
      if (narrow_kind(member) != Narrow::None) return Narrow::Other;
  return Narrow::None;
}

// SPIRV-Cross's get_declared_struct_member_size and get_declared_struct_size,
// which the translated targets' checks use: the same bytes on every backend.
uint64_t Instrumenter::member_size(uint32_t struct_type, uint32_t member) const {
  const uint32_t member_type = type_of(struct_type).members[member];
  const Type& t = type_of(member_type);
  if (t.opcode == spv::OpTypeArray || t.opcode == spv::OpTypeRuntimeArray) {
    const uint64_t count = t.opcode == spv::OpTypeArray ? array_length(member_type) : 0;
    auto stride = array_stride_.find(member_type);
    return count * (stride == array_stride_.end() ? 0 : stride->second);
  }
  if (t.opcode == spv::OpTypeStruct) return struct_size(member_type);
  if (t.opcode == spv::OpTypeMatrix) {
    auto stride = matrix_stride_.find({struct_type, member});
    const uint64_t matrix_stride = stride == matrix_stride_.end() ? 0 : stride->second;
    return matrix_stride * (row_major_.count({struct_type, member}) ? type_of(t.element).count : t.count);
  }
  if (t.opcode == spv::OpTypeVector) return uint64_t(t.count) * type_of(t.element).width / 8;
  return t.width / 8;
}

uint64_t Instrumenter::struct_size(uint32_t struct_type) const {
  const Type& t = type_of(struct_type);
  if (t.members.empty()) return 0;
  const uint32_t last = uint32_t(t.members.size() - 1);
  auto offset = member_offset_.find({struct_type, last});
  return (offset == member_offset_.end() ? 0 : offset->second) + member_size(struct_type, last);
}

uint64_t Instrumenter::access_bytes(const Chain& chain) const {
  const Type& t = type_of(chain.type);
  if (t.opcode == spv::OpTypeArray || t.opcode == spv::OpTypeRuntimeArray) {
    const uint64_t count = t.opcode == spv::OpTypeArray ? array_length(chain.type) : 0;
    auto stride = array_stride_.find(chain.type);
    Chain element = chain;
    element.type = t.element;
    return count == 0
               ? 0
               : (count - 1) * (stride == array_stride_.end() ? 0 : stride->second) + access_bytes(element);
  }
  if (t.opcode == spv::OpTypeStruct) return struct_size(chain.type);
  if (t.opcode == spv::OpTypeMatrix) {
    const Type& column = type_of(t.element);
    const uint64_t component = type_of(column.element).width / 8;
    return chain.row_major ? (column.count - 1) * uint64_t(chain.matrix_stride) + t.count * component
                           : (t.count - 1) * uint64_t(chain.matrix_stride) + column.count * component;
  }
  if (t.opcode == spv::OpTypeVector) {
    const uint64_t component = type_of(t.element).width / 8;
    if (chain.row_major_column) return (t.count - 1) * uint64_t(chain.matrix_stride) + component;
    return t.count * component;
  }
  return t.width / 8;
}

bool Instrumenter::follow(const Inst& inst, Chain& chain) const {
  const Words& o = inst.operands;  // result type, result, base, indices...
  size_t first = 3;
  if (auto known = chains_.find(o[2]); known != chains_.end()) {
    chain = known->second;
  } else if (auto buffer = buffers_.find(o[2]); buffer != buffers_.end()) {
    chain = Chain{};
    chain.variable = o[2];
    chain.type = type_of(result_types_.at(o[2])).element;
    if (buffer->second.is_array) {
      if (o.size() < 4) return false;  // the array of blocks itself
      chain.element = o[3];
      chain.checked = true;
      chain.type = type_of(chain.type).element;
      first = 4;
    }
  } else {
    return false;
  }
  const auto add = [&](uint32_t index, uint64_t stride) {
    int64_t value = 0;
    if (constant_value(index, value) && value >= 0) {
      chain.offset += uint64_t(value) * stride;
      return;
    }
    if (chain.index_stride == 0) {
      chain.index_base = chain.offset;
      chain.index_stride = stride;
    }
    chain.dynamic.push_back({index, uint32_t(stride)});
    chain.checked = true;
  };
  for (size_t i = first; i < o.size(); ++i) {
    const Type& t = type_of(chain.type);
    if (t.opcode == spv::OpTypeArray || t.opcode == spv::OpTypeRuntimeArray) {
      if (t.opcode == spv::OpTypeRuntimeArray) chain.checked = true;
      auto stride = array_stride_.find(chain.type);
      add(o[i], stride == array_stride_.end() ? 0 : stride->second);
      chain.type = t.element;
    } else if (t.opcode == spv::OpTypeStruct) {
      int64_t member = 0;
      if (!constant_value(o[i], member) || member < 0 || size_t(member) >= t.members.size()) return false;
      const uint32_t m = uint32_t(member);
      auto offset = member_offset_.find({chain.type, m});
      chain.offset += offset == member_offset_.end() ? 0 : offset->second;
      if (type_of(innermost(t.members[m])).opcode == spv::OpTypeMatrix) {
        auto stride = matrix_stride_.find({chain.type, m});
        chain.matrix_stride = stride == matrix_stride_.end() ? 0 : stride->second;
        chain.row_major = row_major_.count({chain.type, m}) != 0;
      }
      chain.type = t.members[m];
    } else if (t.opcode == spv::OpTypeMatrix) {
      // Column c: c * MatrixStride bytes in, or c components in a row-major one.
      add(o[i], chain.row_major ? type_of(type_of(t.element).element).width / 8 : chain.matrix_stride);
      chain.row_major_column = chain.row_major;
      chain.type = t.element;
    } else if (t.opcode == spv::OpTypeVector) {
      add(o[i], chain.row_major_column ? chain.matrix_stride : type_of(t.element).width / 8);
      chain.row_major_column = false;
      chain.type = t.element;
    } else {
      return false;
    }
  }
  return true;
}

uint32_t Instrumenter::emit(uint32_t opcode, uint32_t result_type, Words operands) {
  const uint32_t id = new_id();
  operands.insert(operands.begin(), {result_type, id});
  out_->push_back({opcode, std::move(operands)});
  return id;
}

// `index` as a 32-bit unsigned value; `bad` gets a bool that is true where it
// has none (negative, or above 32 bits).
uint32_t Instrumenter::index_u32(uint32_t index, std::vector<uint32_t>& bad) {
  const uint32_t index_type = result_types_.at(index);
  const Type& t = type_of(index_type);
  if (t.opcode != spv::OpTypeInt) refuse("an index that is not an integer");
  if (t.width == 64) {
    const uint32_t high = emit(spv::OpShiftRightLogical, index_type, {index, constant(index_type, 32)});
    bad.push_back(
        emit(spv::OpINotEqual, bool_type(), {emit(spv::OpUConvert, uint_type(), {high}), uint_constant(0)}));
    return emit(spv::OpUConvert, uint_type(), {index});
  }
  if (t.is_signed) bad.push_back(emit(spv::OpSLessThan, bool_type(), {index, constant(index_type, 0)}));
  if (t.width < 32) return emit(spv::OpUConvert, uint_type(), {index});
  return t.is_signed ? emit(spv::OpBitcast, uint_type(), {index}) : index;
}

uint32_t Instrumenter::guard(const Inst& access, uint32_t pointer, bool write, std::vector<Inst>& out) {
  const Chain& chain = chains_.at(pointer);
  const Buffer& buffer = buffers_.at(chain.variable);
  out_ = &out;
  const uint32_t u = uint_type(), b = bool_type(), pair = pair_type();
  std::vector<uint32_t> bad;
  // offset = constant + sum of index * stride, as (low, high) words.
  uint32_t low = uint_constant(uint32_t(chain.offset)), high = uint_constant(chain.offset >> 32);
  const auto add_pair = [&](uint32_t add_low, uint32_t add_high) {
    const uint32_t sum = emit(spv::OpIAddCarry, pair, {low, add_low});
    low = emit(spv::OpCompositeExtract, u, {sum, 0});
    const uint32_t carry = emit(spv::OpCompositeExtract, u, {sum, 1});
    const uint32_t high_sum = emit(spv::OpIAddCarry, pair, {high, add_high});
    const uint32_t high_carry = emit(spv::OpCompositeExtract, u, {high_sum, 1});
    const uint32_t high_with =
        emit(spv::OpIAddCarry, pair, {emit(spv::OpCompositeExtract, u, {high_sum, 0}), carry});
    high = emit(spv::OpCompositeExtract, u, {high_with, 0});
    // Past 2^64 bytes: out of bounds, whatever the low words say.
    const uint32_t overflow =
        emit(spv::OpBitwiseOr, u, {high_carry, emit(spv::OpCompositeExtract, u, {high_with, 1})});
    bad.push_back(emit(spv::OpINotEqual, b, {overflow, uint_constant(0)}));
  };
  for (const auto& [index, stride] : chain.dynamic) {
    const uint32_t product = emit(spv::OpUMulExtended, pair, {index_u32(index, bad), uint_constant(stride)});
    add_pair(emit(spv::OpCompositeExtract, u, {product, 0}), emit(spv::OpCompositeExtract, u, {product, 1}));
  }
  const uint32_t first_low = low, first_high = high;
  const uint64_t bytes = access_bytes(chain);
  add_pair(uint_constant(uint32_t(bytes)), uint_constant(bytes >> 32));
  // The binding's size, from the record; an element past an array of blocks has none.
  uint32_t element = uint_constant(0), size_word = uint_constant(kSizesWord + 2 * buffer.parameter);
  uint32_t element_in = 0;
  if (chain.element) {
    std::vector<uint32_t> element_bad;
    element = index_u32(chain.element, element_bad);
    element_in = emit(spv::OpULessThan, b, {element, uint_constant(buffer.count)});
    for (uint32_t e : element_bad)
      element_in = emit(spv::OpLogicalAnd, b, {element_in, emit(spv::OpLogicalNot, b, {e})});
    const uint32_t clamped = emit(spv::OpSelect, u, {element_in, element, uint_constant(0)});
    size_word = emit(spv::OpIAdd, u, {size_word, emit(spv::OpIMul, u, {clamped, uint_constant(2)})});
  }
  const auto record_word = [&](uint32_t word) {
    const uint32_t p = emit(spv::OpAccessChain, record_pointer_, {record_, uint_constant(0), word});
    return emit(spv::OpLoad, u, {p});
  };
  uint32_t size_low = record_word(size_word);
  uint32_t size_high = record_word(emit(spv::OpIAdd, u, {size_word, uint_constant(1)}));
  if (element_in) {
    size_low = emit(spv::OpSelect, u, {element_in, size_low, uint_constant(0)});
    size_high = emit(spv::OpSelect, u, {element_in, size_high, uint_constant(0)});
  }
  // end <= size, in 64 bits, and nothing bad on the way.
  const uint32_t below = emit(spv::OpULessThan, b, {high, size_high});
  const uint32_t same = emit(spv::OpIEqual, b, {high, size_high});
  const uint32_t fits_low = emit(spv::OpULessThanEqual, b, {low, size_low});
  uint32_t in_bounds = emit(spv::OpLogicalOr, b, {below, emit(spv::OpLogicalAnd, b, {same, fits_low})});
  for (uint32_t x : bad) in_bounds = emit(spv::OpLogicalAnd, b, {in_bounds, emit(spv::OpLogicalNot, b, {x})});

  BoundsSite site{buffer.parameter, write, chain.index_base, chain.index_stride};
  auto known = std::find(result_.sites.begin(), result_.sites.end(), site);
  if (known == result_.sites.end()) known = result_.sites.insert(known, site);
  const uint32_t site_index = uint32_t(known - result_.sites.begin());

  const uint32_t then_label = new_id(), else_label = new_id(), merge = new_id();
  const auto record_failure = [&] {
    out.push_back({spv::OpLabel, {else_label}});
    emit(spv::OpFunctionCall, type(spv::OpTypeVoid, {}),
         {fail_function_, uint_constant(site_index), first_low, first_high, size_low, size_high, element});
    out.push_back({spv::OpBranch, {merge}});
    out.push_back({spv::OpLabel, {merge}});
  };
  bool has_result = false, has_type = false;
  spv::HasResultAndType(spv::Op(access.opcode), &has_result, &has_type);
  const uint32_t result_type = has_result ? access.operands[0] : 0;
  const Narrow narrow = has_result ? narrow_kind(result_type) : Narrow::None;
  if (narrow == Narrow::Other) {
    // 8- and 16-bit values the module can only load, store and convert (no
    // Int8, Int16 or Float16 capability) have no 0 to give and no phi: such a
    // load stays where it was and the device's robust buffer access (which
    // PORTA_ROBUST=report enables) gives its value; the failure is recorded.
    out.push_back(access);
    out.push_back({spv::OpSelectionMerge, {merge, spv::SelectionControlMaskNone}});
    out.push_back({spv::OpBranchConditional, {in_bounds, merge, else_label}});
    record_failure();
    return merge;
  }
  out.push_back({spv::OpSelectionMerge, {merge, spv::SelectionControlMaskNone}});
  out.push_back({spv::OpBranchConditional, {in_bounds, then_label, else_label}});
  out.push_back({spv::OpLabel, {then_label}});
  Inst moved = access;
  uint32_t value = 0;
  if (has_result) moved.operands[1] = value = new_id();
  out.push_back(moved);
  // Narrow integers the module cannot compute with go through the phi as
  // 32-bit ones (a conversion each way, exact).
  uint32_t phi_type = result_type;
  if (narrow == Narrow::Integer) {
    const uint32_t count = type_of(result_type).opcode == spv::OpTypeVector ? type_of(result_type).count : 1;
    phi_type = count == 1 ? uint_type() : type(spv::OpTypeVector, {uint_type(), count});
    value = emit(spv::OpUConvert, phi_type, {value});
  }
  out.push_back({spv::OpBranch, {merge}});
  record_failure();
  if (has_result) {
    const uint32_t phi = narrow == Narrow::Integer ? new_id() : access.operands[1];
    out.push_back({spv::OpPhi, {phi_type, phi, value, then_label, null_constant(phi_type), else_label}});
    if (narrow == Narrow::Integer) {
      const bool is_signed = type_of(innermost_component(result_type)).is_signed;
      out.push_back(
          {uint32_t(is_signed ? spv::OpSConvert : spv::OpUConvert), {result_type, access.operands[1], phi}});
    }
  }
  return merge;
}

// OpBranch to OpUnreachable are numbered together; OpTerminateInvocation came later.
bool is_terminator(uint32_t opcode) {
  return (opcode >= spv::OpBranch && opcode <= spv::OpUnreachable) || opcode == spv::OpTerminateInvocation;
}

bool is_atomic(uint32_t opcode) {
  return (opcode >= spv::OpAtomicLoad && opcode <= spv::OpAtomicXor) || opcode == spv::OpAtomicFAddEXT ||
         opcode == spv::OpAtomicFMinEXT || opcode == spv::OpAtomicFMaxEXT;
}

void Instrumenter::rewrite_function(std::vector<Inst>& body) {
  // Loop headers: the label of each block with an OpLoopMerge.
  std::set<uint32_t> loop_headers;
  uint32_t block = 0;
  for (const Inst& inst : body) {
    if (inst.opcode == spv::OpLabel) block = inst.operands[0];
    if (inst.opcode == spv::OpLoopMerge) loop_headers.insert(block);
  }
  std::vector<Inst> out;
  out_ = &out;
  std::map<uint32_t, uint32_t> ends;  // a split block's label: the label of the block that ends it
  uint32_t original = 0, current = 0;
  size_t after_phis = 0;      // where a header's own part ends
  bool header_split = false;  // the block is a loop header already split
  std::vector<size_t> original_phis;
  for (size_t at = 0; at < body.size(); ++at) {
    const Inst& inst = body[at];
    const Words& o = inst.operands;
    if (inst.opcode == spv::OpLabel) {
      original = current = o[0];
      header_split = false;
      out.push_back(inst);
      after_phis = out.size();
      continue;
    }
    bool has_result = false, has_type = false;
    spv::HasResultAndType(spv::Op(inst.opcode), &has_result, &has_type);
    if (has_type && buffer_pointer_types_.count(o[0]) && inst.opcode != spv::OpAccessChain &&
        inst.opcode != spv::OpInBoundsAccessChain && inst.opcode != spv::OpCopyObject &&
        inst.opcode != spv::OpUndef && inst.opcode != spv::OpVariable)
      refuse(describe(inst) +
             " makes a pointer into a buffer that cannot be followed (function "
             "parameters and variable pointers cannot be checked)");
    if (inst.opcode == spv::OpPhi) {
      original_phis.push_back(out.size());
      out.push_back(inst);
      after_phis = out.size();
      continue;
    }
    if (inst.opcode == spv::OpLoopMerge && header_split) continue;  // moved up already
    if (inst.opcode == spv::OpAccessChain || inst.opcode == spv::OpInBoundsAccessChain ||
        inst.opcode == spv::OpPtrAccessChain || inst.opcode == spv::OpInBoundsPtrAccessChain) {
      Chain chain;
      if (inst.opcode != spv::OpPtrAccessChain && inst.opcode != spv::OpInBoundsPtrAccessChain &&
          follow(inst, chain)) {
        chains_[o[1]] = chain;
        // The index may be out of range: that is what is checked.
        out.push_back({spv::OpAccessChain, o});
        continue;
      }
      if (chains_.count(o[2]) || buffers_.count(o[2]) || buffer_pointer_types_.count(o[0]))
        refuse(describe(inst) + " into a buffer cannot be followed");
      out.push_back(inst);
      continue;
    }
    if (inst.opcode == spv::OpCopyObject && chains_.count(o[2])) chains_[o[1]] = chains_.at(o[2]);
    if (inst.opcode == spv::OpCopyObject && buffers_.count(o[2])) buffers_[o[1]] = buffers_.at(o[2]);
    if (inst.opcode == spv::OpCopyMemory || inst.opcode == spv::OpCopyMemorySized) {
      if (chains_.count(o[0]) || chains_.count(o[1])) refuse(describe(inst) + " through a buffer");
    }
    if (inst.opcode == spv::OpFunctionCall) {
      for (size_t i = 3; i < o.size(); ++i)
        if (chains_.count(o[i]) || buffers_.count(o[i]))
          refuse("a function takes a pointer into a buffer (" + describe(inst) + ")");
    }
    if (inst.opcode == spv::OpExtInst) {
      for (size_t i = 4; i < o.size(); ++i)
        if (chains_.count(o[i])) refuse(describe(inst) + " takes a pointer into a buffer");
    }
    // The pointer of a load, store or atomic, and whether it writes.
    uint32_t pointer = 0;
    bool write = false;
    if (inst.opcode == spv::OpLoad || inst.opcode == spv::OpAtomicLoad) {
      pointer = o[2];
    } else if (inst.opcode == spv::OpStore || inst.opcode == spv::OpAtomicStore) {
      pointer = o[0];
      write = true;
    } else if (is_atomic(inst.opcode)) {
      pointer = o[2];
      write = true;
    }
    auto chain = chains_.find(pointer);
    if (!pointer || chain == chains_.end() || !chain->second.checked) {
      if (is_terminator(inst.opcode) && current != original) ends[original] = current;
      out.push_back(inst);
      continue;
    }
    if (loop_headers.count(original) && !header_split) {
      // The header keeps its phis and its OpLoopMerge, then branches to the rest.
      const Inst* merge = nullptr;
      for (size_t j = at; j < body.size() && body[j].opcode != spv::OpLabel; ++j)
        if (body[j].opcode == spv::OpLoopMerge) merge = &body[j];
      const uint32_t rest = new_id();
      const std::vector<Inst> head{*merge, {spv::OpBranch, {rest}}, {spv::OpLabel, {rest}}};
      out.insert(out.begin() + std::ptrdiff_t(after_phis), head.begin(), head.end());
      header_split = true;
    }
    current = guard(inst, pointer, write, out);
  }
  for (size_t i : original_phis) {
    Words& o = out[i].operands;
    for (size_t j = 3; j < o.size(); j += 2)
      if (auto end = ends.find(o[j]); end != ends.end()) o[j] = end->second;
  }
  body.swap(out);
}

void Instrumenter::emit_fail_function() {
  // porta_bounds_fail(site, offset low, offset high, size low, size high,
  // element): every failure counts; the first writes where it was.
  const uint32_t u = uint_type(), void_type = type(spv::OpTypeVoid, {});
  const uint32_t function_type = type(spv::OpTypeFunction, {void_type, u, u, u, u, u, u});
  std::vector<Inst> body;
  out_ = &body;
  body.push_back(
      {spv::OpFunction, {void_type, fail_function_, spv::FunctionControlDontInlineMask, function_type}});
  Words parameters;
  for (int i = 0; i < 6; ++i) parameters.push_back(emit(spv::OpFunctionParameter, u, {}));
  body.push_back({spv::OpLabel, {new_id()}});
  const auto word = [&](uint32_t w) {
    return emit(spv::OpAccessChain, record_pointer_, {record_, uint_constant(0), uint_constant(w)});
  };
  const uint32_t before =
      emit(spv::OpAtomicIAdd, u,
           {word(kFailuresWord), uint_constant(kScopeDevice), uint_constant(0), uint_constant(1)});
  const uint32_t first = emit(spv::OpIEqual, bool_type(), {before, uint_constant(0)});
  const uint32_t write = new_id(), done = new_id();
  body.push_back({spv::OpSelectionMerge, {done, spv::SelectionControlMaskNone}});
  body.push_back({spv::OpBranchConditional, {first, write, done}});
  body.push_back({spv::OpLabel, {write}});
  const uint32_t words[6] = {kSiteWord, kOffsetWord, kOffsetWord + 1, kSizeWord, kSizeWord + 1, kElementWord};
  for (int i = 0; i < 6; ++i) body.push_back({spv::OpStore, {word(words[i]), parameters[size_t(i)]}});
  body.push_back({spv::OpBranch, {done}});
  body.push_back({spv::OpLabel, {done}});
  body.push_back({spv::OpReturn, {}});
  body.push_back({spv::OpFunctionEnd, {}});
  functions_.insert(functions_.end(), body.begin(), body.end());
}

BoundsInstrumentation Instrumenter::run() {
  uint32_t record_storage = 0;
  for (const Inst& inst : globals_)
    if (inst.opcode == spv::OpVariable && inst.operands[1] == record_) record_storage = inst.operands[2];
  record_pointer_ = type(spv::OpTypePointer, {record_storage, uint_type()});
  fail_function_ = new_id();
  // Each function's body, from OpFunction to OpFunctionEnd.
  std::vector<Inst> functions, body;
  for (Inst& inst : functions_) {
    body.push_back(std::move(inst));
    if (body.back().opcode != spv::OpFunctionEnd) continue;
    rewrite_function(body);
    functions.insert(functions.end(), body.begin(), body.end());
    body.clear();
  }
  functions_.swap(functions);
  emit_fail_function();

  Words& out = result_.spirv;
  out.assign(module_.begin(), module_.begin() + kSpirvHeaderWords);
  const auto put = [&](const Inst& inst) {
    out.push_back(uint32_t(inst.operands.size() + 1) << 16 | inst.opcode);
    out.insert(out.end(), inst.operands.begin(), inst.operands.end());
  };
  for (const Inst& inst : globals_) put(inst);
  out.insert(out.end(), added_.begin(), added_.end());
  for (const Inst& inst : functions_) put(inst);
  out[3] = bound_;
  return result_;
}

}  // namespace

BoundsInstrumentation instrument_bounds_report(const std::vector<uint32_t>& spirv,
                                               const std::vector<SpecValue>& specs) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
  return Instrumenter(spirv, specs).run();
}

}  // namespace porta::translator
