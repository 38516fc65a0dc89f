#version 450
// out[i] = 1 / (1 + exp(-x[i])), finite over the whole float range: exp is
// only ever taken of a value <= 0, so it cannot overflow. -inf gives 0, +inf
// gives 1, NaN stays NaN.
layout(local_size_x = 256, local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };

layout(push_constant) uniform Params {
  uint n;
  uint x_offset;
  uint o_offset;
  uint stride;
} p;

// ONCE (constant 1) = 1: the host launched an item per element (CPU-type
// devices) and both offsets are 0, so an item takes element
// gl_GlobalInvocationID.x or none, without a loop or offsets (mul.comp says
// why). The default is the CPU backend's built-in variant; GPUs launch fewer
// items, which loop (ONCE = 0).
layout(constant_id = 1) const uint ONCE = 1;

// exp(v) for v <= 0 with an error that does not grow with |v|: Vulkan allows
// exp 3 + 2|x| ulp (163 ulp at x = -80), so the argument is reduced first,
// exp(v) = exp(r) * 2^k with |r| <= ln2/2. LN2_HI has 13 significant bits, so
// k * LN2_HI is exact for the |k| <= 159 that occur. Below -110 the result
// underflows to 0 anyway.
const float LOG2E = 1.44269504;
const float LN2_HI = 0.693115234375;
const float LN2_LO = 3.19461833e-05;

// 2^e for -126 <= e <= 127, built from its exponent bits.
float exp2_int(int e) { return uintBitsToFloat(uint(e + 127) << 23); }

float exp_nonpositive(float v) {
  v = max(v, -110.0);
  float k = floor(v * LOG2E + 0.5);
  precise float r = (v - k * LN2_HI) - k * LN2_LO;  // precise: no reassociation into v - k * ln2
  // ldexp(exp(r), k) without a library call: k >= -159, so 2^k is two
  // normal factors; exp(r) * 2^(k/2) is exact (a normal result), and the
  // second product rounds once, as ldexp does.
  const int half_k = int(k) / 2;
  precise float scaled = exp(r) * exp2_int(half_k);
  return scaled * exp2_int(int(k) - half_k);
}

// exp_nonpositive for an item per element (ONCE: CPU-type devices), from
// float arithmetic alone, so that a CPU compiler's SIMD loop over work-items
// runs it 16 lanes to an AVX-512 vector. exp(r) there is a library call or
// (porta's CPU backend) a double-precision polynomial in half-width vectors,
// floor() and int() are a rounding and a saturating conversion: together
// 4x the instructions of this. k is v log2(e) rounded to nearest by adding
// 1.5 * 2^23, which leaves k in the low bits of the sum (read as an int, no
// conversion); exp(r) for |r| <= ln2/2 is its Taylor polynomial to degree 7
// (relative error below 6e-9, under a tenth of an ulp), in multiply-adds.
// The result is within 2 ulp of exp(v); sigmoid's bound is 8 (bound.hpp).
const float ROUNDER = 12582912.0;  // 1.5 * 2^23

float exp_nonpositive_polynomial(float v) {
  v = max(v, -110.0);
  precise float shifted = v * LOG2E + ROUNDER;  // precise: (x + c) - c is not x
  precise float k = shifted - ROUNDER;
  const int k_int = floatBitsToInt(shifted) - floatBitsToInt(ROUNDER);  // -159 <= k <= 0
  precise float r = (v - k * LN2_HI) - k * LN2_LO;
  float e = 1.0 / 5040.0;
  e = e * r + 1.0 / 720.0;
  e = e * r + 1.0 / 120.0;
  e = e * r + 1.0 / 24.0;
  e = e * r + 1.0 / 6.0;
  e = e * r + 0.5;
  e = e * r + 1.0;
  e = e * r + 1.0;
  const int half_k = k_int >> 1;  // 2^k in two normal factors, as exp_nonpositive
  precise float scaled = e * exp2_int(half_k);
  return scaled * exp2_int(k_int - half_k);
}

// With e = exp(-|v|), which never overflows: 1 / (1 + e) for v >= 0 and
// e / (1 + e) for v < 0, NaN stays NaN. One exp and one division whatever the
// sign, chosen by selects: with a branch per sign, a GPU runs both paths for
// a group that holds inputs of both signs.
float sigmoid(float v) {
  // NaN from its bits: no short-circuit &&, whose branches become a select
  // of booleans that GCC's SIMD loop over work-items leaves scalar, and no
  // comparison a fast-math GPU compiler may fold away.
  const bool is_nan = (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u;
  const float t = is_nan ? 0.0 : -abs(v);  // no NaN into float-to-int conversions
  const float e = ONCE != 0u ? exp_nonpositive_polynomial(t) : exp_nonpositive(t);
  const float s = (v >= 0.0 ? 1.0 : e) / (1.0 + e);
  return is_nan ? v : s;
}

// Each item takes four elements a stride apart per step, all four loads issued
// before any result is needed: a GPU then has four times the bytes in flight
// per thread (one load per thread leaves an H100 at ~70% of its bandwidth).
void main() {
  if (ONCE != 0u) {
    const uint i = gl_GlobalInvocationID.x;
    if (i < p.n) o[i] = sigmoid(x[i]);
    return;
  }
  const uint step = p.stride;
  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += min(4u * step, p.n - i)) {
    const uint left = p.n - i;  // > 0; the other three may lie past the end
    float v[4];
    for (uint k = 0u; k < 4u; ++k) v[k] = k * step < left ? x[p.x_offset + i + k * step] : 0.0;
    for (uint k = 0u; k < 4u; ++k)
      if (k * step < left) o[p.o_offset + i + k * step] = sigmoid(v[k]);
  }
}
