// porta/quantize.hpp: float32 data in the narrower types porta's ops read
// (header-only, host side): float16 and bfloat16 rounded to nearest even,
// and int8 with a float32 scale per column (symmetric quantisation).
//
//   porta::EncodedMatrix X = porta::encode_matrix(x.data(), m, d, PORTA_DTYPE_INT8);
//   porta::Buffer xb = device.upload(X.bytes), sb = device.upload(X.scale);
//   porta::Tensor tx = X.tensor(xb), ts(sb, {d});
//   porta::ops::logreg_step_scaled(stream, tx, &ts, y, w, b, lr, loss);
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "porta/porta.hpp"

namespace porta {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// IEEE binary16, rounded to nearest even; overflow gives infinity, NaN stays NaN.
inline uint16_t float_to_half(float f) {
  const uint32_t u = float_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);   // NaN
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to infinity
  if (abs < 0x38800000u) {
    // Below the smallest normal half (2^-14): a subnormal, in units of 2^-24, rounded to nearest even.
    const float scaled = bits_float(abs) * 16777216.0f;  // exact: a power of two
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  // Normal: drop 13 mantissa bits, rounding to nearest even (a carry into the exponent is right).
  const uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0) return (sign ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(mantissa), -24);
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// bfloat16 (the high half of a float32), rounded to nearest even; NaN stays NaN.
inline uint16_t float_to_bfloat16(float f) {
  const uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

inline float bfloat16_to_float(uint16_t h) { return bits_float(static_cast<uint32_t>(h) << 16); }

// An m x d float32 matrix stored as `dtype` (FLOAT32, FLOAT16, BFLOAT16 or
// INT8), row-major with rows padded to whole 32-bit words (row stride ldx
// elements), as porta_ops_logreg_step reads it.
struct EncodedMatrix {
  porta_dtype dtype = PORTA_DTYPE_FLOAT32;
  uint64_t rows = 0, cols = 0, ldx = 0;
  std::vector<uint8_t> bytes;  // rows * ldx elements, a multiple of 4 bytes
  std::vector<float> scale;    // INT8: feature (i, j) is q_ij * scale[j]; empty otherwise

  // The feature (i, j) as an op reads it: the stored value, decoded (exact
  // for the float types; q * scale rounded to float32 for int8).
  float value(uint64_t i, uint64_t j) const {
    const uint64_t e = i * ldx + j;
    uint16_t h;
    switch (dtype) {
      case PORTA_DTYPE_FLOAT16:
        std::memcpy(&h, &bytes[e * 2], 2);
        return half_to_float(h);
      case PORTA_DTYPE_BFLOAT16:
        std::memcpy(&h, &bytes[e * 2], 2);
        return bfloat16_to_float(h);
      case PORTA_DTYPE_INT8:
        return static_cast<float>(static_cast<int8_t>(bytes[e])) * scale[j];
      default: {
        float f;
        std::memcpy(&f, &bytes[e * 4], 4);
        return f;
      }
    }
  }
  // The whole matrix as the op reads it, m x d row-major float32.
  std::vector<float> decoded() const {
    std::vector<float> out(rows * cols);
    for (uint64_t i = 0; i < rows; ++i)
      for (uint64_t j = 0; j < cols; ++j) out[i * cols + j] = value(i, j);
    return out;
  }
  // A view of `buffer` (holding `bytes` from its start) as this matrix.
  Tensor tensor(const Buffer& buffer) const {
    const uint64_t shape[] = {rows, cols};
    const int64_t strides[] = {static_cast<int64_t>(ldx), 1};
    return Tensor(buffer, Span<const uint64_t>(shape, 2), Span<const int64_t>(strides, 2), 0, dtype);
  }
};

// int8 symmetric quantisation per column: scale_j = max_i |x_ij| / 127 (1 for
// a column of zeros), q_ij = x_ij / scale_j rounded to nearest even, in
// [-127, 127]. The largest value of each column is represented exactly up to
// the rounding of its scale.
inline EncodedMatrix encode_matrix(const float* x, uint64_t m, uint64_t d, porta_dtype dtype) {
  EncodedMatrix out;
  out.dtype = dtype;
  out.rows = m;
  out.cols = d;
  const uint64_t size = porta_dtype_size(dtype);
  if (dtype != PORTA_DTYPE_FLOAT32 && dtype != PORTA_DTYPE_FLOAT16 && dtype != PORTA_DTYPE_BFLOAT16 &&
      dtype != PORTA_DTYPE_INT8)
    throw std::invalid_argument("porta::encode_matrix: dtype " + std::to_string(static_cast<int>(dtype)) +
                                " is not float32, float16, bfloat16 or int8");
  const uint64_t per_word = 4 / size;
  out.ldx = (d + per_word - 1) / per_word * per_word;
  out.bytes.assign(m * out.ldx * size, 0);
  if (dtype == PORTA_DTYPE_INT8) {
    out.scale.assign(d, 0.0f);
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < d; ++j) out.scale[j] = std::max(out.scale[j], std::fabs(x[i * d + j]));
    for (float& s : out.scale) s = s > 0 ? s / 127.0f : 1.0f;
  }
  for (uint64_t i = 0; i < m; ++i)
    for (uint64_t j = 0; j < d; ++j) {
      const float v = x[i * d + j];
      uint8_t* at = &out.bytes[(i * out.ldx + j) * size];
      uint16_t h = 0;
      switch (dtype) {
        case PORTA_DTYPE_FLOAT16:
          h = float_to_half(v);
          std::memcpy(at, &h, 2);
          break;
        case PORTA_DTYPE_BFLOAT16:
          h = float_to_bfloat16(v);
          std::memcpy(at, &h, 2);
          break;
        case PORTA_DTYPE_INT8: {
          const float q = std::nearbyint(std::clamp(v / out.scale[j], -127.0f, 127.0f));
          *at = static_cast<uint8_t>(static_cast<int8_t>(q));
          break;
        }
        default:
          std::memcpy(at, &v, 4);
      }
    }
  return out;
}

// porta_dtype from its short name: f32, f16, bf16, int8 (and the long names).
inline bool dtype_from_name(const std::string& name, porta_dtype* dtype) {
  if (name == "f32" || name == "float32")
    *dtype = PORTA_DTYPE_FLOAT32;
  else if (name == "f16" || name == "float16")
    *dtype = PORTA_DTYPE_FLOAT16;
  else if (name == "bf16" || name == "bfloat16")
    *dtype = PORTA_DTYPE_BFLOAT16;
  else if (name == "int8")
    *dtype = PORTA_DTYPE_INT8;
  else
    return false;
  return true;
}

inline const char* dtype_short_name(porta_dtype dtype) {
  switch (dtype) {
    case PORTA_DTYPE_FLOAT16:
      return "f16";
    case PORTA_DTYPE_BFLOAT16:
      return "bf16";
    case PORTA_DTYPE_INT8:
      return "int8";
    default:
      return "f32";
  }
}

}  // namespace porta
