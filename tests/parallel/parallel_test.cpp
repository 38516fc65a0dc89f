// porta_parallel_logreg_train (porta/parallel.h): training over several
// devices equals one device's training within the reduction-order bound of
// kernels/logreg_step/bound.hpp; shards sum to the rows and move toward the
// measured throughput; a shard over the device-memory cap streams in chunks
// and gives the in-memory result; the same shards give bit-identical
// results; a device that fails stops the job naming it, or drops out.
#include "porta/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "logreg_step/bound.hpp"
#include "porta/interop.hpp"
#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace porta::test {
namespace {

struct Problem {
  uint64_t m, d;
  std::vector<float> x, y;
};

Problem generated(uint64_t m, uint64_t d, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Problem p{m, d, std::vector<float>(m * d), std::vector<float>(m)};
  std::vector<float> truth(d);
  for (float& v : truth) v = u(rng);
  for (uint64_t i = 0; i < m; ++i) {
    double z = 0.1;
    for (uint64_t j = 0; j < d; ++j) z += (p.x[i * d + j] = u(rng)) * static_cast<double>(truth[j]);
    p.y[i] = z > 0 ? 1.0f : 0.0f;
  }
  return p;
}

// Steps of porta::ops::logreg_step on one device: the reference.
struct Trained {
  std::vector<float> w;
  float b = 0, loss = 0;
};
Trained one_device(const std::string& selector, const Problem& p, uint32_t steps, float lr) {
  porta::Device dev = porta::open(selector);
  porta::Buffer bx = dev.upload(p.x), by = dev.upload(p.y), bw = dev.upload(std::vector<float>(p.d, 0.0f)),
                bb = dev.upload(std::vector<float>{0.0f}), bl = dev.buffer(4);
  porta::Stream s = dev.stream();
  for (uint32_t k = 0; k < steps; ++k)
    porta::ops::logreg_step(s, porta::Tensor(bx, {p.m, p.d}), porta::Tensor(by, {p.m}),
                            porta::Tensor(bw, {p.d}), porta::Tensor(bb, {1}), lr, porta::Tensor(bl, {1}));
  s.sync();
  return {bw.to_vector<float>(), bb.to_vector<float>()[0], bl.to_vector<float>()[0]};
}

void expect_agree(const Problem& p, const parallel::Result& got, const Trained& want, uint32_t steps,
                  float lr) {
  const porta::logreg::Tolerance tol =
      porta::logreg::agreement_tolerance(p.x, p.m, p.d, want.w, want.b, want.loss, steps, lr);
  for (uint64_t j = 0; j < p.d; ++j) EXPECT_LE(std::fabs(got.w[j] - want.w[j]), tol.w) << "w[" << j << "]";
  EXPECT_LE(std::fabs(got.b - want.b), tol.b);
  EXPECT_LE(std::fabs(got.losses.back() - want.loss), tol.loss);
}

std::vector<porta::Device> devices_under_test() {
  std::vector<porta::Device> devices = {porta::open(backend_under_test())};
  if (backend_available("cpu")) devices.push_back(porta::open("cpu"));  // mixed backends (or the CPU twice)
  devices.push_back(porta::open(backend_under_test()));
  return devices;
}

// Shards contiguous in device order that cover the rows; a device may be
// left without rows only when the re-balancing judged it useless.
void expect_shards(const parallel::Result& got, uint64_t m) {
  uint64_t next = 0;
  for (const porta_parallel_device_report& r : got.devices) {
    EXPECT_EQ(r.status, PORTA_SUCCESS);
    EXPECT_EQ(r.first_row, next) << "shards are contiguous in device order";
    next += r.rows;
  }
  EXPECT_EQ(next, m);
}

// Options for `steps` iterations at learning rate `lr`, the rest as defaulted.
parallel::Options training(uint32_t steps, float lr) {
  parallel::Options o;
  o.iterations = steps;
  o.lr = lr;
  return o;
}

TEST(Parallel, SeveralDevicesEqualOneDevice) {
  const Problem p = generated(6007, 11, 1);
  const uint32_t steps = 25;
  const float lr = 0.5f;
  parallel::Options o = training(steps, lr);
  o.rebalance_rate = 0.2;
  const std::vector<porta::Device> devices = devices_under_test();
  const Trained want = one_device(backend_under_test(), p, steps, lr);
  parallel::Result got = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  expect_agree(p, got, want, steps, lr);
  expect_shards(got, p.m);
  for (const porta_parallel_device_report& r : got.devices) {
    if (r.rows > 0) {
      EXPECT_GT(r.rows_per_second, 0.0);  // a device judged useless has none
    }
    EXPECT_EQ(r.chunks, 1u);
  }
  // Every device with rows to the end.
  o.fixed_shares = true;
  got = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  expect_agree(p, got, want, steps, lr);
  for (const porta_parallel_device_report& r : got.devices) EXPECT_GE(r.rows, p.m / devices.size());
}

// One device holding every row runs the iterations after the first as the
// one-device loop does (porta_ops_logreg_step, 256 steps between syncs):
// more steps than a block, every loss reported, the result the reference's
// within the bound, the device's throughput reported.
TEST(Parallel, OneDeviceStepsOnTheDevice) {
  const Problem p = generated(5003, 9, 3);
  const uint32_t steps = 300;
  const float lr = 0.5f;
  const parallel::Options o = training(steps, lr);
  const Trained want = one_device(backend_under_test(), p, steps, lr);
  const parallel::Result got =
      parallel::train_logreg({porta::open(backend_under_test())}, p.x.data(), p.y.data(), p.m, p.d, o);
  expect_agree(p, got, want, steps, lr);
  ASSERT_EQ(got.losses.size(), steps);
  ASSERT_EQ(got.iteration_ms.size(), steps);
  for (uint32_t k = 0; k < steps; ++k) {
    EXPECT_TRUE(std::isfinite(got.losses[k])) << "iteration " << k;
    EXPECT_GE(got.iteration_ms[k], 0.0) << "iteration " << k;
  }
  EXPECT_LT(got.losses.back(), got.losses[1]) << "the loss did not fall over the steps on the device";
  ASSERT_EQ(got.devices.size(), 1u);
  EXPECT_EQ(got.devices[0].rows, p.m);
  EXPECT_GT(got.devices[0].rows_per_second, 0.0);
}

TEST(Parallel, FixedSharesAreBitIdentical) {
  const Problem p = generated(3001, 7, 2);
  parallel::Options o;
  o.iterations = 15;
  o.fixed_shares = true;
  o.shares = {1, 3, 2};
  const std::vector<porta::Device> devices = devices_under_test();
  o.shares.resize(devices.size());
  parallel::Result a = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  parallel::Result b = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.b, b.b);
  EXPECT_EQ(a.losses, b.losses);
  EXPECT_EQ(a.devices[0].rows, 3001u * 1 / (devices.size() == 3 ? 6 : 4));
}

// Shards follow the devices' costs (parallel/shares.hpp), here with the
// timings injected (PORTA_PARALLEL_SIMULATED_MS) into training on two handles
// of the device under test, from shares 1:9.
TEST(Parallel, SharesFollowTheDevicesCosts) {
  const Problem p = generated(40000, 16, 3);
  parallel::Options o;
  o.iterations = 16;
  o.shares = {1, 9};
  o.rebalance_rate = 0.1;
  std::vector<porta::Device> devices = {porta::open(backend_under_test()), porta::open(backend_under_test())};
  auto train = [&](const char* costs) {
    EXPECT_EQ(setenv("PORTA_PARALLEL_SIMULATED_MS", costs, 1), 0);
    parallel::Result r = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
    unsetenv("PORTA_PARALLEL_SIMULATED_MS");
    expect_shards(r, p.m);
    return r;
  };
  // Equal devices whose time grows with the rows: the shards meet in the
  // middle (the first grows, the second keeps part of its rows, copied on the
  // device), and the result is one device's.
  // The reference through one device alone, whose X may be held in several
  // buffers (parallel.pieces.*) where one_device's single buffer would not fit.
  parallel::Options alone = o;
  alone.shares.clear();
  const parallel::Result single = parallel::train_logreg({devices[0]}, p.x.data(), p.y.data(), p.m, p.d, alone);
  const Trained want{single.w, single.b, single.losses.back()};
  parallel::Result middle = train("0.05:0.0001,0.05:0.0001");
  EXPECT_NEAR(static_cast<double>(middle.devices[0].rows), 20000.0, 1000.0);
  expect_agree(p, middle, want, o.iterations, o.lr);
  // A fast device (an H100's step takes microseconds): the fixed cost
  // dominates, rows per second would make the small shard look nine times
  // slower; nothing is worth moving.
  EXPECT_EQ(train("0.02:0.00000002,0.02:0.00000002").devices[0].rows, 4000u);
  // A device whose fixed cost alone exceeds the other's whole time is left
  // out, and the result is still one device's.
  parallel::Result r = train("0.01:0.0000001,5:0.0001");
  EXPECT_EQ(r.devices[1].rows, 0u);
  EXPECT_EQ(r.devices[0].rows, p.m);
  expect_agree(p, r, want, o.iterations, o.lr);
  // Measured timings: two handles of one device share its hardware (and on
  // host devices this machine's cores): each handle's time includes waiting
  // for the other's work, so no direction is asserted, only whole shards.
  r = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  expect_shards(r, p.m);
}

// Without shares the first shards are measured before the first iteration
// (each device timed on the same first rows): a one-iteration job, which
// never re-balances, already gives the device a thousand times faster per row
// nearly all the rows (here all: the other's fixed cost alone exceeds the
// fast one's whole step), and still one device's result.
TEST(Parallel, FirstSharesAreMeasured) {
  const Problem p = generated(40000, 16, 4);
  parallel::Options o;
  o.iterations = 1;
  std::vector<porta::Device> devices = {porta::open(backend_under_test()), porta::open(backend_under_test())};
  const std::pair<const char*, size_t> cases[] = {{"0.01:0.0001,0.01:0.0000001", 1},
                                                  {"0.01:0.0000001,0.01:0.0001", 0}};
  for (const auto& [costs, fast] : cases) {
    ASSERT_EQ(setenv("PORTA_PARALLEL_SIMULATED_MS", costs, 1), 0);
    const parallel::Result r = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
    unsetenv("PORTA_PARALLEL_SIMULATED_MS");
    expect_shards(r, p.m);
    EXPECT_GE(static_cast<double>(r.devices[fast].rows), 0.95 * static_cast<double>(p.m)) << costs;
    expect_agree(p, r, one_device(backend_under_test(), p, o.iterations, o.lr), o.iterations, o.lr);
  }
  // With shares given, the job starts from them.
  o.shares = {1, 1};
  ASSERT_EQ(setenv("PORTA_PARALLEL_SIMULATED_MS", "0.01:0.0001,0.01:0.0000001", 1), 0);
  const parallel::Result r = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  unsetenv("PORTA_PARALLEL_SIMULATED_MS");
  EXPECT_EQ(r.devices[0].rows, p.m / 2);
}

// A cap far below the data: every device streams its shard in chunks, and
// the result is the in-memory one within the bound (the chunks' sums add in
// another order). Rows from a reader (converted on the fly) give the same
// result as rows in host memory, bit for bit.
TEST(Parallel, StreamingUnderADeviceMemoryCap) {
  const Problem p = generated(20011, 12, 4);
  const uint32_t steps = 8;
  parallel::Options o;
  o.iterations = steps;
  o.fixed_shares = true;
  std::vector<porta::Device> devices = {porta::open(backend_under_test())};
  parallel::Result in_memory = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  EXPECT_EQ(in_memory.devices[0].chunks, 1u);
  o.device_memory = p.m * (p.d + 1) * sizeof(float) / 8;  // an eighth of the data
  parallel::Result streamed = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  EXPECT_GE(streamed.devices[0].chunks, 16u);
  Trained want{in_memory.w, in_memory.b, in_memory.losses.back()};
  expect_agree(p, streamed, want, steps, o.lr);
  parallel::Reader read = [&](uint64_t first, uint64_t count, float* x, float* y) {
    std::copy(p.x.begin() + static_cast<long>(first * p.d),
              p.x.begin() + static_cast<long>((first + count) * p.d), x);
    std::copy(p.y.begin() + static_cast<long>(first), p.y.begin() + static_cast<long>(first + count), y);
  };
  parallel::Result from_reader = parallel::train_logreg(devices, read, p.m, p.d, o);
  EXPECT_EQ(from_reader.w, streamed.w);
  EXPECT_EQ(from_reader.b, streamed.b);
  // Several devices streaming at once.
  parallel::Result several =
      parallel::train_logreg(devices_under_test(), p.x.data(), p.y.data(), p.m, p.d, o);
  expect_agree(p, several, want, steps, o.lr);
}

// Streaming staged in page-locked host memory the device imports (the
// default on devices with memory of their own; forced here by the testing
// knob) gives the result of streaming from pageable memory, bit for bit,
// from host memory and from a reader; on a device that imports host memory
// the staging is used, not given up.
TEST(Parallel, PinnedStagingEqualsPageableStreaming) {
  const Problem p = generated(20011, 12, 5);
  parallel::Options o;
  o.iterations = 6;
  o.fixed_shares = true;
  o.device_memory = p.m * (p.d + 1) * sizeof(float) / 8;
  std::vector<porta::Device> devices = {porta::open(backend_under_test())};
  parallel::Reader read = [&](uint64_t first, uint64_t count, float* x, float* y) {
    std::copy(p.x.begin() + static_cast<long>(first * p.d),
              p.x.begin() + static_cast<long>((first + count) * p.d), x);
    std::copy(p.y.begin() + static_cast<long>(first), p.y.begin() + static_cast<long>(first + count), y);
  };
  bool imports = true;
  try {
    void* host = std::aligned_alloc(4096, 4096);
    { porta::import_host(devices[0], host, 4096); }
    std::free(host);
  } catch (const porta::Error&) {
    imports = false;
  }
  std::vector<parallel::Result> results;
  std::string trace;
  // Pageable; staged, each chunk by one thread; staged in three slices at once.
  for (const char* pinned : {"0", "1", "1"}) {
    setenv("PORTA_PARALLEL_PINNED_STAGING", pinned, 1);
    setenv("PORTA_PARALLEL_TRACE", "1", 1);
    if (results.size() == 4) setenv("PORTA_PARALLEL_STAGING_SLICES", "3", 1);
    testing::internal::CaptureStderr();
    results.push_back(parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o));
    results.push_back(parallel::train_logreg(devices, read, p.m, p.d, o));
    trace += testing::internal::GetCapturedStderr();
  }
  for (const char* knob :
       {"PORTA_PARALLEL_PINNED_STAGING", "PORTA_PARALLEL_TRACE", "PORTA_PARALLEL_STAGING_SLICES"})
    unsetenv(knob);
  EXPECT_GE(results[0].devices[0].chunks, 8u);
  for (size_t i = 1; i < results.size(); ++i) {
    EXPECT_EQ(results[i].w, results[0].w) << "run " << i;
    EXPECT_EQ(results[i].b, results[0].b) << "run " << i;
  }
  if (imports) {
    EXPECT_EQ(trace.find("streams from pageable memory"), std::string::npos) << trace;
  }
}

// A reader that fails mid-run (a data file that changed while it was being
// read): the job stops with the reader's own error, as it was thrown.
TEST(Parallel, AReadersErrorStopsTheJobAsThrown) {
  const Problem p = generated(5000, 6, 8);
  parallel::Options o;
  o.iterations = 4;
  o.device_memory = p.m * (p.d + 1) * sizeof(float) / 8;
  std::atomic<int> calls{0};
  parallel::Reader read = [&](uint64_t first, uint64_t count, float* x, float* y) {
    if (++calls == 20) throw std::runtime_error("data.csv: changed while it was being read");
    std::copy(p.x.begin() + static_cast<long>(first * p.d),
              p.x.begin() + static_cast<long>((first + count) * p.d), x);
    std::copy(p.y.begin() + static_cast<long>(first), p.y.begin() + static_cast<long>(first + count), y);
  };
  std::vector<porta::Device> devices = {porta::open(backend_under_test())};
  try {
    parallel::train_logreg(devices, read, p.m, p.d, o);
    ADD_FAILURE() << "the reader's error was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "data.csv: changed while it was being read");
  }
  EXPECT_GE(calls.load(), 20);
}

TEST(Parallel, CapTooSmallForOneRowIsRefused) {
  const Problem p = generated(100, 50, 5);
  parallel::Options o;
  o.device_memory = 300;
  std::vector<porta::Device> devices = {porta::open(backend_under_test())};
  try {
    parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
    FAIL() << "a cap below one row was accepted";
  } catch (const porta::Error& e) {
    EXPECT_NE(std::string(e.what()).find("device_memory = 300 bytes cannot hold"), std::string::npos)
        << e.what();
  }
}

// PORTA_PARALLEL_FAIL=1:3: the second device fails at iteration 3.
TEST(Parallel, ADeviceThatFailsIsNamedOrDropped) {
  const Problem p = generated(4001, 9, 6);
  const std::vector<porta::Device> devices = devices_under_test();
  parallel::Options o;
  o.iterations = 10;
  ASSERT_EQ(setenv("PORTA_PARALLEL_FAIL", "1:3", 1), 0);
  try {
    parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
    ADD_FAILURE() << "the failure was not reported";
  } catch (const porta::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.status(), PORTA_ERROR_DEVICE_LOST);
    EXPECT_NE(what.find("device 1 " + std::string(devices[1].info().backend) + ":"), std::string::npos)
        << what;
    EXPECT_NE(what.find("failed at iteration 3"), std::string::npos) << what;
  }
  o.continue_on_failure = true;
  parallel::Result r = parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o);
  unsetenv("PORTA_PARALLEL_FAIL");
  EXPECT_EQ(r.devices[1].status, PORTA_ERROR_DEVICE_LOST);
  EXPECT_EQ(r.devices[1].rows, 0u);
  EXPECT_EQ(r.devices[0].rows + r.devices.back().rows, p.m);
  expect_agree(p, r, one_device(backend_under_test(), p, o.iterations, o.lr), o.iterations, o.lr);
}

TEST(Parallel, BadArgumentsAreRefused) {
  std::vector<porta::Device> devices = {porta::open(backend_under_test())};
  const Problem p = generated(10, 3, 7);
  parallel::Options o;
  o.lr = NAN;
  EXPECT_THROW(parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o), porta::Error);
  o.lr = 0.5f;
  EXPECT_THROW(parallel::train_logreg(devices, p.x.data(), p.y.data(), 0, p.d, o), porta::Error);
  o.shares = {1, 2};
  EXPECT_THROW(parallel::train_logreg(devices, p.x.data(), p.y.data(), p.m, p.d, o), porta::Error);
  EXPECT_THROW(parallel::train_logreg({}, p.x.data(), p.y.data(), p.m, p.d, parallel::Options{}),
               porta::Error);
}

}  // namespace
}  // namespace porta::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
