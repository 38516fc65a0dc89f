// The type cases: one arithmetic or conversion step on 8- and 16-bit element
// types (float16_t, bfloat16 as uint16_t storage, int8_t, int16_t), as a
// kernel any user could write, on the device under test and the CPU backend,
// against the float64 oracle rounded to the type (tolerances.hpp: one
// correctly rounded operation in the type's own precision, or exact).
// A device without the feature a kernel needs refuses it when the kernel is
// created, naming the feature: the case is a skip.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <random>
#include <stdexcept>
#include <vector>

#include "suite.hpp"
#include "tolerances.hpp"

namespace porta::conformance {
namespace {

struct TypeCase {
  const char* name;
  porta_dtype in, out;  // element types of the inputs a, b, c and of the output
  const char* body;     // the statement for element i
  double (*oracle)(double a, double b, double c);
  bool specials;  // inputs include zeros, infinities and NaN
  // Another result a device may give, and what it then does (a deviation).
  double (*alternative)(double a, double b, double c) = nullptr;
  const char* alternative_name = nullptr;
  // Or: a result within this many units in the last place of the type of the
  // exact value (Vulkan's precision table for an operation not correctly rounded).
  double alternative_ulps = 0;
};

double add(double a, double b, double) { return a + b; }
double sub(double a, double b, double) { return a - b; }
double mul(double a, double b, double) { return a * b; }
double div(double a, double b, double) { return a / b; }
double fma3(double a, double b, double c) { return a * b + c; }  // exact in double for half operands
// fma as Vulkan's precision table allows it: a * b rounded to half, then + c.
double fma_twice(double a, double b, double c) {
  return half_value(half_bits(half_value(half_bits(a * b)) + c));
}
double root(double a, double, double) { return std::sqrt(std::fabs(a)); }
double same(double a, double, double) { return a; }
double truncate(double a, double, double) { return std::trunc(a) + 0.0; }  // an int has no -0
double wrap8(double v) { return static_cast<double>(static_cast<int8_t>(static_cast<int64_t>(v))); }
double wrap16(double v) { return static_cast<double>(static_cast<int16_t>(static_cast<int64_t>(v))); }
double add8(double a, double b, double) { return wrap8(a + b); }
double mul8(double a, double b, double) { return wrap8(a * b); }
double from_int8(double a, double, double) { return wrap8(a * 37 - 1000); }
double from_int16(double a, double, double) { return wrap16(a * 37 - 1000); }
double add16(double a, double b, double) { return wrap16(a + b); }
double mul16(double a, double b, double) { return wrap16(a * b); }

constexpr porta_dtype F16 = PORTA_DTYPE_FLOAT16, BF16 = PORTA_DTYPE_BFLOAT16, F32 = PORTA_DTYPE_FLOAT32,
                      I8 = PORTA_DTYPE_INT8, I16 = PORTA_DTYPE_INT16, I32 = PORTA_DTYPE_INT32;

// `precise` keeps a * b + c two roundings where the case means them.
const TypeCase kFp16[] = {
    {"add", F16, F16, "precise float16_t r = a[i] + b[i]; out_[i] = r;", add, true},
    {"sub", F16, F16, "precise float16_t r = a[i] - b[i]; out_[i] = r;", sub, true},
    {"mul", F16, F16, "precise float16_t r = a[i] * b[i]; out_[i] = r;", mul, true},
    // Vulkan asks 2.5 ulp of a division and inherits sqrt's precision from
    // 1.0 / inversesqrt() (2 ulp, then the division): NVIDIA's driver is not
    // correctly rounded in half; porta's translated targets are.
    {"div", F16, F16, "precise float16_t r = a[i] / b[i]; out_[i] = r;", div, true, nullptr,
     "divides within Vulkan's 2.5 ulp, not correctly rounded", 2.5},
    // glslang 12 declares the Float16 capability for arithmetic operators,
    // not for GLSL.std.450 calls alone: the exact * 1 makes the module valid.
    // Vulkan lets fma round twice (its precision is OpFMul's then OpFAdd's),
    // even under `precise`: lavapipe does; porta's translated targets round once.
    {"fma", F16, F16, "precise float16_t r = fma(a[i], b[i], c[i]) * float16_t(1.0); out_[i] = r;", fma3,
     false, fma_twice, "rounds fma twice (a * b, then + c), as Vulkan's precision for fma allows"},
    {"sqrt", F16, F16, "out_[i] = sqrt(abs(a[i])) * float16_t(1.0);", root, true, nullptr,
     "takes square roots within Vulkan's precision, not correctly rounded", 4.5},
    {"from-f32", F32, F16, "out_[i] = float16_t(a[i]);", same, true},
    {"to-f32", F16, F32, "out_[i] = float(a[i]);", same, true},
    {"to-int", F16, I32, "out_[i] = int(a[i]);", truncate, false},
};
const TypeCase kBf16[] = {
    {"from-f32", F32, BF16, "out_[i] = uint16_t(porta_bf16_from_float(a[i]));", same, true},
    {"to-f32", BF16, F32, "out_[i] = porta_bf16_to_float(uint(a[i]));", same, true},
    {"mul-via-f32", BF16, BF16, "out_[i] = bf16_op(a[i], b[i], *);", mul, true},
    {"add-via-f32", BF16, BF16, "out_[i] = bf16_op(a[i], b[i], +);", add, true},
};
// Integer cases: the same statements on int8_t and int16_t, wrapping in the type.
std::vector<TypeCase> integer_cases(porta_dtype t) {
  const bool narrow = t == I8;
  return {{"add-wrap", t, t, "out_[i] = a[i] + b[i];", narrow ? add8 : add16, false},
          {"mul-wrap", t, t, "out_[i] = a[i] * b[i];", narrow ? mul8 : mul16, false},
          {"from-int", t, t,
           narrow ? "out_[i] = int8_t(int(a[i]) * 37 - 1000);" : "out_[i] = int16_t(int(a[i]) * 37 - 1000);",
           narrow ? from_int8 : from_int16, false}};
}

struct Table {
  const char* op;
  std::vector<TypeCase> cases;
};
const std::vector<Table>& tables() {
  static const std::vector<Table> all = {{"fp16", std::vector<TypeCase>(std::begin(kFp16), std::end(kFp16))},
                                         {"bf16", std::vector<TypeCase>(std::begin(kBf16), std::end(kBf16))},
                                         {"int8", integer_cases(I8)},
                                         {"int16", integer_cases(I16)}};
  return all;
}

// One unit in the last place of `t` at the magnitude of `v` (float16 and
// bfloat16; subnormals have the smallest exponent's).
double ulp_of(porta_dtype t, double v) {
  const int mantissa = t == BF16 ? 7 : 10, min_exponent = t == BF16 ? -126 : -14;
  int e = 0;
  std::frexp(v, &e);  // v = f * 2^e, f in [0.5, 1)
  return std::ldexp(1.0, std::max(e - 1, min_exponent) - mantissa);
}

const TypeCase* find_case(const std::string& op, const std::string& name) {
  for (const Table& t : tables())
    if (op == t.op)
      for (const TypeCase& c : t.cases)
        if (name.rfind(std::string(c.name) + "-n", 0) == 0) return &c;
  return nullptr;
}

const char* glsl_type(porta_dtype t) {
  static const struct {
    porta_dtype dtype;
    const char* glsl;
  } kTypes[] = {{F16, "float16_t"}, {BF16, "uint16_t"}, {I8, "int8_t"}, {I16, "int16_t"}, {I32, "int"}};
  for (const auto& entry : kTypes)
    if (entry.dtype == t) return entry.glsl;
  return "float";
}

// The bfloat16 conversions of translator/runtime/porta_bfloat16.glsl.
const char* const kBf16Functions = R"(
uint porta_bf16_from_float(float x) {
  uint u = floatBitsToUint(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}
float porta_bf16_to_float(uint b) { return uintBitsToFloat(b << 16); }
// Two bfloat16 combined in float, rounded once.
#define bf16_op(x, y, op) uint16_t(porta_bf16_from_float(porta_bf16_to_float(uint(x)) op porta_bf16_to_float(uint(y))))
)";

std::string kernel_source(const TypeCase& c) {
  std::string s =
      "#version 450\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : enable\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : enable\n"
      "#extension GL_EXT_shader_16bit_storage : enable\n"
      "#extension GL_EXT_shader_8bit_storage : enable\n"
      "layout(local_size_x = 64) in;\n";
  const std::string in = glsl_type(c.in);
  s += "layout(std430, binding = 0) readonly buffer A { " + in + " a[]; };\n";
  s += "layout(std430, binding = 1) readonly buffer B { " + in + " b[]; };\n";
  s += "layout(std430, binding = 2) readonly buffer C { " + in + " c[]; };\n";
  s +=
      "layout(std430, binding = 3) writeonly buffer Out { " + std::string(glsl_type(c.out)) + " out_[]; };\n";
  s += "layout(push_constant) uniform Push { uint n; };\n";
  if (c.in == BF16 || c.out == BF16) s += kBf16Functions;
  s += "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  if (i >= n) return;\n  ";
  s += c.body;
  s += "\n}\n";
  return s;
}

uint16_t bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}

// Host values <-> element bytes (every value given is representable).
void put(porta_dtype t, double v, uint8_t* p) {
  switch (t) {
    case PORTA_DTYPE_FLOAT16: {
      const uint16_t h = half_bits(v);
      std::memcpy(p, &h, 2);
      break;
    }
    case PORTA_DTYPE_BFLOAT16: {
      const uint16_t h = bf16_bits(static_cast<float>(v));
      std::memcpy(p, &h, 2);
      break;
    }
    case PORTA_DTYPE_INT8:
      *p = static_cast<uint8_t>(static_cast<int8_t>(v));
      break;
    case PORTA_DTYPE_INT16: {
      const int16_t s = static_cast<int16_t>(v);
      std::memcpy(p, &s, 2);
      break;
    }
    case PORTA_DTYPE_INT32: {
      const int32_t s = static_cast<int32_t>(v);
      std::memcpy(p, &s, 4);
      break;
    }
    default: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
    }
  }
}

float get(porta_dtype t, const uint8_t* p) {
  switch (t) {
    case PORTA_DTYPE_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return static_cast<float>(half_value(h));
    }
    case PORTA_DTYPE_BFLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      const uint32_t u = uint32_t(h) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    case PORTA_DTYPE_INT8:
      return static_cast<int8_t>(*p);
    case PORTA_DTYPE_INT16: {
      int16_t s;
      std::memcpy(&s, p, 2);
      return s;
    }
    case PORTA_DTYPE_INT32: {
      int32_t s;
      std::memcpy(&s, p, 4);
      return static_cast<float>(s);
    }
    default: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
  }
}

// A value of type `t` from `rng`: floats with random bits over the type's
// finite range (specials: also zeros, infinities, NaN), integers over the
// type's range.
double draw(porta_dtype t, std::mt19937_64& rng, bool specials) {
  std::uniform_int_distribution<int> pick(0, 15);
  if (specials && (t == F16 || t == BF16 || t == F32)) {
    switch (pick(rng)) {
      case 0:
        return 0.0;
      case 1:
        return -0.0;
      case 2:
        return INFINITY;
      case 3:
        return -NAN;
      default:
        break;
    }
  }
  switch (t) {
    case PORTA_DTYPE_FLOAT16: {
      // Exponents from 2^-13 to 2^10, so that products, sums and quotients
      // of two stay inside the normal range mostly, and cross it sometimes.
      std::uniform_int_distribution<int> e(2, 25), m(0, 1023), s(0, 1);
      return half_value(static_cast<uint16_t>((s(rng) << 15) | (e(rng) << 10) | m(rng)));
    }
    case PORTA_DTYPE_BFLOAT16: {
      std::uniform_int_distribution<int> e(100, 154), m(0, 127), s(0, 1);
      const uint32_t u = (uint32_t(s(rng)) << 31) | (uint32_t(e(rng)) << 23) | (uint32_t(m(rng)) << 16);
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    case PORTA_DTYPE_INT8:
      return std::uniform_int_distribution<int>(-128, 127)(rng);
    case PORTA_DTYPE_INT16:
      return std::uniform_int_distribution<int>(-32768, 32767)(rng);
    default: {
      // float32 with bits below the half/bfloat16 precision, ties included.
      std::uniform_int_distribution<uint32_t> bits(0, 0xffffffu);
      const uint32_t b = bits(rng);
      const double v = std::ldexp(1.0 + (b & 0x7fffffu) * 0x1p-23, static_cast<int>(b >> 23) % 30 - 14);
      return (b & 1u) ? v : -v;
    }
  }
}

}  // namespace

const std::vector<std::string>& type_ops() {
  static const std::vector<std::string> ops = {"fp16", "bf16", "int8", "int16"};
  return ops;
}

std::vector<Case> type_cases(const std::string& op) {
  std::vector<Case> out;
  for (const Table& t : tables())
    if (op == t.op)
      for (const TypeCase& tc : t.cases)
        for (uint64_t n : {uint64_t(1), uint64_t(63), uint64_t(4099)}) {
          Case c;
          c.op = op;
          c.n = n;
          c.name = std::string(tc.name) + "-n" + std::to_string(n);
          out.push_back(c);
        }
  return out;
}

std::vector<Output> run_type_case(Devices& d, const Case& c, uint64_t seed) {
  const TypeCase* tc = find_case(c.op, c.name);
  if (!tc) throw std::runtime_error("no type case '" + c.name + "' of " + c.op);
  std::mt19937_64 rng(seed);
  const size_t in_size = porta_dtype_size(tc->in), out_size = porta_dtype_size(tc->out);
  std::vector<double> a(c.n), b(c.n), cc(c.n);
  std::vector<uint8_t> bytes[3];
  for (int k = 0; k < 3; ++k) bytes[k].assign(c.n * in_size + 4, 0);
  for (uint64_t i = 0; i < c.n; ++i) {
    a[i] = draw(tc->in, rng, tc->specials);
    b[i] = draw(tc->in, rng, tc->specials);
    cc[i] = draw(tc->in, rng, tc->specials);
    put(tc->in, a[i], &bytes[0][i * in_size]);
    put(tc->in, b[i], &bytes[1][i * in_size]);
    put(tc->in, cc[i], &bytes[2][i * in_size]);
    // What the device reads: the stored value (a float32 input is exact).
    a[i] = get(tc->in, &bytes[0][i * in_size]);
    b[i] = get(tc->in, &bytes[1][i * in_size]);
    cc[i] = get(tc->in, &bytes[2][i * in_size]);
  }
  Output o;
  o.name = "out";
  o.before.assign(c.n, 0.0f);
  o.inside.assign(c.n, 1);
  o.exact.resize(c.n);
  for (uint64_t i = 0; i < c.n; ++i) o.exact[i] = tc->oracle(a[i], b[i], cc[i]);
  if (tc->alternative) {
    o.flushed.resize(c.n);
    for (uint64_t i = 0; i < c.n; ++i) o.flushed[i] = static_cast<float>(tc->alternative(a[i], b[i], cc[i]));
    o.alternative = tc->alternative_name;
  }
  if (tc->alternative_ulps > 0) {
    o.alternative_bound.resize(c.n);
    for (uint64_t i = 0; i < c.n; ++i) o.alternative_bound[i] = tc->alternative_ulps * ulp_of(tc->out, o.exact[i]);
    o.alternative = tc->alternative_name;
  }
  o.where = [](uint64_t i) { return "out[" + std::to_string(i) + "]"; };
  std::vector<Output> outputs{o};
  const std::string source = kernel_source(*tc);
  auto run = [&](porta::Device& dev) {
    porta::Kernel k = dev.kernel(porta::glsl(source, c.op + "-" + tc->name));
    porta::Buffer ba = dev.upload(bytes[0]), bb = dev.upload(bytes[1]), bc = dev.upload(bytes[2]);
    porta::Buffer bo = dev.upload(std::vector<uint8_t>(c.n * out_size + 4, 0));
    porta::Stream s = dev.stream();
    const uint32_t n = static_cast<uint32_t>(c.n);
    s.dispatch(k, {static_cast<uint32_t>((c.n + 63) / 64), 1, 1}, {ba, bb, bc, bo}, n);
    s.sync();
    const std::vector<uint8_t> got = bo.to_vector<uint8_t>();
    std::vector<float> values(c.n);
    for (uint64_t i = 0; i < c.n; ++i) values[i] = get(tc->out, &got[i * out_size]);
    return values;
  };
  outputs[0].dut = run(d.dut);
  if (d.ref) outputs[0].ref = run(*d.ref);
  return outputs;
}

}  // namespace porta::conformance
