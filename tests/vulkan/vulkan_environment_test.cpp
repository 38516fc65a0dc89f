// How the plugin behaves when the machine lacks parts of Vulkan. ctest runs each
// case in an environment that removes a part (see CMakeLists.txt); a case whose
// environment is not set skips, and ctest counts a skip as a failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "harness/test_host.hpp"

namespace porta::test {
namespace {

struct LogCapture {
  static inline std::string text;
  static void log(porta_log_level, const char* message) {
    text += message;
    text += '\n';
  }
};

const porta_plugin_api* load() {
  PluginTable table = open_plugin_table(path_from_env("PORTA_TEST_VULKAN_PLUGIN", PORTA_TEST_VULKAN_PLUGIN));
  EXPECT_NE(table.api, nullptr) << table.error;
  return table.api;
}

// VK_ICD_FILENAMES names no driver: init fails, saying why, and the plugin reports no devices.
TEST(VulkanEnvironment, NoDriverMakesInitFailWithTheReason) {
  if (!std::getenv("PORTA_TEST_EXPECT_NO_DRIVER")) GTEST_SKIP() << "needs PORTA_TEST_EXPECT_NO_DRIVER";
  const porta_plugin_api* api = load();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->init(TestHost::table()), PORTA_ERROR_UNAVAILABLE);
  EXPECT_EQ(TestHost::last_status(), PORTA_ERROR_UNAVAILABLE);
  EXPECT_NE(TestHost::last_error().find("vulkan"), std::string::npos) << TestHost::last_error();
  EXPECT_TRUE(TestHost::last_error().find("no usable driver") != std::string::npos ||
              TestHost::last_error().find("no physical devices") != std::string::npos)
      << TestHost::last_error();
  std::printf("init failed as expected: %s\n", TestHost::last_error().c_str());
  EXPECT_EQ(api->device_count(), 0u);
}

bool validation_mode_is(const char* mode) {
  const char* v = std::getenv("PORTA_VULKAN_VALIDATION");
  return v && std::strcmp(v, mode) == 0;
}

// Validation asked for, but the layer cannot be found: a warning, and everything works.
TEST(VulkanEnvironment, MissingValidationLayerOnlyWarns) {
  if (!std::getenv("PORTA_TEST_EXPECT_NO_LAYER")) GTEST_SKIP() << "needs PORTA_TEST_EXPECT_NO_LAYER";
  if (!validation_mode_is("1")) GTEST_SKIP() << "needs PORTA_VULKAN_VALIDATION=1";
  const porta_plugin_api* api = load();
  ASSERT_NE(api, nullptr);
  porta_host_api host = *TestHost::table();
  host.log = LogCapture::log;
  ASSERT_EQ(api->init(&host), PORTA_SUCCESS) << TestHost::last_error();
  EXPECT_NE(LogCapture::text.find("VK_LAYER_KHRONOS_validation is not installed"), std::string::npos)
      << LogCapture::text;
  EXPECT_GE(api->device_count(), 1u);
  keep_driver_libraries_loaded();
  api->shutdown();
}

// Validation required, but the layer cannot be found: init fails and says why,
// so a run that relies on the layer cannot pass unchecked.
TEST(VulkanEnvironment, MissingRequiredValidationLayerFailsInit) {
  if (!std::getenv("PORTA_TEST_EXPECT_NO_LAYER")) GTEST_SKIP() << "needs PORTA_TEST_EXPECT_NO_LAYER";
  if (!validation_mode_is("require")) GTEST_SKIP() << "needs PORTA_VULKAN_VALIDATION=require";
  const porta_plugin_api* api = load();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->init(TestHost::table()), PORTA_ERROR_UNAVAILABLE);
  EXPECT_NE(
      TestHost::last_error().find("PORTA_VULKAN_VALIDATION=require but VK_LAYER_KHRONOS_validation is not "
                                  "installed"),
      std::string::npos)
      << TestHost::last_error();
  std::printf("init failed as expected: %s\n", TestHost::last_error().c_str());
  EXPECT_EQ(api->device_count(), 0u);
}

}  // namespace
}  // namespace porta::test
