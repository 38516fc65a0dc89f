#include "train.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "porta/quantize.hpp"

namespace logreg_tool {

Result train(const porta::Device& device, const Data& data, porta_dtype dtype, uint64_t iterations, float lr,
             uint64_t report_every, bool verbose, const Hooks& hooks) {
  Result r;
  const porta::DeviceInfo info = device.info();
  r.device = std::string(info.backend) + ":" + std::to_string(info.index) + " (" + info.name + ")";
  r.reference = (info.flags & PORTA_DEVICE_FLAG_REFERENCE) != 0;
  if (verbose) std::printf("device: %s\n", r.device.c_str());

  const uint64_t m = data.m, d = data.d;
  // float32 features go to the device as they are (encoded, they would be the
  // same bytes in a copy of gigabytes); narrower types are encoded first.
  porta::EncodedMatrix encoded;
  porta::Buffer xb;
  if (dtype == PORTA_DTYPE_FLOAT32) {
    encoded.dtype = dtype;
    encoded.rows = m;
    encoded.cols = encoded.ldx = d;
    xb = device.upload(porta::Span<const float>(data.x.data(), m * d));
  } else {
    encoded = porta::encode_matrix(data.x.data(), m, d, dtype);
    xb = device.upload(encoded.bytes);
  }
  porta::Buffer yb = device.upload(data.y);
  porta::Buffer sb = device.upload(encoded.scale.empty() ? std::vector<float>{0} : encoded.scale);
  porta::Buffer wb = device.buffer(d * sizeof(float)), bb = device.buffer(sizeof(float));
  const uint64_t block = std::min(report_every, iterations);
  porta::Buffer lossb = device.buffer(block * sizeof(float));
  porta::Buffer work = device.buffer(porta::ops::logreg_workspace_bytes(device, m, d));
  porta::Tensor x = encoded.tensor(xb), y(yb, {m}), w(wb, {d}), b(bb, {1}),
                ws(work, {work.size() / sizeof(float)});
  porta::Tensor scale(sb, {d});
  const porta::Tensor* x_scale = encoded.scale.empty() ? nullptr : &scale;

  porta::Stream stream = device.stream();
  if (hooks.w0) {
    wb.write(*hooks.w0);
    bb.write(std::vector<float>{hooks.b0});
  } else {
    porta::ops::fill(stream, w, 0.0f);
    porta::ops::fill(stream, b, 0.0f);
  }
  stream.sync();

  // One block of steps, recorded once: step k writes its loss to loss[k].
  auto record = [&](uint64_t steps) {
    stream.begin_record();
    for (uint64_t k = 0; k < steps; ++k)
      porta::ops::logreg_step_scaled(stream, x, x_scale, y, w, b, lr, porta::Tensor(lossb, {1}, k), &ws);
    return stream.end_record();
  };
  porta::Sequence full = record(block);
  porta::Sequence tail;
  if (iterations % block) tail = record(iterations % block);

  std::vector<float> losses(block);
  double ms = 0;
  for (uint64_t done = 0; done < iterations;) {
    const uint64_t steps = std::min(block, iterations - done);
    porta::Event start = stream.record_event();
    stream.replay(steps == block ? full : tail);
    porta::Event end = stream.record_event();
    stream.read(lossb, std::span<float>(losses.data(), steps));
    stream.sync();
    ms += start.elapsed_ms(end);
    for (uint64_t k = 0; k < steps; ++k)
      if (!std::isfinite(losses[k])) {
        char why[256];
        std::snprintf(why, sizeof why,
                      "the loss became %g at iteration %llu (learning rate %g too large for these data?); "
                      "no model to report",
                      static_cast<double>(losses[k]), static_cast<unsigned long long>(done + k + 1),
                      static_cast<double>(lr));
        r.error = why;
        return r;
      }
    done += steps;
    r.losses.push_back({done, losses[steps - 1]});
    if (hooks.on_block) hooks.on_block(done, losses[steps - 1]);
    if (verbose)
      std::printf("  iteration %8llu  loss %.7f\n", static_cast<unsigned long long>(done), losses[steps - 1]);
  }
  r.ms_per_iteration = ms / static_cast<double>(iterations);
  r.w = device.download<float>(wb);
  r.b = device.download<float>(bb)[0];
  r.loss = r.losses.back().second;
  for (float v : r.w)
    if (!std::isfinite(v)) {
      r.error = "the weights became non-finite; no model to report";
      return r;
    }
  if (!std::isfinite(r.b)) {
    r.error = "the bias became non-finite; no model to report";
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace logreg_tool
