// The memory bound of a device: porta's buffer copy (which may run on a copy
// engine, slower than the compute units) and a copy kernel, 256 MiB device
// to device, bytes read + written; the faster of the two (and its energy,
// while an EnergyScope is open).
#include <algorithm>

#include "ops/op.hpp"

namespace porta::bench {
namespace {

const char* kCopyKernel =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer Src { vec4 src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };\n"
    "layout(push_constant) uniform Params { uint n4; uint stride; } p;\n"
    "void main() {\n"
    "  for (uint i = gl_GlobalInvocationID.x; i < p.n4; i += p.stride) dst[i] = src[i];\n"
    "}\n";

}  // namespace

double measure_copy(Device& device, Stream& stream, const Options& o, DeviceSummary& summary) {
  const uint64_t bytes = uint64_t(256) << 20;
  Buffer src = device.buffer(bytes), dst = device.buffer(bytes);
  stream.fill(src, 1.0f);
  stream.fill(dst, 0.0f);
  Timing t = time_events(stream, o.warmup, o.runs, [&] { stream.copy(src, dst, bytes); });
  summary.copy_engine_gbs = 2.0 * bytes / (t.median_ms * 1e-3) / 1e9;
  summary.copy_energy = t.energy;
  try {
    Kernel k = device.kernel(glsl(kCopyKernel, "copy"));
    const uint32_t n4 = static_cast<uint32_t>(bytes / 16);
    const uint32_t groups = std::min<uint32_t>(n4 / 256, 65535);
    struct {
      uint32_t n4, stride;
    } push{n4, groups * 256};
    Timing tk = time_events(stream, o.warmup, o.runs, [&] {
      stream.dispatch(k, {groups, 1, 1}, {src, dst}, push);
    });
    summary.copy_kernel_gbs = 2.0 * bytes / (tk.median_ms * 1e-3) / 1e9;
    if (summary.copy_kernel_gbs > summary.copy_engine_gbs) summary.copy_energy = tk.energy;
  } catch (const std::exception& e) {
    summary.error = std::string("copy kernel: ") + e.what();
  }
  return std::max(summary.copy_engine_gbs, summary.copy_kernel_gbs);
}

}  // namespace porta::bench
