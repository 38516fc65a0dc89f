// mul: o = a * b elementwise; 12 bytes moved per element.
#include "ops/op.hpp"

namespace porta::bench {

std::vector<Dims> elementwise_sizes(const Options& options, bool) {
  std::vector<Dims> sizes;
  for (uint64_t n : !options.elementwise.empty() ? options.elementwise
                                                 : std::vector<uint64_t>{1u << 20, 1u << 24, 1u << 26})
    sizes.push_back({n, 1, 1});
  return sizes;
}

namespace {

Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  const uint64_t n = d[0];
  Buffer a = device.upload(pattern(n, 1.0f)), b = device.upload(pattern(n, 2.0f)), out = device.buffer(n * 4);
  Tensor ta(a, {n}), tb(b, {n}), to(out, {n});
  Measurement m;
  m.timing = time_events(stream, o.warmup, o.runs, [&] { ops::mul(stream, ta, tb, to); });
  m.work = 12.0 * n;
  return m;
}

}  // namespace

const OpBench kMulBench = {"mul", elementwise_sizes, measure};

}  // namespace porta::bench
