// matmul: C = A B, square; 2 N^3 FLOPs. matmul_tf32, matmul_f16 and
// matmul_bf16: the same product through porta_ops_gemm with TF32 allowed, or
// with float16 / bfloat16 A and B (float32 sums and C): the rows cuBLAS TF32,
// HGEMM and BF16 GEMM are compared with. Those three run on GPUs only unless
// --matmul names sizes.
#include <cstring>

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

std::vector<Dims> gpu_sizes(const Options& o, bool cpu_type) {
  return cpu_type && o.matmul.empty() ? std::vector<Dims>{} : sizes(o, cpu_type);
}

// Fills a buffer of `dtype` elements with `value`, two 16-bit copies per word.
void fill(Stream& stream, const Buffer& buffer, porta_dtype dtype, float value) {
  if (dtype == PORTA_DTYPE_FLOAT32) return stream.fill(buffer, value);
  uint32_t bits = 0;
  std::memcpy(&bits, &value, 4);
  if (dtype == PORTA_DTYPE_BFLOAT16) {
    bits >>= 16;
  } else {  // float16 of 0.5 or 0.25: exponent rebiased, mantissa 0
    bits = ((((bits >> 23) & 0xff) - 127 + 15) << 10);
  }
  const uint32_t word = bits | bits << 16;
  float pattern = 0;
  std::memcpy(&pattern, &word, 4);
  stream.fill(buffer, pattern);
}

Measurement measure_gemm(Device& device, Stream& stream, const Dims& d, const Options& o, porta_dtype input,
                         porta_gemm_compute compute) {
  const uint64_t m = d[0], n = d[1], k = d[2], size = porta_dtype_size(input);
  Buffer a = device.buffer(m * k * size), b = device.buffer(k * n * size), c = device.buffer(m * n * 4);
  fill(stream, a, input, 0.5f);
  fill(stream, b, input, 0.25f);
  Tensor ta(a, {m, k}, 0, input), tb(b, {k, n}, 0, input), tc(c, {m, n});
  ops::GemmOptions options;
  options.compute = compute;
  Measurement r;
  r.timing = time_events(stream, o.warmup, o.runs, [&] {
    if (input == PORTA_DTYPE_FLOAT32 && compute == PORTA_GEMM_COMPUTE_DEFAULT)
      ops::matmul(stream, ta, tb, tc);
    else
      ops::gemm(stream, ta, tb, tc, options);
  });
  r.work = 2.0 * m * n * k;
  r.flops = true;
  return r;
}

Measurement measure(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_gemm(device, stream, d, o, PORTA_DTYPE_FLOAT32, PORTA_GEMM_COMPUTE_DEFAULT);
}
Measurement measure_tf32(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_gemm(device, stream, d, o, PORTA_DTYPE_FLOAT32, PORTA_GEMM_COMPUTE_ALLOW_TF32);
}
Measurement measure_f16(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_gemm(device, stream, d, o, PORTA_DTYPE_FLOAT16, PORTA_GEMM_COMPUTE_DEFAULT);
}
Measurement measure_bf16(Device& device, Stream& stream, const Dims& d, const Options& o) {
  return measure_gemm(device, stream, d, o, PORTA_DTYPE_BFLOAT16, PORTA_GEMM_COMPUTE_DEFAULT);
}

}  // namespace

const OpBench kMatmulBench = {"matmul", sizes, measure};
const OpBench kMatmulTf32Bench = {"matmul_tf32", gpu_sizes, measure_tf32};
const OpBench kMatmulF16Bench = {"matmul_f16", gpu_sizes, measure_f16};
const OpBench kMatmulBf16Bench = {"matmul_bf16", gpu_sizes, measure_bf16};

}  // namespace porta::bench
