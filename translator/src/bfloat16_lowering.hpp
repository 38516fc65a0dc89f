// SPV_KHR_bfloat16's bfloat16 for the translated targets, none of which has
// the type: each bfloat16 becomes a 16-bit unsigned integer holding its bits.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

namespace porta::translator {

// What the conversions need from the module they are written into: a way to
// add an instruction (returning its result id) and the scalar types.
struct BFloat16Ops {
  std::function<uint32_t(uint32_t opcode, uint32_t result_type, const std::vector<uint32_t>& operands)> op;
  std::function<uint32_t(uint32_t value)> uint_constant;  // a 32-bit unsigned constant
  uint32_t u16 = 0, u32 = 0, f32 = 0, boolean = 0;
};

// A bfloat16 (its bits in a u16) as float32: exact.
uint32_t bfloat16_to_float(const BFloat16Ops& ops, uint32_t value);
// A float32 as bfloat16, rounded to nearest, ties to even (overflow to
// infinity); a NaN stays a NaN, made quiet.
uint32_t bfloat16_from_float(const BFloat16Ops& ops, uint32_t value);

// A side of a conversion: bfloat16 (its bits in a u16), or a float or an
// integer of `width` bits; `type` its id in the module being written.
struct BFloat16Scalar {
  uint32_t type = 0;
  bool bfloat16 = false;
  bool is_float = false;
  uint32_t width = 32;
};
// One component converted by `opcode` (OpFConvert, OpConvertSToF, UToF,
// FToS, FToU; the integer's signedness is the instruction's) where `from` or
// `to` is bfloat16, through float32. Into bfloat16 it rounds once: float16
// and float32 directly; float64 and 32-bit integers through a float32
// rounded to odd, which the rounding to bfloat16's 8 bits then leaves
// correct (rounding to nearest twice would not). 64-bit integers are refused
// (Error UnsupportedFeature).
uint32_t bfloat16_convert(const BFloat16Ops& ops, uint32_t opcode, uint32_t value, const BFloat16Scalar& from,
                          const BFloat16Scalar& to);

struct BFloat16Lowered {
  std::vector<uint32_t> spirv;
  // The cooperative-matrix types whose components were bfloat16 (now u16):
  // coopmat_lowering.cpp converts and multiplies them as bfloat16.
  std::unordered_set<uint32_t> matrices;
};

// Whether the module declares one of SPV_KHR_bfloat16's capabilities.
bool uses_bfloat16(const std::vector<uint32_t>& spirv);

// The module with every bfloat16 type declared as a 16-bit unsigned integer
// (vectors and function types that become duplicates merged), its scalar and
// vector conversions written out on the bits, its dot products in float32,
// and SPV_KHR_bfloat16's capabilities and extension gone. What bfloat16 may
// only do with that extension's successors (arithmetic, comparisons) is
// refused with the instruction and its source line. Instructions on
// cooperative matrices stay as they are, for coopmat_lowering.cpp. A module
// without SPV_KHR_bfloat16 comes back as it is.
BFloat16Lowered lower_bfloat16(const std::vector<uint32_t>& spirv);

}  // namespace porta::translator
