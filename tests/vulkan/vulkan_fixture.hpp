// The fixture every test of the Vulkan plugin through its table shares: the
// plugin must be there (a skip would hide a machine without it), device 0 is
// opened, and any message of the validation layer during a test fails it.
#pragma once

#include "harness/plugin_fixture.hpp"

namespace porta::test {

inline const char* const kValidation = "vulkan validation:";

inline const Plugin& vulkan_plugin() {
  return plugin_at(path_from_env("PORTA_TEST_VULKAN_PLUGIN", PORTA_TEST_VULKAN_PLUGIN));
}

class VulkanPluginTest : public PluginTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(vulkan_plugin().available()) << vulkan_plugin().reason;
    validation_before_ = TestHost::count_logged(kValidation);
    open(vulkan_plugin(), 0);
  }
  void TearDown() override {
    PluginTest::TearDown();
    EXPECT_EQ(TestHost::count_logged(kValidation), validation_before_) << "validation messages were logged";
  }
  int validation_before_ = 0;
};

}  // namespace porta::test
