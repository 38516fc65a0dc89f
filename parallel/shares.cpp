#include "shares.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace porta::parallel {

void CostModel::observe(double rows, double ms) {
  if (!(rows > 0) || !std::isfinite(ms) || ms < 0) return;
  for (double* sum : {&weight_, &n_, &t_, &nn_, &nt_, &tt_}) *sum *= decay;
  weight_ += 1;
  n_ += rows;
  t_ += ms;
  nn_ += rows * rows;
  nt_ += rows * ms;
  tt_ += ms * ms;
  ++observations_;
  fit();
}

void CostModel::fit() {
  const double mean_n = n_ / weight_, mean_t = t_ / weight_;
  const double var_n = std::max(0.0, nn_ / weight_ - mean_n * mean_n);
  const double var_t = std::max(0.0, tt_ / weight_ - mean_t * mean_t);
  const double cov = nt_ / weight_ - mean_n * mean_t;
  // Shard sizes about 10% apart (or more) separate the fixed cost from the
  // per-row cost; closer ones only move the level, the slope stays.
  if (var_n >= 0.0025 * mean_n * mean_n) {
    separated_ = true;
    per_row_ = std::max(0.0, cov / var_n);  // a time that falls with the rows is noise
    noise_ = std::sqrt(std::max(0.0, var_t - cov * cov / var_n));
  } else {
    if (!separated_) per_row_ = mean_t / mean_n;  // until then: rows per second
    noise_ = std::sqrt(var_t);
  }
  fixed_ = mean_t - per_row_ * mean_n;
  if (fixed_ < 0) {  // no negative fixed cost: the line through the origin
    fixed_ = 0;
    per_row_ = mean_t / mean_n;
  }
}

namespace {

// Real shares summing to m, as whole rows (largest remainders), the sum kept.
std::vector<uint64_t> whole_rows(const std::vector<double>& rows, uint64_t m) {
  const double total = std::accumulate(rows.begin(), rows.end(), 0.0);
  std::vector<uint64_t> out(rows.size(), 0);
  std::vector<std::pair<double, size_t>> remainders;
  uint64_t given = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const double want = total > 0 ? rows[i] * static_cast<double>(m) / total : 0.0;
    out[i] = std::min<uint64_t>(static_cast<uint64_t>(std::floor(want)), m - given);
    given += out[i];
    remainders.push_back({want - static_cast<double>(out[i]), i});
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 0; total > 0 && given < m; k = (k + 1) % remainders.size()) {
    if (rows[remainders[k].second] <= 0) continue;  // a device left out stays out
    ++out[remainders[k].second];
    ++given;
  }
  return out;
}

// The predicted iteration time: the slowest device's.
double predicted_ms(const std::vector<CostModel>& models, const std::vector<uint64_t>& rows) {
  double slowest = 0;
  for (size_t i = 0; i < models.size(); ++i)
    slowest = std::max(slowest, models[i].predict(static_cast<double>(rows[i])));
  return slowest;
}

// Equal predicted times over the devices in `use`: the time T at which
// sum_i max(floor, (T - fixed_i) / per_row_i) = m, found by bisection.
std::vector<uint64_t> equal_times(const std::vector<CostModel>& models, const std::vector<bool>& use,
                                  uint64_t m, double floor) {
  // A device whose time does not grow with its rows takes any number of them
  // once T passes its fixed cost; a tiny slope keeps the arithmetic finite.
  auto slope = [&](size_t i) { return std::max(models[i].ms_per_row(), 1e-12); };
  auto rows_at = [&](size_t i, double t) { return std::max(floor, (t - models[i].fixed_ms()) / slope(i)); };
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < models.size(); ++i)
    if (use[i]) {
      lo = std::min(lo, models[i].fixed_ms());
      hi = std::max(hi, models[i].fixed_ms() + slope(i) * static_cast<double>(m));
    }
  for (int step = 0; step < 200 && hi - lo > 1e-12 * hi; ++step) {
    const double t = 0.5 * (lo + hi);
    double total = 0;
    for (size_t i = 0; i < models.size(); ++i)
      if (use[i]) total += rows_at(i, t);
    (total >= static_cast<double>(m) ? hi : lo) = t;
  }
  std::vector<double> rows(models.size(), 0.0);
  for (size_t i = 0; i < models.size(); ++i)
    if (use[i]) rows[i] = rows_at(i, hi);
  return whole_rows(rows, m);
}

}  // namespace

std::vector<uint64_t> balanced_rows(const std::vector<CostModel>& models, uint64_t m, uint64_t floor) {
  std::vector<bool> use(models.size(), true);
  size_t used = models.size();
  const double lowest = static_cast<double>(std::min<uint64_t>(floor, m / std::max<size_t>(used, 1)));
  std::vector<uint64_t> rows = equal_times(models, use, m, lowest);
  // Leave out the device whose absence costs least, while it costs less than
  // kLeastGain: a device that shortens the step by less is not worth the wait
  // for it at every step, whose jitter alone costs more (porta's CPU backend
  // beside an H200 takes 2% of the rows and 1.5 to 3 ms for what its
  // measurements put at 1.1).
  while (used > 1) {
    const double with_all = predicted_ms(models, rows);
    double best_ms = INFINITY;
    size_t best = models.size();
    std::vector<uint64_t> best_rows;
    for (size_t i = 0; i < models.size(); ++i) {
      if (!use[i]) continue;
      use[i] = false;
      std::vector<uint64_t> without = equal_times(models, use, m, lowest);
      use[i] = true;
      const double ms = predicted_ms(models, without);
      if (ms < best_ms) {
        best_ms = ms;
        best = i;
        best_rows = std::move(without);
      }
    }
    if (best == models.size() || !(with_all > (1 - kLeastGain) * best_ms)) break;
    use[best] = false;
    --used;
    rows = std::move(best_rows);
  }
  return rows;
}

std::vector<uint64_t> next_rows(const std::vector<CostModel>& models, const std::vector<uint64_t>& current,
                                uint64_t most, uint64_t floor, const MoveCost& cost) {
  // Moves wait until every model has told fixed from per-row cost and has a
  // repeated measurement to judge its noise by.
  for (const CostModel& model : models)
    if (!model.separated() || model.observations() < 3) return current;
  const uint64_t m = std::accumulate(current.begin(), current.end(), uint64_t{0});
  const std::vector<uint64_t> target = balanced_rows(models, m, floor);
  const double now = predicted_ms(models, current), then = predicted_ms(models, target);
  double noise = 0;
  for (size_t i = 0; i < models.size(); ++i)
    if (current[i] > 0) noise = std::max(noise, models[i].noise_ms());
  if (!(then < now - std::max(0.03 * now, 2 * noise))) return current;
  // Every device a step toward its target, the largest step `most` rows.
  double largest = 0;
  for (size_t i = 0; i < models.size(); ++i)
    largest = std::max(largest, std::fabs(static_cast<double>(target[i]) - static_cast<double>(current[i])));
  const double scale = std::min(1.0, static_cast<double>(std::max<uint64_t>(most, 1)) / largest);
  std::vector<double> rows(models.size());
  for (size_t i = 0; i < models.size(); ++i)
    rows[i] = static_cast<double>(current[i]) +
              scale * (static_cast<double>(target[i]) - static_cast<double>(current[i]));
  // Reaching the target takes `steps` moves, each a reload; what it saves
  // counts from then on.
  const double steps = std::ceil(largest / static_cast<double>(std::max<uint64_t>(most, 1)));
  const double left = static_cast<double>(cost.iterations_left);
  if (!((now - then) * std::max(0.0, left - steps) > cost.reload_ms * steps)) return current;
  return whole_rows(rows, m);
}

}  // namespace porta::parallel
