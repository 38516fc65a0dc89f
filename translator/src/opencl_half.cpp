// Target opencl: float16_t in OpenCL C 1.2, with or without cl_khr_fp16.
//
// A float16_t value is a float holding a half exactly; buffers, uniform
// blocks and push constants hold its 16 bits (ushort), read through
// porta_half_value and written through porta_half_bits (runtime section
// "half"). Every operation whose result is a float16_t is done in float and
// rounded to half (porta_round_half): + - * are then correctly rounded, / and
// sqrt are made so (porta_div_half, porta_sqrt_half: OpenCL's float ones may be
// off by ulps), fma rounds once (porta_fma_half), the other functions are
// float's, rounded.
// What that cannot keep exact is refused by name: whole structs or arrays
// holding float16_t loaded or stored at once, float16_t matrices, subgroup
// operations and atomics on float16_t, double -> float16_t.
#include <GLSL.std.450.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "opencl_compiler.hpp"

namespace porta::translator::detail {

using spirv_cross::SPIRType;

namespace {

std::string width_suffix(uint32_t vecsize) { return vecsize > 1 ? std::to_string(vecsize) : ""; }

}  // namespace

bool OpenclCompiler::holds_half(const SPIRType& type) const {
  if (type.basetype == SPIRType::Half) return true;
  if (type.basetype != SPIRType::Struct) return false;
  for (uint32_t member : type.member_types)
    if (holds_half(get<SPIRType>(member))) return true;
  return false;
}

// A pointer into a byte-addressed buffer: byte_load() and byte_store() convert.
bool OpenclCompiler::is_byte_addressed_pointer(uint32_t pointer) {
  const spirv_cross::SPIRVariable* variable = maybe_get_backing_variable(pointer);
  return variable && is_byte_addressed(variable->self);
}

bool OpenclCompiler::half_holds_bits(spv::StorageClass storage) {
  return storage == spv::StorageClassStorageBuffer || storage == spv::StorageClassUniform ||
         storage == spv::StorageClassPushConstant || storage == spv::StorageClassPhysicalStorageBuffer;
}

std::string OpenclCompiler::round_half(const std::string& expr, const SPIRType& type) {
  return "porta_round_half" + width_suffix(type.vecsize) + "(" + expr + ")";
}

bool OpenclCompiler::emit_half_instruction(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  auto result_is_half = [&] {
    return instruction.length >= 2 && get<SPIRType>(ops[0]).basetype == SPIRType::Half;
  };
  auto emit = [&](const std::string& expr, std::initializer_list<uint32_t> operands) {
    bool forward = true;
    for (uint32_t operand : operands) forward = forward && should_forward(operand);
    emit_op(ops[0], ops[1], expr, forward);
    for (uint32_t operand : operands) inherit_expression_dependencies(ops[1], operand);
  };
  switch (opcode) {
    case spv::OpLoad: {
      const SPIRType& type = get<SPIRType>(ops[0]);
      if (!holds_half(type) || !half_holds_bits(get_expression_effective_storage_class(ops[2])) ||
          is_byte_addressed_pointer(ops[2]))
        return false;
      if (type.basetype != SPIRType::Half || !type.array.empty())
        unsupported("a struct or array holding float16_t read from a buffer at once (read its members)");
      // Not forwarded: the value is read here, before any later store.
      emit_op(ops[0], ops[1],
              "porta_half_value" + width_suffix(type.vecsize) + "(" + to_expression(ops[2]) + ")", false);
      return true;
    }
    case spv::OpStore: {
      const SPIRType& type = expression_type(ops[1]);
      if (!holds_half(type) || !half_holds_bits(get_expression_effective_storage_class(ops[0])) ||
          is_byte_addressed_pointer(ops[0]))
        return false;
      if (type.basetype != SPIRType::Half || !type.array.empty())
        unsupported("a struct or array holding float16_t written to a buffer at once (write its members)");
      statement(to_expression(ops[0]), " = porta_half_bits", width_suffix(type.vecsize), "(",
                to_unpacked_expression(ops[1]), ");");
      register_write(ops[0]);
      return true;
    }
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized:
      if (holds_half(expression_type(ops[1]))) unsupported("copying memory that holds float16_t");
      return false;
    case spv::OpFAdd:
    case spv::OpFSub:
    case spv::OpFMul:
    case spv::OpFDiv:
    case spv::OpVectorTimesScalar: {
      if (!result_is_half()) return false;
      if (opcode == spv::OpFDiv) {
        emit("porta_div_half" + width_suffix(get<SPIRType>(ops[0]).vecsize) + "(" +
                 to_unpacked_expression(ops[2]) + ", " + to_unpacked_expression(ops[3]) + ")",
             {ops[2], ops[3]});
        return true;
      }
      const char* op = opcode == spv::OpFAdd ? " + " : opcode == spv::OpFSub ? " - " : " * ";
      emit(round_half(to_enclosed_expression(ops[2]) + op + to_enclosed_expression(ops[3]),
                      get<SPIRType>(ops[0])),
           {ops[2], ops[3]});
      return true;
    }
    case spv::OpFRem:
      if (!result_is_half()) return false;
      emit(round_half("fmod(" + to_expression(ops[2]) + ", " + to_expression(ops[3]) + ")",
                      get<SPIRType>(ops[0])),
           {ops[2], ops[3]});
      return true;
    case spv::OpFMod: {
      if (!result_is_half()) return false;
      const std::string x = to_enclosed_expression(ops[2]), y = to_enclosed_expression(ops[3]);
      emit(round_half(x + " - " + y + " * floor(" + x + " / " + y + ")", get<SPIRType>(ops[0])),
           {ops[2], ops[3]});
      return true;
    }
    case spv::OpDot:
      if (!result_is_half()) return false;
      emit("porta_dot_half" + std::to_string(expression_type(ops[2]).vecsize) + "(" +
               to_unpacked_expression(ops[2]) + ", " + to_unpacked_expression(ops[3]) + ")",
           {ops[2], ops[3]});
      return true;
    case spv::OpMatrixTimesScalar:
    case spv::OpMatrixTimesVector:
    case spv::OpVectorTimesMatrix:
    case spv::OpMatrixTimesMatrix:
    case spv::OpOuterProduct:
    case spv::OpTranspose:
      if (result_is_half() || holds_half(expression_type(ops[2]))) unsupported("float16_t matrices");
      return false;
    case spv::OpFConvert: {
      const SPIRType& result = get<SPIRType>(ops[0]);
      const SPIRType& argument = expression_type(ops[2]);
      if (result.basetype == SPIRType::Half) {
        if (argument.basetype == SPIRType::Double) unsupported("float64 to float16_t conversion");
        emit(round_half(to_expression(ops[2]), result), {ops[2]});  // from float
        return true;
      }
      if (argument.basetype != SPIRType::Half) return false;
      if (result.basetype == SPIRType::Float) {
        emit(to_expression(ops[2]), {ops[2]});  // the value is a float already
      } else {
        emit(result.vecsize > 1
                 ? "convert_double" + width_suffix(result.vecsize) + "(" + to_expression(ops[2]) + ")"
                 : "(double)(" + to_expression(ops[2]) + ")",
             {ops[2]});
      }
      return true;
    }
    case spv::OpConvertSToF:
    case spv::OpConvertUToF: {
      if (!result_is_half()) return false;
      // To float first: exact below 2^24, and every integer from 65520 on is
      // infinity in half anyway.
      const SPIRType& result = get<SPIRType>(ops[0]);
      const SPIRType& argument = expression_type(ops[2]);
      SPIRType source = argument;
      source.basetype = integer_of_width(argument.width, opcode == spv::OpConvertSToF);
      std::string value = to_unpacked_expression(ops[2]);
      if (source.basetype != argument.basetype) value = bitcast_glsl_op(source, argument) + "(" + value + ")";
      emit(round_half(result.vecsize > 1 ? "convert_float" + width_suffix(result.vecsize) + "(" + value + ")"
                                         : "(float)(" + value + ")",
                      result),
           {ops[2]});
      return true;
    }
    case spv::OpBitcast: {
      const SPIRType& result = get<SPIRType>(ops[0]);
      const SPIRType& argument = expression_type(ops[2]);
      if (result.basetype != SPIRType::Half && argument.basetype != SPIRType::Half) return false;
      const std::string value = to_unpacked_expression(ops[2]);
      std::string expr;
      if (result.basetype == SPIRType::Half && argument.width == 16 && argument.vecsize == result.vecsize)
        expr = "porta_half_value" + width_suffix(result.vecsize) + "(" +
               (argument.basetype == SPIRType::UShort
                    ? value
                    : "as_ushort" + width_suffix(result.vecsize) + "(" + value + ")") +
               ")";
      else if (argument.basetype == SPIRType::Half && result.width == 16 &&
               argument.vecsize == result.vecsize)
        expr = result.basetype == SPIRType::UShort
                   ? "porta_half_bits" + width_suffix(result.vecsize) + "(" + value + ")"
                   : "as_short" + width_suffix(result.vecsize) + "(porta_half_bits" +
                         width_suffix(result.vecsize) + "(" + value + "))";
      else if (result.basetype == SPIRType::Half && result.vecsize == 2 && argument.width == 32 &&
               argument.vecsize == 1)
        expr = "porta_uint_as_half2(" +
               (argument.basetype == SPIRType::UInt ? value : "as_uint(" + value + ")") + ")";
      else if (argument.basetype == SPIRType::Half && argument.vecsize == 2 && result.width == 32 &&
               result.vecsize == 1)
        expr = result.basetype == SPIRType::UInt
                   ? "porta_half2_as_uint(" + value + ")"
                   : "as_" + type_to_glsl(result) + "(porta_half2_as_uint(" + value + "))";
      else
        unsupported("a bit cast between " + type_to_glsl(argument) + " and " + type_to_glsl(result) +
                    " involving float16_t");
      emit(expr, {ops[2]});
      return true;
    }
    default:
      return false;
  }
}

std::string OpenclCompiler::half_constant_vector(const spirv_cross::SPIRConstant& constant, uint32_t vector) {
  const SPIRType& type = get<SPIRType>(constant.constant_type);
  std::string value = type.vecsize > 1 ? vector_type_name(SPIRType::Float, type.vecsize) + "(" : "";
  for (uint32_t i = 0; i < type.vecsize; ++i) {
    const float f = constant.scalar_f16(vector, i);
    std::string component;
    if (f != f)
      component = "NAN";
    else if (f == INFINITY || f == -INFINITY)
      component = f < 0 ? "-INFINITY" : "INFINITY";
    else {
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f));  // exact: a half has 11 bits
      component = text;
      if (component.find_first_of(".e") == std::string::npos) component += ".0";
      component += "f";
    }
    value += (i ? ", " : "") + component;
  }
  return type.vecsize > 1 ? value + ")" : value;
}

bool OpenclCompiler::emit_half_glsl_op(uint32_t result_type, uint32_t id, uint32_t op, const uint32_t* args,
                                       uint32_t count) {
  const SPIRType& result = get<SPIRType>(result_type);
  if (result.basetype != SPIRType::Half) {
    for (uint32_t i = 0; i < count; ++i)
      if (expression_type(args[i]).basetype == SPIRType::Half && op != GLSLstd450PackHalf2x16)
        unsupported("this GLSL.std.450 function on float16_t");
    return false;
  }
  // GLSL.std.450 -> the OpenCL C function of float that computes it.
  static const std::map<uint32_t, const char*> kFunctions = {
      {GLSLstd450Round, "round"},     {GLSLstd450RoundEven, "rint"},
      {GLSLstd450Trunc, "trunc"},     {GLSLstd450FAbs, "fabs"},
      {GLSLstd450FSign, "sign"},      {GLSLstd450Floor, "floor"},
      {GLSLstd450Ceil, "ceil"},       {GLSLstd450Radians, "radians"},
      {GLSLstd450Degrees, "degrees"}, {GLSLstd450Sin, "sin"},
      {GLSLstd450Cos, "cos"},         {GLSLstd450Tan, "tan"},
      {GLSLstd450Asin, "asin"},       {GLSLstd450Acos, "acos"},
      {GLSLstd450Atan, "atan"},       {GLSLstd450Sinh, "sinh"},
      {GLSLstd450Cosh, "cosh"},       {GLSLstd450Tanh, "tanh"},
      {GLSLstd450Asinh, "asinh"},     {GLSLstd450Acosh, "acosh"},
      {GLSLstd450Atanh, "atanh"},     {GLSLstd450Atan2, "atan2"},
      {GLSLstd450Pow, "pow"},         {GLSLstd450Exp, "exp"},
      {GLSLstd450Log, "log"},         {GLSLstd450Exp2, "exp2"},
      {GLSLstd450Log2, "log2"},       {GLSLstd450InverseSqrt, "rsqrt"},
      {GLSLstd450FMin, "fmin"},       {GLSLstd450FMax, "fmax"},
      {GLSLstd450FClamp, "clamp"},    {GLSLstd450FMix, "mix"},
      {GLSLstd450Step, "step"},       {GLSLstd450SmoothStep, "smoothstep"},
      {GLSLstd450NMin, "fmin"},       {GLSLstd450NMax, "fmax"},
      {GLSLstd450NClamp, "clamp"}};
  std::string arguments;
  bool forward = true;
  for (uint32_t i = 0; i < count; ++i) {
    arguments += (i ? ", " : "") + to_unpacked_expression(args[i]);
    forward = forward && should_forward(args[i]);
  }
  std::string expr;
  if (op == GLSLstd450Fma) {
    expr = "porta_fma_half" + width_suffix(result.vecsize) + "(" + arguments + ")";
  } else if (op == GLSLstd450Sqrt) {
    expr = "porta_sqrt_half" + width_suffix(result.vecsize) + "(" + arguments + ")";
  } else if (op == GLSLstd450Fract) {
    const std::string x = to_enclosed_expression(args[0]);
    expr = round_half(x + " - floor(" + x + ")", result);
  } else if (op == GLSLstd450UnpackHalf2x16) {
    return false;
  } else {
    const auto found = kFunctions.find(op);
    if (found == kFunctions.end()) unsupported("this GLSL.std.450 function on float16_t");
    expr = round_half(std::string(found->second) + "(" + arguments + ")", result);
  }
  emit_op(result_type, id, expr, forward);
  for (uint32_t i = 0; i < count; ++i) inherit_expression_dependencies(id, args[i]);
  return true;
}

}  // namespace porta::translator::detail
