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

Measurement measure_binary(Device& device, Stream& stream, uint64_t n, const Options& o, BinaryOp op) {
  Buffer a = device.upload(pattern(n, 1.0f)), b = device.upload(pattern(n, 2.0f)), out = device.buffer(n * 4);
  Tensor ta(a, {n}), tb(b, {n}), to(out, {n});
  Measurement m;
  m.timing = time_events(stream, o.warmup, o.runs, [&] { op(stream, ta, tb, to); });
  m.work = 12.0 * n;
  return m;
}

namespace {

Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_binary(device, stream, d[0], o, ops::mul);
}

}  // namespace

const OpBench kMulBench = {"mul", elementwise_sizes, measure};

}  // namespace porta::bench
