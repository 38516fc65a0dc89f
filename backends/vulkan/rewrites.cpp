// Instructions whose Vulkan meaning differs from SPIR-V's or GLSL's, rebuilt
// from instructions every driver computes alike, before the module reaches
// the driver. Each rewrite replaces one instruction by a short sequence with
// new ids; the constants and bool types it needs are declared before the
// first function (the module's own bool types where it has them: a second
// OpTypeBool would be invalid). The result goes through the validator like
// every module.
#include <spirv/unified1/GLSL.std.450.h>

#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "spirv_module.hpp"

namespace porta::vk {
namespace {

// A scalar or vector type of the module.
struct NumericType {
  uint32_t opcode = 0;      // OpTypeInt, OpTypeFloat or OpTypeBool of its components
  uint32_t width = 0;       // bits of a component
  uint32_t components = 1;  // 1: a scalar
  uint32_t scalar = 0;      // the component type's id
};

// Rewrites chosen instructions of one module. `replace` sees every
// instruction of a function and returns true where it emitted a replacement
// into `out`.
class Rewriter {
 public:
  explicit Rewriter(const std::vector<uint32_t>& in) : in_(in), bound_(in.size() > 3 ? in[3] : 0) {
    for_each_instruction(in.data(), in.size(), [&](const Instruction& i) {
      const uint32_t* o = i.operands;
      if ((i.opcode == spv::OpTypeInt || i.opcode == spv::OpTypeFloat) && i.operand_count >= 2) {
        types_[o[0]] = {i.opcode, o[1], 1, o[0]};
      } else if (i.opcode == spv::OpTypeBool && i.operand_count >= 1 && !bool_) {
        bool_ = o[0];
        types_[o[0]] = {i.opcode, 1, 1, o[0]};
      } else if (i.opcode == spv::OpTypeVector && i.operand_count >= 3 && types_.count(o[1])) {
        NumericType t = types_[o[1]];
        t.components = o[2];
        types_[o[0]] = t;
        if (t.opcode == spv::OpTypeBool) bool_vectors_.emplace(o[2], o[0]);
      } else if (i.opcode == spv::OpFunction && !first_function_) {
        first_function_ = i.at;
      } else if (i.opcode == spv::OpExtInstImport && i.operand_count >= 2 &&
                 literal_string(o + 1, i.operand_count - 1) == "GLSL.std.450") {
        glsl_ = o[0];
      }
    });
  }

  uint32_t glsl_set() const { return glsl_; }
  uint32_t fresh() { return bound_++; }
  const NumericType& type(uint32_t id) { return types_[id]; }

  // The bool type (scalar or vector) a comparison of `type` gives.
  uint32_t condition(uint32_t type) {
    if (!bool_) emit_instruction(declarations_, spv::OpTypeBool, {bool_ = fresh()});
    const uint32_t components = types_[type].components;
    if (components == 1) return bool_;
    auto v = bool_vectors_.find(components);
    if (v == bool_vectors_.end()) {
      v = bool_vectors_.emplace(components, fresh()).first;
      emit_instruction(declarations_, spv::OpTypeVector, {v->second, bool_, components});
    }
    return v->second;
  }

  uint32_t zero(uint32_t type) {
    auto z = zeros_.find(type);
    if (z != zeros_.end()) return z->second;
    const uint32_t id = zeros_[type] = fresh();
    emit_instruction(declarations_, spv::OpConstantNull, {type, id});
    return id;
  }

  // 1.0 of a float scalar or vector type.
  uint32_t float_one(uint32_t type) {
    auto found = ones_.find(type);
    if (found != ones_.end()) return found->second;
    const NumericType& t = types_[type];
    uint32_t id = 0;
    if (t.components > 1) {
      const uint32_t scalar = float_one(t.scalar);
      id = fresh();
      declarations_.push_back(uint32_t(3 + t.components) << 16 | spv::OpConstantComposite);
      declarations_.insert(declarations_.end(), {type, id});
      declarations_.insert(declarations_.end(), t.components, scalar);
    } else if (t.width == 64) {
      emit_instruction(declarations_, spv::OpConstant, {type, id = fresh(), 0u, 0x3ff00000u});
    } else {
      emit_instruction(declarations_, spv::OpConstant,
                       {type, id = fresh(), t.width == 16 ? 0x3c00u : 0x3f800000u});
    }
    return ones_[type] = id;
  }

  template <class Replace>
  std::vector<uint32_t> apply(Replace&& replace) {
    std::vector<uint32_t> body;  // the functions, rewritten
    if (!first_function_) return in_;
    for_each_instruction(in_.data(), in_.size(), [&](const Instruction& i) {
      if (i.at < first_function_) return;
      if (!replace(i, body))
        body.insert(body.end(), in_.begin() + i.at, in_.begin() + i.at + i.operand_count + 1);
    });
    std::vector<uint32_t> out(in_.begin(), in_.begin() + first_function_);
    out.insert(out.end(), declarations_.begin(), declarations_.end());
    out.insert(out.end(), body.begin(), body.end());
    out[3] = bound_;
    return out;
  }

 private:
  const std::vector<uint32_t>& in_;
  uint32_t bound_;
  std::map<uint32_t, NumericType> types_;
  uint32_t bool_ = 0;
  std::map<uint32_t, uint32_t> bool_vectors_;  // components -> OpTypeVector of bool
  std::map<uint32_t, uint32_t> zeros_, ones_;  // type -> constant
  uint32_t glsl_ = 0;                          // the GLSL.std.450 OpExtInstImport
  size_t first_function_ = 0;
  std::vector<uint32_t> declarations_;  // go before the first OpFunction
};

// OpSRem and OpSMod from OpSDiv:
//   m1 = OpNot 0 (-1 at any width); one = OpSNegate m1
//   d = OpSelect (b == -1) one b   (a % -1 is 0; the lowest a / -1 overflows,
//                                   and a CPU driver's division traps)
//   r = a - (a sdiv d) * d         (OpSRem: the dividend's sign)
// and for OpSMod, r + b where r is not zero and its sign differs from b's:
//   fix = (r != 0) && ((r ^ b) < 0); result = fix ? r + b : r
bool signed_remainder(Rewriter& m, const Instruction& i, std::vector<uint32_t>& out) {
  if ((i.opcode != spv::OpSRem && i.opcode != spv::OpSMod) || i.operand_count != 4) return false;
  const uint32_t type = i.operands[0], result = i.operands[1], a = i.operands[2], b = i.operands[3];
  const uint32_t cond = m.condition(type), z = m.zero(type);
  const bool smod = i.opcode == spv::OpSMod;
  const uint32_t m1 = m.fresh(), one = m.fresh(), by_m1 = m.fresh(), d = m.fresh(), q = m.fresh(),
                 p = m.fresh();
  const uint32_t r = smod ? m.fresh() : result;
  emit_instruction(out, spv::OpNot, {type, m1, z});
  emit_instruction(out, spv::OpSNegate, {type, one, m1});
  emit_instruction(out, spv::OpIEqual, {cond, by_m1, b, m1});
  emit_instruction(out, spv::OpSelect, {type, d, by_m1, one, b});
  emit_instruction(out, spv::OpSDiv, {type, q, a, d});
  emit_instruction(out, spv::OpIMul, {type, p, q, d});
  emit_instruction(out, spv::OpISub, {type, r, a, p});
  if (smod) {
    const uint32_t nz = m.fresh(), x = m.fresh(), differ = m.fresh(), fix = m.fresh(), sum = m.fresh();
    emit_instruction(out, spv::OpINotEqual, {cond, nz, r, z});
    emit_instruction(out, spv::OpBitwiseXor, {type, x, r, b});
    emit_instruction(out, spv::OpSLessThan, {cond, differ, x, z});
    emit_instruction(out, spv::OpLogicalAnd, {cond, fix, nz, differ});
    emit_instruction(out, spv::OpIAdd, {type, sum, r, b});
    emit_instruction(out, spv::OpSelect, {type, result, fix, sum, r});
  }
  return true;
}

// GLSL.std.450 FMix as GLSL defines it, x * (1 - a) + y * a. Drivers may
// compute x + (y - x) * a, which is NaN where x is infinite (NVIDIA's does);
// every other backend computes the formula.
bool fmix(Rewriter& m, const Instruction& i, std::vector<uint32_t>& out) {
  if (i.opcode != spv::OpExtInst || i.operand_count != 7 || !m.glsl_set() || i.operands[2] != m.glsl_set() ||
      i.operands[3] != GLSLstd450FMix)
    return false;
  const uint32_t type = i.operands[0], result = i.operands[1];
  const uint32_t x = i.operands[4], y = i.operands[5], a = i.operands[6];
  if (m.type(type).opcode != spv::OpTypeFloat) return false;
  const uint32_t rest = m.fresh(), p = m.fresh(), q = m.fresh();
  emit_instruction(out, spv::OpFSub, {type, rest, m.float_one(type), a});
  emit_instruction(out, spv::OpFMul, {type, p, x, rest});
  emit_instruction(out, spv::OpFMul, {type, q, y, a});
  emit_instruction(out, spv::OpFAdd, {type, result, p, q});
  return true;
}

}  // namespace

std::vector<uint32_t> rewrite_module(const std::vector<uint32_t>& module, const Rewrites& which) {
  if (!which.signed_remainders && !which.fmix) return module;
  Rewriter m(module);
  return m.apply([&](const Instruction& i, std::vector<uint32_t>& out) {
    return (which.signed_remainders && signed_remainder(m, i, out)) || (which.fmix && fmix(m, i, out));
  });
}

}  // namespace porta::vk
