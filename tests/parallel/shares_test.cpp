// parallel/shares.hpp with timings the test chooses: each simulated device
// takes fixed + per_row * rows milliseconds (times a seeded noise), as the
// trainer's loop measures it (the first iteration not counted, half the shard
// timed too until the model separates fixed from per-row cost), and the
// shards follow next_rows. No device, no clock: the same every run.
#include "shares.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace porta::parallel {
namespace {

struct Simulated {
  double fixed_ms, ms_per_row;
};

struct Trace {
  std::vector<uint64_t> rows;                  // at the end
  std::vector<std::vector<uint64_t>> history;  // after each iteration
  std::vector<CostModel> models;
};

// `iterations` iterations of the trainer's loop from `rows`; `noise` is the
// relative standard deviation of each measured time.
Trace simulate(const std::vector<Simulated>& devices, std::vector<uint64_t> rows, int iterations,
               uint64_t most, double noise, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto measured = [&](const Simulated& s, uint64_t n) {
    return std::max(0.0, (s.fixed_ms + s.ms_per_row * static_cast<double>(n)) * (1 + noise * normal(rng)));
  };
  const uint64_t m = std::accumulate(rows.begin(), rows.end(), uint64_t{0});
  const uint64_t floor = std::max<uint64_t>(1, m / (100 * devices.size()));
  Trace run;
  run.models.resize(devices.size());
  for (int it = 1; it <= iterations; ++it) {
    for (size_t i = 0; i < devices.size(); ++i) {
      if (rows[i] == 0) continue;
      const bool probe = !run.models[i].separated();
      run.models[i].observe(static_cast<double>(rows[i]), measured(devices[i], rows[i]));
      if (probe && rows[i] >= 2)
        run.models[i].observe(static_cast<double>(rows[i] / 2), measured(devices[i], rows[i] / 2));
    }
    rows = next_rows(run.models, rows, most, floor);
    EXPECT_EQ(std::accumulate(rows.begin(), rows.end(), uint64_t{0}), m) << "rows lost at iteration " << it;
    run.history.push_back(rows);
  }
  run.rows = rows;
  return run;
}

TEST(Shares, TwoShardSizesSeparateFixedFromPerRowCost) {
  CostModel model;
  model.observe(1000, 2 + 1000 * 0.001);
  EXPECT_FALSE(model.separated());
  EXPECT_NEAR(model.ms_per_row(), 0.003, 1e-12) << "one size: the whole time per row";
  model.observe(500, 2 + 500 * 0.001);
  ASSERT_TRUE(model.separated());
  EXPECT_NEAR(model.fixed_ms(), 2.0, 1e-9);
  EXPECT_NEAR(model.ms_per_row(), 0.001, 1e-12);
  // Many more iterations at one size keep the slope...
  for (int k = 0; k < 50; ++k) model.observe(1000, 3.0);
  EXPECT_NEAR(model.ms_per_row(), 0.001, 1e-9);
  EXPECT_NEAR(model.fixed_ms(), 2.0, 1e-6);
  // ... and a device that slows down is followed at the size it runs.
  for (int k = 0; k < 50; ++k) model.observe(1000, 4.0);
  EXPECT_NEAR(model.predict(1000), 4.0, 1e-3);
  EXPECT_EQ(model.predict(0), 0.0);
}

// The failing case: two handles of one fast device (an H100's step takes
// microseconds, the fixed cost dominates), shares 1:9. Rows per second make
// the small shard look nine times slower; the model sees equal devices whose
// times hardly depend on rows, so nothing is worth moving.
TEST(Shares, FastDeviceWithASmallShardDoesNotLoseRows) {
  const Simulated h100{0.020, 2e-8};  // 20 us fixed, 40000 rows 0.8 us
  const Trace run = simulate({h100, h100}, {4000, 36000}, 30, 4000, 0.02);
  for (const auto& rows : run.history) EXPECT_GE(rows[0], 4000u) << "rows moved off the small shard";
  EXPECT_NEAR(run.models[0].fixed_ms(), 0.020, 0.002);
}

// The same shares where rows cost time: the shards meet in the middle.
TEST(Shares, EqualDevicesMeetInTheMiddle) {
  const Simulated cpu{0.05, 1e-4};
  const Trace run = simulate({cpu, cpu}, {4000, 36000}, 16, 4000, 0.02);
  EXPECT_NEAR(static_cast<double>(run.rows[0]), 20000.0, 800.0);
  for (size_t k = 1; k < run.history.size(); ++k)
    EXPECT_GE(run.history[k][0], run.history[k - 1][0]) << "the small shard shrank at iteration " << k + 1;
}

// A GPU and a CPU: each device's predicted time is the same at the end, the
// CPU keeps a share it is worth (it is slower per row, not useless).
TEST(Shares, MixedDevicesEqualPredictedTimes) {
  const Simulated gpu{0.5, 2e-6}, cpu{0.05, 2e-5};
  const Trace run = simulate({gpu, cpu}, {50000, 50000}, 40, 10000, 0.03);
  const double t0 = gpu.fixed_ms + gpu.ms_per_row * static_cast<double>(run.rows[0]);
  const double t1 = cpu.fixed_ms + cpu.ms_per_row * static_cast<double>(run.rows[1]);
  EXPECT_NEAR(t0 / t1, 1.0, 0.1) << run.rows[0] << " : " << run.rows[1];
  EXPECT_GT(run.rows[1], 10000u);
}

// A device whose fixed cost alone exceeds the others' whole time is left
// out; one a third as fast per row, which shortens the step by a fifth, is not.
TEST(Shares, OnlyAUselessDeviceIsLeftOut) {
  const Simulated fast{0.0001, 1e-7}, stalling{5.0, 1e-4};
  const Trace run = simulate({fast, stalling}, {5000, 5000}, 20, 10000, 0.02);
  EXPECT_EQ(run.rows[1], 0u);
  EXPECT_EQ(run.rows[0], 10000u);
  const Simulated slower{0.0001, 3e-7};
  const Trace kept = simulate({fast, slower}, {5000, 5000}, 20, 10000, 0.02);
  EXPECT_GE(kept.rows[1], 10000u / 200) << "a slower device was starved";
  EXPECT_LT(kept.rows[1], 5000u);
}

// Balanced devices under 10% noise: the shards stay put instead of chasing it.
TEST(Shares, NoiseIsNotAReasonToMove) {
  const Simulated cpu{0.05, 1e-4};
  const Trace run = simulate({cpu, cpu, cpu}, {10000, 10000, 10000}, 50, 3000, 0.10, 7);
  size_t moves = 0;
  for (size_t k = 1; k < run.history.size(); ++k) moves += run.history[k] != run.history[k - 1];
  EXPECT_LE(moves, 3u);
  for (uint64_t rows : run.rows) EXPECT_NEAR(static_cast<double>(rows), 10000.0, 1500.0);
}

// A device that shortens the step by 7% keeps its rows; one worth 0.6% of
// them does not pay for the wait at every step and is left out (kLeastGain).
TEST(Shares, BalancedRowsSumAndKeepWhatPays) {
  for (const double slow_per_row : {8e-6, 1e-4}) {
    std::vector<CostModel> models(3);
    const Simulated devices[3] = {{0.01, 1e-6}, {0.01, slow_per_row}, {0.02, 2e-6}};
    for (size_t i = 0; i < 3; ++i)
      for (double n : {1000.0, 500.0, 1000.0})
        models[i].observe(n, devices[i].fixed_ms + devices[i].ms_per_row * n);
    const std::vector<uint64_t> rows = balanced_rows(models, 100003, 250);
    EXPECT_EQ(rows[0] + rows[1] + rows[2], 100003u);
    if (slow_per_row == 8e-6)
      EXPECT_GT(rows[1], 3000u) << "a device worth 7% of the step was left out";
    else
      EXPECT_EQ(rows[1], 0u) << "a device worth 0.6% of the rows kept " << rows[1];
    EXPECT_GT(rows[0], rows[2]);
  }
}

// Moving rows reloads the shards: a move is made only where the time the
// target saves, over the iterations left once it is reached, pays for the
// reloads on the way.
TEST(Shares, AMoveMustPayForItsReloads) {
  std::vector<CostModel> models(2);
  const Simulated devices[2] = {{0.1, 1e-4}, {0.1, 2e-4}};  // the second twice as slow per row
  for (size_t i = 0; i < 2; ++i)
    for (double n : {10000.0, 5000.0, 10000.0, 10000.0})
      models[i].observe(n, devices[i].fixed_ms + devices[i].ms_per_row * n);
  const std::vector<uint64_t> current = {10000, 10000};
  // Balanced, the step takes about 1.43 ms instead of 2.1: 0.67 ms saved per
  // iteration, reached in two moves of at most 2000 rows.
  MoveCost cost;
  cost.reload_ms = 5;
  cost.iterations_left = 100;
  EXPECT_NE(next_rows(models, current, 2000, 100, cost), current);
  cost.iterations_left = 20;  // 18 iterations x 0.67 ms pay for 2 reloads of 5 ms
  EXPECT_NE(next_rows(models, current, 2000, 100, cost), current);
  cost.iterations_left = 10;  // 8 x 0.67 ms do not
  EXPECT_EQ(next_rows(models, current, 2000, 100, cost), current);
  cost.iterations_left = 2;  // the target would not even be reached
  cost.reload_ms = 0;
  EXPECT_EQ(next_rows(models, current, 2000, 100, cost), current);
}

}  // namespace
}  // namespace porta::parallel
