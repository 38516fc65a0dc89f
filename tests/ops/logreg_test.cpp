// logreg_step: one step against a float64 oracle (CPU backend) or the CPU
// backend (others); training: the loss falls, the classic example is
// classified, a recorded loop equals the same steps queued one by one, and
// the backends agree within kernels/logreg_step/bound.hpp. X in float16,
// bfloat16 and int8: the step against the float64 oracle on the same decoded
// features, and training within 0.5 points of float32's accuracy.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "bounds.hpp"
#include "logreg_step/bound.hpp"
#include "porta/quantize.hpp"
#include "support.hpp"

namespace porta::test {
namespace {

struct Problem {
  uint64_t m, d;
  std::vector<float> x, y;
};

Problem classic() { return {5, 2, {0, 0, 1, 0, 1, 0, 1, 1, 1, 1}, {0, 0, 0, 1, 1}}; }

Problem generated(uint64_t m, uint64_t d, uint64_t seed) {
  Problem p{m, d, random_floats(m * d, seed, -1, 1), {}};
  std::vector<float> truth = random_floats(d, seed + 1, -1, 1);
  for (uint64_t i = 0; i < m; ++i) {
    double z = 0.1;
    for (uint64_t j = 0; j < d; ++j) z += static_cast<double>(p.x[i * d + j]) * truth[j];
    p.y.push_back(z > 0 ? 1.0f : 0.0f);
  }
  return p;
}

struct Trained {
  std::vector<float> w;
  float b = 0;
  std::vector<float> losses;  // one per step
};

// `steps` steps from w = w0, b = b0 with X stored as `dtype`; recorded as
// one sequence when `record`.
Trained train(const std::string& backend, const Problem& p, uint64_t steps, float lr, bool record,
              std::vector<float> w0 = {}, float b0 = 0, porta_dtype dtype = PORTA_DTYPE_FLOAT32) {
  porta::Device dev = porta::open(backend);
  if (w0.empty()) w0.assign(p.d, 0.0f);
  const porta::EncodedMatrix ex = porta::encode_matrix(p.x.data(), p.m, p.d, dtype);
  porta::Buffer bx = dev.upload(ex.bytes), by = dev.upload(p.y), bw = dev.upload(w0),
                bb = dev.upload(std::vector<float>{b0}), bl = dev.buffer(steps * 4);
  porta::Buffer bs = dev.upload(ex.scale.empty() ? std::vector<float>{0} : ex.scale);
  porta::Tensor x = ex.tensor(bx), y(by, {p.m}), w(bw, {p.d}), b(bb, {1}), scale(bs, {p.d});
  porta::Stream s = dev.stream();
  if (record) s.begin_record();
  for (uint64_t k = 0; k < steps; ++k)
    porta::ops::logreg_step_scaled(s, x, ex.scale.empty() ? nullptr : &scale, y, w, b, lr,
                                   porta::Tensor(bl, {1}, k));
  if (record) {
    porta::Sequence seq = s.end_record();
    s.replay(seq);
  }
  s.sync();
  return {bw.to_vector<float>(), bb.to_vector<float>()[0], bl.to_vector<float>()};
}

// The problem as a step on X stored as `dtype` sees it.
Problem decoded(const Problem& p, porta_dtype dtype) {
  return {p.m, p.d, porta::encode_matrix(p.x.data(), p.m, p.d, dtype).decoded(), p.y};
}

// One step in float64.
Trained oracle_step(const Problem& p, const std::vector<float>& w, float b, float lr) {
  std::vector<double> dw(p.d, 0.0);
  double db = 0, loss = 0;
  for (uint64_t i = 0; i < p.m; ++i) {
    double z = b;
    for (uint64_t j = 0; j < p.d; ++j) z += static_cast<double>(p.x[i * p.d + j]) * w[j];
    const double yhat = 1 / (1 + std::exp(-z));
    const double r = yhat - p.y[i];
    for (uint64_t j = 0; j < p.d; ++j) dw[j] += p.x[i * p.d + j] * r;
    db += r;
    loss += std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))) - p.y[i] * z;
  }
  Trained t;
  for (uint64_t j = 0; j < p.d; ++j) t.w.push_back(static_cast<float>(w[j] - lr * dw[j] / p.m));
  t.b = static_cast<float>(b - lr * db / p.m);
  t.losses.push_back(static_cast<float>(loss / p.m));
  return t;
}

using Stepper = Trained (*)(const Problem& p, const std::vector<float>& w0, float b0, float lr,
                            porta_dtype dtype);

Trained ops_step(const Problem& p, const std::vector<float>& w0, float b0, float lr, porta_dtype dtype) {
  return train(backend_under_test(), p, 1, lr, false, w0, b0, dtype);
}

// One step on the backend under test (`step`), against the float64 step on
// the CPU backend and against porta::ops on the CPU backend elsewhere. With
// X stored as `dtype`, the oracle takes the features the step reads (X
// decoded), so the bound is float32's.
void check_one_step(const Problem& original, uint64_t seed, Stepper step = ops_step,
                    porta_dtype dtype = PORTA_DTYPE_FLOAT32) {
  SCOPED_TRACE("m=" + std::to_string(original.m) + " d=" + std::to_string(original.d) + " X " +
               porta::dtype_short_name(dtype));
  const Problem p = decoded(original, dtype);
  const float lr = 0.3f;
  std::vector<float> w0 = random_floats(p.d, seed, -0.5f, 0.5f);
  const float b0 = 0.125f;
  Trained got = step(original, w0, b0, lr, dtype);
  Trained want;
  if (testing_cpu()) {
    want = oracle_step(p, w0, b0, lr);
  } else {
    if (!backend_available("cpu")) GTEST_SKIP() << "the CPU backend (the reference) is unavailable";
    want = train("cpu", original, 1, lr, false, w0, b0, dtype);
  }
  // bound.hpp's one-step agreement bound is 2E (two backends); against
  // the exact step the bound is E, plus the rounding of w - lr dw.
  const double scale = testing_cpu() ? 0.5 : 1.0;
  porta::logreg::Tolerance tol =
      porta::logreg::agreement_tolerance(p.x, p.m, p.d, want.w, want.b, want.losses[0], 1, lr);
  for (uint64_t j = 0; j < p.d; ++j)
    ASSERT_LE(std::fabs(static_cast<double>(got.w[j]) - want.w[j]),
              scale * tol.w + 2 * kUnitRoundoff * std::fabs(want.w[j]))
        << "w[" << j << "] = " << got.w[j] << " vs " << want.w[j];
  EXPECT_LE(std::fabs(static_cast<double>(got.b) - want.b),
            scale * tol.b + 2 * kUnitRoundoff * std::fabs(want.b));
  EXPECT_LE(std::fabs(static_cast<double>(got.losses[0]) - want.losses[0]), scale * tol.loss)
      << "loss " << got.losses[0] << " vs " << want.losses[0];
}

TEST(LogregStep, OneStepSmallAndPrimeShapes) {
  uint64_t seed = 1;
  for (uint64_t m : {1ull, 2ull, 7ull, 61ull, 1021ull})
    for (uint64_t d : {1ull, 2ull, 3ull, 17ull, 63ull}) {
      check_one_step(generated(m, d, seed), seed);
      ++seed;
    }
}

TEST(LogregStep, OneStepEveryTilingPath) {
  // d = 1000 (rows shared by several items), d = 2048 (one row per tile),
  // d = 2500 (rows longer than a tile), many rows (many groups and tiles).
  check_one_step(generated(37, 1000, 5), 5);
  check_one_step(generated(9, 2048, 6), 6);
  check_one_step(generated(11, 2500, 7), 7);
  check_one_step(generated(100003, 5, 8), 8);
  check_one_step(generated(20011, 33, 9), 9);
}

// logreg_partial.comp has three ways through X (MODE): the launcher picks one
// per device, so on any one machine it runs only some of them. These tests
// build the kernels from their source with each mode and the choices a
// device may get, and check the step on whatever backend is under test.
struct KernelChoice {
  uint32_t mode, workgroup, rows, columns, update_columns, update_slices;  // columns: words of X per item
};
KernelChoice g_kernel_choice;

std::string kernel_source(const char* file) {
  std::ifstream in(std::string(PORTA_KERNELS_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) ADD_FAILURE() << "cannot read " << PORTA_KERNELS_DIR << "/" << file;
  return text.str();
}

// logreg_partial.comp's DTYPE: the index of X's dtype here.
uint32_t kernel_dtype(porta_dtype dtype) {
  const porta_dtype codes[] = {PORTA_DTYPE_FLOAT32, PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16,
                               PORTA_DTYPE_INT8};
  return static_cast<uint32_t>(std::find(std::begin(codes), std::end(codes), dtype) - std::begin(codes));
}

Trained step_with_kernel_choice(const Problem& p, const std::vector<float>& w0, float b0, float lr,
                                porta_dtype dtype) {
  const KernelChoice ch = g_kernel_choice;
  porta::Device dev = porta::open(backend_under_test());
  porta::Kernel partial = dev.kernel(
      porta::glsl(kernel_source("logreg_step/logreg_partial.comp"), "logreg_partial"),
      {{0u, ch.workgroup}, {1u, ch.mode}, {2u, ch.rows}, {3u, ch.columns}, {4u, kernel_dtype(dtype)}});
  porta::Kernel update =
      dev.kernel(porta::glsl(kernel_source("logreg_step/logreg_update.comp"), "logreg_update"),
                 {{0u, ch.update_columns}, {1u, ch.update_slices}});
  // A few steps (MODE 1: of R rows; MODE 2: rows) per group, so groups both
  // start and end inside X.
  const uint64_t steps_total = (p.m + ch.rows - 1) / ch.rows;
  const uint32_t per_group = static_cast<uint32_t>(std::min<uint64_t>(3, steps_total));
  const uint32_t groups = static_cast<uint32_t>((steps_total + per_group - 1) / per_group);
  // Rows padded to whole words, the padding NaN: the kernel must not read it.
  porta::EncodedMatrix ex = porta::encode_matrix(p.x.data(), p.m, p.d, dtype);
  const uint64_t size = porta_dtype_size(dtype);
  const uint16_t nan16 = dtype == PORTA_DTYPE_FLOAT16 ? 0x7e00 : 0x7fc0;
  for (uint64_t i = 0; i < p.m; ++i)
    for (uint64_t j = p.d; j < ex.ldx; ++j) std::memcpy(&ex.bytes[(i * ex.ldx + j) * size], &nan16, size);
  porta::Buffer bx = dev.upload(ex.bytes), by = dev.upload(p.y), bw = dev.upload(w0),
                bb = dev.upload(std::vector<float>{b0}), bl = dev.buffer(4),
                partials = dev.buffer(uint64_t(groups) * (p.d + 2) * 4),
                bs = dev.upload(ex.scale.empty() ? std::vector<float>{0} : ex.scale);
  struct {
    uint32_t m, d, x_offset, ldx, y_offset, w_offset, b_offset, rows_per_tile, lanes, tiles_per_group,
        partials_offset, scale_offset;
  } partial_push{uint32_t(p.m), uint32_t(p.d), 0, uint32_t(ex.ldx), 0, 0, 0, ch.rows, 1, per_group, 0, 0};
  struct {
    uint32_t d, groups, w_offset, b_offset, loss_offset, partials_offset;
    float m, lr;
    uint32_t accumulate;
  } update_push{uint32_t(p.d), groups, 0, 0, 0, 0, float(p.m), lr, 0};
  porta::Stream s = dev.stream();
  s.fill(partials, std::nanf(""));  // every slot must be written
  s.dispatch(partial, {groups, 1, 1}, {bx, by, bw, bb, partials, bs}, partial_push);
  s.dispatch(update, {uint32_t((p.d + 2 + ch.update_columns - 1) / ch.update_columns), 1, 1},
             {partials, bw, bb, bl}, update_push);
  s.sync();
  return {bw.to_vector<float>(), bb.to_vector<float>()[0], bl.to_vector<float>()};
}

void check_kernel_choices(std::initializer_list<KernelChoice> choices,
                          porta_dtype dtype = PORTA_DTYPE_FLOAT32) {
  const std::pair<uint64_t, uint64_t> shapes[] = {{1, 40}, {37, 100}, {61, 63}, {1021, 200}, {300, 2048}};
  const uint64_t pack = 4 / porta_dtype_size(dtype);
  uint64_t seed = 100;
  for (const KernelChoice& ch : choices) {
    g_kernel_choice = ch;
    for (auto [m, d] : shapes) {
      // MODE 1's precondition: C items' words cover the row.
      if (ch.mode == 1 && d > uint64_t(ch.workgroup) * ch.columns * pack) continue;
      SCOPED_TRACE("MODE " + std::to_string(ch.mode) + ", work-group " + std::to_string(ch.workgroup) +
                   ", R " + std::to_string(ch.rows) + ", C " + std::to_string(ch.columns) + ", update " +
                   std::to_string(ch.update_columns) + "x" + std::to_string(ch.update_slices));
      check_one_step(generated(m, d, seed), seed, step_with_kernel_choice, dtype);
      ++seed;
    }
  }
}

TEST(LogregStep, ColumnsInRegistersKernel) {
  // (MODE, work-group, R, C, update columns x slices): what a GPU gets at
  // d = 64, 256 and 2048, and shapes with idle columns and one row per step.
  check_kernel_choices({{1, 64, 8, 1, 16, 16},
                        {1, 256, 8, 1, 16, 16},
                        {1, 256, 1, 8, 16, 16},
                        {1, 64, 4, 2, 64, 1},
                        {1, 32, 2, 3, 8, 4},
                        {1, 128, 16, 1, 16, 8}});
}

TEST(LogregStep, RowsInSequenceKernel) {
  // MODE 2: groups of one item, a row per step (R = 1).
  check_kernel_choices({{2, 1, 1, 1, 64, 1}, {2, 1, 1, 1, 16, 16}});
}

// porta/quantize.hpp, on the host: every half round-trips, and a value half
// way between two neighbours rounds to the one with an even last bit (float16
// and bfloat16); int8 columns take their largest magnitude to +-127.
TEST(Quantize, HalfAndBfloat16RoundToNearestEven) {
  for (uint32_t h = 0; h < 0x7c00u; ++h) {  // every finite non-negative half
    const float v = porta::half_to_float(static_cast<uint16_t>(h));
    ASSERT_EQ(porta::float_to_half(v), h) << v;
    ASSERT_EQ(porta::float_to_half(-v), h | 0x8000u) << -v;
    const float next = h + 1 < 0x7c00u ? porta::half_to_float(static_cast<uint16_t>(h + 1)) : 65536.0f;
    const float mid = v + (next - v) / 2;  // exact in float32
    ASSERT_EQ(porta::float_to_half(mid), (h & 1u) ? h + 1 : h) << "midpoint " << mid;
    ASSERT_EQ(porta::float_to_half(std::nextafter(mid, 0.0f)), h) << "below midpoint " << mid;
  }
  EXPECT_EQ(porta::float_to_half(65520.0f), 0x7c00u);  // rounds up past the largest half: infinity
  EXPECT_EQ(porta::float_to_half(std::numeric_limits<float>::infinity()), 0x7c00u);
  EXPECT_TRUE(std::isnan(porta::half_to_float(porta::float_to_half(std::nanf("")))));
  for (uint32_t h = 0; h < 0x7f80u; h += 7) {
    const float v = porta::bfloat16_to_float(static_cast<uint16_t>(h));
    ASSERT_EQ(porta::float_to_bfloat16(v), h) << v;
    const float mid = porta::bits_float(porta::float_bits(v) + 0x8000u);
    ASSERT_EQ(porta::float_to_bfloat16(mid), (h & 1u) ? h + 1 : h) << "midpoint " << mid;
  }
  EXPECT_TRUE(std::isnan(porta::bfloat16_to_float(porta::float_to_bfloat16(std::nanf("")))));
}

TEST(Quantize, Int8ScalePerColumn) {
  const std::vector<float> x = {1.0f, -0.5f, 0.0f, -2.0f, 0.25f, 0.0f, 0.5f, 0.1f, 0.0f};  // 3 x 3
  const porta::EncodedMatrix q = porta::encode_matrix(x.data(), 3, 3, PORTA_DTYPE_INT8);
  EXPECT_EQ(q.ldx, 4u);  // rows start on a word
  EXPECT_FLOAT_EQ(q.scale[0], 2.0f / 127);
  EXPECT_FLOAT_EQ(q.scale[1], 0.5f / 127);
  EXPECT_EQ(q.scale[2], 1.0f);  // a column of zeros
  EXPECT_EQ(static_cast<int8_t>(q.bytes[1 * 4 + 0]), -127);
  EXPECT_EQ(static_cast<int8_t>(q.bytes[0 * 4 + 1]), -127);
  for (uint64_t i = 0; i < 3; ++i)
    for (uint64_t j = 0; j < 3; ++j) EXPECT_NEAR(q.value(i, j), x[i * 3 + j], q.scale[j] / 2 * 1.0001);
}

const porta_dtype kNarrow[] = {PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16, PORTA_DTYPE_INT8};

TEST(LogregStep, ColumnsInRegistersKernelNarrowX) {
  // Words of 2 or 4 elements per item (C * PACK <= 16), with rows whose last
  // word is part padding (d = 63 and 100 for int8, 63 for 16-bit): int8 as a
  // GPU gets it at d = 256 (16 rows per step, 64 floats kept), float16 at 8
  // rows per step, and C = 3 words per item (each kernel variant is compiled
  // once per dtype, which on PoCL takes a while).
  check_kernel_choices({{1, 64, 8, 1, 16, 16}}, PORTA_DTYPE_FLOAT16);
  check_kernel_choices({{1, 32, 2, 3, 8, 4}}, PORTA_DTYPE_BFLOAT16);
  check_kernel_choices({{1, 64, 16, 1, 16, 16}, {1, 32, 2, 3, 8, 4}}, PORTA_DTYPE_INT8);
}

TEST(LogregStep, RowsInSequenceKernelNarrowX) {
  // MODE 2 reads X element by element (as MODE 0 does, which the launcher
  // picks on lavapipe and PoCL: OneStepNarrowX).
  for (porta_dtype dtype : kNarrow) check_kernel_choices({{2, 1, 1, 1, 64, 1}}, dtype);
}

// PORTA_LOGREG_PLAN (set by ops.logreg_plan.* and ops.logreg_plan_refused.*;
// read once per process): every step takes the plan it names, on any
// device, and is refused naming the knob where the value is malformed
// (PORTA_TEST_LOGREG_PLAN=refused) or the plan cannot take X. Runs expect
// WG C = 128 words per row (ops.logreg_plan.*: 64:4:2:5/twice).
TEST(LogregStep, PlanKnob) {
  const char* knob = std::getenv("PORTA_LOGREG_PLAN");
  if (!knob || !*knob) GTEST_SKIP() << "PORTA_LOGREG_PLAN is unset (ops.logreg_plan.* sets it)";
  const char* expect = std::getenv("PORTA_TEST_LOGREG_PLAN");
  auto expect_refusal = [](const Problem& p, porta_dtype dtype, const std::string& says) {
    SCOPED_TRACE("m=" + std::to_string(p.m) + " d=" + std::to_string(p.d) + " X " +
                 porta::dtype_short_name(dtype));
    try {
      ops_step(p, std::vector<float>(p.d, 0.0f), 0.0f, 0.1f, dtype);
      ADD_FAILURE() << "the step ran; expected a refusal saying: " << says;
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_ARGUMENT) << e.what();
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  const porta_dtype all[] = {PORTA_DTYPE_FLOAT32, PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16,
                             PORTA_DTYPE_INT8};
  if (expect && std::string(expect) == "refused") {
    const std::string says = "PORTA_LOGREG_PLAN is '" + std::string(knob) + "'; it must be WG:R:C";
    for (porta_dtype dtype : all) expect_refusal(generated(100, 40, 1), dtype, says);
    porta::Device dev = porta::open(backend_under_test());
    try {
      porta::ops::logreg_workspace_bytes(dev, 100, 40);
      ADD_FAILURE() << "porta_ops_logreg_workspace_size took PORTA_LOGREG_PLAN=" << knob;
    } catch (const porta::Error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    return;
  }
  // Rows of up to 128 words: one row (m = 1), items with no column (d = 1),
  // a last word part padding, many steps per group (m = 3000, 5 groups).
  uint64_t seed = 300;
  for (porta_dtype dtype : all) {
    const uint64_t pack = 4 / porta_dtype_size(dtype);
    for (auto [m, d] : {std::pair<uint64_t, uint64_t>{1, 1}, {37, 100}, {61, 128 * pack - 1}, {3000, 61}}) {
      check_one_step(generated(m, d, seed), seed, ops_step, dtype);
      ++seed;
    }
    // One more word than the groups' items cover.
    expect_refusal(generated(10, 128 * pack + 1, seed), dtype, "cannot take X");
  }
}

TEST(LogregStep, UpdateKnob) {
  const char* knob = std::getenv("PORTA_LOGREG_UPDATE");
  if (!knob || !*knob) GTEST_SKIP() << "PORTA_LOGREG_UPDATE is unset (ops.logreg_update.* sets it)";
  const char* expect = std::getenv("PORTA_TEST_LOGREG_UPDATE");
  if (expect && std::string(expect) == "refused") {
    const std::string says = "PORTA_LOGREG_UPDATE is '" + std::string(knob) + "'; it must be LX:S";
    try {
      const Problem p = generated(100, 40, 1);
      ops_step(p, std::vector<float>(p.d, 0.0f), 0.0f, 0.1f, PORTA_DTYPE_FLOAT32);
      ADD_FAILURE() << "the step ran; expected a refusal saying: " << says;
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_ARGUMENT) << e.what();
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    return;
  }
  // Fewer groups of partials than slices, more, and columns past the last
  // group's (d + 2 not a multiple of LX).
  uint64_t seed = 400;
  for (porta_dtype dtype : {PORTA_DTYPE_FLOAT32, PORTA_DTYPE_FLOAT16})
    for (auto [m, d] : {std::pair<uint64_t, uint64_t>{1, 1}, {37, 100}, {20000, 61}}) {
      check_one_step(generated(m, d, seed), seed, ops_step, dtype);
      ++seed;
    }
}

TEST(LogregStep, OneStepNarrowX) {
  // The launcher's own choice for this device, shapes with padded rows.
  uint64_t seed = 200;
  for (porta_dtype dtype : kNarrow)
    for (auto [m, d] :
         {std::pair<uint64_t, uint64_t>{1, 1}, {7, 3}, {61, 17}, {1021, 63}, {2000, 256}, {37, 1000}}) {
      check_one_step(generated(m, d, seed), seed, ops_step, dtype);
      ++seed;
    }
}

// Share of rows the model (w, b) classifies right, on the float32 features.
double accuracy(const Problem& p, const Trained& t) {
  uint64_t correct = 0;
  for (uint64_t i = 0; i < p.m; ++i) {
    double z = t.b;
    for (uint64_t j = 0; j < p.d; ++j) z += static_cast<double>(p.x[i * p.d + j]) * t.w[j];
    correct += (z > 0) == (p.y[i] > 0.5f);
  }
  return static_cast<double>(correct) / static_cast<double>(p.m);
}

TEST(LogregTraining, NarrowXAccuracyWithinHalfAPointOfFloat32) {
  const uint64_t steps = 200;
  for (const Problem& p : {classic(), generated(6000, 32, 11)}) {
    const double reference = accuracy(p, train(backend_under_test(), p, steps, 0.5f, true));
    for (porta_dtype dtype : kNarrow) {
      const double got = accuracy(p, train(backend_under_test(), p, steps, 0.5f, true, {}, 0, dtype));
      EXPECT_LE(std::fabs(got - reference), 0.005)
          << porta::dtype_short_name(dtype) << " X: accuracy " << 100 * got << "% against float32's "
          << 100 * reference << "% (m = " << p.m << ", d = " << p.d << ")";
    }
  }
}

TEST(LogregStep, NarrowXRefusals) {
  porta::Device dev = porta::open(backend_under_test());
  porta::Stream s = dev.stream();
  porta::Buffer x = dev.buffer(64), y = dev.buffer(16), w = dev.buffer(16), b = dev.buffer(4),
                l = dev.buffer(4);
  porta::Tensor ty(y, {4}), tw(w, {3}), tb(b, {1}), tl(l, {1});
  auto refused = [&](const porta::Tensor& tx, const porta::Tensor* scale, const std::string& says) {
    try {
      porta::ops::logreg_step_scaled(s, tx, scale, ty, tw, tb, 0.1f, tl);
      ADD_FAILURE() << "not refused: " << says;
    } catch (const porta::Error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  const uint64_t shape[] = {4, 3};
  const int64_t odd[] = {3, 1}, even[] = {4, 1};
  // float16 rows of 3 with a row stride of 3 start mid-word.
  refused(porta::Tensor(x, porta::Span<const uint64_t>(shape, 2), porta::Span<const int64_t>(odd, 2), 0,
                        PORTA_DTYPE_FLOAT16),
          nullptr, "row stride 3; float16 X is read in 32-bit words, so both must be multiples of 2");
  refused(porta::Tensor(x, porta::Span<const uint64_t>(shape, 2), porta::Span<const int64_t>(even, 2), 1,
                        PORTA_DTYPE_BFLOAT16),
          nullptr, "element offset 1");
  // A buffer of 30 bytes: X's last element (byte 29) is in a word that ends at byte 32.
  porta::Buffer short_x = dev.buffer(30);
  refused(porta::Tensor(short_x, porta::Span<const uint64_t>(shape, 2), porta::Span<const int64_t>(even, 2),
                        0, PORTA_DTYPE_FLOAT16),
          nullptr, "ends inside the last 32-bit word of its 30-byte buffer");
  refused(porta::Tensor(x, porta::Span<const uint64_t>(shape, 2), porta::Span<const int64_t>(even, 2), 0,
                        PORTA_DTYPE_INT8),
          nullptr, "operand 'x_scale' is null");
}

TEST(LogregTraining, LossFallsAndClassicIsClassified) {
  Problem p = classic();
  Trained t = train(backend_under_test(), p, 1000, 0.5f, true);
  for (size_t k = 1; k < t.losses.size(); ++k)
    ASSERT_LE(t.losses[k], t.losses[k - 1]) << "loss rose at step " << k;
  EXPECT_LT(t.losses.back(), 0.05f);
  for (uint64_t i = 0; i < p.m; ++i) {
    double z = t.b;
    for (uint64_t j = 0; j < p.d; ++j) z += p.x[i * p.d + j] * static_cast<double>(t.w[j]);
    EXPECT_EQ(z > 0, p.y[i] > 0.5f) << "sample " << i << " misclassified (z = " << z << ")";
  }
}

TEST(LogregTraining, RecordedLoopEqualsSingleSteps) {
  Problem p = generated(3001, 7, 42);
  Trained recorded = train(backend_under_test(), p, 25, 0.5f, true);
  Trained direct = train(backend_under_test(), p, 25, 0.5f, false);
  for (uint64_t j = 0; j < p.d; ++j) EXPECT_EQ(recorded.w[j], direct.w[j]) << j;
  EXPECT_EQ(recorded.b, direct.b);
  EXPECT_EQ(recorded.losses, direct.losses);
}

TEST(LogregTraining, BackendsAgree) {
  if (testing_cpu()) GTEST_SKIP() << "the CPU backend is the reference";
  if (!backend_available("cpu")) GTEST_SKIP() << "the CPU backend (the reference) is unavailable";
  for (const Problem& p : {classic(), generated(5000, 12, 7)}) {
    const uint64_t steps = 200;
    const float lr = 0.5f;
    Trained got = train(backend_under_test(), p, steps, lr, true);
    Trained ref = train("cpu", p, steps, lr, true);
    porta::logreg::Tolerance tol =
        porta::logreg::agreement_tolerance(p.x, p.m, p.d, ref.w, ref.b, ref.losses.back(), steps, lr);
    for (uint64_t j = 0; j < p.d; ++j) EXPECT_LE(std::fabs(got.w[j] - ref.w[j]), tol.w) << j;
    EXPECT_LE(std::fabs(got.b - ref.b), tol.b);
    EXPECT_LE(std::fabs(got.losses.back() - ref.losses.back()), tol.loss);
  }
}

// The gradient op (porta_ops_logreg_gradient) against the float64 sums, and
// adding up: two calls over the two halves of X give the sums of one call
// over all of it, within the sums' rounding.
TEST(LogregGradient, SumsAndHalvesAddUp) {
  const Problem p = generated(4099, 13, 21);
  const std::vector<float> w0 = random_floats(p.d, 22, -0.5f, 0.5f);
  const float b0 = -0.25f;
  porta::Device dev = porta::open(backend_under_test());
  porta::Buffer bx = dev.upload(p.x), by = dev.upload(p.y), bw = dev.upload(w0),
                bb = dev.upload(std::vector<float>{b0}), all = dev.buffer((p.d + 2) * 4),
                halves = dev.buffer((p.d + 2) * 4);
  porta::Stream s = dev.stream();
  s.fill(all, 0.0f);
  s.fill(halves, 0.0f);
  porta::Tensor w(bw, {p.d}), b(bb, {1});
  porta::ops::logreg_gradient(s, porta::Tensor(bx, {p.m, p.d}), nullptr, porta::Tensor(by, {p.m}), w, b,
                              porta::Tensor(all, {p.d + 2}));
  const uint64_t half = p.m / 2;
  porta::ops::logreg_gradient(s, porta::Tensor(bx, {half, p.d}), nullptr, porta::Tensor(by, {half}), w, b,
                              porta::Tensor(halves, {p.d + 2}));
  porta::ops::logreg_gradient(s, porta::Tensor(bx, {p.m - half, p.d}, half * p.d), nullptr,
                              porta::Tensor(by, {p.m - half}, half), w, b, porta::Tensor(halves, {p.d + 2}));
  s.sync();
  const std::vector<float> got = all.to_vector<float>(), added = halves.to_vector<float>();
  // float64 sums and the sums of |terms| (the bound of a float32 sum in any order).
  std::vector<double> want(p.d + 2, 0.0), size(p.d + 2, 0.0);
  for (uint64_t i = 0; i < p.m; ++i) {
    double z = b0;
    for (uint64_t j = 0; j < p.d; ++j) z += static_cast<double>(p.x[i * p.d + j]) * w0[j];
    const double r = 1 / (1 + std::exp(-z)) - p.y[i];
    for (uint64_t j = 0; j < p.d; ++j) {
      want[j] += p.x[i * p.d + j] * r;
      size[j] += std::fabs(p.x[i * p.d + j]);
    }
    want[p.d] += r;
    size[p.d] += 1;
    want[p.d + 1] += std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))) - p.y[i] * z;
    size[p.d + 1] += std::fabs(z) + 1;
  }
  const double per_unit =
      gamma_n(static_cast<double>(p.m) + 2) + 8 * kUnitRoundoff + gamma_n(static_cast<double>(p.d) + 1) * 8;
  for (uint64_t j = 0; j < p.d + 2; ++j) {
    EXPECT_NEAR(got[j], want[j], per_unit * size[j]) << "sum " << j;
    EXPECT_NEAR(added[j], want[j], per_unit * size[j]) << "sum " << j << " over two halves";
  }
}

// A workspace of porta_ops_logreg_workspace_size(m) serves a gradient of any
// row count up to m (a last chunk, half a shard): fewer rows can split into
// more groups of tiles than m rows do.
TEST(LogregGradient, WorkspaceForMRowsServesFewer) {
  const Problem p = generated(2500, 10, 23);
  porta::Device dev = porta::open(backend_under_test());
  porta::Buffer bx = dev.upload(p.x), by = dev.upload(p.y), bw = dev.upload(std::vector<float>(p.d, 0.1f)),
                sums = dev.buffer((p.d + 2) * 4),
                work = dev.buffer(porta::ops::logreg_workspace_bytes(dev, p.m, p.d));
  porta::Stream s = dev.stream();
  porta::Tensor w(bw, {p.d}), b(bw, {1}), out(sums, {p.d + 2}), ws(work, {work.size() / 4});
  for (uint64_t m = 1; m <= p.m; ++m) {
    s.fill(sums, 0.0f);
    ASSERT_NO_THROW(porta::ops::logreg_gradient(s, porta::Tensor(bx, {m, p.d}), nullptr,
                                                porta::Tensor(by, {m}), w, b, out, &ws))
        << m << " of " << p.m << " rows";
    if (m % 256 == 0) s.sync();
  }
  s.sync();
}

// X whose last element has the largest index the kernels take (2^31 - 1,
// lowered to 4000 under ctest's ops.index.*): one piece, stepped like any
// other, not refused; one element more and it is two pieces.
TEST(SplitLogreg, StepOnXThatEndsAtTheIndexLimit) {
  const char* limit = std::getenv("PORTA_MAX_INDEX_ELEMENTS");
  if (!limit)
    GTEST_SKIP() << "runs under PORTA_MAX_INDEX_ELEMENTS (ctest ops.index.*); at the kernels' own limit X "
                    "would take 2^31 elements";
  const uint64_t elements = std::strtoull(limit, nullptr, 0) + 1;
  check_one_step(generated(elements, 1, 41), 42);
  check_one_step(generated(elements + 1, 1, 43), 44);
}

// X (and y) larger than the device binds or than the kernels' 32-bit indices
// reach: the step splits by rows and adds the pieces' sums. Under ctest's
// ops.split.* (PORTA_MAX_BINDING_BYTES = 12 KiB) and ops.index.*
// (PORTA_MAX_INDEX_ELEMENTS = 4000) X spans several pieces; elsewhere this is
// one more step test.
TEST(SplitLogreg, StepOverPieces) {
  porta::Device dev = porta::open(backend_under_test());
  for (const porta_dtype dtype : {PORTA_DTYPE_FLOAT32, PORTA_DTYPE_FLOAT16, PORTA_DTYPE_INT8}) {
    const Problem p = generated(3001, 9, 31);
    if (std::getenv("PORTA_MAX_BINDING_BYTES")) {
      ASSERT_GT(p.m * p.d * porta_dtype_size(dtype), 2 * dev.info().max_binding_bytes)
          << "X must span pieces";
    }
    if (const char* limit = std::getenv("PORTA_MAX_INDEX_ELEMENTS")) {
      ASSERT_GT(p.m * p.d, 2 * std::strtoull(limit, nullptr, 0)) << "X must span pieces";
    }
    check_one_step(p, 32, ops_step, dtype);
  }
  // Training over pieces equals training on the CPU backend within bound.hpp.
  const Problem p = generated(2503, 6, 33);
  Trained got = train(backend_under_test(), p, 30, 0.5f, true);
  if (!backend_available("cpu")) GTEST_SKIP() << "the CPU backend (the reference) is unavailable";
  Trained ref = train("cpu", p, 30, 0.5f, false);
  porta::logreg::Tolerance tol =
      porta::logreg::agreement_tolerance(p.x, p.m, p.d, ref.w, ref.b, ref.losses.back(), 30, 0.5);
  for (uint64_t j = 0; j < p.d; ++j) EXPECT_LE(std::fabs(got.w[j] - ref.w[j]), tol.w) << j;
  EXPECT_LE(std::fabs(got.b - ref.b), tol.b);
}

}  // namespace
}  // namespace porta::test
