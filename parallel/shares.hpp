// How many rows each device gets: each device's iteration time modelled as
// a fixed cost plus a cost per row, fitted from its iterations at their
// different shard sizes, and shards sized so that the predicted times are
// equal. Rows per second alone would misjudge a fast device with a small
// shard: there the fixed cost (dispatches, the weights' upload, the sums'
// read-back) dominates, the small shard looks slow per row, and rows would
// move the wrong way. Host arithmetic only (no porta API): the tests drive it
// with timings of their own.
#pragma once

#include <cstdint>
#include <vector>

namespace porta::parallel {

// One device's time per iteration, ms = fixed + per_row * rows, fitted by
// least squares over its iterations with older ones weighing less (each
// iteration's weight shrinks by `decay`), so that the model follows a device
// whose speed changes while noise averages out.
class CostModel {
 public:
  void observe(double rows, double ms);
  // At least one iteration seen.
  bool known() const { return weight_ > 0; }
  // Iterations at two shard sizes (10% apart) seen: fixed and per-row cost
  // are told apart. Until then the whole time is taken as the per-row cost.
  bool separated() const { return separated_; }
  uint64_t observations() const { return observations_; }
  double fixed_ms() const { return fixed_; }
  double ms_per_row() const { return per_row_; }
  double predict(double rows) const { return rows > 0 ? fixed_ + per_row_ * rows : 0.0; }
  // The spread of the iterations around the model (ms, one standard deviation).
  double noise_ms() const { return noise_; }

 private:
  void fit();
  static constexpr double decay = 0.8;
  // Decayed sums of 1, rows, ms, rows^2, rows*ms, ms^2.
  double weight_ = 0, n_ = 0, t_ = 0, nn_ = 0, nt_ = 0, tt_ = 0;
  double fixed_ = 0, per_row_ = 0, noise_ = 0;
  bool separated_ = false;
  uint64_t observations_ = 0;
};

// The rows for each device (rows[i] for models[i]) that minimise the
// predicted iteration time (the slowest device's) over m rows: each device
// gets at least `floor` rows, or none (it is left out) where it does not pay
// for itself: with it, the step is predicted less than kLeastGain shorter
// than with the others alone. Every model must be known.
inline constexpr double kLeastGain = 0.05;
std::vector<uint64_t> balanced_rows(const std::vector<CostModel>& models, uint64_t m, uint64_t floor);

// What moving rows costs: the devices load their new shards again, which
// takes `reload_ms` (the slowest device's, as measured at its last load),
// and pays off only over the iterations still to come.
struct MoveCost {
  double reload_ms = 0;
  uint64_t iterations_left = UINT64_MAX;
};

// The next shards from `current` (summing to m): toward balanced_rows, each
// device moving at most `most` rows, and only when the predicted iteration
// time improves by more than 3% and by more than twice the noise of the
// iterations (noise is not a reason), and the time the target saves over the
// iterations left once it is reached exceeds the reloads of the moves to it.
// Returns `current` when nothing should move, or
// when a model is unknown.
std::vector<uint64_t> next_rows(const std::vector<CostModel>& models, const std::vector<uint64_t>& current,
                                uint64_t most, uint64_t floor, const MoveCost& cost = {});

}  // namespace porta::parallel
