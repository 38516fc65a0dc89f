// matmul: C = A B, square; 2 N^3 FLOPs.
#include "ops/op.hpp"

namespace porta::bench {
namespace {

std::vector<Dims> sizes(const Options& o, bool cpu_type) {
  std::vector<Dims> out;
  for (uint64_t n : !o.matmul.empty() ? o.matmul
                    : cpu_type        ? std::vector<uint64_t>{256, 512, 1024}
                                      : std::vector<uint64_t>{1024, 2048, 4096})
    out.push_back({n, n, n});
  return out;
}

Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  const uint64_t m = d[0], n = d[1], k = d[2];
  Buffer a = device.buffer(m * k * 4), b = device.buffer(k * n * 4), c = device.buffer(m * n * 4);
  stream.fill(a, 0.5f);
  stream.fill(b, 0.25f);
  Tensor ta(a, {m, k}), tb(b, {k, n}), tc(c, {m, n});
  Measurement r;
  r.timing = time_events(stream, o.warmup, o.runs, [&] { ops::matmul(stream, ta, tb, tc); });
  r.work = 2.0 * m * n * k;
  r.flops = true;
  return r;
}

}  // namespace

const OpBench kMatmulBench = {"matmul", sizes, measure};

}  // namespace porta::bench
