// One benchmark of a porta op: its name, the sizes it runs at, and how one
// run is queued and timed. Each op's benchmark is one file in this folder;
// bench.cpp runs them in the order of op_benches().
#pragma once

#include <vector>

#include "options.hpp"
#include "porta/porta.hpp"
#include "results.hpp"

namespace porta::bench {

// What one op's benchmark measured: the timing, and the work of one run.
struct Measurement {
  Timing timing;
  double work = 0;  // bytes (memory-bound ops) or FLOPs
  bool flops = false;
  // The data's element type where an op runs in several ("f16"; results.hpp
  // canonical_op): the row's op becomes NAME_DTYPE ("matmul_f16"), which is
  // how the peers and the targets find it. Empty: fp32.
  std::string dtype;
};

struct OpBench {
  const char* name;  // the op's name in --ops and the table
  // The sizes to run: the command line's, else the defaults of the device's
  // class (CPU-type or GPU).
  std::vector<Dims> (*sizes)(const Options& options, bool cpu_type);
  // Prepares data of size `dims` on `device` and times the op on `stream`.
  Measurement (*measure)(Device& device, Stream& stream, const Dims& dims, const Options& options);
};

extern const OpBench kMulBench;         // mul.cpp
extern const OpBench kAddBench;         // add_dense.cpp
extern const OpBench kDenseBench;       // add_dense.cpp: sigmoid(x W^T + b)
extern const OpBench kSigmoidBench;     // sigmoid.cpp
extern const OpBench kMatmulBench;      // matmul.cpp
extern const OpBench kMatmulTf32Bench;  // matmul.cpp: porta_ops_gemm, TF32 allowed
extern const OpBench kMatmulF16Bench;   // matmul.cpp: float16 A and B
extern const OpBench kMatmulBf16Bench;  // matmul.cpp: bfloat16 A and B
extern const OpBench kLogregStepBench;  // logreg_step.cpp
// logreg_step with X in float16, bfloat16, int8 (logreg_step.cpp)
extern const OpBench kLogregStepF16Bench, kLogregStepBf16Bench, kLogregStepInt8Bench;

// The op benchmarks in the order they run on each device.
const std::vector<const OpBench*>& op_benches();

// An elementwise op out = f(a, b) over n floats, 12 bytes moved per element (mul.cpp).
using BinaryOp = void (*)(Stream&, const Tensor&, const Tensor&, const Tensor&);
Measurement measure_binary(Device& device, Stream& stream, uint64_t n, const Options& options, BinaryOp op);

// The sizes of the elementwise ops (mul, sigmoid).
std::vector<Dims> elementwise_sizes(const Options& options, bool cpu_type);

// The device's memory bandwidth (copy.cpp): the faster of porta's buffer
// copy and a copy kernel, 256 MiB device to device, bytes read + written.
// Fills the summary's copy figures (and its error, if the kernel fails).
double measure_copy(Device& device, Stream& stream, const Options& options, DeviceSummary& summary);

// porta's cooperative-matrix multiply-add alone (coopmat_peak.cpp): the
// summary's coopmat TFLOP/s for each matrix type the device reports running
// on matrix hardware (its note says what was not built or failed).
void measure_coopmat_peak(Device& device, Stream& stream, const Options& options, const DeviceInfo& info,
                          DeviceSummary& summary);

// Dispatch overhead (overhead.cpp): an empty kernel's round trip and its cost
// per dispatch inside a replayed sequence. Peers are added by the caller.
Overhead measure_overhead(const DeviceInfo& info, Device& device, const Options& options);

// matmul.comp from --sweep-matmul with several tile choices (matmul_sweep.cpp):
// one row per size and choice, passed to `done` once measured.
void sweep_matmul(const Options& options, Device& device, Stream& stream, bool cpu_type, const Peak& peak,
                  const Row& prototype, const std::function<void(Row&)>& done);

}  // namespace porta::bench
