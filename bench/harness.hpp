// How porta-bench times: the median (and minimum) of timed runs after
// untimed warm-up runs, with porta's events or the host clock.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "energy.hpp"
#include "porta/porta.hpp"

namespace porta::bench {

struct Timing {
  double median_ms = 0, min_ms = 0;
  uint32_t runs = 0;
  Energy energy;  // measured by time_events while an EnergyScope is open
};

Timing summarize(std::vector<double> samples);

// Times `body` (queues work on `stream`) between two events, one sample per
// run; then, while an EnergyScope is open on this thread, its energy.
Timing time_events(Stream& stream, uint32_t warmup, uint32_t runs, const std::function<void()>& body);

// Times `body` (which syncs) with the host clock.
Timing time_wall(uint32_t warmup, uint32_t runs, const std::function<void()>& body);

// Test data: n floats in [-scale/2, scale/2), the same every run.
std::vector<float> pattern(size_t n, float scale);

}  // namespace porta::bench
