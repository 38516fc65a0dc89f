// SPV_KHR_bfloat16's bfloat16 lowered to 16-bit unsigned integers for the
// translated targets (bfloat16_lowering.hpp). The extension lets bfloat16 be
// moved, converted, dotted and multiplied in cooperative matrices; the first
// needs nothing but the bits, the conversions go through float32 (whose top
// half a bfloat16 is), dot products are summed in float32 and rounded once,
// and the matrices are coopmat_lowering.cpp's.
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include "bfloat16_lowering.hpp"

#include <map>
#include <string>
#include <unordered_map>

#include "spirv_words.hpp"

namespace porta::translator {

uint32_t bfloat16_to_float(const BFloat16Ops& b, uint32_t value) {
  const uint32_t wide = b.op(spv::OpUConvert, b.u32, {value});
  return b.op(spv::OpBitcast, b.f32, {b.op(spv::OpShiftLeftLogical, b.u32, {wide, b.uint_constant(16)})});
}

uint32_t bfloat16_from_float(const BFloat16Ops& b, uint32_t value) {
  // Adding 0x7fff, plus one where the kept half is odd, carries into it
  // exactly when the dropped half is over half an ulp, or half an ulp and
  // the kept half odd.
  const uint32_t bits = b.op(spv::OpBitcast, b.u32, {value});
  const uint32_t high = b.op(spv::OpShiftRightLogical, b.u32, {bits, b.uint_constant(16)});
  const uint32_t odd = b.op(spv::OpBitwiseAnd, b.u32, {high, b.uint_constant(1)});
  const uint32_t bias = b.op(spv::OpIAdd, b.u32, {odd, b.uint_constant(0x7fff)});
  const uint32_t rounded =
      b.op(spv::OpShiftRightLogical, b.u32, {b.op(spv::OpIAdd, b.u32, {bits, bias}), b.uint_constant(16)});
  const uint32_t quiet = b.op(spv::OpBitwiseOr, b.u32, {high, b.uint_constant(0x40)});
  // NaN by its bits: drivers that do not preserve NaNs (no SignedZeroInfNanPreserve) may fold OpIsNan.
  const uint32_t nan = b.op(
      spv::OpUGreaterThan, b.boolean,
      {b.op(spv::OpBitwiseAnd, b.u32, {bits, b.uint_constant(0x7fffffff)}), b.uint_constant(0x7f800000)});
  return b.op(spv::OpUConvert, b.u16, {b.op(spv::OpSelect, b.u32, {nan, quiet, rounded})});
}

namespace {

// Whether `x` is not zero (NaN aside: rounded_to_odd() leaves non-finite
// values alone). OpFOrdNotEqual would say so too, but its C spelling (!=) is
// unordered on targets cpp and cuda.
uint32_t nonzero(const BFloat16Ops& b, uint32_t x, uint32_t zero) {
  return b.op(spv::OpLogicalNot, b.boolean, {b.op(spv::OpFOrdEqual, b.boolean, {x, zero})});
}

// `nearest` (a float32 rounded to nearest from a value it may differ from)
// moved one unit toward the value where it is inexact, finite and its last
// bit is even: the value rounded to odd, from which bfloat16 rounds correctly.
uint32_t rounded_to_odd(const BFloat16Ops& b, uint32_t nearest, uint32_t inexact, uint32_t toward_larger) {
  const uint32_t bits = b.op(spv::OpBitcast, b.u32, {nearest});
  // Only a finite float32 moves (an infinite one came from an overflow or
  // an infinity, a NaN from a NaN), tested on its bits, as NaN comparisons
  // are folded by drivers that do not preserve NaNs.
  const uint32_t finite = b.op(
      spv::OpINotEqual, b.boolean,
      {b.op(spv::OpBitwiseAnd, b.u32, {bits, b.uint_constant(0x7f800000)}), b.uint_constant(0x7f800000)});
  const uint32_t even =
      b.op(spv::OpIEqual, b.boolean,
           {b.op(spv::OpBitwiseAnd, b.u32, {bits, b.uint_constant(1)}), b.uint_constant(0)});
  // One unit more or less of magnitude: the sign bit stays.
  const uint32_t step = b.op(spv::OpSelect, b.u32, {toward_larger, b.uint_constant(1), b.uint_constant(~0u)});
  const uint32_t moved = b.op(spv::OpIAdd, b.u32, {bits, step});
  const uint32_t odd =
      b.op(spv::OpSelect, b.u32,
           {b.op(spv::OpLogicalAnd, b.boolean, {b.op(spv::OpLogicalAnd, b.boolean, {inexact, finite}), even}),
            moved, bits});
  return b.op(spv::OpBitcast, b.f32, {odd});
}

// A float or an integer (read as signed or not) as bfloat16, rounded once
// (bfloat16_convert()).
uint32_t bfloat16_from(const BFloat16Ops& b, uint32_t value, const BFloat16Scalar& source, bool is_signed) {
  if (source.is_float && source.width <= 32)
    return bfloat16_from_float(b, source.width == 32 ? value : b.op(spv::OpFConvert, b.f32, {value}));
  const uint32_t zero = b.op(spv::OpBitcast, b.f32, {b.uint_constant(0)});
  if (source.is_float) {
    // float64: its float32 and the exact difference.
    const uint32_t nearest = b.op(spv::OpFConvert, b.f32, {value});
    const uint32_t back = b.op(spv::OpFConvert, source.type, {nearest});
    const uint32_t zero64 = b.op(spv::OpFConvert, source.type, {zero});
    const uint32_t error = b.op(spv::OpFSub, source.type, {value, back});
    const uint32_t inexact = nonzero(b, error, zero64);
    const uint32_t same_sign = b.op(spv::OpLogicalEqual, b.boolean,
                                    {b.op(spv::OpFOrdLessThan, b.boolean, {error, zero64}),
                                     b.op(spv::OpFOrdLessThan, b.boolean, {back, zero64})});
    const uint32_t toward_larger =
        b.op(spv::OpLogicalOr, b.boolean, {b.op(spv::OpFOrdEqual, b.boolean, {back, zero64}), same_sign});
    return bfloat16_from_float(b, rounded_to_odd(b, nearest, inexact, toward_larger));
  }
  if (source.width > 32)
    throw Error(Error::Kind::UnsupportedFeature,
                "bfloat16: a conversion from a " + std::to_string(source.width) +
                    "-bit integer (convert it to a 32-bit integer or a float first)");
  const uint32_t to_float = is_signed ? spv::OpConvertSToF : spv::OpConvertUToF;
  if (source.width < 32) return bfloat16_from_float(b, b.op(to_float, b.f32, {value}));  // exact
  // 32-bit integers: the high and low halves are exact in float32, their sum
  // rounds once, and its error (Fast2Sum, the high part being the larger) is
  // exact.
  const uint32_t x = value;
  const uint32_t high_int = b.op(is_signed ? spv::OpShiftRightArithmetic : spv::OpShiftRightLogical, b.u32,
                                 {x, b.uint_constant(16)});
  const uint32_t low_int = b.op(spv::OpBitwiseAnd, b.u32, {x, b.uint_constant(0xffff)});
  const uint32_t scale = b.op(spv::OpBitcast, b.f32, {b.uint_constant(0x47800000)});  // 65536
  const uint32_t high = b.op(spv::OpFMul, b.f32, {b.op(to_float, b.f32, {high_int}), scale});
  const uint32_t low = b.op(spv::OpConvertUToF, b.f32, {low_int});
  const uint32_t sum = b.op(spv::OpFAdd, b.f32, {high, low});
  const uint32_t error = b.op(spv::OpFAdd, b.f32, {b.op(spv::OpFSub, b.f32, {high, sum}), low});
  const uint32_t inexact = nonzero(b, error, zero);
  // Inexact sums are at least 2^24 in magnitude: error * sum does not underflow.
  const uint32_t toward_larger =
      b.op(spv::OpFOrdGreaterThan, b.boolean, {b.op(spv::OpFMul, b.f32, {error, sum}), zero});
  return bfloat16_from_float(b, rounded_to_odd(b, sum, inexact, toward_larger));
}

}  // namespace

uint32_t bfloat16_convert(const BFloat16Ops& ops, uint32_t opcode, uint32_t value, const BFloat16Scalar& from,
                          const BFloat16Scalar& to) {
  if (from.bfloat16 && to.bfloat16) return value;
  if (!from.bfloat16) return bfloat16_from(ops, value, from, opcode == spv::OpConvertSToF);
  const uint32_t f = bfloat16_to_float(ops, value);
  if (!to.is_float) return ops.op(opcode, to.type, {f});  // OpConvertFToS / FToU
  return to.width == 32 ? f : ops.op(spv::OpFConvert, to.type, {f});
}

bool uses_bfloat16(const std::vector<uint32_t>& spirv) {
  bool found = false;
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
    if (opcode == spv::OpCapability && count >= 1 && operands[0] >= kBFloat16TypeKHR &&
        operands[0] <= kBFloat16CooperativeMatrixKHR)
      found = true;
  });
  return found;
}

namespace {

using Words = std::vector<uint32_t>;

constexpr uint32_t kOpTypeCooperativeMatrix = 4456;
constexpr uint32_t kOpCooperativeMatrixLoad = 4457, kOpCooperativeMatrixStore = 4458;
constexpr uint32_t kOpCooperativeMatrixMulAdd = 4459, kOpCooperativeMatrixLength = 4460;
constexpr uint32_t kBFloat16Encoding = 0;  // SPV_KHR_bfloat16's FP Encoding

Words instruction(uint32_t opcode, const Words& operands) {
  Words w{(uint32_t(operands.size() + 1) << 16) | opcode};
  w.insert(w.end(), operands.begin(), operands.end());
  return w;
}

struct Instruction {
  uint32_t opcode;
  Words words;  // word 0 included
  uint32_t operand(size_t i) const {
    if (i + 1 >= words.size())
      throw Error(Error::Kind::InvalidSpirv, "bfloat16: an instruction of opcode " + std::to_string(opcode) +
                                                 " has " + std::to_string(words.size() - 1) +
                                                 " operands, where operand " + std::to_string(i + 1) +
                                                 " was expected");
    return words[i + 1];
  }
  size_t operand_count() const { return words.size() - 1; }
};

bool is_type_declaration(uint32_t opcode) {
  return (opcode >= spv::OpTypeVoid && opcode <= spv::OpTypeForwardPointer) ||
         opcode == kOpTypeCooperativeMatrix;
}

// Whether SPIR-V wants at most one declaration of a type with these operands
// (all but aggregates and pointers; a cooperative-matrix type is left to the
// matrices' lowering, which makes it a struct).
bool is_unique_type(uint32_t opcode) {
  return is_type_declaration(opcode) && opcode != spv::OpTypeArray && opcode != spv::OpTypeRuntimeArray &&
         opcode != spv::OpTypeStruct && opcode != spv::OpTypePointer && opcode != spv::OpTypeForwardPointer &&
         opcode != kOpTypeCooperativeMatrix;
}

class Lowering {
 public:
  explicit Lowering(const Words& spirv) : in_(spirv), bound_(spirv[3]) {}
  BFloat16Lowered run();

 private:
  uint32_t alias(uint32_t id) const {
    auto it = aliases_.find(id);
    return it == aliases_.end() ? id : it->second;
  }
  // The type ids in a declaration's operands, aliased.
  Words declaration(const Instruction& inst) const;
  bool is_bfloat16(uint32_t type_id) const {  // a bfloat16 scalar or vector (original ids)
    auto v = vector_component_.find(type_id);
    return bfloat16_.count(v == vector_component_.end() ? type_id : v->second) != 0;
  }
  uint32_t component_type(uint32_t type_id) const {
    auto v = vector_component_.find(type_id);
    return v == vector_component_.end() ? type_id : v->second;
  }
  uint32_t component_count(uint32_t type_id) const {
    auto v = vector_size_.find(type_id);
    return v == vector_size_.end() ? 1 : v->second;
  }
  uint32_t type(uint32_t opcode, const Words& operands);
  uint32_t uint_constant(uint32_t value);
  BFloat16Ops ops(Words& out);
  void lower(const Instruction& inst, Words& out);
  // A scalar type (an original id) as a side of bfloat16_convert().
  BFloat16Scalar scalar(uint32_t type_id) const;
  [[noreturn]] void refuse(const Instruction& inst) const;

  const Words& in_;
  uint32_t bound_;
  std::unordered_map<uint32_t, uint32_t> aliases_;           // dropped duplicate type -> the kept one
  std::unordered_map<uint32_t, uint32_t> result_types_;      // value -> its (original) type
  std::unordered_map<uint32_t, uint32_t> vector_component_;  // vector type -> component type
  std::unordered_map<uint32_t, uint32_t> vector_size_;
  std::unordered_map<uint32_t, uint32_t> float_width_, int_signed_, int_width_;
  std::unordered_set<uint32_t> bfloat16_, matrices_;
  std::map<Words, uint32_t> unique_types_;  // opcode, then operands after the result id -> id
  std::map<uint32_t, uint32_t> uint_constants_;
  Words added_;  // types and constants the conversions need, after the module's own
  std::unordered_map<uint32_t, std::string> strings_;
  std::string file_;
  uint32_t line_ = 0;
};

Words Lowering::declaration(const Instruction& inst) const {
  Words w = inst.words;
  const auto aliased = [&](size_t first, size_t last) {
    for (size_t i = first; i <= last && i < inst.operand_count(); ++i) w[i + 1] = alias(w[i + 1]);
  };
  switch (inst.opcode) {
    case spv::OpTypeVector:
    case spv::OpTypeMatrix:
    case spv::OpTypeArray:
    case spv::OpTypeRuntimeArray:
    case kOpTypeCooperativeMatrix:
      aliased(1, 1);
      break;
    case spv::OpTypePointer:
      aliased(2, 2);
      break;
    case spv::OpTypeStruct:
    case spv::OpTypeFunction:
      aliased(1, inst.operand_count() - 1);
      break;
    default:
      break;
  }
  return w;
}

uint32_t Lowering::type(uint32_t opcode, const Words& operands) {
  Words key{opcode};
  key.insert(key.end(), operands.begin(), operands.end());
  if (auto it = unique_types_.find(key); it != unique_types_.end()) return it->second;
  const uint32_t id = bound_++;
  Words w{id};
  w.insert(w.end(), operands.begin(), operands.end());
  const Words decl = instruction(opcode, w);
  added_.insert(added_.end(), decl.begin(), decl.end());
  return unique_types_[key] = id;
}

uint32_t Lowering::uint_constant(uint32_t value) {
  if (auto it = uint_constants_.find(value); it != uint_constants_.end()) return it->second;
  const uint32_t u32 = type(spv::OpTypeInt, {32, 0}), id = bound_++;
  const Words decl = instruction(spv::OpConstant, {u32, id, value});
  added_.insert(added_.end(), decl.begin(), decl.end());
  return uint_constants_[value] = id;
}

BFloat16Ops Lowering::ops(Words& out) {
  BFloat16Ops b;
  b.op = [this, &out](uint32_t opcode, uint32_t result_type, const Words& operands) {
    const uint32_t id = bound_++;
    Words w{result_type, id};
    w.insert(w.end(), operands.begin(), operands.end());
    const Words i = instruction(opcode, w);
    out.insert(out.end(), i.begin(), i.end());
    return id;
  };
  b.uint_constant = [this](uint32_t value) { return uint_constant(value); };
  b.u16 = type(spv::OpTypeInt, {16, 0});
  b.u32 = type(spv::OpTypeInt, {32, 0});
  b.f32 = type(spv::OpTypeFloat, {32});
  b.boolean = type(spv::OpTypeBool, {});
  return b;
}

BFloat16Scalar Lowering::scalar(uint32_t type_id) const {
  const bool is_float = float_width_.count(type_id) != 0;
  return {alias(type_id), bfloat16_.count(type_id) != 0, is_float,
          is_float ? float_width_.at(type_id) : int_width_.at(type_id)};
}

void Lowering::refuse(const Instruction& inst) const {
  std::string where = instruction_name(inst.words.data(), uint32_t(inst.words.size()));
  if (!file_.empty()) where += " at " + file_ + ":" + std::to_string(line_);
  throw Error(Error::Kind::UnsupportedFeature,
              "bfloat16: " + where +
                  " computes with bfloat16 values, which SPV_KHR_bfloat16 allows only in conversions, dot "
                  "products and cooperative-matrix products (convert to float32 to compute)");
}

void Lowering::lower(const Instruction& inst, Words& out) {
  const auto emit = [&](const Words& w) { out.insert(out.end(), w.begin(), w.end()); };
  if (inst.opcode == spv::OpLine && inst.operand_count() >= 2) {
    file_ = strings_.count(inst.operand(0)) ? strings_.at(inst.operand(0)) : "";
    line_ = inst.operand(1);
  } else if (inst.opcode == spv::OpNoLine || inst.opcode == spv::OpFunctionEnd) {
    file_.clear();
  }
  bool has_result = false, has_type = false;
  spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
  if (inst.opcode == kOpCooperativeMatrixLoad || inst.opcode == kOpCooperativeMatrixMulAdd ||
      inst.opcode == kOpCooperativeMatrixLength)
    has_result = has_type = true;
  Words words = inst.words;
  if (has_type && inst.operand_count() >= 1) words[1] = alias(words[1]);
  if (inst.opcode == spv::OpFunction && inst.operand_count() >= 4) words[4] = alias(words[4]);
  if (!has_type || inst.operand_count() < 2) return emit(words);

  const uint32_t result_type = inst.operand(0), result = inst.operand(1);
  bool bfloat16 = is_bfloat16(result_type);
  // Operands that are values (OpExtInst's instruction number is a literal).
  for (size_t i = 2; i < inst.operand_count(); ++i) {
    if (inst.opcode == spv::OpExtInst && i == 3) continue;
    auto it = result_types_.find(inst.operand(i));
    if (it != result_types_.end() && is_bfloat16(it->second)) bfloat16 = true;
  }
  if (!bfloat16) return emit(words);
  switch (inst.opcode) {
    case spv::OpLoad:
    case spv::OpCopyObject:
    case spv::OpCompositeConstruct:
    case spv::OpCompositeExtract:
    case spv::OpCompositeInsert:
    case spv::OpVectorShuffle:
    case spv::OpVectorExtractDynamic:
    case spv::OpVectorInsertDynamic:
    case spv::OpCopyLogical:
    case spv::OpPhi:
    case spv::OpSelect:
    case spv::OpFunctionCall:
    case spv::OpFunction:
    case spv::OpFunctionParameter:
    case spv::OpUndef:
    case spv::OpVariable:
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case kOpCooperativeMatrixLoad:
    case kOpCooperativeMatrixLength:
      return emit(words);
    case spv::OpBitcast: {
      // Between 16-bit types now equal, a copy.
      const uint32_t from = alias(result_types_.at(inst.operand(2)));
      if (from == words[1]) return emit(instruction(spv::OpCopyObject, {words[1], result, inst.operand(2)}));
      return emit(words);
    }
    case spv::OpFConvert:
    case spv::OpConvertSToF:
    case spv::OpConvertUToF:
    case spv::OpConvertFToS:
    case spv::OpConvertFToU: {
      BFloat16Ops b = ops(out);
      const uint32_t from = result_types_.at(inst.operand(2)), n = component_count(result_type);
      if (n == 1) {
        const uint32_t value =
            bfloat16_convert(b, inst.opcode, inst.operand(2), scalar(from), scalar(result_type));
        return emit(instruction(spv::OpCopyObject, {alias(result_type), result, value}));
      }
      Words parts{alias(result_type), result};
      for (uint32_t c = 0; c < n; ++c) {
        const uint32_t part =
            b.op(spv::OpCompositeExtract, alias(component_type(from)), {inst.operand(2), c});
        parts.push_back(bfloat16_convert(b, inst.opcode, part, scalar(component_type(from)),
                                         scalar(component_type(result_type))));
      }
      return emit(instruction(spv::OpCompositeConstruct, parts));
    }
    case spv::OpDot: {
      // Summed in float32 in the components' order, rounded once.
      BFloat16Ops b = ops(out);
      const uint32_t x = inst.operand(2), y = inst.operand(3), n = component_count(result_types_.at(x));
      const uint32_t from = component_type(result_types_.at(x));
      uint32_t sum = 0;
      for (uint32_t c = 0; c < n; ++c) {
        const uint32_t xc = bfloat16_to_float(b, b.op(spv::OpCompositeExtract, alias(from), {x, c}));
        const uint32_t yc = bfloat16_to_float(b, b.op(spv::OpCompositeExtract, alias(from), {y, c}));
        const uint32_t product = b.op(spv::OpFMul, b.f32, {xc, yc});
        sum = c == 0 ? product : b.op(spv::OpFAdd, b.f32, {sum, product});
      }
      const uint32_t value = bfloat16_.count(result_type) ? bfloat16_from_float(b, sum) : sum;
      return emit(instruction(spv::OpCopyObject, {alias(result_type), result, value}));
    }
    default:
      refuse(inst);
  }
}

BFloat16Lowered Lowering::run() {
  std::vector<Instruction> all;
  size_t first_function = 0;
  for (size_t at = kSpirvHeaderWords; at < in_.size();) {
    const uint32_t length = in_[at] >> 16, opcode = in_[at] & 0xffffu;
    if (length == 0 || at + length > in_.size())
      throw Error(Error::Kind::InvalidSpirv, "malformed SPIR-V instruction at word " + std::to_string(at));
    if (opcode == spv::OpFunction && first_function == 0) first_function = all.size();
    all.push_back({opcode, Words(in_.begin() + ptrdiff_t(at), in_.begin() + ptrdiff_t(at + length))});
    at += length;
  }
  if (first_function == 0) first_function = all.size();
  // The original types of values, and what the conversions look up.
  bool int16 = false;
  for (const Instruction& inst : all) {
    bool has_result = false, has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
    if (inst.opcode == kOpCooperativeMatrixLoad || inst.opcode == kOpCooperativeMatrixMulAdd ||
        inst.opcode == kOpCooperativeMatrixLength)
      has_type = true;
    if (has_type && inst.operand_count() >= 2) result_types_[inst.operand(1)] = inst.operand(0);
    if (inst.opcode == spv::OpString && inst.operand_count() >= 2)
      strings_[inst.operand(0)] = spirv_string(&inst.words[2], inst.words.size() - 2);
    if (inst.opcode == spv::OpCapability && inst.operand(0) == spv::CapabilityInt16) int16 = true;
    if (inst.opcode == spv::OpTypeFloat) {
      if (inst.operand_count() >= 3 && inst.operand(2) != kBFloat16Encoding)
        throw Error(Error::Kind::UnsupportedFeature,
                    "a floating-point type of encoding " + std::to_string(inst.operand(2)) +
                        " (only SPV_KHR_bfloat16's, 0, is lowered for translated targets)");
      if (inst.operand_count() >= 3 && inst.operand(1) == 16) bfloat16_.insert(inst.operand(0));
      float_width_[inst.operand(0)] = inst.operand(1);
    }
    if (inst.opcode == spv::OpTypeInt) {
      int_signed_[inst.operand(0)] = inst.operand(2);
      int_width_[inst.operand(0)] = inst.operand(1);
    }
    if (inst.opcode == spv::OpTypeVector) {
      // SPIR-V's vectors have 2, 3, 4, 8 or 16 components; each is converted on its own.
      if (inst.operand(2) > 16)
        throw Error(Error::Kind::InvalidSpirv,
                    "a vector type of " + std::to_string(inst.operand(2)) + " components (at most 16)");
      vector_component_[inst.operand(0)] = inst.operand(1);
      vector_size_[inst.operand(0)] = inst.operand(2);
    }
    if (inst.opcode == kOpTypeCooperativeMatrix && bfloat16_.count(inst.operand(1)))
      matrices_.insert(inst.operand(0));
  }
  // The declarations: bfloat16 as a 16-bit unsigned integer, then any type
  // that became a duplicate dropped for its first declaration.
  std::unordered_set<uint32_t> dropped;
  Words types;
  for (size_t i = 0; i < first_function; ++i) {
    const Instruction& inst = all[i];
    if (!is_type_declaration(inst.opcode)) continue;
    (void)inst.operand(0);  // a declaration without its result id is refused as invalid
    Words w = declaration(inst);
    if (inst.opcode == spv::OpTypeFloat && bfloat16_.count(inst.operand(0))) {
      w = instruction(spv::OpTypeInt, {inst.operand(0), 16, 0});
      int_signed_[inst.operand(0)] = 0;
    }
    if (is_unique_type(inst.opcode)) {
      const Words key = [&] {
        Words k{w[0] & 0xffffu};
        k.insert(k.end(), w.begin() + 2, w.end());
        return k;
      }();
      if (auto it = unique_types_.find(key); it != unique_types_.end()) {
        aliases_[inst.operand(0)] = it->second;
        dropped.insert(inst.operand(0));
        continue;
      }
      unique_types_[key] = inst.operand(0);
    }
    all[i].words = w;  // kept, aliased
  }
  // The module's own 32-bit unsigned constants, reused.
  if (auto u32 = unique_types_.find(Words{spv::OpTypeInt, 32, 0}); u32 != unique_types_.end())
    for (size_t i = 0; i < first_function; ++i)
      if (all[i].opcode == spv::OpConstant && all[i].operand_count() == 3 &&
          alias(all[i].operand(0)) == u32->second)
        uint_constants_.emplace(all[i].operand(2), all[i].operand(1));

  Words functions;
  for (size_t i = first_function; i < all.size(); ++i) lower(all[i], functions);

  Words out(in_.begin(), in_.begin() + kSpirvHeaderWords);
  bool capabilities_done = false;
  for (size_t i = 0; i < first_function; ++i) {
    const Instruction& inst = all[i];
    if (inst.opcode != spv::OpCapability && !capabilities_done) {
      if (!int16) {
        const Words w = instruction(spv::OpCapability, {spv::CapabilityInt16});
        out.insert(out.end(), w.begin(), w.end());
      }
      capabilities_done = true;
    }
    if (inst.opcode == spv::OpCapability && inst.operand(0) >= kBFloat16TypeKHR &&
        inst.operand(0) <= kBFloat16CooperativeMatrixKHR)
      continue;
    if (inst.opcode == spv::OpExtension &&
        spirv_string(&inst.words[1], inst.words.size() - 1) == "SPV_KHR_bfloat16")
      continue;
    const bool names_or_decorates =
        inst.opcode == spv::OpName || inst.opcode == spv::OpMemberName || inst.opcode == spv::OpDecorate ||
        inst.opcode == spv::OpMemberDecorate || inst.opcode == spv::OpDecorateId ||
        inst.opcode == spv::OpDecorateString || inst.opcode == spv::OpMemberDecorateString;
    if (names_or_decorates && dropped.count(inst.operand(0))) continue;
    if (is_type_declaration(inst.opcode) && dropped.count(inst.operand(0))) continue;
    if (inst.opcode == spv::OpSpecConstantOp && inst.operand_count() >= 3) {
      // Only moves keep their meaning on the bits.
      bool bfloat16 = is_bfloat16(inst.operand(0));
      for (size_t o = 3; o < inst.operand_count(); ++o)
        if (auto t = result_types_.find(inst.operand(o)); t != result_types_.end() && is_bfloat16(t->second))
          bfloat16 = true;
      const uint32_t op = inst.operand(2);
      if (bfloat16 && op != spv::OpCompositeExtract && op != spv::OpCompositeInsert &&
          op != spv::OpVectorShuffle && op != spv::OpSelect)
        throw Error(Error::Kind::UnsupportedFeature,
                    "bfloat16: a spec-constant operation (OpSpecConstantOp of opcode " + std::to_string(op) +
                        ") on bfloat16 values; compute it in float32, or convert in the kernel's code");
    }
    if (!is_type_declaration(inst.opcode)) {
      // Constants, variables, undefs: their result type aliased.
      bool has_result = false, has_type = false;
      spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
      Words w = inst.words;
      if (has_type && w.size() > 1) w[1] = alias(w[1]);
      out.insert(out.end(), w.begin(), w.end());
      continue;
    }
    out.insert(out.end(), inst.words.begin(), inst.words.end());
  }
  out.insert(out.end(), added_.begin(), added_.end());
  out.insert(out.end(), functions.begin(), functions.end());
  out[3] = bound_;
  return {std::move(out), std::move(matrices_)};
}

}  // namespace

BFloat16Lowered lower_bfloat16(const std::vector<uint32_t>& spirv) {
  if (spirv.size() < kSpirvHeaderWords || spirv[0] != kSpirvMagic)
    throw Error(Error::Kind::InvalidSpirv, "not SPIR-V: no SPIR-V header");
  if (!uses_bfloat16(spirv)) return {spirv, {}};
  try {
    return Lowering(spirv).run();
  } catch (const std::out_of_range&) {
    throw Error(Error::Kind::InvalidSpirv, "bfloat16: the module uses an id or type it does not define");
  }
}

}  // namespace porta::translator
