// add: o = a + b elementwise, 12 bytes moved per element (as mul).
// dense: y = sigmoid(x W^T + b), batch x in times (out x in)^T, 2 * batch *
// in * out FLOPs; one fused GEMM (its bias and activation epilogue).
#include "ops/op.hpp"

namespace porta::bench {

namespace {

Measurement measure_add(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_binary(device, stream, d[0], o, ops::add);
}

// dims: batch, in, out.
std::vector<Dims> dense_sizes(const Options&, bool cpu_type) {
  if (cpu_type) return {{256, 512, 512}, {1024, 1024, 1024}};
  return {{256, 1024, 1024}, {4096, 4096, 4096}};
}

Measurement measure_dense(Device& device, Stream& stream, const Dims& d, const Options& o) {
  const uint64_t batch = d[0], in = d[1], outs = d[2];
  Buffer x = device.upload(pattern(batch * in, 0.01f)), w = device.upload(pattern(outs * in, 0.02f)),
         b = device.upload(pattern(outs, 0.5f)), y = device.buffer(batch * outs * 4);
  Tensor tx(x, {batch, in}), tw(w, {outs, in}), tb(b, {outs}), ty(y, {batch, outs});
  Measurement m;
  m.timing = time_events(stream, o.warmup, o.runs,
                         [&] { ops::dense(stream, tx, tw, &tb, ty, PORTA_GEMM_ACTIVATION_SIGMOID); });
  m.work = 2.0 * double(batch) * double(in) * double(outs);
  m.flops = true;
  return m;
}

}  // namespace

const OpBench kAddBench = {"add", elementwise_sizes, measure_add};
const OpBench kDenseBench = {"dense", dense_sizes, measure_dense};

}  // namespace porta::bench
