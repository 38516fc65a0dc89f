// Target opencl: matrices and boolean vectors, which OpenCL C 1.2 lacks.
//
// Matrices. A GLSL matCxR is a struct of C column vectors,
//   typedef struct { float4 col[3]; } mat3x4;
//   #define mat3x4(c0, c1, c2) ((mat3x4){{c0, c1, c2}})
// (C has no overloading, so the constructor is a macro of the type's name and
// the operations are functions named after their operand types, written into
// the translation where the kernel uses them). Indexing a matrix, m[c] in
// GLSL, is m.col[c]: OpAccessChain, OpCompositeExtract and OpCompositeInsert
// through a matrix are spelled here. Sums run in the order porta_glsl.hpp
// sums (column by column, left to right), so targets cpp, cuda and opencl
// compute the same products.
//
// Boolean vectors. A bvecN is an intN holding -1 (true) or 0 (false): what
// OpenCL C's vector comparisons, !, &&, || and select()/any()/all() produce
// and expect (they test the sign bit). Comparisons of 64-bit vectors give a
// longN and are converted; constants and constructors make -1 of true; one
// component read out is a scalar bool (v.x != 0).
#include <cctype>

#include "opencl_compiler.hpp"

namespace porta::translator::detail {

namespace {

const char* const kLanes[] = {"x", "y", "z", "w"};

std::string element(const std::string& m, uint32_t c, uint32_t r) {
  return m + ".col[" + std::to_string(c) + "]." + kLanes[r];
}

// A comparison of vectors as OpenCL C spells it: an operator or a function,
// negated for the unordered ones (true where either is NaN: the negation of
// the ordered opposite), and the signedness its integer operands are seen with.
struct VectorComparison {
  spv::Op opcode;
  const char* spelling;
  bool negated;
  enum Signedness { Either, Signed, Unsigned } signedness;
};
constexpr VectorComparison kVectorComparisons[] = {
    {spv::OpIEqual, "==", false, VectorComparison::Either},
    {spv::OpINotEqual, "!=", false, VectorComparison::Either},
    {spv::OpULessThan, "<", false, VectorComparison::Unsigned},
    {spv::OpSLessThan, "<", false, VectorComparison::Signed},
    {spv::OpUGreaterThan, ">", false, VectorComparison::Unsigned},
    {spv::OpSGreaterThan, ">", false, VectorComparison::Signed},
    {spv::OpULessThanEqual, "<=", false, VectorComparison::Unsigned},
    {spv::OpSLessThanEqual, "<=", false, VectorComparison::Signed},
    {spv::OpUGreaterThanEqual, ">=", false, VectorComparison::Unsigned},
    {spv::OpSGreaterThanEqual, ">=", false, VectorComparison::Signed},
    {spv::OpFOrdEqual, "==", false, VectorComparison::Either},
    {spv::OpFOrdNotEqual, "islessgreater", false, VectorComparison::Either},
    {spv::OpFOrdLessThan, "<", false, VectorComparison::Either},
    {spv::OpFOrdGreaterThan, ">", false, VectorComparison::Either},
    {spv::OpFOrdLessThanEqual, "<=", false, VectorComparison::Either},
    {spv::OpFOrdGreaterThanEqual, ">=", false, VectorComparison::Either},
    {spv::OpFUnordEqual, "islessgreater", true, VectorComparison::Either},
    {spv::OpFUnordNotEqual, "!=", false, VectorComparison::Either},
    {spv::OpFUnordLessThan, ">=", true, VectorComparison::Either},
    {spv::OpFUnordGreaterThan, "<=", true, VectorComparison::Either},
    {spv::OpFUnordLessThanEqual, ">", true, VectorComparison::Either},
    {spv::OpFUnordGreaterThanEqual, "<", true, VectorComparison::Either},
};

// The negation of a bvec (-1/0 lanes) as ~, not !: the two agree on every
// lane (OpenCL C 1.2, 6.3), but oclgrind (21.10) computes !, && and || of
// vectors as if true were 1 (!(int3)(-1) gives -2), and also == and != of
// vectors that were comparisons; the bitwise operators it computes right.
std::string bitwise_not(const std::string& value) { return "~" + value; }

const VectorComparison* find_vector_comparison(spv::Op opcode) {
  for (const VectorComparison& comparison : kVectorComparisons)
    if (comparison.opcode == opcode) return &comparison;
  return nullptr;
}

}  // namespace

std::string OpenclCompiler::matrix_type_name(const SPIRType& type) {
  if (type.basetype != SPIRType::Float && type.basetype != SPIRType::Double)
    unsupported("matrices of " + vector_type_name(type.basetype, 1));
  std::string name = type.basetype == SPIRType::Double ? "dmat" : "mat";
  name += std::to_string(type.columns);
  if (type.columns != type.vecsize) name += "x" + std::to_string(type.vecsize);
  return name;
}

std::string OpenclCompiler::matrix_column_type(const SPIRType& type) {
  return vector_type_name(type.basetype, type.vecsize);
}

void OpenclCompiler::emit_matrix_types() {
  std::set<std::string> done;
  ir.for_each_typed_id<SPIRType>([&](uint32_t, const SPIRType& type) {
    if (type.columns < 2 || type.pointer || type.basetype == SPIRType::Struct) return;
    const std::string name = matrix_type_name(type);
    if (!done.insert(name).second) return;
    if (done.size() == 1) statement("// GLSL's matrices: C columns; the constructor takes the columns.");
    statement("typedef struct ", name, " { ", matrix_column_type(type), " col[", type.columns, "]; } ", name,
              ";");
    std::string parameters, columns;
    for (uint32_t c = 0; c < type.columns; ++c) {
      parameters += (c ? ", c" : "c") + std::to_string(c);
      columns += (c ? ", (c" : "(c") + std::to_string(c) + ")";
    }
    statement("#define ", name, "(", parameters, ") ((", name, "){{", columns, "}})");
  });
  if (!done.empty()) statement("");
}

void OpenclCompiler::emit_matrix_helpers() {
  for (const std::string& helper : matrix_helpers_) statement(helper);
  if (!matrix_helpers_.empty()) statement("");
}

std::string OpenclCompiler::matrix_helper(const std::string& name, const std::function<std::string()>& body) {
  if (matrix_helper_names_.insert(name).second) {
    matrix_helpers_.push_back(body());
    force_recompile();  // the prelude is already written for this pass
  }
  return name;
}

// One column vector times the matrix's columns: m * v.
std::string OpenclCompiler::matrix_times_vector(const SPIRType& m) {
  const std::string name = "porta_" + matrix_type_name(m) + "_times_vector";
  return matrix_helper(name, [&] {
    SPIRType v = m;
    v.columns = 1;
    v.vecsize = m.columns;
    std::string sum;
    for (uint32_t c = 0; c < m.columns; ++c)
      sum += (c ? " + m.col[" : "m.col[") + std::to_string(c) + "] * v." + kLanes[c];
    return matrix_column_type(m) + " " + name + "(const " + matrix_type_name(m) + " m, const " +
           vector_type_name(m.basetype, m.columns) + " v) { return " + sum + "; }";
  });
}

std::string OpenclCompiler::vector_times_matrix(const SPIRType& m) {
  const std::string name = "porta_vector_times_" + matrix_type_name(m);
  return matrix_helper(name, [&] {
    std::string value = "(" + vector_type_name(m.basetype, m.columns) + ")(";
    for (uint32_t c = 0; c < m.columns; ++c) {
      value += c ? ", " : "";
      for (uint32_t r = 0; r < m.vecsize; ++r)
        value += (r ? " + v." : "v.") + std::string(kLanes[r]) + " * " + element("m", c, r);
    }
    return vector_type_name(m.basetype, m.columns) + " " + name + "(const " + matrix_column_type(m) +
           " v, const " + matrix_type_name(m) + " m) { return " + value + "); }";
  });
}

std::string OpenclCompiler::matrix_times_matrix(const SPIRType& a, const SPIRType& b,
                                                const SPIRType& result) {
  const std::string by_vector = matrix_times_vector(a);
  const std::string name = "porta_" + matrix_type_name(a) + "_times_" + matrix_type_name(b);
  return matrix_helper(name, [&] {
    std::string text = matrix_type_name(result) + " " + name + "(const " + matrix_type_name(a) +
                       " a, const " + matrix_type_name(b) + " b) { " + matrix_type_name(result) + " r; ";
    for (uint32_t c = 0; c < b.columns; ++c)
      text += "r.col[" + std::to_string(c) + "] = " + by_vector + "(a, b.col[" + std::to_string(c) + "]); ";
    return text + "return r; }";
  });
}

std::string OpenclCompiler::matrix_times_scalar(const SPIRType& m) {
  const std::string name = "porta_" + matrix_type_name(m) + "_times_scalar";
  return matrix_helper(name, [&] {
    std::string text = matrix_type_name(m) + " " + name + "(" + matrix_type_name(m) + " m, const " +
                       vector_type_name(m.basetype, 1) + " s) { ";
    for (uint32_t c = 0; c < m.columns; ++c) text += "m.col[" + std::to_string(c) + "] *= s; ";
    return text + "return m; }";
  });
}

std::string OpenclCompiler::outer_product(const SPIRType& m) {
  const std::string name = "porta_outer_product_" + matrix_type_name(m);
  return matrix_helper(name, [&] {
    std::string text = matrix_type_name(m) + " " + name + "(const " + matrix_column_type(m) + " c, const " +
                       vector_type_name(m.basetype, m.columns) + " r) { " + matrix_type_name(m) + " m; ";
    for (uint32_t c = 0; c < m.columns; ++c)
      text += "m.col[" + std::to_string(c) + "] = c * r." + kLanes[c] + "; ";
    return text + "return m; }";
  });
}

std::string OpenclCompiler::transpose(const SPIRType& m, const SPIRType& result) {
  const std::string name = "porta_transpose_" + matrix_type_name(m);
  return matrix_helper(name, [&] {
    std::string text = matrix_type_name(result) + " " + name + "(const " + matrix_type_name(m) + " m) { " +
                       matrix_type_name(result) + " t; ";
    for (uint32_t r = 0; r < m.vecsize; ++r) {
      text += "t.col[" + std::to_string(r) + "] = (" + vector_type_name(m.basetype, m.columns) + ")(";
      for (uint32_t c = 0; c < m.columns; ++c) text += (c ? ", " : "") + element("m", c, r);
      text += "); ";
    }
    return text + "return t; }";
  });
}

// The cofactor expansions of porta_glsl.hpp, in the same order.
std::string OpenclCompiler::adjugate4(const SPIRType& m) {
  const std::string name = "porta_adjugate_" + matrix_type_name(m);
  return matrix_helper(name, [&] {
    auto minor2 = [](uint32_t i, uint32_t j, uint32_t a, uint32_t b) {
      return "(" + element("m", i, a) + " * " + element("m", j, b) + " - " + element("m", j, a) + " * " +
             element("m", i, b) + ")";
    };
    std::string text = matrix_type_name(m) + " " + name + "(const " + matrix_type_name(m) + " m) { " +
                       matrix_type_name(m) + " a; ";
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t r = 0; r < 4; ++r) {
        uint32_t cols[3], rows[3];
        for (uint32_t k = 0, n = 0; k < 4; ++k)
          if (k != c) cols[n++] = k;
        for (uint32_t k = 0, n = 0; k < 4; ++k)
          if (k != r) rows[n++] = k;
        const std::string minor =
            element("m", cols[0], rows[0]) + " * " + minor2(cols[1], cols[2], rows[1], rows[2]) + " - " +
            element("m", cols[1], rows[0]) + " * " + minor2(cols[0], cols[2], rows[1], rows[2]) + " + " +
            element("m", cols[2], rows[0]) + " * " + minor2(cols[0], cols[1], rows[1], rows[2]);
        text += element("a", r, c) + " = " + ((c + r) % 2 ? "-(" + minor + ")" : minor) + "; ";
      }
    return text + "return a; }";
  });
}

std::string OpenclCompiler::determinant(const SPIRType& m) {
  if (m.columns != m.vecsize) unsupported("determinant of a non-square matrix");
  const std::string adjugate = m.columns == 4 ? adjugate4(m) : "";
  const std::string name = "porta_determinant_" + matrix_type_name(m);
  return matrix_helper(name, [&] {
    auto e = [](uint32_t c, uint32_t r) { return element("m", c, r); };
    std::string value;
    if (m.columns == 2) {
      value = e(0, 0) + " * " + e(1, 1) + " - " + e(1, 0) + " * " + e(0, 1);
    } else if (m.columns == 3) {
      value = e(0, 0) + " * (" + e(1, 1) + " * " + e(2, 2) + " - " + e(2, 1) + " * " + e(1, 2) + ") - " +
              e(1, 0) + " * (" + e(0, 1) + " * " + e(2, 2) + " - " + e(2, 1) + " * " + e(0, 2) + ") + " +
              e(2, 0) + " * (" + e(0, 1) + " * " + e(1, 2) + " - " + e(1, 1) + " * " + e(0, 2) + ")";
    } else {
      return vector_type_name(m.basetype, 1) + " " + name + "(const " + matrix_type_name(m) + " m) { const " +
             matrix_type_name(m) + " a = " + adjugate + "(m); return " + e(0, 0) + " * " +
             element("a", 0, 0) + " + " + e(1, 0) + " * " + element("a", 0, 1) + " + " + e(2, 0) + " * " +
             element("a", 0, 2) + " + " + e(3, 0) + " * " + element("a", 0, 3) + "; }";
    }
    return vector_type_name(m.basetype, 1) + " " + name + "(const " + matrix_type_name(m) + " m) { return " +
           value + "; }";
  });
}

std::string OpenclCompiler::inverse(const SPIRType& m) {
  if (m.columns != m.vecsize) unsupported("inverse of a non-square matrix");
  const std::string adjugate = m.columns == 4 ? adjugate4(m) : "";
  const std::string det = m.columns == 2 ? determinant(m) : "";
  const std::string name = "porta_inverse_" + matrix_type_name(m);
  return matrix_helper(name, [&] {
    const std::string type = matrix_type_name(m), scalar = vector_type_name(m.basetype, 1);
    std::string text = type + " " + name + "(const " + type + " m) { ";
    if (m.columns == 2) {
      const std::string column = matrix_column_type(m);
      return text + "const " + scalar + " d = " + det + "(m); return " + type + "((" + column + ")(" +
             element("m", 1, 1) + ", -" + element("m", 0, 1) + ") / d, (" + column + ")(-" +
             element("m", 1, 0) + ", " + element("m", 0, 0) + ") / d); }";
    }
    if (m.columns == 3) {
      text += type + " a; ";
      for (uint32_t c = 0; c < 3; ++c)
        for (uint32_t r = 0; r < 3; ++r) {
          const uint32_t c1 = (c + 1) % 3, c2 = (c + 2) % 3, r1 = (r + 1) % 3, r2 = (r + 2) % 3;
          text += element("a", r, c) + " = " + element("m", c1, r1) + " * " + element("m", c2, r2) + " - " +
                  element("m", c2, r1) + " * " + element("m", c1, r2) + "; ";
        }
    } else {
      text += type + " a = " + adjugate + "(m); ";
    }
    text += "const " + scalar + " d = ";
    for (uint32_t c = 0; c < m.columns; ++c)
      text += (c ? " + " : "") + element("m", c, 0) + " * " + element("a", 0, c);
    text += "; ";
    for (uint32_t c = 0; c < m.columns; ++c) text += "a.col[" + std::to_string(c) + "] /= d; ";
    return text + "return a; }";
  });
}

bool OpenclCompiler::emit_matrix_glsl_op(uint32_t result_type, uint32_t id, uint32_t op,
                                         const uint32_t* args) {
  if (op != GLSLstd450Determinant && op != GLSLstd450MatrixInverse) return false;
  const SPIRType& m = expression_type(args[0]);
  const std::string function = op == GLSLstd450Determinant ? determinant(m) : inverse(m);
  emit_op(result_type, id, function + "(" + to_unpacked_expression(args[0]) + ")", should_forward(args[0]));
  inherit_expression_dependencies(id, args[0]);
  return true;
}

// The expression of the element `indices` (ids, or literals for
// extract/insert) of `path`, a composite of type `type_id` in `storage`, where
// a matrix is on the way; `result` gets the element's type.
std::string OpenclCompiler::composite_path(std::string path, uint32_t type_id, const uint32_t* indices,
                                           uint32_t count, bool literal, uint32_t& result,
                                           spv::StorageClass storage) {
  for (uint32_t i = 0; i < count; ++i) {
    const SPIRType& type = get<SPIRType>(type_id);
    const uint32_t index = indices[i];
    const bool constant = literal || maybe_get<SPIRConstant>(index) != nullptr;
    const uint32_t value = literal ? index : constant ? evaluate_constant_u32(index) : 0;
    const std::string text = constant ? std::to_string(value) : to_unpacked_expression(index);
    if (!type.array.empty()) {
      path += "[" + text + "]";
      type_id = type.parent_type;
    } else if (type.basetype == SPIRType::Struct) {
      path += "." + to_member_name(type, value);
      type_id = type.member_types[value];
    } else if (type.columns > 1) {
      path += ".col[" + text + "]";
      type_id = type.parent_type;
    } else if (type.vecsize > 1) {
      if (!constant) {
        // OpenCL C cannot index a vector: its components through a pointer.
        SPIRType component = type;
        component.vecsize = 1;
        const char* space = storage == spv::StorageClassWorkgroup       ? "__local "
                            : storage == spv::StorageClassStorageBuffer ? "__global "
                            : storage == spv::StorageClassUniform       ? "__global "
                                                                        : "";
        path = "((" + std::string(space) + type_to_glsl(component) + "*)&" + path + ")[" + text + "]";
        type_id = type.parent_type;
        continue;
      }
      path += std::string(".") + kLanes[value];
      type_id = type.parent_type;
    } else {
      unsupported("an index into a scalar");
    }
  }
  result = type_id;
  return path;
}

// Whether following `indices` from `type_id` indexes a matrix; `at` gets the
// number of indices before the first such step.
bool OpenclCompiler::indexes_matrix(uint32_t type_id, const uint32_t* indices, uint32_t count, bool literal,
                                    uint32_t& at) {
  for (uint32_t i = 0; i < count; ++i) {
    const SPIRType& type = get<SPIRType>(type_id);
    if (type.columns > 1 && type.array.empty()) {
      at = i;
      return true;
    }
    if (!type.array.empty()) {
      type_id = type.parent_type;
    } else if (type.basetype == SPIRType::Struct) {
      type_id = type.member_types[literal ? indices[i] : evaluate_constant_u32(indices[i])];
    } else {
      return false;
    }
  }
  return false;
}

std::string OpenclCompiler::bool_vector_value(const std::string& value, const SPIRType& operands) {
  // A comparison of 64-bit components gives a longN.
  if (operands.width == 64) return "convert_int" + std::to_string(operands.vecsize) + "(" + value + ")";
  return value;
}

std::string OpenclCompiler::constant_expression_vector(const SPIRConstant& constant, uint32_t vector) {
  const SPIRType& type = get<SPIRType>(constant.constant_type);
  if (type.basetype == SPIRType::Half) return half_constant_vector(constant, vector);
  if (type.basetype != SPIRType::Boolean || type.vecsize < 2)
    return CompilerGLSL::constant_expression_vector(constant, vector);
  std::string value = vector_type_name(SPIRType::Int, type.vecsize) + "(";
  for (uint32_t i = 0; i < type.vecsize; ++i)
    value += (i ? ", " : "") + std::string(constant.scalar(vector, i) ? "-1" : "0");
  return value + ")";
}

bool OpenclCompiler::emit_matrix_or_bool_vector(const spirv_cross::Instruction& instruction) {
  const uint32_t* ops = stream(instruction);
  const auto opcode = static_cast<spv::Op>(instruction.op);
  auto forward_all = [&](std::initializer_list<uint32_t> ids) {
    bool forward = true;
    for (uint32_t id : ids) forward = forward && should_forward(id);
    return forward;
  };
  auto emit_call = [&](const std::string& function, std::initializer_list<uint32_t> arguments) {
    std::string call = function + "(";
    bool first = true;
    for (uint32_t id : arguments) {
      call += (first ? "" : ", ") + to_unpacked_expression(id);
      first = false;
    }
    emit_op(ops[0], ops[1], call + ")", forward_all(arguments));
    for (uint32_t id : arguments) inherit_expression_dependencies(ops[1], id);
  };
  auto emit_expression = [&](const std::string& text, std::initializer_list<uint32_t> arguments) {
    emit_op(ops[0], ops[1], text, forward_all(arguments));
    for (uint32_t id : arguments) inherit_expression_dependencies(ops[1], id);
  };
  if (const VectorComparison* comparison = find_vector_comparison(opcode)) {
    const SPIRType& operand = expression_type(ops[2]);
    if (operand.vecsize < 2) return false;
    std::string a = to_enclosed_unpacked_expression(ops[2]), b = to_enclosed_unpacked_expression(ops[3]);
    if (comparison->signedness != VectorComparison::Either) {
      // Integer comparisons see their operands with the signedness the opcode names.
      const bool is_signed_op = comparison->signedness == VectorComparison::Signed;
      auto cast = [&](uint32_t id, std::string& text) {
        const SPIRType& t = expression_type(id);
        const bool is_signed_type = t.basetype == SPIRType::Int || t.basetype == SPIRType::Int64;
        if (is_signed_type == is_signed_op) return;
        SPIRType wanted = t;
        wanted.basetype = t.width == 64 ? (is_signed_op ? SPIRType::Int64 : SPIRType::UInt64)
                                        : (is_signed_op ? SPIRType::Int : SPIRType::UInt);
        text = "as_" + type_to_glsl(wanted) + "(" + text + ")";
      };
      cast(ops[2], a);
      cast(ops[3], b);
    } else if (expression_type(ops[3]).basetype != operand.basetype) {
      // SPIR-V lets the signedness of OpIEqual's operands differ (bvec3(ivec3)
      // compares with a uvec3 zero); OpenCL C converts no vector implicitly.
      b = "as_" + type_to_glsl(operand) + "(" + b + ")";
    }
    const std::string spelling = comparison->spelling;
    std::string value = std::isalpha(static_cast<unsigned char>(spelling[0]))
                            ? spelling + "(" + a + ", " + b + ")"
                            : a + " " + spelling + " " + b;
    if (comparison->negated) value = bitwise_not("(" + value + ")");
    emit_expression("(" + bool_vector_value(value, operand) + ")", {ops[2], ops[3]});
    return true;
  }
  // A bvec with one component replaced by -1 or 0 (OpCompositeInsert,
  // OpVectorInsertDynamic); false for any other insert.
  auto insert_bool_lane = [&] {
    const SPIRType& type = get<SPIRType>(ops[0]);
    if (type.basetype != SPIRType::Boolean || type.vecsize < 2 || !type.array.empty() ||
        (opcode == spv::OpCompositeInsert && instruction.length != 5))
      return false;
    flush_variable_declaration(ops[3]);
    const std::string lane = opcode == spv::OpCompositeInsert ? std::string(".") + kLanes[ops[4]]
                                                              : "[" + to_unpacked_expression(ops[4]) + "]";
    statement(declare_temporary(ops[0], ops[1]), to_expression(ops[3]), ";");
    set<spirv_cross::SPIRExpression>(ops[1], to_name(ops[1]), ops[0], true);
    statement(to_name(ops[1]), lane, " = ", to_enclosed_expression(ops[2]), " ? -1 : 0;");
    return true;
  };
  switch (opcode) {
    // ---- matrices ----
    case spv::OpMatrixTimesVector:
      emit_call(matrix_times_vector(expression_type(ops[2])), {ops[2], ops[3]});
      return true;
    case spv::OpVectorTimesMatrix:
      emit_call(vector_times_matrix(expression_type(ops[3])), {ops[2], ops[3]});
      return true;
    case spv::OpMatrixTimesMatrix:
      emit_call(matrix_times_matrix(expression_type(ops[2]), expression_type(ops[3]), get<SPIRType>(ops[0])),
                {ops[2], ops[3]});
      return true;
    case spv::OpMatrixTimesScalar:
      emit_call(matrix_times_scalar(expression_type(ops[2])), {ops[2], ops[3]});
      return true;
    case spv::OpOuterProduct:
      emit_call(outer_product(get<SPIRType>(ops[0])), {ops[2], ops[3]});
      return true;
    case spv::OpTranspose:
      emit_call(transpose(expression_type(ops[2]), get<SPIRType>(ops[0])), {ops[2]});
      return true;
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain: {
      if (is_byte_addressed_pointer(ops[2])) return false;
      const uint32_t base_type = get_pointee_type_id(expression_type_id(ops[2]));
      uint32_t at = 0;
      if (!indexes_matrix(base_type, &ops[3], instruction.length - 3, false, at)) {
        // A component of a bvec: loads and stores through it convert (below).
        const SPIRType& leaf = get<SPIRType>(get_pointee_type_id(ops[0]));
        uint32_t container = base_type;
        if (leaf.basetype == SPIRType::Boolean && leaf.vecsize == 1 && instruction.length > 3) {
          composite_path("", base_type, &ops[3], instruction.length - 4, false, container,
                         spv::StorageClassFunction);
          if (get<SPIRType>(container).vecsize > 1) bool_vector_lanes_.insert(ops[1]);
        }
        return false;
      }
      TargetCompiler::emit_target_instruction(instruction);  // forwarding and dependencies
      // The emitter's chain up to the matrix, then the matrix's own steps.
      const spv::StorageClass storage = get<SPIRType>(ops[0]).storage;
      uint32_t matrix_type = base_type, leaf = 0;
      composite_path("", base_type, &ops[3], at, false, matrix_type, storage);
      std::string prefix = at == 0 ? to_enclosed_expression(ops[2])
                                   : access_chain(ops[2], &ops[3], at, get<SPIRType>(matrix_type), nullptr);
      get<spirv_cross::SPIRExpression>(ops[1]).expression = composite_path(
          prefix, matrix_type, &ops[3 + at], instruction.length - 3 - at, false, leaf, storage);
      return true;
    }
    case spv::OpCompositeExtract: {
      const SPIRType& composite = expression_type(ops[2]);
      uint32_t at = 0, leaf = 0;
      if (composite.basetype == SPIRType::Boolean && composite.vecsize > 1 && instruction.length == 4) {
        emit_expression("(" + to_enclosed_expression(ops[2]) + "." + kLanes[ops[3]] + " != 0)", {ops[2]});
        return true;
      }
      if (!indexes_matrix(expression_type_id(ops[2]), &ops[3], instruction.length - 3, true, at))
        return false;
      emit_expression(composite_path(to_enclosed_expression(ops[2]), expression_type_id(ops[2]), &ops[3],
                                     instruction.length - 3, true, leaf, spv::StorageClassFunction),
                      {ops[2]});
      return true;
    }
    case spv::OpCompositeInsert: {
      uint32_t at = 0, leaf = 0;
      if (!indexes_matrix(ops[0], &ops[4], instruction.length - 4, true, at)) return insert_bool_lane();
      // A copy of the composite with one element replaced.
      flush_variable_declaration(ops[3]);
      statement(declare_temporary(ops[0], ops[1]), to_expression(ops[3]), ";");
      set<spirv_cross::SPIRExpression>(ops[1], to_name(ops[1]), ops[0], true);
      statement(composite_path(to_name(ops[1]), ops[0], &ops[4], instruction.length - 4, true, leaf,
                               spv::StorageClassFunction),
                " = ", to_unpacked_expression(ops[2]), ";");
      return true;
    }
    // ---- boolean vectors ----
    case spv::OpLoad:
      if (!bool_vector_lanes_.count(ops[2])) return false;
      emit_op(ops[0], ops[1], "(" + to_enclosed_expression(ops[2]) + " != 0)", false);
      return true;
    case spv::OpStore:
      if (!bool_vector_lanes_.count(ops[0])) return false;
      statement(to_expression(ops[0]), " = ", to_enclosed_expression(ops[1]), " ? -1 : 0;");
      register_write(ops[0]);
      return true;
    case spv::OpVectorExtractDynamic:
      if (expression_type(ops[2]).basetype != SPIRType::Boolean) return false;
      emit_expression("(" + to_enclosed_expression(ops[2]) + "[" + to_unpacked_expression(ops[3]) + "] != 0)",
                      {ops[2], ops[3]});
      return true;
    case spv::OpVectorInsertDynamic:
      return insert_bool_lane();
    case spv::OpLogicalEqual:
    case spv::OpLogicalNotEqual:
    case spv::OpLogicalAnd:
    case spv::OpLogicalOr: {
      if (expression_type(ops[2]).vecsize < 2) return false;
      // Bitwise on -1/0 lanes (see bitwise_not below).
      const std::string a = to_enclosed_expression(ops[2]), b = to_enclosed_expression(ops[3]);
      const std::string value = opcode == spv::OpLogicalEqual      ? bitwise_not("(" + a + " ^ " + b + ")")
                                : opcode == spv::OpLogicalNotEqual ? a + " ^ " + b
                                : opcode == spv::OpLogicalAnd      ? a + " & " + b
                                                                   : a + " | " + b;
      emit_expression("(" + value + ")", {ops[2], ops[3]});
      return true;
    }
    case spv::OpLogicalNot:
      if (expression_type(ops[2]).vecsize < 2) return false;
      emit_expression("(" + bitwise_not(to_enclosed_expression(ops[2])) + ")", {ops[2]});
      return true;
    case spv::OpAny:
    case spv::OpAll:
      emit_call(opcode == spv::OpAny ? "any" : "all", {ops[2]});
      return true;
    case spv::OpIsNan:
    case spv::OpIsInf: {
      const SPIRType& operand = expression_type(ops[2]);
      if (operand.vecsize < 2) return false;
      emit_expression(bool_vector_value(std::string(opcode == spv::OpIsNan ? "isnan(" : "isinf(") +
                                            to_unpacked_expression(ops[2]) + ")",
                                        operand),
                      {ops[2]});
      return true;
    }
    case spv::OpSelect: {
      const SPIRType& condition = expression_type(ops[2]);
      if (condition.vecsize < 2) return false;
      // select(a, b, c) takes b where c's sign bit is set; c's components as
      // wide as the operands'.
      const SPIRType& result = get<SPIRType>(ops[0]);
      std::string mask = to_unpacked_expression(ops[2]);
      const uint32_t width = result.basetype == SPIRType::Boolean ? 32 : result.width;
      if (width == 64)
        mask = "convert_long" + std::to_string(result.vecsize) + "(" + mask + ")";
      else if (width != 32)
        unsupported("a bvec select of " + std::to_string(width) + "-bit components");
      emit_expression("select(" + to_unpacked_expression(ops[4]) + ", " + to_unpacked_expression(ops[3]) +
                          ", " + mask + ")",
                      {ops[2], ops[3], ops[4]});
      return true;
    }
    case spv::OpCompositeConstruct: {
      const SPIRType& result = get<SPIRType>(ops[0]);
      if (result.basetype != SPIRType::Boolean || result.vecsize < 2 || !result.array.empty()) return false;
      // Scalar bools are 1 or 0, components of other bvecs -1 or 0: != 0
      // makes every component -1 or 0.
      std::string value = vector_type_name(SPIRType::Int, result.vecsize) + "(";
      for (uint32_t i = 2; i < instruction.length; ++i)
        value += (i > 2 ? ", " : "") + to_unpacked_expression(ops[i]);
      emit_op(ops[0], ops[1], "(" + value + ") != 0)", false);
      for (uint32_t i = 2; i < instruction.length; ++i) inherit_expression_dependencies(ops[1], ops[i]);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace porta::translator::detail
