// Types and memory layouts, checked on every target that runs translated
// code here (target cpp in porta_translator_tests, target opencl on PoCL in
// porta-translator-opencl-tests): matrices in registers and in buffers
// (column- and row-major, any MatrixStride), std140 / std430 / scalar block
// layouts byte for byte, runtime arrays of structs, push constants whose
// layout is not the target's. The kernels are
// tests/translator/kernels/types/*.comp; each result is checked against values
// computed here from the inputs at the byte offsets Vulkan uses.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace porta::test::types {

inline std::string kernel_file(const std::string& name) {
  const std::string path = std::string(PORTA_SOURCE_DIR) + "/tests/translator/kernels/types/" + name;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) ADD_FAILURE() << "cannot read " << path;
  return text.str();
}

// Translates and runs one kernel file on one target.
class KernelRun {
 public:
  virtual ~KernelRun() = default;
  // Runs tests/translator/kernels/types/<file> over `groups` work-groups (x),
  // one buffer per binding in order, copied back; false (after a test
  // failure naming what failed) if it could not run.
  virtual bool operator()(const std::string& file, uint32_t groups, std::vector<std::vector<float>*> buffers,
                          const std::vector<float>& push = {}) = 0;
  // Why this target cannot run here, or "" when it can.
  virtual std::string unavailable() const { return ""; }
  std::string source;  // the last translation, for failure messages
};

// Floats from a few small integers: exact sums and products.
inline std::vector<float> inputs(size_t count, int seed) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = float(int((i * 7 + seed * 3) % 11) - 5) * 0.5f;
  return v;
}

// The silent wrong result this guards against: a std140 float[8] read as
// float[8] (stride 4) where Vulkan reads one float every 16 bytes.
inline void Std140ArrayStride16InStorageBuffer(KernelRun& run) {
  std::vector<float> params = inputs(64, 1), before = params, out(8, -1.0f);
  if (!run("std140_arrays.comp", 1, {&params, &out})) return;
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(out[i], before[4 * i] * 3.0f + before[32 + 4 * i + 1]) << i << "\n" << run.source;
    EXPECT_EQ(params[4 * i], float(i) + 0.5f) << i;
    EXPECT_EQ(params[32 + 4 * i], -float(i)) << i;
    for (uint32_t pad : {1u, 2u, 3u}) EXPECT_EQ(params[4 * i + pad], before[4 * i + pad]) << "padding " << i;
    EXPECT_EQ(params[32 + 4 * i + 1], before[32 + 4 * i + 1]) << i;
  }
}

inline void ScalarLayoutVec3ArraysAndStructs(KernelRun& run) {
  // v: vec3 every 12 bytes; P: pos at 0, w at 12, uv at 16, 24 bytes.
  std::vector<float> v = inputs(24, 2), ps = inputs(48, 3), before = ps, out(8);
  if (!run("scalar_layout.comp", 2, {&v, &ps, &out})) return;
  for (uint32_t i = 0; i < 8; ++i) {
    const float* p = &before[6 * i];
    EXPECT_EQ(out[i], v[3 * i + 1] + p[3] + p[5] + p[2]) << i << "\n" << run.source;
    for (int c = 0; c < 3; ++c) EXPECT_EQ(ps[6 * i + c], v[3 * i + c] * 2.0f) << i;
    for (int c = 3; c < 6; ++c) EXPECT_EQ(ps[6 * i + c], p[c]) << i;
  }
}

inline void Std430Vec3ArrayStride16(KernelRun& run) {
  std::vector<float> v = inputs(32, 4), before = v, out(8);
  if (!run("vec3_array.comp", 2, {&v, &out})) return;
  for (uint32_t i = 0; i < 8; ++i) {
    const float* e = &before[4 * i];
    EXPECT_EQ(out[i], e[0] - e[2]) << i << "\n" << run.source;
    EXPECT_EQ(v[4 * i + 0], e[2] + 1.0f);
    EXPECT_EQ(v[4 * i + 1], e[1] + 2.0f);
    EXPECT_EQ(v[4 * i + 2], e[0] + 3.0f);
    EXPECT_EQ(v[4 * i + 3], e[3]) << "the fourth slot is padding";
  }
}

inline void RowMajorMat3x4InBuffer(KernelRun& run) {
  // Row-major mat3x4 (3 columns, 4 rows): row r at r * 16 bytes, column c
  // 4 * c bytes into it; 64 bytes a matrix.
  std::vector<float> m = inputs(64, 5), before = m, x = inputs(16, 6), y(16);
  if (!run("row_major_mat3x4.comp", 1, {&m, &x, &y})) return;
  for (uint32_t i = 0; i < 4; ++i) {
    for (int r = 0; r < 4; ++r) {
      float expected = 0.0f;
      for (int c = 0; c < 3; ++c) expected += before[16 * i + 4 * r + c] * x[4 * i + c];
      EXPECT_FLOAT_EQ(y[4 * i + r], expected) << i << " row " << r << "\n" << run.source;
    }
    // m[i][2][1]: column 2, row 1.
    EXPECT_EQ(m[16 * i + 4 * 1 + 2], 10.0f + float(i));
    EXPECT_EQ(m[16 * i + 4 * 2 + 1], before[16 * i + 4 * 2 + 1]);
  }
}

inline void MatrixInstructions(KernelRun& run) {
  std::vector<float> in = inputs(32, 7), out(4 * 24);
  if (!run("matrix_ops.comp", 1, {&in, &out})) return;
  auto M = [&](int c, int r) { return double(in[4 * c + r]); };
  // determinant and inverse of m by Gaussian elimination, in double.
  double a[4][8];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c)
      a[r][c] = c < 4 ? M(c, r) + 8.0 * (c == r) : (c - 4 == r);  // mi = m + mat4(8)
  double det = 1.0;
  for (int p = 0; p < 4; ++p) {
    int best = p;
    for (int r = p + 1; r < 4; ++r)
      if (std::fabs(a[r][p]) > std::fabs(a[best][p])) best = r;
    if (best != p) {
      for (int c = 0; c < 8; ++c) std::swap(a[p][c], a[best][c]);
      det = -det;
    }
    det *= a[p][p];
    for (int c = 7; c >= p; --c) a[p][c] /= a[p][p];
    for (int r = 0; r < 4; ++r)
      if (r != p)
        for (int c = 7; c >= p; --c) a[r][c] -= a[r][p] * a[p][c];
  }
  for (uint32_t i = 0; i < 4; ++i) {
    const float* o = &out[24 * i];
    const float* v = &in[16 + 4 * i];
    for (int r = 0; r < 4; ++r) {
      double mv = 0, vm = 0;
      for (int c = 0; c < 4; ++c) mv += M(c, r) * v[c];
      for (int k = 0; k < 4; ++k) vm += v[k] * M(r, k);
      EXPECT_NEAR(o[r], mv, 1e-4) << i << "\n" << run.source;
      EXPECT_NEAR(o[4 + r], vm, 1e-4) << i;
    }
    for (int k = 0; k < 4; ++k) {
      const int r = (k + 1) % 4;
      double mm = 0;
      for (int j = 0; j < 4; ++j) mm += M(j, r) * M(k, j);
      EXPECT_NEAR(o[8 + k], (mm + M(k, r) - M(k, r) * 0.5) * 2.0, 1e-3) << i << " mm " << k;
    }
    // m3 = columns (2, .5, i), (-1, 3, .25), (.5, 1, 4).
    const double m3[3][3] = {{2.0, 0.5, double(i)}, {-1.0, 3.0, 0.25}, {0.5, 1.0, 4.0}};
    const double d3 = m3[0][0] * (m3[1][1] * m3[2][2] - m3[2][1] * m3[1][2]) -
                      m3[1][0] * (m3[0][1] * m3[2][2] - m3[2][1] * m3[0][2]) +
                      m3[2][0] * (m3[0][1] * m3[1][2] - m3[1][1] * m3[0][2]);
    for (int k = 0; k < 3; ++k) {
      // inverse[c][r] = cofactor(r, c) / det; c = k, r = (k + 2) % 3.
      const int c = k, r = (k + 2) % 3;
      const int c1 = (r + 1) % 3, c2 = (r + 2) % 3, r1 = (c + 1) % 3, r2 = (c + 2) % 3;
      const double cof = m3[c1][r1] * m3[c2][r2] - m3[c2][r1] * m3[c1][r2];
      EXPECT_NEAR(o[12 + k], cof / d3, 1e-5) << i << " inverse " << k;
    }
    EXPECT_NEAR(o[15], d3, 1e-5) << i;
    EXPECT_EQ(o[16], v[2] * v[3]) << "outerProduct(v.xyz, v.zw)[1][2]";
    EXPECT_EQ(o[17], v[2] * v[3]) << "transpose(op)[2][1] = op[1][2]";
    EXPECT_EQ(o[18], v[0] * v[2]);
    EXPECT_EQ(o[19], v[3] * 4.0f) << "matrixCompMult";
    EXPECT_NEAR(o[20], det, 1e-5 * std::fabs(det)) << "determinant(mat4)";
    EXPECT_NEAR(o[21], a[0][4 + 3], 1e-6) << "inverse(mi)[3][0]";
    EXPECT_NEAR(o[22], 1.0, 1e-5) << "m3 * inverse(m3)";
    EXPECT_EQ(o[23], -in[4 * 2 + 3]) << "-m";
  }
}

inline void Std140RuntimeArrayOfStructsLoadedAndStoredWhole(KernelRun& run) {
  // Item (std140, 80 bytes): p at 0, w at 12, k[2] at 16 and 32, m's columns
  // at 48 and 64; items[] starts at 16, after `count`.
  std::vector<float> items = inputs(4 + 4 * 20, 8), out(4 * 20, -9.0f);
  const uint32_t count = 3;
  std::memcpy(&items[0], &count, 4);
  if (!run("std140_structs.comp", 1, {&items, &out})) return;
  for (uint32_t i = 0; i < 4; ++i) {
    const float* it = &items[4 + 20 * i];
    const float* o = &out[20 * i];
    EXPECT_EQ(o[0], it[2]) << i << "\n" << run.source;
    EXPECT_EQ(o[1], it[0]);
    EXPECT_EQ(o[2], it[1]);
    EXPECT_EQ(o[3], it[3] + (it[8] + 3.0f));
    EXPECT_EQ(o[4], it[16] * 2.0f) << "k[0] = m[1][0]";
    EXPECT_EQ(o[8], it[8]);
    EXPECT_EQ(o[12], it[12] * 2.0f);
    EXPECT_EQ(o[13], it[13] * 2.0f);
    EXPECT_EQ(o[16], it[16] * 2.0f);
    EXPECT_EQ(o[17], it[17] * 2.0f);
    for (int pad : {5, 6, 7, 9, 10, 11, 14, 15, 18, 19}) EXPECT_EQ(o[pad], -9.0f) << "padding " << pad;
  }
}

inline void PushConstantsWithMat3(KernelRun& run) {
  // std430 mat3: three columns 16 bytes apart, then s at 48.
  float push[13] = {1, 2, 3, -7, 4, 5, 6, -7, 7, 8, 10, -7, 0.5f};
  std::vector<float> v = inputs(16, 9), before = v;
  if (!run("push_mat3.comp", 1, {&v}, std::vector<float>(push, push + 13))) return;
  for (uint32_t i = 0; i < 4; ++i)
    for (int r = 0; r < 3; ++r) {
      float expected = 0;
      for (int c = 0; c < 3; ++c) expected += push[4 * c + r] * before[4 * i + c];
      EXPECT_FLOAT_EQ(v[4 * i + r], expected * 0.5f) << i << " " << r << "\n" << run.source;
    }
}

inline void ArraysOfArraysNestedStructsAndExplicitOffsets(KernelRun& run) {
  // G (std140): g[3][2] at 0 (inner stride 16, outer 32), outer[2] at 96:
  // Outer = inner[2] (Inner = a at 0, b at 8; stride 16) at 0, t at 32; 48 bytes.
  std::vector<float> g = inputs(48, 10), before = g;
  // E: a at 4, b at 32, c[] at 48.
  std::vector<float> e = inputs(16, 11), e_before = e;
  if (!run("nested_layouts.comp", 1, {&g, &e})) return;
  for (uint32_t i = 0; i < 4; ++i) {
    const float gv = before[8 * (i % 3) + 4 * (i >> 1)];
    const float b_y = before[24 + 12 * (i & 1) + 4 * ((i >> 1) & 1) + 3];
    const float t = before[24 + 12 + 8];
    EXPECT_EQ(e[12 + i], gv + b_y + t + e_before[1] + e_before[8 + i]) << i << "\n" << run.source;
  }
  for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(g[4 * k], k == 3 ? 5.0f : before[4 * k]) << "g[1][1] = 5 " << k;
  EXPECT_EQ(g[24 + 4], e_before[11]) << "outer[0].inner[1].a";
}

inline void BoolAndBvecEverywhere(KernelRun& run) {
  std::vector<float> v = inputs(64, 12), out(17, 0.0f);
  if (!run("bool_bvec.comp", 2, {&v, &out})) return;
  uint32_t flags;
  std::memcpy(&flags, &out[0], 4);
  EXPECT_EQ(flags, 1u) << "a bool member of a buffer block (a uint in SPIR-V)";
  for (uint32_t i = 0; i < 16; ++i) {
    const float* x = &v[4 * i];
    bool gt[4], picked[4];
    for (int k = 0; k < 4; ++k) gt[k] = x[k] > 0.0f;
    for (int k = 0; k < 4; ++k) picked[k] = gt[k] == (k % 2 == 0);
    const bool big = std::fabs(x[0]) > 2 || std::fabs(x[1]) > 2 || std::fabs(x[2]) > 2 || std::fabs(x[3]) > 2;
    const bool signs_x = !gt[1], signs_y = !gt[2];
    const uint32_t neighbour = (i / 8) * 8 + (i % 8 + 1) % 8;
    const float m_x = x[0] <= 0.5f ? x[0] : -1.0f;
    uint32_t expected =
        uint32_t(gt[0] && gt[1] && gt[2] && gt[3]) | uint32_t(gt[0] || gt[1] || gt[2] || gt[3]) << 1 |
        uint32_t(big) << 2 | uint32_t(signs_x) << 3 | uint32_t(signs_y) << 4 |
        uint32_t(x[3] > -1.0f && x[3] < 1.0f) << 5 | uint32_t(v[4 * neighbour] > 0.0f) << 6 |
        uint32_t(picked[0] && picked[1] && picked[2] && picked[3]) << 7 |
        uint32_t(!picked[0] || !picked[1] || !picked[2] || !picked[3]) << 8 | uint32_t(m_x == -1.0f) << 9 |
        uint32_t(x[2] <= 0.5f) << 10 | uint32_t(gt[0] == gt[1]) << 11 | uint32_t(gt[1] != signs_x) << 12;
    uint32_t got;
    std::memcpy(&got, &out[1 + i], 4);
    EXPECT_EQ(got, expected) << i << "\n" << run.source;
  }
}

inline void Int64AndFloat64(KernelRun& run) {
  int64_t a[8];
  uint64_t b[8];
  double d[8];
  for (int i = 0; i < 8; ++i) {
    a[i] = (int64_t(i) * 123456789 - 500000000) * (i % 2 ? -1 : 1) * 1000;
    b[i] = 0xFEDCBA9876543210ull ^ (uint64_t(i) * 0x1234567ull);
    d[i] = 1.5 + i * 0.25;
  }
  std::vector<float> in(48), out(80, 0.0f);
  std::memcpy(&in[0], a, 64);
  std::memcpy(&in[16], b, 64);
  std::memcpy(&in[32], d, 64);
  if (!run("int64_fp64.comp", 1, {&in, &out})) return;
  for (int i = 0; i < 8; ++i) {
    int64_t sa;
    uint64_t ub;
    double dd, dv[2];
    std::memcpy(&sa, &out[2 * i], 8);
    std::memcpy(&ub, &out[16 + 2 * i], 8);
    std::memcpy(&dd, &out[32 + 2 * i], 8);
    std::memcpy(dv, &out[48 + 4 * i], 16);
    const int64_t expected_sa = int64_t(uint64_t(a[i]) * 3000000000ull - uint64_t(a[i] >> 3) + uint64_t(i));
    EXPECT_EQ(sa, expected_sa) << i << "\n" << run.source;
    EXPECT_EQ(ub, (b[i] << 40) + b[i] * 0x9E3779B97F4A7C15ull + uint64_t(d[i])) << i;
    const double next = d[(i + 1) % 8];
    EXPECT_DOUBLE_EQ(dd, (d[i] * next - 2.0) + double(a[i]) / 3.0) << i;
    const double bb = double(b[i] & 0xff);
    EXPECT_DOUBLE_EQ(dv[0], d[i] * 0.5 + 2.0 * bb) << i;
    EXPECT_DOUBLE_EQ(dv[1], 0.5 + next * bb) << i;
  }
}

inline void AtomicsInAStd140Buffer(KernelRun& run) {
  // weights[4] at 0, 16, 32, 48; count at 64; total at 68; hist[4] at 80, 96, 112, 128.
  std::vector<float> c(36, 0.0f);
  const float weights[4] = {1.0f, -2.0f, 3.0f, 5.0f};
  for (int k = 0; k < 4; ++k) c[4 * k] = weights[k];
  c[18] = 1.0f;  // padding after `total`: must stay
  if (!run("std140_atomics.comp", 4, {&c})) return;
  uint32_t count, hist[4];
  int32_t total;
  std::memcpy(&count, &c[16], 4);
  std::memcpy(&total, &c[17], 4);
  EXPECT_EQ(count, 64u) << run.source;
  EXPECT_EQ(total, 16 * (1 - 2 + 3 + 5));
  EXPECT_EQ(c[18], 1.0f);
  for (uint32_t k = 0; k < 4; ++k) {
    std::memcpy(&hist[k], &c[20 + 4 * k], 4);
    EXPECT_EQ(hist[k], 60u + k) << k;
  }
}

inline void RuntimeArrayOfArrays(KernelRun& run) {
  // grid[i][j] at 24 * i + 8 * j; Cell: weight at 0, tags at 4, 8, 12; 16 bytes.
  std::vector<float> grid = inputs(48, 13), cells(32, -3.0f), before = cells;
  if (!run("runtime_array_of_arrays.comp", 2, {&grid, &cells})) return;
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t k = i % 3, next = (k + 1) % 3;
    const float gx = grid[6 * i + 2 * k] + grid[6 * i + 2 * next];
    const float gy = grid[6 * i + 2 * k + 1] + grid[6 * i + 2 * next + 1];
    EXPECT_EQ(cells[4 * i], gx * gy) << i << "\n" << run.source;
    for (uint32_t t = 0; t < 3; ++t) {
      uint32_t tag;
      std::memcpy(&tag, &cells[4 * i + 1 + t], 4);
      if (t == k)
        EXPECT_EQ(tag, i * 10 + k) << i;
      else
        EXPECT_EQ(cells[4 * i + 1 + t], -3.0f) << i << " " << t;
    }
  }
}

// A column-major matrix on the host: e[c][r].
struct HostMatrix {
  int columns = 0, rows = 0;
  double e[4][4] = {};
};
inline HostMatrix host_matrix(std::initializer_list<std::vector<double>> columns) {
  HostMatrix m;
  for (const std::vector<double>& column : columns) {
    m.rows = static_cast<int>(column.size());
    for (int r = 0; r < m.rows; ++r) m.e[m.columns][r] = column[r];
    ++m.columns;
  }
  return m;
}
inline HostMatrix operator*(const HostMatrix& a, const HostMatrix& b) {
  HostMatrix m;
  m.columns = b.columns;
  m.rows = a.rows;
  for (int c = 0; c < m.columns; ++c)
    for (int r = 0; r < m.rows; ++r)
      for (int k = 0; k < a.columns; ++k) m.e[c][r] += a.e[k][r] * b.e[c][k];
  return m;
}
inline HostMatrix transposed(const HostMatrix& a) {
  HostMatrix m;
  m.columns = a.rows;
  m.rows = a.columns;
  for (int c = 0; c < m.columns; ++c)
    for (int r = 0; r < m.rows; ++r) m.e[c][r] = a.e[r][c];
  return m;
}

inline void EveryMatrixShape(KernelRun& run) {
  std::vector<float> v = inputs(32, 14), out(64, -1.0f);
  if (!run("matrix_shapes.comp", 1, {&v, &out})) return;
  auto vec = [&](uint32_t index, std::initializer_list<int> lanes) {
    std::vector<double> r;
    for (int lane : lanes) r.push_back(v[4 * index + lane]);
    return r;
  };
  for (uint32_t i = 0; i < 4; ++i) {
    const HostMatrix m23 = host_matrix({vec(2 * i, {0, 1, 2}), vec(2 * i + 1, {0, 1, 2})});
    const HostMatrix m32 = transposed(m23);
    const HostMatrix m24 = host_matrix({vec(2 * i, {0, 1, 2, 3}), vec(2 * i + 1, {0, 1, 2, 3})});
    const HostMatrix m42 = transposed(m24);
    auto m34_of = [&](uint32_t j) {
      return host_matrix({vec(2 * j, {0, 1, 2, 3}), vec(2 * j + 1, {0, 1, 2, 3}), vec(2 * j, {3, 2, 1, 0})});
    };
    const HostMatrix m43 = transposed(m34_of((i + 1) % 4));
    const HostMatrix p22 = m32 * m23, p33 = m23 * m32, p44 = m24 * m42, p32 = m42 * m34_of(i);
    const HostMatrix a3 =
        host_matrix({vec(2 * i, {0}), vec(2 * i, {1}), vec(2 * i, {2})});  // a.xyz as a 3x1 row
    const HostMatrix r2 = a3 * m23;
    const HostMatrix b2 = host_matrix({vec(2 * i + 1, {0}), vec(2 * i + 1, {1})});
    const HostMatrix r3 = b2 * m32;
    const HostMatrix r4 = m43 * host_matrix({vec(2 * i, {0, 1, 2, 3})});
    HostMatrix q = p33;
    for (int k = 0; k < 3; ++k) q.e[k][k] += 1.0;
    const double det = q.e[0][0] * (q.e[1][1] * q.e[2][2] - q.e[2][1] * q.e[1][2]) -
                       q.e[1][0] * (q.e[0][1] * q.e[2][2] - q.e[2][1] * q.e[0][2]) +
                       q.e[2][0] * (q.e[0][1] * q.e[1][2] - q.e[1][1] * q.e[0][2]);
    bool a_is_b = true;
    for (int k = 0; k < 4; ++k) a_is_b = a_is_b && v[8 * i + k] == v[8 * i + 4 + k];
    const double expected[11] = {p22.e[1][0], p33.e[2][1], p44.e[3][2], 2.0 * p32.e[2][1],
                                 r2.e[1][0],  r4.e[0][2],  1.0,         a_is_b ? 0.0 : 1.0,
                                 m43.e[3][2], det,         r3.e[2][0]};
    for (int k = 0; k < 11; ++k)
      EXPECT_NEAR(out[16 * i + k], expected[k], 1e-4) << i << " o[" << k << "]\n" << run.source;
  }
}

inline void BvecLanesAtDynamicIndices(KernelRun& run) {
  std::vector<float> v = inputs(32, 15), o(8, -1.0f);
  if (!run("bvec_lanes.comp", 2, {&v, &o})) return;
  for (uint32_t i = 0; i < 8; ++i) {
    float x[4];
    bool f[4];
    for (int k = 0; k < 4; ++k) x[k] = v[4 * i + k], f[k] = x[k] > 0.0f;
    for (uint32_t j = 0; j < i; ++j) {
      x[j % 4] += 1.0f;
      f[(j + 1) % 4] = !f[j % 4];
    }
    const float expected = x[i % 4] + float(f[0] || f[1] || f[2] || f[3]) + float(f[i % 4]);
    EXPECT_EQ(o[i], expected) << i << "\n" << run.source;
  }
}

// OpBitcast between a 64-bit scalar and two 32-bit words: C++ and CUDA had
// no packDouble2x32/packUint2x32 and left ivec2 -> int64 as the bare ivec2.
inline void BitcastsBetweenWordPairsAnd64Bits(KernelRun& run) {
  uint32_t w[32];
  for (uint32_t k = 0; k < 32; ++k) w[k] = 0x9E3779B9u * (k + 1) ^ (0x85EBCA6Bu >> (k % 7));
  std::vector<float> in(32), out(96, 0.0f);
  std::memcpy(in.data(), w, sizeof w);
  if (!run("bitcast_2x32.comp", 1, {&in, &out})) return;
  const char* bytes = reinterpret_cast<const char*>(out.data());
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t* q = &w[4 * i];
    const uint64_t x_bits = uint64_t((q[1] & 0x800FFFFFu) | 0x3FF00000u) << 32 | q[0];
    double x, d, x4 = 0;
    std::memcpy(&x, &x_bits, 8);
    std::memcpy(&d, bytes + 8 * i, 8);
    EXPECT_EQ(d, x * 2.0) << i << "\n" << run.source;
    uint64_t u;
    std::memcpy(&u, bytes + 64 + 8 * i, 8);
    EXPECT_EQ(u, (uint64_t(q[3]) << 32 | q[2]) * 3u) << i;
    int64_t s;
    std::memcpy(&s, bytes + 128 + 8 * i, 8);
    EXPECT_EQ(s, int64_t(uint64_t(q[0]) << 32 | q[3]) >> 5) << i;
    uint32_t back[4];
    std::memcpy(back, bytes + 192 + 16 * i, 16);
    x4 = x * 4.0;
    uint64_t x4_bits, y = uint64_t(q[1]) * 0x100000001ull + q[2];
    std::memcpy(&x4_bits, &x4, 8);
    EXPECT_EQ(back[0], uint32_t(x4_bits)) << i << " unpackDouble2x32: the low word first";
    EXPECT_EQ(back[1], uint32_t(x4_bits >> 32)) << i;
    EXPECT_EQ(back[2], uint32_t(y)) << i << " unpackUint2x32";
    EXPECT_EQ(back[3], uint32_t(y >> 32)) << i;
    int32_t back2[2];
    std::memcpy(back2, bytes + 320 + 8 * i, 8);
    const uint64_t z = uint64_t(-int64_t(q[0]) * 7);
    EXPECT_EQ(back2[0], int32_t(uint32_t(z))) << i << " unpackInt2x32";
    EXPECT_EQ(back2[1], int32_t(uint32_t(z >> 32))) << i;
  }
}

// Swizzles of local vectors converted and divided: in C++ `v.xy()` is a proxy
// that must pick the vector overloads (ivec2(v.xy) did not compile on cpp/cuda).
inline void SwizzlesAsConversionAndDivisionOperands(KernelRun& run) {
  std::vector<float> v = inputs(64, 16), o(64, -1.0f);
  if (!run("swizzle_arguments.comp", 1, {&v, &o})) return;
  auto div = [](int32_t a, int32_t b) { return b == 0 ? 0 : a / b; };
  for (uint32_t i = 0; i < 16; ++i) {
    const float* a = &v[4 * i];
    const float* n = &v[4 * ((i + 1) % 16)];
    const float b[3] = {n[2] * 4.0f, n[1] * 4.0f, n[0] * 4.0f};
    const int32_t q[3] = {int32_t(a[0] * 4.0f) + int32_t(i) + 1, int32_t(a[1] * 4.0f) + 7,
                          int32_t(a[2] * 4.0f) - 3};
    const int32_t expected[4] = {
        int32_t(int32_t(a[0] * 4.0f) == int32_t(b[0])) + 2 * int32_t(int32_t(a[1] * 4.0f) == int32_t(b[1])),
        div(q[0], q[1]) + div(q[1], q[2]) * 1000, div(q[0], q[0]) * 10 + div(q[2], q[2]),
        int32_t(uint32_t(b[1] + 12.0f) * 100u + uint32_t(b[2] + 12.0f))};
    for (int k = 0; k < 4; ++k) {
      int32_t got;
      std::memcpy(&got, &o[4 * i + k], 4);
      EXPECT_EQ(got, expected[k]) << i << " o[" << k << "]\n" << run.source;
    }
  }
}

// OpenCL C converts no vector implicitly and gives an int for a scalar
// comparison: bvec3(ivec3) (compared with a uvec3 zero) and sign(int64) did
// not compile there.
inline void MixedSignednessComparisonAndInt64Sign(KernelRun& run) {
  std::vector<float> in(64), out(96, -1.0f);
  for (uint32_t k = 0; k < 64; ++k) {
    const uint32_t word = k * 2654435761u >> 7;
    std::memcpy(&in[k], &word, 4);
  }
  if (!run("sign_and_bool_casts.comp", 1, {&in, &out})) return;
  const char* bytes = reinterpret_cast<const char*>(out.data());
  for (uint32_t i = 0; i < 16; ++i) {
    int32_t v[4];
    std::memcpy(v, &in[4 * i], 16);
    for (int32_t& x : v) x = (x & 3) - 1;
    const int64_t w = int64_t(v[0]) * 5000000000ll - v[1];
    int64_t s;
    std::memcpy(&s, bytes + 8 * i, 8);
    const int64_t sign = int64_t(w > 0) - int64_t(w < 0);
    EXPECT_EQ(s, sign * 7) << i << "\n" << run.source;
    int32_t o[4];
    std::memcpy(o, bytes + 128 + 16 * i, 16);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(o[k], int32_t(v[k] != 0)) << i << " bvec3(ivec3)." << k;
    EXPECT_EQ(o[3], int32_t(v[2] != 0) + 2 * int32_t(v[3] != 0)) << i << " bvec2(uvec2)";
  }
}

// An OpenCL uint3/float3 is 16 bytes: storing one wrote the padding after
// it (PoCL left 0x2a there), where Vulkan writes the 12 bytes of the vector.
inline void Vec3StoresLeaveTheBytesAfterThem(KernelRun& run) {
  std::vector<float> x(32), u(32, -7.0f), pairs(128, -7.0f);
  for (uint32_t k = 0; k < 32; ++k) {
    const int32_t word = int32_t(k * 37 % 19) - 9;
    std::memcpy(&x[k], &word, 4);
  }
  if (!run("vec3_stores.comp", 1, {&x, &u, &pairs})) return;
  for (uint32_t i = 0; i < 8; ++i) {
    int32_t in[4];
    std::memcpy(in, &x[4 * i], 16);
    for (int c = 0; c < 3; ++c) {
      const uint32_t w = uint32_t(in[c]) * 2u + 1u;
      uint32_t got;
      std::memcpy(&got, &u[4 * i + c], 4);
      EXPECT_EQ(got, w / 3u + (7u - w)) << i << " u." << c << "\n" << run.source;
    }
    EXPECT_EQ(u[4 * i + 3], -7.0f) << i << ": the padding after a uvec3\n" << run.source;
    const float f[3] = {float(in[1]) * 0.5f, float(in[2]) * 0.5f, float(in[3]) * 0.5f};
    const float* pair = &pairs[8 * i];
    const float* whole = &pairs[64 + 8 * i];
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(pair[c], f[c] + 1.0f) << i << " a." << c;
      EXPECT_EQ(pair[4 + c], f[(c + 2) % 3] * f[c]) << i << " b." << c;
      EXPECT_EQ(whole[c], f[c] - 2.0f) << i << " whole a." << c;
      EXPECT_EQ(whole[4 + c], float(uint32_t(in[c]) * 2u + 1u)) << i << " whole b." << c;
    }
    for (int pad : {3, 7}) {
      EXPECT_EQ(pair[pad], -7.0f) << i << ": the padding after a vec3 member at " << 4 * pad;
      EXPECT_EQ(whole[pad], -7.0f) << i << ": the padding after a vec3 member of a whole struct at "
                                   << 4 * pad;
    }
  }
}

// Every case, for the targets' test files: X(name, ...) once per case, with
// the arguments after X.
#define PORTA_TYPES_CASES(X, ...)                                 \
  X(Std140ArrayStride16InStorageBuffer, __VA_ARGS__)              \
  X(ScalarLayoutVec3ArraysAndStructs, __VA_ARGS__)                \
  X(Std430Vec3ArrayStride16, __VA_ARGS__)                         \
  X(RowMajorMat3x4InBuffer, __VA_ARGS__)                          \
  X(MatrixInstructions, __VA_ARGS__)                              \
  X(Std140RuntimeArrayOfStructsLoadedAndStoredWhole, __VA_ARGS__) \
  X(PushConstantsWithMat3, __VA_ARGS__)                           \
  X(ArraysOfArraysNestedStructsAndExplicitOffsets, __VA_ARGS__)   \
  X(BoolAndBvecEverywhere, __VA_ARGS__)                           \
  X(Int64AndFloat64, __VA_ARGS__)                                 \
  X(AtomicsInAStd140Buffer, __VA_ARGS__)                          \
  X(RuntimeArrayOfArrays, __VA_ARGS__)                            \
  X(EveryMatrixShape, __VA_ARGS__)                                \
  X(BvecLanesAtDynamicIndices, __VA_ARGS__)                       \
  X(BitcastsBetweenWordPairsAnd64Bits, __VA_ARGS__)               \
  X(SwizzlesAsConversionAndDivisionOperands, __VA_ARGS__)         \
  X(MixedSignednessComparisonAndInt64Sign, __VA_ARGS__)           \
  X(Vec3StoresLeaveTheBytesAfterThem, __VA_ARGS__)

// One TEST(suite, Case) per case, each run by a new `Runner` (a KernelRun);
// a runner whose target is unavailable here says why, and the test skips.
#define PORTA_TYPES_TEST(name, suite, Runner)                                         \
  TEST(suite, name) {                                                                 \
    Runner run;                                                                       \
    if (const std::string why = run.unavailable(); !why.empty()) GTEST_SKIP() << why; \
    porta::test::types::name(run);                                                    \
  }
#define PORTA_TYPES_TESTS(suite, Runner) PORTA_TYPES_CASES(PORTA_TYPES_TEST, suite, Runner)

}  // namespace porta::test::types
