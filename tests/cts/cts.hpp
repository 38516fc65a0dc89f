// The plugin conformance suite: every test runs on every device of the plugin
// under test (porta-cts --backend=NAME --plugin=PATH), through the plugin's
// table alone, with the arguments libporta would pass after its own checks.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "harness/plugin_fixture.hpp"
#include "harness/test_kernels.hpp"

namespace porta::test {

// One device of the plugin under test; `index` is kNoDevice when the plugin
// is unavailable, and every test then skips with the plugin's reason.
struct CtsDevice {
  static constexpr uint32_t kNoDevice = ~0u;
  const Plugin* plugin = nullptr;
  uint32_t index = kNoDevice;
  std::string label;  // the test-name suffix: backend and device index
};

// The backend the suite runs on (its name as the plugin must report it).
const std::string& cts_backend();
// The devices of the plugin under test (loading and initialising it once).
std::vector<CtsDevice> cts_devices();
std::string cts_device_label(const ::testing::TestParamInfo<CtsDevice>& info);
inline void PrintTo(const CtsDevice& device, std::ostream* out) { *out << device.label; }

class Cts : public PluginTest, public ::testing::WithParamInterface<CtsDevice> {
 protected:
  void SetUp() override { open(*GetParam().plugin, GetParam().index); }
  bool has(uint64_t feature) const { return (info.features & feature) == feature; }
};

}  // namespace porta::test

// Declares a suite of the CTS and runs it on every device of the plugin;
// PORTA_CTS_SUITE_OF gives the suite a base of its own (derived from Cts) with
// helpers its tests share.
#define PORTA_CTS_SUITE_OF(Suite, Base)                                                   \
  class Suite : public Base {};                                                           \
  INSTANTIATE_TEST_SUITE_P(cts, Suite, ::testing::ValuesIn(::porta::test::cts_devices()), \
                           ::porta::test::cts_device_label)
#define PORTA_CTS_SUITE(Suite) PORTA_CTS_SUITE_OF(Suite, ::porta::test::Cts)
