// Signed remainders that mean the same on every Vulkan driver.
//
// The Vulkan SPIR-V environment leaves OpSRem and OpSMod undefined when an
// operand is negative unless VK_KHR_maintenance8 is enabled, and drivers use
// that freedom: NVIDIA's computes them as unsigned remainders (-1 % 768 gives
// 255), llvmpipe computes OpSMod as OpSRem. GLSL's `%` and every other porta
// backend give the exact answers, so where the device did not enable
// maintenance8 each OpSRem and OpSMod is built from OpSDiv, which the
// environment defines for every sign:
//   m1 = OpNot 0 (-1 at any width); one = OpSNegate m1
//   d = OpSelect (b == -1) one b      (a % -1 is 0; the lowest a / -1
//                                      overflows, and a CPU driver's division traps)
//   r = a - (a sdiv d) * d            (OpSRem: the dividend's sign)
// and for OpSMod, r + b where r is not zero and its sign differs from b's:
//   fix = (r != 0) && ((r ^ b) < 0); result = fix ? r + b : r
// Scalars and vectors of every integer width. The bool types the comparisons
// need are the module's own where it declares them (a second OpTypeBool
// would be invalid), else added; the zeros are new OpConstantNull of the
// operand types. OpSpecConstantOp SRem/SMod is left as it is.
#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "spirv_module.hpp"

namespace porta::vk {

std::vector<uint32_t> rewrite_signed_remainders(const std::vector<uint32_t>& in) {
  std::set<uint32_t> ints;                      // OpTypeInt ids
  std::map<uint32_t, uint32_t> int_components;  // scalar or vector of int -> components
  uint32_t bool_type = 0;
  std::map<uint32_t, uint32_t> bool_vectors;  // components -> OpTypeVector of bool
  std::set<uint32_t> types;                   // result types of OpSRem and OpSMod
  size_t first_function = 0;
  auto is_remainder = [](const Instruction& i) {
    return (i.opcode == spv::OpSRem || i.opcode == spv::OpSMod) && i.operand_count == 4;
  };
  for_each_instruction(in.data(), in.size(), [&](const Instruction& i) {
    if (i.opcode == spv::OpTypeInt && i.operand_count >= 1) {
      ints.insert(i.operands[0]);
      int_components[i.operands[0]] = 1;
    } else if (i.opcode == spv::OpTypeBool && i.operand_count >= 1 && !bool_type) {
      bool_type = i.operands[0];
    } else if (i.opcode == spv::OpTypeVector && i.operand_count >= 3) {
      if (ints.count(i.operands[1])) int_components[i.operands[0]] = i.operands[2];
      if (bool_type && i.operands[1] == bool_type) bool_vectors.emplace(i.operands[2], i.operands[0]);
    } else if (i.opcode == spv::OpFunction && !first_function) {
      first_function = i.at;
    } else if (is_remainder(i)) {
      types.insert(i.operands[0]);
    }
  });
  if (types.empty() || !first_function) return in;

  uint32_t bound = in[3];
  std::vector<uint32_t> declarations;  // go before the first OpFunction
  if (!bool_type) emit_instruction(declarations, spv::OpTypeBool, {bool_type = bound++});
  std::map<uint32_t, uint32_t> zero, condition;  // operand type -> its zero, its bool type
  for (uint32_t type : types) {
    const uint32_t components = int_components.count(type) ? int_components[type] : 1;
    if (components == 1) {
      condition[type] = bool_type;
    } else {
      auto v = bool_vectors.find(components);
      if (v == bool_vectors.end()) {
        v = bool_vectors.emplace(components, bound++).first;
        emit_instruction(declarations, spv::OpTypeVector, {v->second, bool_type, components});
      }
      condition[type] = v->second;
    }
    emit_instruction(declarations, spv::OpConstantNull, {type, zero[type] = bound++});
  }

  std::vector<uint32_t> out(in.begin(), in.begin() + 5);
  out.reserve(in.size() + declarations.size() + 40 * types.size());
  size_t copied_to = 5;
  auto keep_until = [&](size_t at) { out.insert(out.end(), in.begin() + copied_to, in.begin() + at); };
  for_each_instruction(in.data(), in.size(), [&](const Instruction& i) {
    if (i.at == first_function) {
      keep_until(i.at);
      out.insert(out.end(), declarations.begin(), declarations.end());
      copied_to = i.at;
    }
    if (!is_remainder(i)) return;
    keep_until(i.at);
    const uint32_t type = i.operands[0], result = i.operands[1], a = i.operands[2], b = i.operands[3];
    const uint32_t cond = condition[type], z = zero[type];
    const bool smod = i.opcode == spv::OpSMod;
    const uint32_t m1 = bound++, one = bound++, by_m1 = bound++, d = bound++, q = bound++, p = bound++;
    const uint32_t r = smod ? bound++ : result;
    emit_instruction(out, spv::OpNot, {type, m1, z});
    emit_instruction(out, spv::OpSNegate, {type, one, m1});
    emit_instruction(out, spv::OpIEqual, {cond, by_m1, b, m1});
    emit_instruction(out, spv::OpSelect, {type, d, by_m1, one, b});
    emit_instruction(out, spv::OpSDiv, {type, q, a, d});
    emit_instruction(out, spv::OpIMul, {type, p, q, d});
    emit_instruction(out, spv::OpISub, {type, r, a, p});
    if (smod) {
      const uint32_t nz = bound++, x = bound++, differ = bound++, fix = bound++, sum = bound++;
      emit_instruction(out, spv::OpINotEqual, {cond, nz, r, z});
      emit_instruction(out, spv::OpBitwiseXor, {type, x, r, b});
      emit_instruction(out, spv::OpSLessThan, {cond, differ, x, z});
      emit_instruction(out, spv::OpLogicalAnd, {cond, fix, nz, differ});
      emit_instruction(out, spv::OpIAdd, {type, sum, r, b});
      emit_instruction(out, spv::OpSelect, {type, result, fix, sum, r});
    }
    copied_to = i.at + i.operand_count + 1;
  });
  keep_until(in.size());
  out[3] = bound;
  return out;
}

}  // namespace porta::vk
