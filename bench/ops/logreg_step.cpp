// logreg_step: one gradient step of logistic regression on m samples of d
// features; the bytes counted are one read of X, and y. logreg_step_f16,
// _bf16 and _int8 keep X in that type (int8 with a scale per feature); their
// rows carry the float32 step of the same size and device as a peer, so the
// ratio is taken side by side in one run.
//
// X larger than the device's largest buffer (NVIDIA's Vulkan: 4 GiB; X of
// 2^24 x 256 floats is 16 GiB) is held in several buffers of whole rows, as
// porta-logreg holds it: a run is then the step's sums over every buffer
// (porta_ops_logreg_gradient into one sums vector), which reads X once as
// the step does; only the update of the d + 1 weights from the sums, a few
// microseconds, is left out.
#include <algorithm>
#include <cstring>

#include "ops/op.hpp"
#include "porta/quantize.hpp"

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

// Every element of X holds 0.01 in `dtype` (int8: q = 1, scale 0.01): a word
// of that pattern, filled on the device.
uint32_t word_of(porta_dtype dtype) {
  switch (dtype) {
    case PORTA_DTYPE_FLOAT16:
      return 0x10001u * float_to_half(0.01f);
    case PORTA_DTYPE_BFLOAT16:
      return 0x10001u * float_to_bfloat16(0.01f);
    case PORTA_DTYPE_INT8:
      return 0x01010101u;
    default:
      return float_bits(0.01f);
  }
}

// Rows of `row_bytes` each that one buffer of `device` holds: all m where X
// fits the largest buffer.
uint64_t rows_per_buffer(const Device& device, uint64_t m, uint64_t row_bytes) {
  const porta_device_limits limits = device.info().limits;
  uint64_t largest = UINT64_MAX;
  if (limits.max_buffer_bytes) largest = std::min(largest, limits.max_buffer_bytes);
  if (limits.max_allocation_bytes) largest = std::min(largest, limits.max_allocation_bytes);
  if (m * row_bytes <= largest) return m;
  return std::max<uint64_t>(1, largest / row_bytes);
}

Measurement measure_as(porta_dtype dtype, Device& device, Stream& stream, const Dims& d, const Options& o) {
  const uint64_t m = d[0], dim = d[1];
  const uint64_t size = porta_dtype_size(dtype), per_word = 4 / size;
  const uint64_t ldx = (dim + per_word - 1) / per_word * per_word;  // rows start on a word
  const uint64_t held = rows_per_buffer(device, m, ldx * size);
  // X and y in buffers of `held` rows (one where X fits).
  std::vector<Buffer> xs, ys;
  std::vector<Tensor> txs, tys;
  for (uint64_t first = 0; first < m; first += held) {
    const uint64_t rows = std::min(held, m - first);
    xs.push_back(device.buffer(rows * ldx * size));
    ys.push_back(device.buffer(rows * 4));
    stream.fill(xs.back(), word_of(dtype));
    stream.fill(ys.back(), 1.0f);
    const uint64_t shape[] = {rows, dim};
    const int64_t strides[] = {static_cast<int64_t>(ldx), 1};
    txs.emplace_back(xs.back(), Span<const uint64_t>(shape, 2), Span<const int64_t>(strides, 2), 0, dtype);
    tys.push_back(Tensor(ys.back(), {rows}));
  }
  Buffer w = device.buffer(dim * 4), b = device.buffer(4), loss = device.buffer(4),
         scale = device.buffer(dim * 4), sums = device.buffer((dim + 2) * 4);
  const uint64_t ws_bytes = ops::logreg_workspace_bytes(device, held, dim);
  Buffer ws = device.buffer(ws_bytes);
  stream.fill(w, 0.0f);
  stream.fill(b, 0.0f);
  stream.fill(scale, 0.01f);
  Tensor tw(w, {dim}), tb(b, {1}), tl(loss, {1}), tws(ws, {ws_bytes / 4}), ts(scale, {dim}),
      tsums(sums, {dim + 2});
  const Tensor* x_scale = dtype == PORTA_DTYPE_INT8 ? &ts : nullptr;
  Measurement r;
  r.timing = time_events(stream, o.warmup, o.runs, [&] {
    if (txs.size() == 1) {
      ops::logreg_step_scaled(stream, txs[0], x_scale, tys[0], tw, tb, 0.1f, tl, &tws);
      return;
    }
    stream.fill(sums, 0.0f);
    for (size_t i = 0; i < txs.size(); ++i)
      ops::logreg_gradient(stream, txs[i], x_scale, tys[i], tw, tb, tsums, &tws);
  });
  r.work = static_cast<double>(size) * m * dim + 4.0 * m;  // X read once, and y
  if (x_scale) r.work += 4.0 * dim;
  return r;
}

template <porta_dtype D>
Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_as(D, device, stream, d, o);
}

}  // namespace

const OpBench kLogregStepBench = {"logreg_step", sizes, measure<PORTA_DTYPE_FLOAT32>};
const OpBench kLogregStepF16Bench = {"logreg_step_f16", sizes, measure<PORTA_DTYPE_FLOAT16>};
const OpBench kLogregStepBf16Bench = {"logreg_step_bf16", sizes, measure<PORTA_DTYPE_BFLOAT16>};
const OpBench kLogregStepInt8Bench = {"logreg_step_int8", sizes, measure<PORTA_DTYPE_INT8>};

}  // namespace porta::bench
