// kernels/matmul/matmul.comp on one small problem with ragged edges, for tests that
// run a translation of it outside porta (the translator's targets on their
// own): the inputs, the push constants, the group count and the exact result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"
#include "support/test_kernels.hpp"

namespace porta::test {

struct MatmulCase {
  // matmul.comp's push constants (std430): one matrix, no bias (the kernel's
  // fourth buffer, the bias, is not read: pass A again).
  struct Params {
    uint32_t M, N, K, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
    float alpha, beta;
    uint32_t a_batch, b_batch, c_batch, row_groups, bias_offset;
  };

  // 4 x 4 items of 4 x 4 elements, 4-deep slices: 16 x 16 blocks, so that
  // 37 x 29 spans whole and partial blocks and K = 23 a partial last slice.
  static constexpr uint32_t kGroup = 4, kBlock = 16;
  uint32_t M = 37, N = 29, K = 23;
  std::vector<float> a, b, c, expected;
  Params params{};

  MatmulCase() {
    a.resize(M * K);
    b.resize(K * N);
    c.resize(M * N);
    // Small integers: every product and sum is exact in float, so any order
    // of rounding gives these very values.
    for (uint32_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 5) - 2);
    for (uint32_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 3 % 7) - 3);
    for (uint32_t i = 0; i < c.size(); ++i) c[i] = float(int(i % 9) - 4);
    params = {M, N, K, K, N, N, 0, 0, 0, 0, 0, 2.0f, 0.5f, 0, 0, 0, groups_y(), 0};
    expected.resize(c.size());
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t j = 0; j < N; ++j) {
        float sum = 0.0f;
        for (uint32_t k = 0; k < K; ++k) sum += a[i * K + k] * b[k * N + j];
        expected[i * N + j] = params.alpha * sum + params.beta * c[i * N + j];
      }
  }

  static std::string glsl(const std::string& source_root) {
    return test_kernels_detail::read_text(source_root + "/kernels/matmul/matmul.comp");
  }
  // The small tiling above with `prefetch` (matmul.comp's PREFETCH).
  static std::vector<translator::SpecValue> specs(uint32_t prefetch) {
    return {{0, kGroup}, {1, kGroup}, {2, 4}, {3, 4}, {4, 4}, {5, prefetch}, {6, 0}};
  }
  // Groups: x over the columns of C, y over its rows.
  uint32_t groups_x() const { return (N + kBlock - 1) / kBlock; }
  uint32_t groups_y() const { return (M + kBlock - 1) / kBlock; }
};

}  // namespace porta::test
