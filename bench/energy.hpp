// The energy an op costs on NVIDIA devices, from NVML's energy counter
// (nvmlDeviceGetTotalEnergyConsumption: millijoules since the driver loaded).
// libnvidia-ml.so.1 is loaded with dlopen, so porta-bench links nothing of
// NVIDIA's and runs where it is missing; a device is matched with its NVML
// device by PCI address (porta_device_info::pci_bus_id). Elsewhere the meter
// says why there is no figure.
//
// The counter moves in steps tens of milliseconds apart, so a figure is the
// device's power between the first and the last step inside a span of at
// least `seconds` during which the op runs back to back, divided by the op's
// rate over that span: joules per run of the op. The median of `samples`
// such spans.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "porta/porta.hpp"

namespace porta::bench {

struct Energy {
  double joules_per_run = 0;  // 0: no figure (see reason)
  double watts = 0;           // average power while the op ran (median sample)
  double seconds = 0;         // length of each sample's span
  uint32_t samples = 0;
  std::string reason;  // why there is no figure
};

class EnergyMeter {
 public:
  // The meter of `info`'s device; available() false (with reason()) where
  // NVML is missing, the device is not NVIDIA's or has no PCI address, or
  // its counter is unsupported.
  explicit EnergyMeter(const DeviceInfo& info);

  bool available() const { return device_ != nullptr; }
  const std::string& reason() const { return reason_; }
  // "NVML energy counter of NVIDIA H100 ... (PCI 0000:65:00.0)"
  const std::string& source() const { return source_; }

  // Runs `body` (queues one run of the op on `stream`) back to back for at
  // least `seconds`, `samples` times; `run_ms` (the op's timed median) sizes
  // the batches between syncs.
  Energy measure(Stream& stream, const std::function<void()>& body, double run_ms, double seconds,
                 uint32_t samples) const;

 private:
  void* device_ = nullptr;  // nvmlDevice_t
  std::string reason_, source_;
};

// While a scope is open on this thread, time_events (harness.hpp) also
// measures the energy of the op it timed, into Timing::energy.
class EnergyScope {
 public:
  EnergyScope(const EnergyMeter& meter, double seconds, uint32_t samples);
  ~EnergyScope();
  EnergyScope(const EnergyScope&) = delete;
  EnergyScope& operator=(const EnergyScope&) = delete;

  // The open scope of this thread, or nullptr.
  static const EnergyScope* current();
  Energy measure(Stream& stream, const std::function<void()>& body, double run_ms) const;

 private:
  const EnergyMeter& meter_;
  double seconds_;
  uint32_t samples_;
  const EnergyScope* outer_;
};

}  // namespace porta::bench
