// porta-bench's energy meter (bench/energy.cpp) against a stand-in NVML
// (fake_nvml.c, found as libnvidia-ml.so.1 through LD_LIBRARY_PATH) whose
// counter draws 350 W in 20 ms steps; the op is a fill on the CPU backend.
#include "energy.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "harness.hpp"

namespace porta::bench {
namespace {

DeviceInfo device_info(const char* vendor, const char* pci) {
  DeviceInfo info{};
  std::strncpy(info.vendor, vendor, sizeof info.vendor - 1);
  std::strncpy(info.pci_bus_id, pci, sizeof info.pci_bus_id - 1);
  return info;
}

TEST(EnergyMeter, OtherVendorsHaveNoFigureAndSayWhy) {
  const EnergyMeter meter(device_info("Mesa", "0000:01:00.0"));
  EXPECT_FALSE(meter.available());
  EXPECT_NE(meter.reason().find("not an NVIDIA device (vendor Mesa)"), std::string::npos) << meter.reason();
}

TEST(EnergyMeter, FindsTheDeviceByPciAddressOnly) {
  const EnergyMeter elsewhere(device_info("NVIDIA Corporation", "0000:02:00.0"));
  EXPECT_FALSE(elsewhere.available());
  EXPECT_NE(elsewhere.reason().find("NVML has no device at PCI 0000:02:00.0"), std::string::npos)
      << elsewhere.reason();
  const EnergyMeter unnamed(device_info("NVIDIA", ""));
  EXPECT_FALSE(unnamed.available());
  EXPECT_NE(unnamed.reason().find("no PCI address"), std::string::npos) << unnamed.reason();
  const EnergyMeter found(device_info("NVIDIA", "0000:01:00.0"));
  EXPECT_TRUE(found.available()) << found.reason();
  EXPECT_NE(found.source().find("Fake GPU (PCI 0000:01:00.0)"), std::string::npos) << found.source();
}

TEST(EnergyMeter, AnUnsupportedCounterIsNamed) {
  setenv("FAKE_NVML_ENERGY", "unsupported", 1);
  const EnergyMeter meter(device_info("NVIDIA", "0000:01:00.0"));
  unsetenv("FAKE_NVML_ENERGY");
  EXPECT_FALSE(meter.available());
  EXPECT_NE(meter.reason().find("energy counter unsupported"), std::string::npos) << meter.reason();
  EXPECT_NE(meter.reason().find("Not Supported"), std::string::npos) << meter.reason();
}

// The power between counter steps is the stand-in's 350 W, and the joules
// per run are that power over the runs made per second.
TEST(EnergyMeter, MeasuresPowerBetweenCounterStepsWhileTheOpRuns) {
  const EnergyMeter meter(device_info("NVIDIA", "0000:01:00.0"));
  ASSERT_TRUE(meter.available()) << meter.reason();
  Device device = open("cpu");
  Stream stream = device.stream();
  Buffer buffer = device.buffer(1 << 20);
  uint64_t runs = 0;
  const auto start = std::chrono::steady_clock::now();
  const Energy e = meter.measure(
      stream,
      [&] {
        stream.fill(buffer, 1.0f);
        ++runs;
      },
      0.05, 0.5, 3);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_GT(e.joules_per_run, 0) << e.reason;
  EXPECT_EQ(e.samples, 3u);
  // A busy 2-core machine may hold the counter's reader back a few
  // milliseconds at a step: 15% of a 0.5 s span is 75 ms.
  EXPECT_NEAR(e.watts, 350.0, 350.0 * 0.15);
  // Each run cost 350 W over the runs made per second. The wall time also
  // holds the batches that bring the clocks up and the runs' rate moves with
  // the machine's load, hence the wide margin.
  const double expected = 350.0 * wall / double(runs);
  EXPECT_GT(e.joules_per_run, expected * 0.5);
  EXPECT_LT(e.joules_per_run, expected * 2.0);
}

TEST(EnergyMeter, TimeEventsMeasuresEnergyOnlyInsideAScope) {
  const EnergyMeter meter(device_info("NVIDIA", "0000:01:00.0"));
  Device device = open("cpu");
  Stream stream = device.stream();
  Buffer buffer = device.buffer(1 << 16);
  auto body = [&] { stream.fill(buffer, 2.0f); };
  EXPECT_EQ(time_events(stream, 0, 10, body).energy.joules_per_run, 0);
  {
    EnergyScope scope(meter, 0.2, 1);
    EXPECT_GT(time_events(stream, 0, 10, body).energy.joules_per_run, 0);
  }
  EXPECT_EQ(EnergyScope::current(), nullptr);
}

}  // namespace
}  // namespace porta::bench
