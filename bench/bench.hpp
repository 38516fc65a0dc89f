// A porta-bench run: every selected device in turn (the reference device
// first), its memory bound, each op benchmark at each size with its peers
// (and, where the device has an energy meter, the energy of each op at its
// largest size and of the copy), the dispatch overhead; then the CPU-type
// devices against the reference.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "energy.hpp"
#include "ops/op.hpp"
#include "options.hpp"
#include "peers.hpp"
#include "results.hpp"

namespace porta::bench {

// What a run measured, as the targets read it (targets.hpp).
struct RunResults {
  const Options& options;
  const std::vector<Peer>& peers;
  const std::vector<DeviceSummary>& devices;
  const std::vector<Row>& rows;
  const std::vector<Overhead>& overheads;
};

class Bench {
 public:
  explicit Bench(Options options);

  // `checkpoint` is called after each device, so what is measured so far
  // survives a driver that takes the process down.
  void run_all(const std::function<void()>& checkpoint);

  const Options& options() const { return o_; }
  const std::vector<Peer>& peers() const { return peers_.all(); }
  const std::vector<DeviceSummary>& devices() const { return devices_; }
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<Overhead>& overheads() const { return overheads_; }
  RunResults results() const { return {o_, peers_.all(), devices_, rows_, overheads_}; }
  // The reference device's backend ("cpu"), as the report names it.
  const std::string& reference_backend() const { return reference_backend_; }

 private:
  // `variant`: --robust-cost's second run (DeviceSummary::variant says which).
  void run_device(const DeviceInfo& info, bool variant = false);
  void compare_robust_cost();
  // `energy`: also the op's energy, with that meter.
  void guarded(const DeviceInfo& info, Device& device, Stream& stream, const OpBench& op, const Dims& dims,
               const EnergyMeter* energy);
  void finish_row(const DeviceInfo& info, Row& row);
  void compare_with_reference();
  void compare_with_float32();
  Row row_on(const DeviceInfo& info) const;

  Options o_;
  Peers peers_;
  std::string reference_backend_ = "reference";
  std::vector<DeviceSummary> devices_;
  std::vector<Row> rows_;
  std::vector<Overhead> overheads_;
};

}  // namespace porta::bench
