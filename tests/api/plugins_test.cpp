// Broken plugins on PORTA_PLUGIN_PATH are reported with their reasons, and the
// real plugins (found next to libporta) still load.
#include <cstdlib>
#include <map>

#include "porta/plugin.h"
#include "test_support.hpp"

namespace {

std::map<std::string, porta::BackendInfo> by_name() {
  std::map<std::string, porta::BackendInfo> out;
  for (const auto& b : porta::backends()) out[b.name] = b;
  return out;
}

void expect_reason(const std::string& name, const std::string& needle) {
  auto all = by_name();
  ASSERT_TRUE(all.count(name)) << "plugin " << name << " not listed";
  EXPECT_FALSE(all[name].available);
  EXPECT_NE(all[name].reason.find(needle), std::string::npos) << name << ": " << all[name].reason;
}

TEST(Plugins, MissingEntrySymbolIsReported) {
  expect_reason("fake_nosym", "exports no porta_plugin_entry symbol");
}

TEST(Plugins, OtherAbiVersionIsReported) {
  // fake_abi speaks PORTA_PLUGIN_ABI_VERSION + 41.
  expect_reason("fake_abi", "plugin ABI version " + std::to_string(PORTA_PLUGIN_ABI_VERSION + 41) +
                                "; this libporta needs version " + std::to_string(PORTA_PLUGIN_ABI_VERSION));
}

TEST(Plugins, FailedInitIsReportedWithThePluginsReason) {
  expect_reason("fake_init", "libfakeruntime.so.1 not found");
}

TEST(Plugins, UnloadableLibraryIsReported) { expect_reason("fake_unloadable", "cannot load"); }

// The cpu plugin is listed, available, and runs a kernel.
void expect_cpu_plugin_runs(const std::map<std::string, porta::BackendInfo>& all) {
  ASSERT_TRUE(all.count("cpu"));
  EXPECT_TRUE(all.at("cpu").available) << all.at("cpu").reason;
  auto dev = porta::open("cpu");
  auto k = dev.kernel(porta::glsl(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { uint v[]; };
void main() { v[0] = 42u; })"));
  EXPECT_EQ(porta::test::run_on_one_buffer(dev, k, {1}, 1)[0], 42u);
}

TEST(Plugins, RealPluginsStillLoad) { expect_cpu_plugin_runs(by_name()); }

// With PORTA_TEST_DAMAGED_PLUGIN set (ctest api.plugins.damaged), a file
// named libporta-cpu.so that is no library comes first on PORTA_PLUGIN_PATH:
// it is skipped and the real cpu plugin loads from the next folder.
TEST(Plugins, DamagedPluginFileDoesNotHideTheNextOne) {
  const char* damaged = std::getenv("PORTA_TEST_DAMAGED_PLUGIN");
  if (!damaged)
    GTEST_SKIP() << "PORTA_TEST_DAMAGED_PLUGIN names no damaged plugin file (ctest api.plugins.damaged)";
  testing::internal::CaptureStderr();  // the plugins load on the first call
  auto all = by_name();
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find(std::string("plugin file ") + damaged + " skipped"), std::string::npos)
      << "no warning names the damaged file; the log was:\n"
      << log;
  expect_cpu_plugin_runs(all);
}

TEST(Plugins, BrokenPluginsCannotBeSelected) {
  try {
    porta::open("fake_init");
    ADD_FAILURE() << "opened a device on a broken plugin";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_UNAVAILABLE);
    EXPECT_NE(std::string(e.what()).find("libfakeruntime.so.1 not found"), std::string::npos) << e.what();
  }
}

}  // namespace
