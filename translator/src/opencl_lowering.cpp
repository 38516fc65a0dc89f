// Target opencl: the GLSL.std.450 functions and instructions OpenCL C 1.2 has
// no built-in for: the struct results (modf, frexp, uaddCarry, usubBorrow,
// umulExtended, imulExtended), out parameters (OpenCL C takes pointers), the
// pack/unpack functions and faceforward/reflect/refract. The helpers are
// sections of runtime/porta_opencl.cl.
#define SPV_ENABLE_UTILITY_CODE
#include <GLSL.std.450.h>

#include "opencl_compiler.hpp"

namespace porta::translator::detail {

using spirv_cross::join;

namespace {

bool is_float(const SPIRType& type) {
  return type.basetype == SPIRType::Float || type.basetype == SPIRType::Double;
}

}  // namespace

void OpenclCompiler::require_section(const std::string& section, const std::string& type,
                                     const std::string& scalar) {
  require_helper(-2, section + ":" + type + ":" + scalar);
}

bool OpenclCompiler::emit_struct_result(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  if (opcode != spv::OpIAddCarry && opcode != spv::OpISubBorrow && opcode != spv::OpUMulExtended &&
      opcode != spv::OpSMulExtended)
    return false;
  // The result is a struct of two members of the operands' type: the low
  // part (or sum, or difference) and the high part (or carry, or borrow).
  const uint32_t result_type = ops[0], id = ops[1];
  const SPIRType& type = get<SPIRType>(result_type);
  const SPIRType& operand = get<SPIRType>(type.member_types[0]);
  if (operand.width != 32)
    unsupported("extended arithmetic on " + std::to_string(operand.width) + "-bit integers");
  const std::string a = to_enclosed_unpacked_expression(ops[2]), b = to_enclosed_unpacked_expression(ops[3]);
  emit_uninitialized_temporary_expression(result_type, id);
  const std::string low = join(to_expression(id), ".", to_member_name(type, 0));
  const std::string high = join(to_expression(id), ".", to_member_name(type, 1));
  const std::string operand_type = type_to_glsl(operand);
  const std::string unsigned_type = vector_type_name(SPIRType::UInt, operand.vecsize);
  const bool is_signed = operand.basetype == SPIRType::Int;
  auto as = [&](const std::string& type_name, const std::string& expr) {
    return join("as_", type_name, "(", expr, ")");
  };
  // select(0, 1, c) takes a scalar's or a vector's comparison alike.
  auto flag = [&](const std::string& condition) {
    return join("select((", operand_type, ")(0), (", operand_type, ")(1), ", condition, ")");
  };
  switch (opcode) {
    case spv::OpIAddCarry:
      statement(low, " = ", a, " + ", b, ";");
      statement(high, " = ", flag(low + " < " + a), ";");
      break;
    case spv::OpISubBorrow:
      statement(low, " = ", a, " - ", b, ";");
      statement(high, " = ", flag(a + " < " + b), ";");
      break;
    default:
      // Low bits in the unsigned type (signed overflow is undefined in C).
      statement(
          low, " = ",
          is_signed ? as(operand_type, as(unsigned_type, a) + " * " + as(unsigned_type, b)) : a + " * " + b,
          ";");
      statement(high, " = mul_hi(", a, ", ", b, ");");
      break;
  }
  return true;
}

bool OpenclCompiler::emit_extended_glsl(uint32_t result_type, uint32_t id, uint32_t op,
                                        const uint32_t* args) {
  const SPIRType& result = get<SPIRType>(result_type);
  auto forward_all = [&](std::initializer_list<uint32_t> operands) {
    bool forward = true;
    for (uint32_t operand : operands) forward = forward && should_forward(operand);
    return forward;
  };
  auto emit_call = [&](const std::string& expr, std::initializer_list<uint32_t> operands) {
    emit_op(result_type, id, expr, forward_all(operands));
    for (uint32_t operand : operands) inherit_expression_dependencies(id, operand);
  };
  const std::string scalar = is_float(result) ? vector_type_name(result.basetype, 1) : "";
  switch (static_cast<GLSLstd450>(op)) {
    case GLSLstd450Modf:
    case GLSLstd450Frexp: {
      // GLSL's out parameter is OpenCL's pointer; both return the other part.
      const char* function = op == GLSLstd450Modf ? "modf" : "frexp";
      // Declares the variable first, and keeps the call out of later reads of it.
      register_call_out_argument(args[1]);
      forced_temporaries.insert(id);
      emit_call(
          join(function, "(", to_unpacked_expression(args[0]), ", &", to_enclosed_expression(args[1]), ")"),
          {args[0]});
      register_write(args[1]);
      return true;
    }
    case GLSLstd450ModfStruct:
    case GLSLstd450FrexpStruct: {
      // Member 0: the fraction (or mantissa); member 1: the whole part (or exponent).
      forced_temporaries.insert(id);
      emit_uninitialized_temporary_expression(result_type, id);
      const char* function = op == GLSLstd450ModfStruct ? "modf" : "frexp";
      statement(to_expression(id), ".", to_member_name(result, 0), " = ", function, "(",
                to_unpacked_expression(args[0]), ", &", to_expression(id), ".", to_member_name(result, 1),
                ");");
      return true;
    }
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackHalf2x16:
    case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackHalf2x16:
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm4x8: {
      // GLSL.std.450 numbers these 54..65 with the Double2x32 ones among them.
      static const struct {
        GLSLstd450 op;
        const char* name;
      } kPack[] = {
          {GLSLstd450PackSnorm4x8, "packSnorm4x8"},       {GLSLstd450PackUnorm4x8, "packUnorm4x8"},
          {GLSLstd450PackSnorm2x16, "packSnorm2x16"},     {GLSLstd450PackUnorm2x16, "packUnorm2x16"},
          {GLSLstd450PackHalf2x16, "packHalf2x16"},       {GLSLstd450UnpackSnorm2x16, "unpackSnorm2x16"},
          {GLSLstd450UnpackUnorm2x16, "unpackUnorm2x16"}, {GLSLstd450UnpackHalf2x16, "unpackHalf2x16"},
          {GLSLstd450UnpackSnorm4x8, "unpackSnorm4x8"},   {GLSLstd450UnpackUnorm4x8, "unpackUnorm4x8"}};
      const char* name = nullptr;
      for (const auto& entry : kPack)
        if (entry.op == static_cast<GLSLstd450>(op)) name = entry.name;
      require_section("pack", "", "");
      emit_call(join("porta_", name, "(", to_unpacked_expression(args[0]), ")"), {args[0]});
      return true;
    }
    case GLSLstd450PackDouble2x32:
      emit_call(join("as_double(", to_unpacked_expression(args[0]), ")"), {args[0]});
      return true;
    case GLSLstd450UnpackDouble2x32:
      emit_call(join("as_uint2(", to_unpacked_expression(args[0]), ")"), {args[0]});
      return true;
    case GLSLstd450FMix: {
      // GLSL defines mix as x * (1 - a) + y * a; OpenCL's mix() is x + (y - x) * a,
      // which differs in rounding and gives NaN for an infinite x.
      const std::string x = to_enclosed_unpacked_expression(args[0]),
                        y = to_enclosed_unpacked_expression(args[1]),
                        a = to_enclosed_unpacked_expression(args[2]);
      emit_call(join("(", x, " * ((", scalar, ")1 - ", a, ") + ", y, " * ", a, ")"),
                {args[0], args[1], args[2]});
      return true;
    }
    case GLSLstd450FaceForward: {
      const std::string n = to_enclosed_unpacked_expression(args[0]);
      emit_call(join("(dot(", to_unpacked_expression(args[2]), ", ", to_unpacked_expression(args[1]), ") < (",
                     scalar, ")0 ? ", n, " : -", n, ")"),
                {args[0], args[1], args[2]});
      return true;
    }
    case GLSLstd450Reflect: {
      const std::string i = to_enclosed_unpacked_expression(args[0]),
                        n = to_enclosed_unpacked_expression(args[1]);
      emit_call(join("(", i, " - ((", scalar, ")2 * dot(", n, ", ", i, ")) * ", n, ")"), {args[0], args[1]});
      return true;
    }
    case GLSLstd450Refract: {
      const std::string type = type_to_glsl(result);
      require_section("refract", type, scalar);
      emit_call(join("porta_refract_", type, "(", to_unpacked_expression(args[0]), ", ",
                     to_unpacked_expression(args[1]), ", ", to_unpacked_expression(args[2]), ")"),
                {args[0], args[1], args[2]});
      return true;
    }
    default:
      return false;
  }
}

// OpenCL C 1.2 has read-modify-write atomics only: an atomic load is an
// atomic add of 0, an atomic store an exchange whose old value is dropped.
// Both are as atomic as the load and store they stand for, and order the same.
void OpenclCompiler::emit_atomic_load_store(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const bool load = instruction.op == spv::OpAtomicLoad;
  const uint32_t pointer = load ? ops[2] : ops[0];
  const SPIRType& type = expression_type(pointer);
  if ((type.basetype != SPIRType::Int && type.basetype != SPIRType::UInt) || type.vecsize != 1) {
    std::string what = load ? "atomic loads of " : "atomic stores of ";
    what += type_to_glsl(type);
    unsupported(what + " (32-bit integers only)");
  }
  flush_all_atomic_capable_variables();
  const std::string address = join("&", to_enclosed_expression(pointer));
  // With bounds checks (bounds_checks.cpp): 0 and no change out of bounds.
  const std::string condition = bounds_condition(pointer);
  if (load) {
    forced_temporaries.insert(ops[1]);
    const std::string call = join("atomic_add(", address, ", 0)");
    emit_op(ops[0], ops[1], condition.empty() ? call : guarded_value(condition, pointer, false, call, "0"),
            false);
  } else {
    const std::string call = join("atomic_xchg(", address, ", ", to_unpacked_expression(ops[3]), ")");
    if (condition.empty())
      statement(call, ";");
    else
      guarded_statement(condition, pointer, true, call);
    register_write(pointer);
  }
}

void OpenclCompiler::emit_atomic_float_add(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const bool local = expression_type(ops[2]).storage == spv::StorageClassWorkgroup;
  const std::string space = local ? "local" : "global";
  require_section("atomic_float_add", space, "");
  const std::string call = join("porta_atomic_add_float_", space, "(&", to_enclosed_expression(ops[2]), ", ",
                                to_unpacked_expression(ops[5]), ")");
  emit_atomic_call(ops, call);
}

}  // namespace porta::translator::detail
