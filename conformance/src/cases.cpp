// The case tables, one per op. --quick runs the rows without full_only; --full
// runs all of them. Sizes: 0, 1, primes, non-multiples of every tile and
// vector width (vec4, work-groups of 64/256, matmul blocks of 32/64 and
// 16-deep slices), enough elements for many work-groups and, in --full, at
// least 2^24 elements. Value classes wherever the op defines them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include "porta/quantize.hpp"
#include "suite.hpp"

namespace porta::conformance {

const std::vector<std::string>& builtin_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> all = {"fill",   "scale", "mul",   "add",        "sigmoid",
                                    "matmul", "gemm",  "dense", "logreg_step"};
    for (const std::string& op : type_ops()) all.push_back(op);
    return all;
  }();
  return ops;
}

const char* values_name(Values v) {
  static const char* const kNames[] = {
      "normal", "negative", "tiny",    "huge",  "zeros",    "denormal",
      "inf",    "nan",      "inf-nan", "mixed", "saturated"};  // in Values' order
  static_assert(std::size(kNames) == static_cast<size_t>(Values::kSaturated) + 1);
  return kNames[static_cast<int>(v)];
}

uint64_t Case::elements() const {
  if (op == "matmul" || op == "gemm" || op == "dense") return m * n * std::max<uint64_t>(batch, 1);
  if (op == "logreg_step") return n + 2;
  return n;
}

uint64_t case_seed(uint64_t run_seed, const std::string& op, const std::string& name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over "op/name"
  for (char c : op + "/" + name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  uint64_t z = run_seed + h + 0x9e3779b97f4a7c15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

namespace {

const uint64_t kLengths[] = {0,  1,   2,   3,   4,   5,    7,    8,    13,   31,   61,
                             64, 127, 255, 256, 257, 1021, 1024, 1025, 4099, 65537};
const uint64_t kLargeLength = (1u << 20) + 3;  // 4097 groups of 256
const uint64_t kHugeLength = (1u << 24) + 7;   // --full: >= 2^24 elements
const Values kElementwiseValues[] = {Values::kNegative, Values::kTiny, Values::kHuge, Values::kZeros,
                                     Values::kDenormal, Values::kInf,  Values::kNan,  Values::kMixed};

// "m" and 12 → "m12" (appended: GCC 12 warns falsely on "m" + std::string).
std::string tagged(const char* tag, uint64_t value) {
  std::string s = tag;
  s += std::to_string(value);
  return s;
}

std::string n_name(uint64_t n) {
  std::string name = "n";
  name += std::to_string(n);
  return name;
}

// The end of a matrix op's case name: row padding, the views' offset and the value class.
std::string layout_suffix(uint64_t pad, uint64_t offset, Values v) {
  return (pad ? tagged("-pad", pad) : "") + (offset ? tagged("-off", offset) : "") +
         (v != Values::kNormal ? std::string("-") + values_name(v) : "");
}

Case elementwise(const std::string& op, uint64_t n, std::string name) {
  Case c;
  c.op = op;
  c.n = n;
  c.name = std::move(name);
  return c;
}

// Lengths, value classes, offsets and in place: what every elementwise op shares.
void elementwise_rows(const std::string& op, std::vector<Case>& out) {
  for (uint64_t n : kLengths) out.push_back(elementwise(op, n, n_name(n)));
  out.push_back(elementwise(op, kLargeLength, n_name(kLargeLength)));
  Case huge = elementwise(op, kHugeLength, n_name(kHugeLength));
  huge.full_only = true;
  out.push_back(huge);
  for (Values v : kElementwiseValues)
    for (uint64_t n : {uint64_t(1021), uint64_t(4099), uint64_t(65537)}) {
      Case c = elementwise(op, n, n_name(n) + "-" + values_name(v));
      c.values = v;
      c.full_only = n == 65537;
      out.push_back(c);
    }
  // Offsets: aligned to vec4 and not, per operand.
  const uint64_t offsets[][3] = {{4, 8, 12}, {1, 0, 0}, {0, 3, 0}, {0, 0, 2}, {5, 6, 7}};
  for (const auto& o : offsets)
    for (uint64_t n : {uint64_t(1), uint64_t(7), uint64_t(257), uint64_t(4099)}) {
      Case c = elementwise(op, n,
                           n_name(n) + tagged("-off", o[0]) + tagged(".", o[1]) + "." + std::to_string(o[2]));
      for (int i = 0; i < 3; ++i) c.off[i] = o[i];
      out.push_back(c);
    }
  for (uint64_t n : {uint64_t(5), uint64_t(1021), uint64_t(65537)}) {
    Case c = elementwise(op, n, n_name(n) + "-inplace");
    c.in_place = true;
    c.off[0] = c.off[1] = c.off[2] = n % 4;
    out.push_back(c);
  }
}

std::vector<Case> fill_cases() {
  std::vector<Case> out;
  for (uint64_t n : kLengths) {
    Case c = elementwise("fill", n, n_name(n));
    c.scalar = 2.5f;
    out.push_back(c);
  }
  Case large = elementwise("fill", kLargeLength, n_name(kLargeLength));
  large.scalar = -1.25f;
  out.push_back(large);
  Case huge = elementwise("fill", kHugeLength, n_name(kHugeLength));
  huge.scalar = 3.0f;
  huge.full_only = true;
  out.push_back(huge);
  // Every value class as the fill value.
  const std::pair<const char*, float> values[] = {
      {"neg", -7.5f},         {"tiny", 1.5e-38f}, {"huge", 3.0e38f},     {"zero", 0.0f}, {"negzero", -0.0f},
      {"denormal", 1.0e-40f}, {"inf", INFINITY},  {"neginf", -INFINITY}, {"nan", NAN}};
  for (const auto& [name, v] : values) {
    Case c = elementwise("fill", 1021, std::string("n1021-") + name);
    c.scalar = v;
    c.values = std::string(name) == "denormal" ? Values::kDenormal : Values::kNormal;
    out.push_back(c);
  }
  // Views of every rank, at an offset.
  const std::vector<std::vector<uint64_t>> shapes = {
      {10, 10}, {3, 5, 7}, {2, 3, 5, 7}, {1, 1, 1, 1}, {17, 0}};
  for (const auto& s : shapes) {
    Case c = elementwise("fill", 1, "shape");
    uint64_t n = 1;
    for (uint64_t d : s) {
      n *= d;
      c.name += '-';
      c.name += std::to_string(d);
    }
    c.n = n;
    c.shape = s;
    c.off[2] = 3;
    c.scalar = 0.75f;
    out.push_back(c);
  }
  return out;
}

std::vector<Case> scale_cases() {
  std::vector<Case> out;
  elementwise_rows("scale", out);
  for (Case& c : out) {
    // alpha by class: underflow to denormals from tiny inputs, overflow from huge ones.
    c.scalar = c.values == Values::kTiny ? 0x1p-20f : c.values == Values::kHuge ? 0x1p20f : -0.3f;
  }
  for (float alpha : {0.0f, -0.0f, INFINITY, NAN}) {
    Case c = elementwise("scale", 1021,
                         "n1021-alpha-" + std::string(std::isnan(alpha)     ? "nan"
                                                      : std::isinf(alpha)   ? "inf"
                                                      : std::signbit(alpha) ? "negzero"
                                                                            : "zero"));
    c.scalar = alpha;
    c.values = Values::kMixed;
    out.push_back(c);
  }
  return out;
}

// A matmul-shaped case of `op` (matmul, gemm), named by its shape, transposes,
// alpha and beta, layout and values.
Case product_case(const char* op, uint64_t m, uint64_t n, uint64_t k, bool ta, bool tb, float alpha,
                  float beta, uint64_t pad, uint64_t offset, Values v, bool full_only,
                  const std::string& prefix = "") {
  Case c{.op = op,
         .full_only = full_only,
         .values = v,
         .n = n,
         .off = {offset, 0, 0},
         .m = m,
         .k = k,
         .pad = pad,
         .trans_a = ta,
         .trans_b = tb,
         .alpha = alpha,
         .beta = beta};
  char buf[160];
  std::snprintf(buf, sizeof buf, "%sm%llun%lluk%llu%s%s", prefix.c_str(), static_cast<unsigned long long>(m),
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(k), ta ? "-ta" : "",
                tb ? "-tb" : "");
  c.name = buf;
  if (alpha != 1 || beta != 0) {
    std::snprintf(buf, sizeof buf, "-a%gb%g", alpha, beta);
    c.name += buf;
  }
  return c;
}

std::vector<Case> matmul_cases() {
  std::vector<Case> out;
  auto add = [&](uint64_t m, uint64_t n, uint64_t k, bool ta = false, bool tb = false, float alpha = 1,
                 float beta = 0, uint64_t pad = 0, uint64_t offset = 0, Values v = Values::kNormal,
                 bool full_only = false) {
    Case c = product_case("matmul", m, n, k, ta, tb, alpha, beta, pad, offset, v, full_only);
    c.name += layout_suffix(pad, offset, v);
    out.push_back(c);
  };
  // Empty and 1.
  add(0, 5, 3);
  add(5, 0, 3);
  add(5, 5, 0, false, false, 1, 0.5f, 0, 1);  // K = 0: C = beta C
  add(1, 1, 1);
  // A depth K past llvmpipe's loop limit (65535 iterations per work-item in
  // all), with products of one sign so that a K loop cut short is far outside
  // the bound.
  add(2, 3, 62000, false, false, 1, 0, 0, 0, Values::kNegative);
  // Small and prime sizes.
  for (uint64_t m : {2, 3, 7, 13, 33})
    for (uint64_t n : {1, 7, 33})
      for (uint64_t k : {1, 5, 17}) add(m, n, k);
  // Non-multiples of every tile (blocks 32 and 64, 4 per item, 16-deep slices), many work-groups.
  add(63, 65, 15);
  add(65, 63, 17);
  add(97, 101, 103);
  add(129, 31, 47);
  add(64, 64, 16);
  add(257, 259, 33);
  add(300, 280, 129, false, false, 1, 0, 0, 0, Values::kNormal, true);
  add(513, 511, 257, false, false, 1, 0, 0, 0, Values::kNormal, true);
  // Transposes.
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      add(37, 29, 41, ta, tb);
      add(1, 67, 3, ta, tb);
      add(258, 260, 19, ta, tb, 1, 0, 0, 0, Values::kNormal, !(ta && tb));
    }
  // alpha, beta, row strides and offsets.
  add(45, 38, 23, false, false, 0.5f, 2.0f);
  add(45, 38, 23, true, true, -1.5f, 0.25f, 3, 5);
  add(70, 9, 130, false, true, 2.0f, 1.0f, 1, 2);
  add(33, 65, 31, true, false, 1.0f, 0.0f, 7, 0);
  // Value classes.
  for (Values v : {Values::kNegative, Values::kTiny, Values::kHuge, Values::kZeros, Values::kInfNan})
    add(45, 38, 23, false, false, 1, 0, 0, 0, v);
  add(45, 38, 23, true, false, 1, 1, 2, 0, Values::kInfNan);
  // --full: at least 2^24 elements in C, and in A.
  add(4096, 4096, 4, false, false, 1, 0, 0, 0, Values::kNormal, true);
  add(4096, 8, 4096, false, false, 1, 0, 0, 0, Values::kNormal, true);
  return out;
}

// gemm: the input types, batches, the epilogue; matmul's table covers the
// float32 shapes and value classes of the same kernel.
std::vector<Case> gemm_cases() {
  std::vector<Case> out;
  auto add = [&](uint64_t m, uint64_t n, uint64_t k, porta_dtype input, uint64_t batch = 0, bool ta = false,
                 bool tb = false, float alpha = 1, float beta = 0, bool bias = false, int act = 0,
                 uint64_t pad = 0, uint64_t offset = 0, bool full_only = false) {
    const char* type = input == PORTA_DTYPE_FLOAT16    ? "f16-"
                       : input == PORTA_DTYPE_BFLOAT16 ? "bf16-"
                                                       : "f32-";
    Case c =
        product_case("gemm", m, n, k, ta, tb, alpha, beta, pad, offset, Values::kNormal, full_only, type);
    c.input = input;
    c.batch = batch;
    c.bias = bias;
    c.activation = act;
    static const char* const kActs[] = {"", "-relu", "-sigmoid", "-gelu"};
    c.name += (batch ? tagged("-batch", batch) : "") + (bias ? "-bias" : "") + kActs[act] +
              layout_suffix(pad, offset, Values::kNormal);
    out.push_back(c);
  };
  for (porta_dtype input : {PORTA_DTYPE_FLOAT32, PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16}) {
    add(1, 1, 1, input);
    add(33, 31, 17, input);
    add(130, 67, 65, input);
    for (bool ta : {false, true})
      for (bool tb : {false, true}) add(37, 29, 41, input, 0, ta, tb);
    // Odd offsets and row strides: 16-bit elements in either half of a word.
    add(45, 38, 23, input, 0, true, false, -1.5f, 0.25f, false, 0, 3, 5);
    add(19, 23, 11, input, 3);
    add(17, 20, 9, input, 4, true, true, 0.5f, 2.0f, false, 0, 1, 1);
    add(41, 37, 29, input, 2, false, false, 1, 0.5f, true, 3);
    add(257, 259, 33, input, 2, false, false, 1, 0, false, 0, 0, 0, true);
    // Row strides and offsets of whole 16-byte runs (the cooperative-matrix
    // kernel's VEC loads), with K and the blocks' edges inside a run and past it.
    add(48, 40, 56, input);
    for (bool ta : {false, true})
      for (bool tb : {false, true}) add(40, 56, 72, input, 0, ta, tb);
    add(72, 40, 48, input, 3, false, true, 1, 0.5f, true, 1, 0, 8);
  }
  for (int act = 0; act <= 3; ++act) add(41, 37, 29, PORTA_DTYPE_FLOAT32, 0, false, true, 2.0f, 0, true, act);
  add(23, 19, 35, PORTA_DTYPE_BFLOAT16, 0, true, true, 1, 0, false, 1);
  add(23, 19, 35, PORTA_DTYPE_FLOAT16, 0, false, false, 1, 1, true, 2);
  // K past llvmpipe's loop limit: K split over dispatches, the epilogue once.
  add(3, 5, 62000, PORTA_DTYPE_FLOAT16, 0, false, false, 0.01f, 1, true, 2);
  return out;
}

// add with broadcasting: out is m x n; b a row of n (a bias over every row),
// a column of m, or one element; in place or not.
std::vector<Case> add_broadcast_cases() {
  std::vector<Case> out;
  static const char* const kKinds[] = {"", "-row", "-column", "-scalar"};
  for (int kind = 1; kind <= 3; ++kind)
    for (auto [m, n] : {std::pair<uint64_t, uint64_t>{1, 1}, {7, 5}, {61, 63}, {1021, 17}, {257, 1025}}) {
      Case c;
      c.op = "add";
      c.m = m;
      c.n = n;
      c.broadcast = kind;
      c.name = tagged("m", m) + tagged("n", n) + kKinds[kind];
      out.push_back(c);
    }
  Case in_place;
  in_place.op = "add";
  in_place.m = 37;
  in_place.n = 29;
  in_place.broadcast = 1;
  in_place.in_place = true;
  in_place.name = "m37n29-row-inplace";
  out.push_back(in_place);
  return out;
}

// dense: y (batch x out) = act(x (batch x in) W^T (out x in) + b): gemm's
// operands as A = x, B = W with trans_b.
std::vector<Case> dense_cases() {
  std::vector<Case> out;
  auto add = [&](uint64_t batch, uint64_t in, uint64_t outs, bool bias, int act, uint64_t pad = 0,
                 uint64_t offset = 0) {
    Case c = product_case("dense", batch, outs, in, false, true, 1, 0, pad, offset, Values::kNormal, false);
    c.bias = bias;
    c.activation = act;
    static const char* const kActs[] = {"", "-relu", "-sigmoid", "-gelu"};
    c.name += std::string(bias ? "-bias" : "") + kActs[act] + layout_suffix(pad, offset, Values::kNormal);
    out.push_back(c);
  };
  add(1, 1, 1, true, 2);
  add(1, 33, 9, true, 2);
  for (int act = 0; act <= 3; ++act) add(37, 29, 13, true, act);
  add(64, 100, 10, false, 0);
  add(130, 67, 65, true, 1);
  add(45, 23, 38, true, 2, 3, 5);
  add(256, 512, 128, true, 2);
  return out;
}

std::vector<Case> logreg_cases() {
  std::vector<Case> out;
  auto add = [&](uint64_t m, uint64_t d, bool workspace = false, uint64_t pad = 0, Values v = Values::kNormal,
                 bool full_only = false) {
    // A padded X starts 3 elements into its buffer (not part of the name).
    Case c{.op = "logreg_step",
           .full_only = full_only,
           .values = v,
           .n = d,
           .off = {pad ? 3u : 0u, 0, 0},
           .m = m,
           .pad = pad,
           .workspace = workspace};
    c.name = tagged("m", m) + tagged("d", d) + (workspace ? "-workspace" : "") + layout_suffix(pad, 0, v);
    out.push_back(c);
  };
  for (uint64_t m : {1, 2, 7, 61, 1021})
    for (uint64_t d : {1, 3, 17, 63}) add(m, d);
  // Every tiling path: rows shared by several items, one row per tile, rows
  // longer than a tile, many tiles and groups.
  add(37, 1000);
  add(9, 2048);
  add(11, 2500);
  add(20011, 33);
  // More loop iterations per work-item than llvmpipe runs (65535 in all, its
  // loops end early after that) where one item would take a group's rows.
  add(16384, 64);
  add(100003, 5, false, 0, Values::kNormal, true);
  add(262144, 64, false, 0, Values::kNormal, true);  // 2^24 elements of X
  add(1021, 17, true);
  add(61, 63, true, 5);
  add(257, 9, false, 0, Values::kSaturated);
  add(257, 9, false, 0, Values::kZeros);
  // X in float16, bfloat16 and int8: rows whose last word is part padding,
  // every tiling path, many groups.
  for (porta_dtype dtype : {PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16, PORTA_DTYPE_INT8}) {
    const size_t first = out.size();
    for (auto [m, d] : {std::pair<uint64_t, uint64_t>{1, 1},
                        {7, 3},
                        {61, 63},
                        {1021, 17},
                        {37, 1000},
                        {11, 2500},
                        {20011, 33},
                        {4096, 256}})
      add(m, d);
    add(257, 9, false, 0, Values::kSaturated);
    for (size_t i = first; i < out.size(); ++i) {
      out[i].x_dtype = dtype;
      out[i].name += std::string("-x_") + porta::dtype_short_name(dtype);
    }
  }
  return out;
}

}  // namespace

std::vector<Case> cases_of(const std::string& op, bool full) {
  std::vector<Case> all;
  if (op == "fill") {
    all = fill_cases();
  } else if (op == "scale") {
    all = scale_cases();
  } else if (op == "mul" || op == "sigmoid") {
    elementwise_rows(op, all);
  } else if (op == "add") {
    elementwise_rows(op, all);
    for (Case& c : add_broadcast_cases()) all.push_back(std::move(c));
  } else if (op == "dense") {
    all = dense_cases();
  } else if (op == "matmul") {
    all = matmul_cases();
  } else if (op == "gemm") {
    all = gemm_cases();
  } else if (op == "logreg_step") {
    all = logreg_cases();
  } else {
    all = type_cases(op);
  }
  std::vector<Case> out;
  for (Case& c : all)
    if (full || !c.full_only) out.push_back(std::move(c));
  return out;
}

}  // namespace porta::conformance
