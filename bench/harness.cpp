#include "harness.hpp"

#include <algorithm>
#include <chrono>

namespace porta::bench {

Timing summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  Timing t;
  t.runs = static_cast<uint32_t>(samples.size());
  if (samples.empty()) return t;
  const size_t n = samples.size();
  t.median_ms = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  t.min_ms = samples.front();
  return t;
}

Timing time_events(Stream& stream, uint32_t warmup, uint32_t runs, const std::function<void()>& body) {
  for (uint32_t i = 0; i < warmup; ++i) body();
  stream.sync();
  std::vector<double> samples;
  for (uint32_t i = 0; i < runs; ++i) {
    Event start = stream.record_event();
    body();
    Event stop = stream.record_event();
    stream.sync();
    samples.push_back(start.elapsed_ms(stop));
  }
  Timing t = summarize(samples);
  if (const EnergyScope* scope = EnergyScope::current()) t.energy = scope->measure(stream, body, t.median_ms);
  return t;
}

Timing time_wall(uint32_t warmup, uint32_t runs, const std::function<void()>& body) {
  for (uint32_t i = 0; i < warmup; ++i) body();
  std::vector<double> samples;
  for (uint32_t i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return summarize(samples);
}

std::vector<float> pattern(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * (float((i * 2654435761u) % 1024u) / 1024.0f - 0.5f);
  return v;
}

}  // namespace porta::bench
