// Operands of porta_ops_gemm as the tests and porta-conformance make them:
// views of a matrix or a strided batch, and 16-bit values float16 (bfloat16)
// holds exactly, stored two to a 32-bit word.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "porta/porta.hpp"

namespace porta::test {

// `v` in [-1, 1] moved to the nearest value the type holds exactly in that
// range: a multiple of 2^-10 (float16: 11 significant bits) or of 2^-7
// (bfloat16: 8); float32 values stay as they are.
inline float representable(float v, porta_dtype dtype) {
  if (dtype == PORTA_DTYPE_FLOAT32) return v;
  const float scale = dtype == PORTA_DTYPE_FLOAT16 ? 1024.0f : 128.0f;
  return std::round(v * scale) / scale;
}

// The 16 bits of `v`, which the type holds exactly (a normal value or zero).
inline uint16_t bits16(float v, porta_dtype dtype) {
  if (dtype == PORTA_DTYPE_BFLOAT16) {
    uint32_t word = 0;
    std::memcpy(&word, &v, 4);
    return static_cast<uint16_t>(word >> 16);
  }
  if (v == 0) return std::signbit(v) ? 0x8000 : 0;
  int e = 0;
  const double f = std::frexp(std::fabs(static_cast<double>(v)), &e);  // |v| = f 2^e, f in [0.5, 1)
  const uint32_t mantissa = static_cast<uint32_t>((2 * f - 1) * 1024);
  return static_cast<uint16_t>((v < 0 ? 0x8000u : 0u) | (uint32_t(e - 1 + 15) << 10) | mantissa);
}

// Elements as stored: two to a word (element e in half e % 2 of word e / 2,
// little-endian), padded to whole words.
inline std::vector<uint16_t> pack16(const std::vector<float>& values, porta_dtype dtype) {
  std::vector<uint16_t> out(values.size() + values.size() % 2, 0);
  for (size_t e = 0; e < values.size(); ++e) out[e] = bits16(values[e], dtype);
  return out;
}

// A matrix (batch 0) or a batch of `batch` matrices `batch_stride` elements
// apart, rows `ld` elements apart.
inline porta::Tensor matrix_view(const porta::Buffer& b, porta_dtype dtype, uint64_t batch, uint64_t rows,
                                 uint64_t cols, uint64_t ld, uint64_t batch_stride, uint64_t offset) {
  if (batch == 0) {
    const uint64_t shape[2] = {rows, cols};
    const int64_t strides[2] = {static_cast<int64_t>(ld), 1};
    return porta::Tensor(b, shape, strides, offset, dtype);
  }
  const uint64_t shape[3] = {batch, rows, cols};
  const int64_t strides[3] = {static_cast<int64_t>(batch_stride), static_cast<int64_t>(ld), 1};
  return porta::Tensor(b, shape, strides, offset, dtype);
}

}  // namespace porta::test
