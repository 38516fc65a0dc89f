// What porta-bench measures: one row per op and size on a device, the
// device's bounds, its dispatch overhead; and the peers each row is set beside.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness.hpp"
#include "machine.hpp"

namespace porta::bench {

using Dims = std::array<uint64_t, 3>;

struct Comparison {
  std::string peer;  // "cuBLAS SGEMM (NVIDIA H100 ...)" or "porta cpu (...)"
  double peer_ms = 0;
  double ratio = 0;  // porta's throughput / the peer's (peer_ms / porta_ms)
};

struct Row {
  std::string backend, device, op, size;
  size_t device_index = 0;  // in Bench::devices()
  Dims dims{};
  Timing timing;
  std::string timer;
  double work = 0;  // bytes (memory-bound ops) or FLOPs (matmul)
  bool flops = false;
  double rate = 0;   // GB/s or GFLOP/s
  double bound = 0;  // fraction of the bound, 0 if unknown
  std::string bound_kind;
  std::vector<Comparison> peers;
  std::string error;
};

// The native API's own cost of what porta's overhead figures measure, called
// directly on the same device in the same run (the floor peers, peers.cpp).
struct Floor {
  std::string figure;  // "round trip" or "replay"
  std::string label;   // what was timed, and the device
  double us = 0;       // round trip; replay: per dispatch
  std::string error;   // why there is no figure
};

struct Overhead {
  std::string backend, device;
  double round_trip_us = 0;  // upload 256 bytes, one dispatch, read back, sync
  double replay_per_dispatch_us = 0;
  std::string timer = "host clock";
  std::vector<Floor> floors;
  std::string error;
};

// Round trip: the 256 bytes porta-bench moves each way. Replay: the slope
// between sequences of 1 and of this many dispatches.
inline constexpr uint64_t kRoundTripBytes = 256;
inline constexpr uint32_t kReplayDispatches = 1000;

// A row's element type is named by its op: NAME for fp32, NAME_DTYPE for
// DTYPE tf32, bf16, f16 or int8 ("matmul_f16"); bench.cpp appends
// Measurement::dtype so. Other spellings of the suffix ("matmul.fp16",
// "logreg_step-i8", "matmul_bfloat16") read as these. Peers are asked for a
// row's op by its canonical name, and the targets find rows by it.
std::string canonical_op(const std::string& op);  // "matmul.fp16" -> "matmul_f16", "mul_f32" -> "mul"
std::string op_dtype(const std::string& op);      // "f16"; "f32" without a suffix
std::string op_base(const std::string& op);       // "matmul_f16" -> "matmul"

// Joules per GFLOP (flops rows) or per GB moved, 0 without a figure.
double joules_per_unit(const Row& row);
inline const char* energy_unit(const Row& row) { return row.flops ? "J/GFLOP" : "J/GB"; }

struct DeviceSummary {
  std::string backend, device, type;
  std::string api_version;  // DeviceInfo::api_version: which native API the device is reached through
  bool reference = false;   // the reference device (porta's CPU backend)
  // --robust-cost's second run of a device: "PORTA_CPU_BOUNDS=off" (the
  // reference) or "robust" (the others); "" for the device as it opens by default.
  std::string variant;
  double copy_gbs = 0;                              // device-to-device copy, bytes read + written: the bound
  double copy_engine_gbs = 0, copy_kernel_gbs = 0;  // porta's buffer copy, a copy kernel
  Peak peak;
  // porta's cooperative-matrix multiply-add alone (ops/coopmat_peak.cpp),
  // TFLOP/s, 0 where not measured; why not, or what failed.
  double coopmat_f16_tflops = 0, coopmat_bf16_tflops = 0, coopmat_tf32_tflops = 0;
  std::string coopmat_note;
  std::string energy_source;  // the meter, or "n/a: why"
  Energy copy_energy;         // of the faster copy, per run of 2 x 256 MiB moved
  std::string error;
};

// "2^20", "1024^2", "m=2^18 d=256": the size column of the table.
std::string size_text(const std::string& op, const Dims& d);

}  // namespace porta::bench
