// Dispatch overhead, on the host clock: the round trip of a tiny op (upload
// 256 bytes, one dispatch that adds one to them, read them back, sync), and
// the cost per dispatch inside a replayed recorded sequence, on a stream of
// its own that has timed nothing, as a framework's stream for tiny ops is
// (on OpenCL a stream's first timed event moves it to a profiling queue,
// which makes every round trip slower on some drivers).
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ops/op.hpp"

namespace porta::bench {
namespace {

const char* kEmptyKernel =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
    "void main() {}\n";

const char* kAddOneKernel =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
    "void main() { data[gl_GlobalInvocationID.x] += 1.0; }\n";

}  // namespace

Overhead measure_overhead(const DeviceInfo& info, Device& device, const Options& o) {
  Overhead oh;
  oh.backend = info.backend;
  oh.device = info.name;
  std::fprintf(stderr, "  dispatch overhead\n");
  try {
    Stream stream = device.stream();
    Kernel empty = device.kernel(glsl(kEmptyKernel, "empty"));
    Kernel add_one = device.kernel(glsl(kAddOneKernel, "add_one"));
    Buffer data = device.buffer(kRoundTripBytes);
    const uint32_t runs = std::max<uint32_t>(o.runs, 100);
    // The round trip the way a framework's tiny op sees it: the upload and
    // the read back are part of it, as is the wait for the answer.
    std::vector<float> in(kRoundTripBytes / sizeof(float)), out(in.size());
    float next = 0;
    Timing trip = time_wall(10, runs, [&] {
      std::fill(in.begin(), in.end(), next);
      stream.write(data, in);
      stream.dispatch(add_one, {1, 1, 1}, {data});
      stream.read(data, out);
      stream.sync();
      next = next < 1e6f ? next + 1 : 0;
    });
    if (std::any_of(out.begin(), out.end(), [&](float v) { return v != in[0] + 1; }))
      throw std::runtime_error("round trip read back a wrong answer");
    oh.round_trip_us = trip.median_ms * 1e3;
    // Per dispatch inside a replayed sequence: the slope between a sequence
    // of 1 and one of N dispatches, so the submit and sync cost drops out.
    const uint32_t n = kReplayDispatches;
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
