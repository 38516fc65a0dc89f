// A porta_host_api of the tests' own, so the CUDA plugin can be tested through
// its table without libporta: errors per thread, logs collected, an in-memory
// kernel cache the tests can inspect and corrupt.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "porta/plugin.h"

namespace porta::test {

struct TestHost {
  static TestHost& get() {
    static TestHost host;
    return host;
  }

  porta_host_api api{};
  std::mutex mutex;
  std::map<std::string, std::vector<char>> cache;
  std::vector<std::string> logs;

  static std::string& last_error() {
    thread_local std::string message;
    return message;
  }
  static porta_status& last_status() {
    thread_local porta_status status = PORTA_SUCCESS;
    return status;
  }

 private:
  TestHost() {
    api.set_error = [](porta_status status, const char* message) {
      last_status() = status;
      last_error() = message;
    };
    api.log = [](porta_log_level level, const char* message) {
      TestHost& h = get();
      std::lock_guard<std::mutex> lock(h.mutex);
      h.logs.push_back(message);
      if (std::getenv("PORTA_TEST_VERBOSE")) std::fprintf(stderr, "[plugin log %d] %s\n", level, message);
    };
    api.cache_load = [](const char* key, void** data, size_t* size) -> int {
      TestHost& h = get();
      std::lock_guard<std::mutex> lock(h.mutex);
      auto it = h.cache.find(key);
      if (it == h.cache.end()) return 0;
      *size = it->second.size();
      *data = std::malloc(*size ? *size : 1);
      std::memcpy(*data, it->second.data(), *size);
      return 1;
    };
    api.cache_store = [](const char* key, const void* data, size_t size) -> int {
      TestHost& h = get();
      std::lock_guard<std::mutex> lock(h.mutex);
      const char* p = static_cast<const char*>(data);
      h.cache[key] = std::vector<char>(p, p + size);
      return 1;
    };
    api.cache_path = [](const char*, char*, size_t) -> int { return 0; };
    api.porta_version = "test";
  }
};

// The plugin under test, loaded the way libporta loads it.
struct LoadedPlugin {
  void* handle = nullptr;
  const porta_plugin_api* api = nullptr;
  std::string error;

  explicit LoadedPlugin(const char* path) {
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      error = e ? e : "dlopen failed";
      return;
    }
    auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
    if (!entry) {
      error = std::string("no symbol ") + PORTA_PLUGIN_ENTRY_SYMBOL;
      return;
    }
    api = entry();
  }
};

}  // namespace porta::test
