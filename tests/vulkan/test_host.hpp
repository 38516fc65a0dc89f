// A host table like libporta's, enough to drive the Vulkan plugin directly:
// per-thread last error, a logger that counts validation messages, and an
// in-memory kernel cache that counts its hits.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "porta/plugin.h"

namespace porta::test {

struct TestHost {
  static inline thread_local porta_status last_status = PORTA_SUCCESS;
  static inline thread_local std::string last_error;
  static inline std::atomic<int> validation_messages{0};
  static inline std::atomic<int> cache_hits{0};
  static inline std::atomic<int> cache_stores{0};
  static inline std::mutex cache_mutex;
  static inline std::map<std::string, std::vector<uint8_t>> cache;

  static void set_error(porta_status status, const char* message) {
    last_status = status;
    last_error = message ? message : "";
  }
  static void log(porta_log_level level, const char* message) {
    static const char* names[] = {"error", "warn", "info", "debug"};
    if (std::strncmp(message, "vulkan validation:", 18) == 0) ++validation_messages;
    if (level <= PORTA_LOG_INFO) std::fprintf(stderr, "[porta %s] %s\n", names[level], message);
  }
  static int cache_load(const char* key, void** data, size_t* size) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = cache.find(key);
    if (it == cache.end()) return 0;
    *data = std::malloc(it->second.size());
    std::memcpy(*data, it->second.data(), it->second.size());
    *size = it->second.size();
    ++cache_hits;
    return 1;
  }
  static int cache_store(const char* key, const void* data, size_t size) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    cache[key].assign(bytes, bytes + size);
    ++cache_stores;
    return 1;
  }
  static int cache_path(const char*, char*, size_t) { return 0; }

  static const porta_host_api* table() {
    static const porta_host_api host = {set_error, log, cache_load, cache_store, cache_path, "0.1.0-test"};
    return &host;
  }
};

// Opens the plugin the way libporta does: dlopen + the exported entry point.
inline const porta_plugin_api* load_plugin(const char* path, std::string* error) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    *error = dlerror();
    return nullptr;
  }
  auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    *error = std::string("no symbol ") + PORTA_PLUGIN_ENTRY_SYMBOL;
    return nullptr;
  }
  return entry();
}

// The Vulkan loader unloads the driver and layers at vkDestroyInstance. A
// driver's once-per-process state stays referenced from its own globals until
// then; once they are unmapped, LeakSanitizer at exit finds that state
// unreferenced and reports it as leaked, with a stack it cannot name
// (lavapipe: 128 bytes from a pthread_once under vkEnumeratePhysicalDevices).
// Called before the plugin's shutdown, this keeps every library loaded at that
// point except porta's own until exit, as a process that keeps its instance
// would: a driver's real leaks are still reported, now naming its module, and
// so are the plugin's.
inline void keep_driver_libraries_loaded() {
  std::vector<std::string> loaded;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* names) {
        if (info->dlpi_name && *info->dlpi_name)
          static_cast<std::vector<std::string>*>(names)->push_back(info->dlpi_name);
        return 0;
      },
      &loaded);
  for (const std::string& name : loaded)
    if (name.find("libporta") == std::string::npos)
      dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

// A path compiled in, unless the environment variable `name` overrides it (a
// build tree copied to another machine).
inline std::string path_from_env(const char* name, const char* built_in) {
  const char* v = std::getenv(name);
  return v && *v ? v : built_in;
}

// SPIR-V words of a file compiled at build time.
inline std::vector<uint32_t> read_spirv(const std::string& path) {
  std::vector<uint32_t> words;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint32_t w;
    while (std::fread(&w, sizeof w, 1, f) == 1) words.push_back(w);
    std::fclose(f);
  }
  return words;
}

}  // namespace porta::test
