// A stand-in for libporta's side of the plugin ABI, shared by the plugin CTS
// and the per-plugin suites: the porta_host_api table (errors per thread,
// logs, a file-backed kernel cache in a fresh folder per process) and the
// loader that opens a plugin the way libporta does.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "porta/plugin.h"

namespace porta::test {

struct TestHost {
  static const porta_host_api* table();

  // The last set_error on the calling thread, and how many set_error calls
  // it made since reset_errors().
  static porta_status last_status();
  static const std::string& last_error();
  static int error_count();
  static void reset_errors();

  // Every message the plugins logged. Messages at PORTA_LOG_WARN or more
  // severe are also printed (all of them with PORTA_TEST_VERBOSE set), so
  // that ctest's pass and fail expressions see them.
  static std::vector<std::string> logs(porta_log_level at_most = PORTA_LOG_DEBUG);
  static bool logged(const std::string& needle, porta_log_level at_most = PORTA_LOG_DEBUG);
  static int count_logged(const std::string& needle);
  static void clear_logs();
  // Replaces the log callback's sink (nullptr: the default above).
  static void set_log_hook(std::function<void(porta_log_level, const std::string&)> hook);

  // The kernel cache: one file per key in cache_dir(), a fresh folder removed
  // at exit, or PORTA_TEST_CACHE_DIR where that is set (kept between runs).
  static std::string cache_dir();
  static std::string cache_file(const std::string& key);
  static std::vector<std::string> cache_keys();
  static int cache_hits();    // successful cache_load calls
  static int cache_stores();  // successful cache_store calls
  // Off: cache_load, cache_store and cache_path fail softly, as with PORTA_CACHE=0.
  static void set_cache_enabled(bool on);
};

// A plugin opened the way libporta opens one: dlopen, then the entry point.
struct PluginTable {
  const porta_plugin_api* api = nullptr;  // null when it could not be opened
  std::string error;                      // why not
};
PluginTable open_plugin_table(const std::string& path);

// A plugin opened and initialised with TestHost's table, once per process and
// path; it stays loaded until the process exits and is shut down after the
// last test.
struct Plugin {
  std::string path;
  const porta_plugin_api* api = nullptr;
  porta_status init_status = PORTA_ERROR_INTERNAL;
  std::string reason;  // why it is unavailable: the load or init error
  bool available() const { return api && init_status == PORTA_SUCCESS; }
};
const Plugin& plugin_at(const std::string& path);

// A path built in, unless the environment variable `name` overrides it (a
// build tree run from another place).
std::string path_from_env(const char* name, const char* built_in);

// Keeps every library loaded now, except porta's own, until the process
// exits. Called before a plugin's shutdown: the Vulkan loader unloads the
// driver and layers at vkDestroyInstance, and LeakSanitizer at exit would then
// report a driver's once-per-process state (still referenced from the
// driver's globals until then) as leaked, with a stack it cannot name. A
// driver's real leaks are still reported, now naming its module.
void keep_driver_libraries_loaded();

}  // namespace porta::test
