#include "energy.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>
#include <vector>

namespace porta::bench {
namespace {

// The few NVML entry points porta-bench calls, declared as nvml.h does.
using NvmlReturn = int;  // nvmlReturn_t
constexpr NvmlReturn kNvmlSuccess = 0;
using NvmlDevice = void*;  // nvmlDevice_t

struct Nvml {
  NvmlReturn (*init)() = nullptr;                                         // nvmlInit_v2
  const char* (*error_string)(NvmlReturn) = nullptr;                      // nvmlErrorString
  NvmlReturn (*by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;        // nvmlDeviceGetHandleByPciBusId_v2
  NvmlReturn (*total_energy)(NvmlDevice, unsigned long long*) = nullptr;  // millijoules
  NvmlReturn (*name)(NvmlDevice, char*, unsigned) = nullptr;
  std::string reason;  // why NVML is not usable

  std::string error(NvmlReturn r) const {
    return std::string(error_string ? error_string(r) : "error") + " (" + std::to_string(r) + ")";
  }
};

// NVML, loaded and initialised once per process.
const Nvml& nvml() {
  static const Nvml loaded = [] {
    Nvml n;
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      n.reason = std::string("no NVML library (") + dlerror() + ")";
      return n;
    }
    auto symbol = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && n.reason.empty()) n.reason = std::string("NVML lacks ") + name;
    };
    symbol(n.init, "nvmlInit_v2");
    symbol(n.error_string, "nvmlErrorString");
    symbol(n.by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
    symbol(n.total_energy, "nvmlDeviceGetTotalEnergyConsumption");
    symbol(n.name, "nvmlDeviceGetName");
    if (n.reason.empty())
      if (NvmlReturn r = n.init(); r != kNvmlSuccess) n.reason = "nvmlInit_v2 failed: " + n.error(r);
    return n;
  }();
  return loaded;
}

bool nvidia(const DeviceInfo& info) {
  std::string vendor = info.vendor;
  std::transform(vendor.begin(), vendor.end(), vendor.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return vendor.find("nvidia") != std::string::npos;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

thread_local const EnergyScope* t_scope = nullptr;

}  // namespace

EnergyMeter::EnergyMeter(const DeviceInfo& info) {
  if (!nvidia(info)) {
    reason_ = std::string("not an NVIDIA device (vendor ") + info.vendor + ")";
    return;
  }
  const Nvml& n = nvml();
  if (!n.reason.empty()) {
    reason_ = n.reason;
    return;
  }
  if (!info.pci_bus_id[0]) {
    reason_ = "the device reports no PCI address to find it in NVML by";
    return;
  }
  NvmlDevice device = nullptr;
  if (NvmlReturn r = n.by_pci_bus_id(info.pci_bus_id, &device); r != kNvmlSuccess) {
    reason_ = std::string("NVML has no device at PCI ") + info.pci_bus_id + ": " + n.error(r);
    return;
  }
  unsigned long long mj = 0;
  if (NvmlReturn r = n.total_energy(device, &mj); r != kNvmlSuccess) {
    reason_ = "energy counter unsupported: nvmlDeviceGetTotalEnergyConsumption: " + n.error(r);
    return;
  }
  char name[96] = {};
  n.name(device, name, sizeof name);
  device_ = device;
  source_ = std::string("NVML energy counter of ") + name + " (PCI " + info.pci_bus_id + ")";
}

Energy EnergyMeter::measure(Stream& stream, const std::function<void()>& body, double run_ms, double seconds,
                            uint32_t samples) const {
  Energy result;
  result.seconds = seconds;
  if (!available()) {
    result.reason = reason_;
    return result;
  }
  const Nvml& n = nvml();
  // Runs between syncs: about 20 ms of work, so the device never idles long.
  const uint64_t batch =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(20.0 / std::max(run_ms, 1e-4))));
  struct Figure {
    double joules_per_run, watts;
  };
  std::vector<Figure> figures;
  std::string failure;
  for (uint32_t s = 0; s < samples; ++s) {
    struct Step {
      double t;
      unsigned long long mj;
    };
    std::vector<Step> steps;
    std::mutex steps_mutex;
    std::atomic<bool> stop{false};
    std::thread poller([&] {
      unsigned long long last = 0;
      n.total_energy(static_cast<NvmlDevice>(device_), &last);
      while (!stop.load(std::memory_order_relaxed)) {
        unsigned long long mj = 0;
        if (n.total_energy(static_cast<NvmlDevice>(device_), &mj) == kNvmlSuccess && mj != last) {
          const double t = now_s();
          std::lock_guard<std::mutex> lock(steps_mutex);
          steps.push_back({t, mj});
          last = mj;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
    // The first batch brings the clocks up; the span starts when it is done.
    uint64_t runs = 0;
    double start = 0, end = 0;
    try {
      for (uint64_t i = 0; i < batch; ++i) body();
      stream.sync();
      start = now_s();
      do {
        for (uint64_t i = 0; i < batch; ++i) body();
        stream.sync();
        runs += batch;
        end = now_s();
      } while (end - start < seconds);
    } catch (...) {
      stop = true;
      poller.join();
      throw;
    }
    stop = true;
    poller.join();
    const Step* first = nullptr;
    const Step* last = nullptr;
    for (const Step& step : steps)
      if (step.t >= start && step.t <= end) {
        if (!first) first = &step;
        last = &step;
      }
    if (!first || first == last || last->t <= first->t) {
      failure = "the energy counter changed fewer than twice in " + std::to_string(end - start) + " s";
      continue;
    }
    const double watts = (last->mj - first->mj) * 1e-3 / (last->t - first->t);
    const double runs_per_second = runs / (end - start);
    figures.push_back({watts / runs_per_second, watts});
  }
  if (figures.empty()) {
    result.reason = failure;
    return result;
  }
  std::sort(figures.begin(), figures.end(),
            [](const Figure& a, const Figure& b) { return a.joules_per_run < b.joules_per_run; });
  const Figure& median = figures[figures.size() / 2];
  result.joules_per_run = median.joules_per_run;
  result.watts = median.watts;
  result.samples = static_cast<uint32_t>(figures.size());
  return result;
}

EnergyScope::EnergyScope(const EnergyMeter& meter, double seconds, uint32_t samples)
    : meter_(meter), seconds_(seconds), samples_(samples), outer_(t_scope) {
  t_scope = this;
}

EnergyScope::~EnergyScope() { t_scope = outer_; }

const EnergyScope* EnergyScope::current() { return t_scope; }

Energy EnergyScope::measure(Stream& stream, const std::function<void()>& body, double run_ms) const {
  return meter_.measure(stream, body, run_ms, seconds_, samples_);
}

}  // namespace porta::bench
