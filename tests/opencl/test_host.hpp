// A minimal stand-in for libporta's host services, so the OpenCL plugin can be
// tested through its plugin table alone: errors per thread, a log, and a
// file-backed kernel cache in a private temporary folder with counters.
#pragma once

#include <dlfcn.h>
#include <stdlib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "porta/plugin.h"

namespace porta::test {

struct TestHost {
  static inline thread_local porta_status last_status = PORTA_SUCCESS;
  static inline thread_local std::string last_error;
  static inline std::mutex log_mutex;
  static inline std::vector<std::string> logs;
  static inline std::string cache_dir;
  static inline std::atomic<int> cache_hits{0};
  static inline std::atomic<int> cache_stores{0};

  static void set_error(porta_status status, const char* message) {
    last_status = status;
    last_error = message;
  }
  static void log(porta_log_level level, const char* message) {
    std::lock_guard lock(log_mutex);
    logs.emplace_back(message);
    if (std::getenv("PORTA_TEST_VERBOSE")) std::fprintf(stderr, "[plugin log %d] %s\n", level, message);
  }
  static int cache_load(const char* key, void** data, size_t* size) {
    std::ifstream in(cache_dir + "/" + key, std::ios::binary);
    if (!in) return 0;
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    *data = std::malloc(bytes.empty() ? 1 : bytes.size());
    std::memcpy(*data, bytes.data(), bytes.size());
    *size = bytes.size();
    ++cache_hits;
    return 1;
  }
  static int cache_store(const char* key, const void* data, size_t size) {
    std::ofstream out(cache_dir + "/" + key, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    ++cache_stores;
    return out ? 1 : 0;
  }
  static int cache_path(const char* key, char* path, size_t capacity) {
    std::string p = cache_dir + "/" + key;
    if (p.size() + 1 > capacity) return 0;
    std::memcpy(path, p.c_str(), p.size() + 1);
    return 1;
  }

  static const porta_host_api* table() {
    static const porta_host_api api = {set_error, log, cache_load, cache_store, cache_path, "0.0.0-test"};
    if (cache_dir.empty()) {
      std::string tmpl = (std::filesystem::temp_directory_path() / "porta-opencl-test-XXXXXX").string();
      if (mkdtemp(tmpl.data())) cache_dir = tmpl;
    }
    return &api;
  }

  // Files in the cache folder (the plugin's entries).
  static std::vector<std::string> cache_entries() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(cache_dir)) out.push_back(e.path().string());
    return out;
  }
  static void remove_cache() {
    std::error_code ec;
    if (!cache_dir.empty()) std::filesystem::remove_all(cache_dir, ec);
  }
};

// The plugin under test, loaded the way libporta loads it.
inline const porta_plugin_api* load_plugin(const char* path, std::string* error) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    *error = dlerror();
    return nullptr;
  }
  auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    *error = "no porta_plugin_entry";
    return nullptr;
  }
  return entry();
}

}  // namespace porta::test
