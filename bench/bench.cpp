#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "porta/robust.h"

namespace porta::bench {

namespace {

// Seconds since the first call, in the progress lines on stderr: where a
// long run (the GPU machine's targets) spends its time.
double elapsed_seconds() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// One file per benchmark in ops/; they run in this order.
const std::vector<const OpBench*>& op_benches() {
  static const std::vector<const OpBench*> kOps = {
      &kMulBench,        &kAddBench,           &kDenseBench,          &kSigmoidBench,
      &kMatmulBench,     &kMatmulTf32Bench,    &kMatmulF16Bench,      &kMatmulBf16Bench,
      &kLogregStepBench, &kLogregStepF16Bench, &kLogregStepBf16Bench, &kLogregStepInt8Bench};
  return kOps;
}

void print_row(FILE* out, const Row& r);  // report.cpp

Bench::Bench(Options options) : o_(std::move(options)), peers_(o_.peers, o_) {}

void Bench::run_all(const std::function<void()>& checkpoint) {
  std::vector<DeviceInfo> infos = porta::devices();
  // The reference device first: the CPU-type drivers are compared with it.
  std::stable_sort(infos.begin(), infos.end(),
                   [](const DeviceInfo& a, const DeviceInfo& b) { return reference(a) > reference(b); });
  if (!infos.empty() && reference(infos.front())) reference_backend_ = infos.front().backend;
  for (const auto& info : infos) {
    if (!o_.backends.empty() &&
        std::find(o_.backends.begin(), o_.backends.end(), std::string(info.backend)) == o_.backends.end())
      continue;
    if (o_.gpu_only && cpu_type(info)) continue;
    run_device(info);
    checkpoint();
    if (o_.robust_cost) {
      run_device(info, true);
      checkpoint();
    }
  }
  compare_with_reference();
  compare_with_float32();
  compare_robust_cost();
}

Row Bench::row_on(const DeviceInfo& info) const {
  Row row;
  row.backend = devices_.back().backend;
  row.device = info.name;
  row.device_index = devices_.size() - 1;
  return row;
}

void Bench::run_device(const DeviceInfo& info, bool variant) {
  const std::string selector = std::string(info.backend) + ":" + std::to_string(info.index);
  const bool host = cpu_type(info);
  DeviceSummary summary;
  summary.backend = info.backend;
  summary.device = info.name;
  summary.type = host ? "CPU-type" : "GPU";
  summary.api_version = info.api_version;
  summary.reference = reference(info) && !variant;
  // --robust-cost: the reference backend checks its buffer accesses by
  // default (unchecked kernels while PORTA_CPU_BOUNDS=off is set, here for
  // the whole run, where they are made); the others are robust on request.
  struct BoundsOff {
    bool on;
    explicit BoundsOff(bool on) : on(on) {
      if (on) setenv("PORTA_CPU_BOUNDS", "off", 1);
    }
    ~BoundsOff() {
      if (on) unsetenv("PORTA_CPU_BOUNDS");
    }
  } bounds_off(variant && reference(info));
  if (variant) summary.variant = reference(info) ? "PORTA_CPU_BOUNDS=off" : "robust";
  if (variant) summary.backend += " (" + summary.variant + ")";
  summary.peak = peak_flops(info);
  std::fprintf(stderr, "porta-bench: %s (%s) at %.1f s\n", selector.c_str(), info.name, elapsed_seconds());
  Device device;
  try {
    device = variant && !reference(info) ? open(selector, {PORTA_ROBUST_ON, 0}) : open(selector);
  } catch (const std::exception& e) {
    summary.error = e.what();
    devices_.push_back(summary);
    return;
  }
  Stream stream = device.stream();
  const EnergyMeter meter(info);
  const bool energy = meter.available() && o_.energy_seconds > 0;
  summary.energy_source = energy               ? meter.source()
                          : !meter.available() ? "n/a: " + meter.reason()
                                               : "not measured (--energy 0)";
  try {
    std::optional<EnergyScope> scope;
    if (energy && o_.sweep_source.empty()) scope.emplace(meter, o_.energy_seconds, o_.energy_samples);
    summary.copy_gbs = measure_copy(device, stream, o_, summary);
  } catch (const std::exception& e) {
    summary.error = std::string("copy: ") + e.what();
  }
  // The tensor-core GEMMs' ceiling, beside them (no energy: not a target's op).
  const bool matrix_products = std::any_of(o_.ops.begin(), o_.ops.end(), [](const std::string& op) {
    return op == "matmul_f16" || op == "matmul_bf16" || op == "matmul_tf32";
  });
  if (matrix_products && !host && o_.sweep_source.empty()) {
    try {
      measure_coopmat_peak(device, stream, o_, info, summary);
    } catch (const std::exception& e) {
      summary.coopmat_note = e.what();
    }
  }
  devices_.push_back(summary);
  if (!o_.sweep_source.empty()) {
    sweep_matmul(o_, device, stream, host, devices_.back().peak, row_on(info),
                 [&](Row& row) { finish_row(info, row); });
    return;
  }
  auto has = [&](const char* op) { return std::find(o_.ops.begin(), o_.ops.end(), op) != o_.ops.end(); };
  for (const OpBench* op : op_benches()) {
    if (!has(op->name)) continue;
    const std::vector<Dims> sizes = op->sizes(o_, host);
    // Energy at the largest size only: each figure takes seconds.
    size_t largest = 0;
    auto volume = [](const Dims& d) { return double(d[0]) * double(d[1]) * double(d[2]); };
    for (size_t i = 0; i < sizes.size(); ++i)
      if (volume(sizes[i]) >= volume(sizes[largest])) largest = i;
    for (size_t i = 0; i < sizes.size(); ++i)
      guarded(info, device, stream, *op, sizes[i], energy && i == largest ? &meter : nullptr);
  }
  if (has("overhead")) {
    Overhead oh = measure_overhead(info, device, o_);
    oh.floors = peers_.overhead_floors(info);
    overheads_.push_back(oh);
  }
}

void Bench::guarded(const DeviceInfo& info, Device& device, Stream& stream, const OpBench& op,
                    const Dims& dims, const EnergyMeter* energy) {
  Row row = row_on(info);
  row.op = canonical_op(op.name);
  row.dims = dims;
  row.size = size_text(row.op, dims);
  row.timer = info.timer == PORTA_TIMER_HOST ? "host clock (events)" : "device (events)";
  std::fprintf(stderr, "  %s %s at %.1f s\n", row.op.c_str(), row.size.c_str(), elapsed_seconds());
  try {
    std::optional<EnergyScope> scope;
    if (energy) scope.emplace(*energy, o_.energy_seconds, o_.energy_samples);
    const Measurement m = op.measure(device, stream, dims, o_);
    row.op = canonical_op(m.dtype.empty() ? row.op : row.op + "_" + m.dtype);
    row.timing = m.timing;
    row.work = m.work;
    row.flops = m.flops;
    const double seconds = row.timing.median_ms * 1e-3;
    row.rate = row.work / seconds / 1e9;
    const DeviceSummary& dev = devices_.back();
    if (row.flops) {
      if (dev.peak.flops > 0) {
        row.bound = row.work / seconds / dev.peak.flops;
        row.bound_kind = "peak FLOP/s (" + dev.peak.source + ")";
      }
    } else if (dev.copy_gbs > 0) {
      row.bound = row.rate / dev.copy_gbs;
      row.bound_kind = "device-to-device copy";
    }
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  finish_row(info, row);
}

// Peers for a measured row; then the row joins the table (and stderr).
void Bench::finish_row(const DeviceInfo& info, Row& row) {
  if (row.error.empty()) row.peers = peers_.compare(info, row);
  rows_.push_back(row);
  print_row(stderr, row);
}

// CPU-type drivers (lavapipe, PoCL) against the reference device, same op and size.
void Bench::compare_with_reference() {
  for (Row& row : rows_) {
    const DeviceSummary& dev = devices_[row.device_index];
    if (dev.reference || !row.error.empty() || dev.type != "CPU-type") continue;
    for (const Row& ref : rows_)
      if (devices_[ref.device_index].reference && ref.op == row.op && ref.size == row.size &&
          ref.error.empty())
        row.peers.push_back({"porta " + ref.backend + " (" + ref.device + ")", ref.timing.median_ms,
                             ref.timing.median_ms / row.timing.median_ms});
  }
}

// --robust-cost: each device's rows beside its second run's at the same op and
// size; the checked (robust) row carries the other as its peer, so its ratio
// is the cost of bounds checks (1.00x: none).
void Bench::compare_robust_cost() {
  for (Row& row : rows_) {
    const DeviceSummary& dev = devices_[row.device_index];
    if (!row.error.empty()) continue;
    for (const Row& other : rows_) {
      const DeviceSummary& odev = devices_[other.device_index];
      if (other.device_index == row.device_index || odev.device != dev.device || other.op != row.op ||
          other.size != row.size || !other.error.empty())
        continue;
      // The checked row: the reference as it opens, or another device's robust run.
      const bool checked_pair =
          (dev.reference && odev.variant == "PORTA_CPU_BOUNDS=off") ||
          (dev.variant == "robust" && odev.variant.empty() && odev.backend + " (robust)" == dev.backend);
      if (checked_pair)
        row.peers.push_back(
            {"porta " + odev.backend, other.timing.median_ms, other.timing.median_ms / row.timing.median_ms});
    }
  }
}

// An op on narrower data ("logreg_step_f16") against its float32 op, same
// device and size: the speed-up of reading fewer bytes, side by side.
void Bench::compare_with_float32() {
  for (Row& row : rows_) {
    const size_t cut = row.op.rfind('_');
    if (!row.error.empty() || cut == std::string::npos) continue;
    const std::string type = row.op.substr(cut + 1);
    if (type != "f16" && type != "bf16" && type != "int8") continue;
    const std::string base = row.op.substr(0, cut);
    for (const Row& ref : rows_)
      if (ref.device_index == row.device_index && ref.op == base && ref.dims == row.dims && ref.error.empty())
        row.peers.push_back(
            {"porta " + base + " f32", ref.timing.median_ms, ref.timing.median_ms / row.timing.median_ms});
  }
}

}  // namespace porta::bench
