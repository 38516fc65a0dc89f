// sigmoid: o = 1 / (1 + exp(-x)) elementwise; 8 bytes moved per element.
#include "ops/op.hpp"

namespace porta::bench {
namespace {

Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  const uint64_t n = d[0];
  Buffer x = device.upload(pattern(n, 16.0f)), out = device.buffer(n * 4);
  Tensor tx(x, {n}), to(out, {n});
  Measurement m;
  m.timing = time_events(stream, o.warmup, o.runs, [&] { ops::sigmoid(stream, tx, to); });
  m.work = 8.0 * n;
  return m;
}

}  // namespace

const OpBench kSigmoidBench = {"sigmoid", elementwise_sizes, measure};

}  // namespace porta::bench
