// porta's cooperative-matrix multiply-add alone on a device
// (kernels/coopmat_peak.comp): eight chains of 16 x 16 x 16 products per
// subgroup with no memory traffic between, in float16, bfloat16, and float32
// matrices at TF32, on the devices that report running each on matrix
// hardware. It is the rate of the instruction porta's cooperative matrices
// compile to there (mma.sync on CUDA, the driver's on Vulkan): the ceiling of
// any GEMM written with them, which the tensor-core GEMM targets show beside
// their ratios (targets.cpp).
#include <algorithm>
#include <vector>

#include "ops/op.hpp"

namespace porta::bench {
namespace {

#ifdef PORTA_BENCH_COOPMAT_PEAK
const uint32_t kF16[] = {
#include "coopmat_peak_f16.inc"
};
const uint32_t kF32[] = {
#include "coopmat_peak_f32.inc"
};
#endif
#ifdef PORTA_BENCH_COOPMAT_PEAK_BF16
const uint32_t kBf16[] = {
#include "coopmat_peak_bf16.inc"
};
#endif

// About 1.8 ms a run at 600 TFLOP/s, the time scale of the peers' largest GEMMs.
constexpr uint32_t kGroups = 2048, kIterations = 2048, kGroupSize = 128;

}  // namespace

void measure_coopmat_peak(Device& device, Stream& stream, const Options& o, const DeviceInfo& info,
                          DeviceSummary& summary) {
#ifndef PORTA_BENCH_COOPMAT_PEAK
  (void)device, (void)stream, (void)o, (void)info;
  summary.coopmat_note = std::string("not built: ") + PORTA_BENCH_COOPMAT_PEAK_MISSING;
#else
  struct Variant {
    const char* name;
    uint64_t hardware;
    const uint32_t* words;
    size_t count;
    uint32_t flags;
    uint16_t bits16;  // 1/64 in the 16-bit type (0x2400 float16, 0x3c80 bfloat16); 0: float32
    double* tflops;
  };
  std::vector<Variant> variants = {
      {"float16", PORTA_FEATURE_COOPERATIVE_MATRIX_F16_HW, kF16, std::size(kF16), 0, 0x2400,
       &summary.coopmat_f16_tflops},
      {"TF32", PORTA_FEATURE_COOPERATIVE_MATRIX_TF32_HW, kF32, std::size(kF32), PORTA_KERNEL_FLAG_ALLOW_TF32,
       0, &summary.coopmat_tf32_tflops},
  };
#ifdef PORTA_BENCH_COOPMAT_PEAK_BF16
  variants.push_back({"bfloat16", PORTA_FEATURE_COOPERATIVE_MATRIX_BF16_HW, kBf16, std::size(kBf16), 0,
                      0x3c80, &summary.coopmat_bf16_tflops});
#else
  summary.coopmat_note = "bfloat16 not built (no spirv-as beside spirv-val)";
#endif
  const uint32_t subgroup = std::max<uint32_t>(info.limits.subgroup_size, 1);
  // A and B: 16 x 16 each of 1/64.
  Buffer c = device.buffer(uint64_t(kGroups) * 256 * 4);
  for (const Variant& v : variants) {
    if (!(info.features & v.hardware)) continue;
    try {
      porta_kernel_descriptor d{};
      d.source_kind = PORTA_KERNEL_SOURCE_SPIRV;
      d.source = v.words;
      d.source_size = v.count * 4;
      d.name = "coopmat_peak";
      d.flags = v.flags;
      Kernel k = device.kernel(d);
      Buffer ab = v.bits16 ? device.upload(std::vector<uint16_t>(512, v.bits16))
                           : device.upload(std::vector<float>(512, 1.0f / 64));
      Timing t = time_events(stream, o.warmup, o.runs, [&] {
        stream.dispatch(k, {kGroups, 1, 1}, {ab, c}, kIterations);
      });
      const double flops = double(kGroups) * (kGroupSize / subgroup) * kIterations * 8 * 2.0 * 16 * 16 * 16;
      *v.tflops = flops / (t.median_ms * 1e-3) / 1e12;
    } catch (const std::exception& e) {
      summary.coopmat_note +=
          (summary.coopmat_note.empty() ? "" : "; ") + std::string(v.name) + ": " + e.what();
    }
  }
#endif
}

}  // namespace porta::bench
