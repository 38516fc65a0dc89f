// A stand-in for libporta: loads libporta-cpu.so and gives it a host table
// whose callbacks the tests can inspect (errors, logs, cache paths).
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "porta/plugin.h"

namespace porta::cpu::test {

struct TestHost {
  // The plugin, loaded and initialised once per process.
  static const porta_plugin_api& plugin();

  // Last set_error on this thread.
  static porta_status last_status();
  static std::string last_error();

  static std::vector<std::string> logs(porta_log_level at_most);
  static void clear_logs();
  static bool logged(const std::string& needle, porta_log_level at_most = PORTA_LOG_DEBUG);

  // The cache directory (fresh per process), or off.
  static std::string cache_dir();
  static void set_cache_enabled(bool on);
  // Called with every path cache_path hands out, before the plugin sees it.
  static void set_cache_path_hook(std::function<void(const std::string&)> hook);
};

}  // namespace porta::cpu::test
