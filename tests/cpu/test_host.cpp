#include "test_host.hpp"

#include <dlfcn.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace porta::cpu::test {
namespace {

thread_local porta_status t_status = PORTA_SUCCESS;
thread_local std::string t_error;
std::mutex g_mutex;
std::vector<std::pair<porta_log_level, std::string>> g_logs;
bool g_cache_on = true;
std::function<void(const std::string&)> g_hook;

const std::string& dir() {
  static const std::string d = [] {
    std::string pattern = std::filesystem::temp_directory_path().string() + "/porta-cpu-test-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    return pattern;
  }();
  static const bool cleanup = [] {
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(dir(), ignored);
    });
    return true;
  }();
  (void)cleanup;
  return d;
}

void set_error(porta_status status, const char* message) {
  t_status = status;
  t_error = message;
}

void log(porta_log_level level, const char* message) {
  std::lock_guard lock(g_mutex);
  g_logs.emplace_back(level, message);
}

int cache_load(const char*, void**, size_t*) { return 0; }
int cache_store(const char*, const void*, size_t) { return 0; }

int cache_path(const char* key, char* path, size_t capacity) {
  std::function<void(const std::string&)> hook;
  {
    std::lock_guard lock(g_mutex);
    if (!g_cache_on) return 0;
    hook = g_hook;
  }
  std::string p = dir() + "/" + key;
  if (p.size() + 1 > capacity) return 0;
  if (hook) hook(p);
  std::memcpy(path, p.c_str(), p.size() + 1);
  return 1;
}

const porta_host_api kHost = {set_error, log, cache_load, cache_store, cache_path, "0.1.0-test"};

}  // namespace

const porta_plugin_api& TestHost::plugin() {
  static const porta_plugin_api* api = [] {
    // PORTA_CPU_TEST_PLUGIN runs the tests against a plugin that has moved (another machine).
    const char* path = std::getenv("PORTA_CPU_TEST_PLUGIN");
    void* handle = dlopen(path && *path ? path : PORTA_CPU_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
    if (!entry) throw std::runtime_error("no porta_plugin_entry");
    const porta_plugin_api* a = entry();
    if (a->init(&kHost) != PORTA_SUCCESS) throw std::runtime_error("init failed: " + t_error);
    return a;
  }();
  return *api;
}

porta_status TestHost::last_status() { return t_status; }
std::string TestHost::last_error() { return t_error; }

std::vector<std::string> TestHost::logs(porta_log_level at_most) {
  std::lock_guard lock(g_mutex);
  std::vector<std::string> out;
  for (auto& [level, message] : g_logs)
    if (level <= at_most) out.push_back(message);
  return out;
}

void TestHost::clear_logs() {
  std::lock_guard lock(g_mutex);
  g_logs.clear();
}

bool TestHost::logged(const std::string& needle, porta_log_level at_most) {
  for (const std::string& m : logs(at_most))
    if (m.find(needle) != std::string::npos) return true;
  return false;
}

std::string TestHost::cache_dir() { return dir(); }

void TestHost::set_cache_enabled(bool on) {
  std::lock_guard lock(g_mutex);
  g_cache_on = on;
}

void TestHost::set_cache_path_hook(std::function<void(const std::string&)> hook) {
  std::lock_guard lock(g_mutex);
  g_hook = std::move(hook);
}

}  // namespace porta::cpu::test
