// porta-cts --backend=NAME --plugin=PATH [gtest options]
// Runs the plugin conformance suite on every device of one plugin (or those
// whose name contains PORTA_TEST_DEVICE). Where the plugin is unavailable
// (not built, no runtime, no device) every test skips with the plugin's reason
// and the process exits 77, which ctest reports as a skip.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cts.hpp"

namespace porta::test {
namespace {

std::string g_backend, g_plugin_path;

}  // namespace

const std::string& cts_backend() { return g_backend; }

std::vector<CtsDevice> cts_devices() {
  const Plugin& plugin = plugin_at(g_plugin_path);
  std::vector<CtsDevice> devices;
  if (plugin.available()) {
    const char* wanted = std::getenv("PORTA_TEST_DEVICE");
    for (uint32_t i = 0; i < plugin.api->device_count(); ++i) {
      porta_device_info info{};
      if (wanted && *wanted && plugin.api->device_info(i, &info) == PORTA_SUCCESS &&
          !std::strstr(info.name, wanted))
        continue;
      devices.push_back({&plugin, i, g_backend + "_" + std::to_string(i)});
    }
  }
  if (devices.empty()) devices.push_back({&plugin, CtsDevice::kNoDevice, g_backend + "_unavailable"});
  return devices;
}

std::string cts_device_label(const ::testing::TestParamInfo<CtsDevice>& info) { return info.param.label; }

}  // namespace porta::test

int main(int argc, char** argv) {
  using namespace porta::test;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--backend=", 10) == 0)
      g_backend = argv[i] + 10;
    else if (std::strncmp(argv[i], "--plugin=", 9) == 0)
      g_plugin_path = argv[i] + 9;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  if (g_backend.empty()) {
    std::fprintf(stderr, "usage: porta-cts --backend=NAME [--plugin=PATH] [gtest options]\n");
    return 2;
  }
  if (g_plugin_path.empty()) g_plugin_path = "libporta-" + g_backend + ".so";
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  const Plugin& plugin = plugin_at(g_plugin_path);
  if (status == 0 && !plugin.available()) {
    std::printf("SKIP: backend %s is unavailable here: %s\n", g_backend.c_str(), plugin.reason.c_str());
    return 77;
  }
  return status;
}
