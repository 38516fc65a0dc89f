// Dispatch overhead: an empty kernel's dispatch + sync round trip (host
// clock), and the cost per dispatch inside a replayed recorded sequence.
#include <algorithm>

#include "ops/op.hpp"

namespace porta::bench {
namespace {

const char* kEmptyKernel =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
    "void main() {}\n";

}  // namespace

Overhead measure_overhead(const DeviceInfo& info, Device& device, Stream& stream, const Options& o) {
  Overhead oh;
  oh.backend = info.backend;
  oh.device = info.name;
  std::fprintf(stderr, "  dispatch overhead\n");
  try {
    Kernel empty = device.kernel(glsl(kEmptyKernel, "empty"));
    Buffer data = device.buffer(256);
    const uint32_t runs = std::max<uint32_t>(o.runs, 100);
    Timing trip = time_wall(10, runs, [&] {
      stream.dispatch(empty, {1, 1, 1}, {data});
      stream.sync();
    });
    oh.round_trip_us = trip.median_ms * 1e3;
    // Per dispatch inside a replayed sequence: the slope between a sequence
    // of 1 and one of N dispatches, so the submit and sync cost drops out.
    const uint32_t n = 1000;
    auto record = [&](uint32_t count) {
      stream.begin_record();
      for (uint32_t i = 0; i < count; ++i) stream.dispatch(empty, {1, 1, 1}, {data});
      return stream.end_record();
    };
    Sequence one = record(1), many = record(n);
    Timing t1 = time_wall(3, o.runs, [&] {
      stream.replay(one);
      stream.sync();
    });
    Timing tn = time_wall(3, o.runs, [&] {
      stream.replay(many);
      stream.sync();
    });
    oh.replay_per_dispatch_us = (tn.median_ms - t1.median_ms) * 1e3 / (n - 1);
  } catch (const std::exception& e) {
    oh.error = e.what();
  }
  return oh;
}

}  // namespace porta::bench
