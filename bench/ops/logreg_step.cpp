// logreg_step: one gradient step of logistic regression on m samples of d
// features; the bytes counted are one read of X, and y.
#include "ops/op.hpp"

namespace porta::bench {
namespace {

std::vector<Dims> sizes(const Options& o, bool cpu_type) {
  std::vector<Dims> out;
  for (const LogregSize& s : !o.logreg.empty() ? o.logreg
                             : cpu_type        ? std::vector<LogregSize>{{1u << 16, 256}, {1u << 18, 256}}
                                               : std::vector<LogregSize>{{1u << 18, 256}, {1u << 20, 256}})
    out.push_back({s.m, s.d, 1});
  return out;
}

Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  const uint64_t m = d[0], dim = d[1];
  Buffer x = device.buffer(m * dim * 4), y = device.buffer(m * 4), w = device.buffer(dim * 4),
         b = device.buffer(4), loss = device.buffer(4);
  const uint64_t ws_bytes = ops::logreg_workspace_bytes(device, m, dim);
  Buffer ws = device.buffer(ws_bytes);
  stream.fill(x, 0.01f);
  stream.fill(y, 1.0f);
  stream.fill(w, 0.0f);
  stream.fill(b, 0.0f);
  Tensor tx(x, {m, dim}), ty(y, {m}), tw(w, {dim}), tb(b, {1}), tl(loss, {1}), tws(ws, {ws_bytes / 4});
  Measurement r;
  r.timing = time_events(stream, o.warmup, o.runs,
                         [&] { ops::logreg_step(stream, tx, ty, tw, tb, 0.1f, tl, &tws); });
  r.work = 4.0 * m * dim + 4.0 * m;  // X read once, and y
  return r;
}

}  // namespace

const OpBench kLogregStepBench = {"logreg_step", sizes, measure};

}  // namespace porta::bench
