#include "test_host.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <stdlib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace porta::test {
namespace {

namespace fs = std::filesystem;

thread_local porta_status t_status = PORTA_SUCCESS;
thread_local std::string t_error;
thread_local int t_error_count = 0;

std::mutex g_mutex;
std::vector<std::pair<porta_log_level, std::string>> g_logs;
std::function<void(porta_log_level, const std::string&)> g_log_hook;
bool g_cache_on = true;
std::atomic<int> g_cache_hits{0};
std::atomic<int> g_cache_stores{0};

const std::string& dir() {
  static const std::string d = []() -> std::string {
    if (const char* kept = std::getenv("PORTA_TEST_CACHE_DIR"); kept && *kept) {
      fs::create_directories(kept);
      return kept;
    }
    std::string pattern = (fs::temp_directory_path() / "porta-plugin-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(dir(), ignored);
    });
    return pattern;
  }();
  return d;
}

bool cache_on() {
  std::lock_guard lock(g_mutex);
  return g_cache_on;
}

void set_error(porta_status status, const char* message) {
  t_status = status;
  t_error = message ? message : "";
  ++t_error_count;
}

void log(porta_log_level level, const char* message) {
  static const char* names[] = {"error", "warn", "info", "debug"};
  std::function<void(porta_log_level, const std::string&)> hook;
  {
    std::lock_guard lock(g_mutex);
    g_logs.emplace_back(level, message);
    hook = g_log_hook;
  }
  if (hook) return hook(level, message);
  static const bool verbose = std::getenv("PORTA_TEST_VERBOSE") != nullptr;
  if (level <= PORTA_LOG_WARN || verbose) std::fprintf(stderr, "[porta %s] %s\n", names[level & 3], message);
}

int cache_load(const char* key, void** data, size_t* size) {
  if (!cache_on()) return 0;
  std::ifstream in(dir() + "/" + key, std::ios::binary);
  if (!in) return 0;
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  *data = std::malloc(bytes.empty() ? 1 : bytes.size());
  std::memcpy(*data, bytes.data(), bytes.size());
  *size = bytes.size();
  ++g_cache_hits;
  return 1;
}

int cache_store(const char* key, const void* data, size_t size) {
  if (!cache_on()) return 0;
  const std::string path = dir() + "/" + key, temporary = path + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) return 0;
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) return 0;
  ++g_cache_stores;
  return 1;
}

int cache_path(const char* key, char* path, size_t capacity) {
  if (!cache_on()) return 0;
  const std::string p = dir() + "/" + key;
  if (p.size() + 1 > capacity) return 0;
  std::memcpy(path, p.c_str(), p.size() + 1);
  return 1;
}

// Shuts a plugin down after the last test, as libporta does at exit.
class Shutdown : public ::testing::Environment {
 public:
  explicit Shutdown(const porta_plugin_api* api) : api_(api) {}
  void TearDown() override {
    keep_driver_libraries_loaded();
    api_->shutdown();
  }

 private:
  const porta_plugin_api* api_;
};

}  // namespace

const porta_host_api* TestHost::table() {
  static const porta_host_api host = {set_error, log, cache_load, cache_store, cache_path, "0.1.0-test"};
  return &host;
}

porta_status TestHost::last_status() { return t_status; }
const std::string& TestHost::last_error() { return t_error; }
int TestHost::error_count() { return t_error_count; }

void TestHost::reset_errors() {
  t_status = PORTA_SUCCESS;
  t_error.clear();
  t_error_count = 0;
}

std::vector<std::string> TestHost::logs(porta_log_level at_most) {
  std::lock_guard lock(g_mutex);
  std::vector<std::string> out;
  for (auto& [level, message] : g_logs)
    if (level <= at_most) out.push_back(message);
  return out;
}

bool TestHost::logged(const std::string& needle, porta_log_level at_most) {
  for (const std::string& m : logs(at_most))
    if (m.find(needle) != std::string::npos) return true;
  return false;
}

int TestHost::count_logged(const std::string& needle) {
  int count = 0;
  for (const std::string& m : logs()) count += m.find(needle) != std::string::npos;
  return count;
}

void TestHost::clear_logs() {
  std::lock_guard lock(g_mutex);
  g_logs.clear();
}

void TestHost::set_log_hook(std::function<void(porta_log_level, const std::string&)> hook) {
  std::lock_guard lock(g_mutex);
  g_log_hook = std::move(hook);
}

std::string TestHost::cache_dir() { return dir(); }
std::string TestHost::cache_file(const std::string& key) { return dir() + "/" + key; }

std::vector<std::string> TestHost::cache_keys() {
  std::vector<std::string> keys;
  for (const auto& entry : fs::directory_iterator(dir()))
    if (entry.path().extension() != ".partial") keys.push_back(entry.path().filename().string());
  return keys;
}

int TestHost::cache_hits() { return g_cache_hits; }
int TestHost::cache_stores() { return g_cache_stores; }

void TestHost::set_cache_enabled(bool on) {
  std::lock_guard lock(g_mutex);
  g_cache_on = on;
}

PluginTable open_plugin_table(const std::string& path) {
  PluginTable table;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* e = dlerror();
    table.error = "cannot load " + path + ": " + (e ? e : "dlopen failed");
    return table;
  }
  auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    table.error = path + " has no symbol " + PORTA_PLUGIN_ENTRY_SYMBOL;
    return table;
  }
  table.api = entry();
  if (!table.api) table.error = path + ": " + PORTA_PLUGIN_ENTRY_SYMBOL + " returned no table";
  return table;
}

const Plugin& plugin_at(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Plugin>> plugins;
  std::lock_guard lock(mutex);
  std::unique_ptr<Plugin>& slot = plugins[path];
  if (slot) return *slot;
  slot = std::make_unique<Plugin>();
  Plugin& p = *slot;
  p.path = path;
  PluginTable table = open_plugin_table(path);
  p.api = table.api;
  if (!p.api) {
    p.reason = table.error;
    return p;
  }
  if (p.api->abi_version != PORTA_PLUGIN_ABI_VERSION) {
    // libporta refuses such a plugin before calling anything in it.
    p.reason = path + " has plugin ABI version " + std::to_string(p.api->abi_version) + ", expected " +
               std::to_string(PORTA_PLUGIN_ABI_VERSION);
    return p;
  }
  TestHost::reset_errors();
  p.init_status = p.api->init(TestHost::table());
  if (p.init_status != PORTA_SUCCESS) {
    p.reason = TestHost::last_error().empty() ? "init failed without a message" : TestHost::last_error();
    return p;
  }
  ::testing::AddGlobalTestEnvironment(new Shutdown(p.api));
  return p;
}

std::string path_from_env(const char* name, const char* built_in) {
  const char* v = std::getenv(name);
  return v && *v ? v : built_in;
}

void keep_driver_libraries_loaded() {
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

}  // namespace porta::test
