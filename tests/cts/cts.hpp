// The plugin conformance suite: every test runs on every device of the plugin
// under test (porta-cts --backend=NAME --plugin=PATH), through the plugin's
// table alone, with the arguments libporta would pass after its own checks.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "harness/plugin_fixture.hpp"

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

// Test kernels, GLSL written once and translated for each plugin's language.
namespace cts_kernels {
extern const char* const kIncrement;    // d[i] += add (after `iterations` rounds of busy work)
extern const char* const kSaxpy;        // o = a * x + y + bias; bindings 0, 2, 5; two spec constants
extern const char* const kMixedPush;    // y = a * x + y + bias with float, uint and int push constants
extern const char* const kReduce;       // per-group sums through shared memory and barriers
extern const char* const kMatmul;       // 16 x 16 tiles in shared memory, a vec2 push constant
extern const char* const kGrid3d;       // each work-item writes its ids (3-D groups and grid)
extern const char* const kAtomicSum;    // 32-bit integer atomics across groups
extern const char* const kFloatAtomic;  // a float atomic add per group
extern const char* const kMaxGroup;     // a work-group of any size (spec constant 0) through shared memory
}  // namespace cts_kernels

struct IncrementPush {
  uint32_t n, add, iterations;
};

}  // namespace porta::test

// Declares a suite of the CTS and runs it on every device of the plugin.
#define PORTA_CTS_SUITE(Suite)                                                            \
  class Suite : public ::porta::test::Cts {};                                             \
  INSTANTIATE_TEST_SUITE_P(cts, Suite, ::testing::ValuesIn(::porta::test::cts_devices()), \
                           ::porta::test::cts_device_label)
