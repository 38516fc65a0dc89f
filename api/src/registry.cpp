// Plugin discovery and loading. Search order: PORTA_PLUGIN_PATH (a colon
// list), the folder of libporta.so itself (and its porta/ subfolder), then the
// install's plugin folder. The first plugin of a name wins; a file that is
// not a usable porta plugin (damaged, not a library, another ABI) is skipped
// with a warning and the next file of that name is tried. Every failure is
// kept with its reason and never stops the other plugins.
#include "registry.hpp"

#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include "cache.hpp"
#include "errors.hpp"
#include "log.hpp"
#include "porta/version.h"

#ifndef PORTA_INSTALL_PLUGIN_DIR
#define PORTA_INSTALL_PLUGIN_DIR "/usr/local/lib/porta"
#endif

namespace porta::core {
namespace {

void host_set_error(porta_status status, const char* message) {
  set_last_error(status, message ? message : "(no message)");
}
void host_log(porta_log_level level, const char* message) { log(level, message ? message : ""); }
int host_cache_load(const char* key, void** data, size_t* size) {
  std::vector<uint8_t> bytes;
  if (!key || !data || !size || !cache_load(key, bytes)) return 0;
  void* copy = std::malloc(bytes.empty() ? 1 : bytes.size());
  if (!copy) return 0;
  if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
  *data = copy;
  *size = bytes.size();
  return 1;
}
int host_cache_store(const char* key, const void* data, size_t size) {
  return key && (data || size == 0) && cache_store(key, data, size) ? 1 : 0;
}
int host_cache_path(const char* key, char* path, size_t capacity) {
  if (!key || !path || cache_dir().empty()) return 0;
  std::string p = cache_dir() + "/" + key;
  if (p.size() + 1 > capacity) return 0;
  std::memcpy(path, p.c_str(), p.size() + 1);
  return 1;
}

const porta_host_api host_api = {host_set_error,   host_log,        host_cache_load,
                                 host_cache_store, host_cache_path, PORTA_VERSION_STRING};

std::string own_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_folder), &info) && info.dli_fname)
    return std::filesystem::path(info.dli_fname).parent_path().string();
  return {};
}

int type_rank(porta_device_type type) {
  switch (type) {
    case PORTA_DEVICE_DISCRETE_GPU:
      return 0;
    case PORTA_DEVICE_INTEGRATED_GPU:
      return 1;
    case PORTA_DEVICE_VIRTUAL_GPU:
      return 2;
    case PORTA_DEVICE_OTHER:
      return 3;
    case PORTA_DEVICE_CPU:
      return 4;
  }
  return 5;
}

}  // namespace

Registry& Registry::get() {
  // Never destroyed: plugins stay loaded until the process exits.
  static Registry* registry = new Registry();
  return *registry;
}

Registry::Registry() {
  if (const char* env = std::getenv("PORTA_PLUGIN_PATH"); env && *env) {
    std::string list = env;
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(':', start);
      if (end == std::string::npos) end = list.size();
      if (end > start) search_path_.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  if (std::string own = own_folder(); !own.empty()) {
    search_path_.push_back(own + "/porta");
    search_path_.push_back(own);
  }
  search_path_.push_back(PORTA_INSTALL_PLUGIN_DIR);

  std::set<std::string> seen;
  for (const auto& folder : search_path_) {
    std::error_code ec;
    std::string canonical = std::filesystem::weakly_canonical(folder, ec).string();
    if (!seen.insert(ec ? folder : canonical).second) continue;
    load_folder(folder);
  }

  for (auto& plugin : plugins_)
    for (auto& info : plugin->devices) ordered_.push_back(&info);
  std::stable_sort(ordered_.begin(), ordered_.end(),
                   [](const porta_device_info* a, const porta_device_info* b) {
                     int ta = type_rank(a->type), tb = type_rank(b->type);
                     if (ta != tb) return ta < tb;
                     return a->priority < b->priority;  // among one type, each backend's own priority
                   });
}

void Registry::load_folder(const std::string& folder) {
  DIR* dir = opendir(folder.c_str());
  if (!dir) {
    log(PORTA_LOG_DEBUG, "plugin folder " + folder + " not readable");
    return;
  }
  std::vector<std::string> files;
  while (dirent* entry = readdir(dir)) {
    std::string file = entry->d_name;
    if (file.rfind("libporta-", 0) == 0 && file.size() > 12 && file.compare(file.size() - 3, 3, ".so") == 0)
      files.push_back(file);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::string name = file.substr(9, file.size() - 12);
    if (Plugin* earlier = find(name)) {
      if (earlier->api) {
        log(PORTA_LOG_DEBUG,
            "plugin " + folder + "/" + file + " ignored: " + name + " already found earlier");
        continue;
      }
      // The earlier file is no porta plugin at all: this one may be.
      log(PORTA_LOG_WARN, "plugin file " + earlier->path + " skipped (" + earlier->reason + "); trying " +
                              folder + "/" + file);
      plugins_.erase(std::find_if(plugins_.begin(), plugins_.end(),
                                  [&](const std::unique_ptr<Plugin>& p) { return p.get() == earlier; }));
    }
    load_plugin(folder + "/" + file, name);
  }
}

void Registry::load_plugin(const std::string& path, const std::string& name) {
  auto plugin = std::make_unique<Plugin>();
  plugin->name = name;
  plugin->path = path;
  Plugin& p = *plugin;
  plugins_.push_back(std::move(plugin));

  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* e = dlerror();
    p.reason = format("cannot load %s: %s", path.c_str(), e ? e : "unknown dlopen error");
    log(PORTA_LOG_INFO, "backend " + name + " unavailable: " + p.reason);
    return;
  }
  auto entry = reinterpret_cast<porta_plugin_entry_fn>(dlsym(handle, PORTA_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    p.reason = format("%s exports no %s symbol; not a porta plugin", path.c_str(), PORTA_PLUGIN_ENTRY_SYMBOL);
    log(PORTA_LOG_WARN, "backend " + name + " unavailable: " + p.reason);
    return;
  }
  const porta_plugin_api* api = entry();
  if (!api) {
    p.reason = format("%s returned no plugin table", path.c_str());
    return;
  }
  if (api->abi_version != PORTA_PLUGIN_ABI_VERSION) {
    p.reason = format("%s speaks plugin ABI version %u; this libporta needs version %u", path.c_str(),
                      api->abi_version, PORTA_PLUGIN_ABI_VERSION);
    log(PORTA_LOG_WARN, "backend " + name + " unavailable: " + p.reason);
    return;
  }
  const void* required[] = {reinterpret_cast<const void*>(api->init),
                            reinterpret_cast<const void*>(api->device_count),
                            reinterpret_cast<const void*>(api->device_info),
                            reinterpret_cast<const void*>(api->device_open),
                            reinterpret_cast<const void*>(api->device_close),
                            reinterpret_cast<const void*>(api->buffer_create),
                            reinterpret_cast<const void*>(api->buffer_destroy),
                            reinterpret_cast<const void*>(api->kernel_create),
                            reinterpret_cast<const void*>(api->kernel_destroy),
                            reinterpret_cast<const void*>(api->stream_create),
                            reinterpret_cast<const void*>(api->stream_destroy),
                            reinterpret_cast<const void*>(api->stream_write),
                            reinterpret_cast<const void*>(api->stream_read),
                            reinterpret_cast<const void*>(api->stream_copy),
                            reinterpret_cast<const void*>(api->stream_fill),
                            reinterpret_cast<const void*>(api->stream_dispatch),
                            reinterpret_cast<const void*>(api->stream_sync),
                            reinterpret_cast<const void*>(api->event_record),
                            reinterpret_cast<const void*>(api->event_elapsed_ms),
                            reinterpret_cast<const void*>(api->event_destroy)};
  for (const void* fn : required)
    if (!fn) {
      p.reason = format("%s has an incomplete plugin table (a required entry is null)", path.c_str());
      return;
    }
  if (api->name && name != api->name)
    log(PORTA_LOG_WARN,
        format("plugin file %s calls itself '%s'; using '%s'", path.c_str(), api->name, name.c_str()));
  p.api = api;

  clear_last_error();
  porta_status status = api->init(&host_api);
  if (status != PORTA_SUCCESS) {
    std::string cause = last_error_cause();
    p.reason = cause.empty() ? format("initialisation failed (%s)", porta_status_name(status)) : cause;
    clear_last_error();
    log(PORTA_LOG_INFO, "backend " + name + " unavailable: " + p.reason);
    return;
  }
  uint32_t count = api->device_count();
  for (uint32_t i = 0; i < count; ++i) {
    porta_device_info info{};
    if (api->device_info(i, &info) != PORTA_SUCCESS) {
      log(PORTA_LOG_WARN, format("backend %s: device %u: %s", name.c_str(), i, last_error_cause().c_str()));
      clear_last_error();
      continue;
    }
    std::snprintf(info.backend, sizeof info.backend, "%s", name.c_str());
    info.index = i;
    apply_binding_limit(info);
    p.devices.push_back(info);
  }
  if (p.devices.empty()) {
    p.reason = "the runtime loaded but reports no device";
    log(PORTA_LOG_INFO, "backend " + name + " unavailable: " + p.reason);
    return;
  }
  p.available = true;
  log(PORTA_LOG_DEBUG,
      format("backend %s: %zu device(s) from %s", name.c_str(), p.devices.size(), path.c_str()));
}

namespace {

// A byte count from a testing knob, 0 where it is unset (or not a count).
uint64_t limit_override(const char* name) {
  const char* env = std::getenv(name);
  if (!env || !*env) return 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(env, &end, 0);
  if (*end != '\0' || value == 0) {
    log(PORTA_LOG_WARN, format("%s='%s' is not a positive byte count; ignored", name, env));
    return 0;
  }
  return value;
}

}  // namespace

// Two testing knobs: PORTA_MAX_BINDING_BYTES lowers every device's
// max_binding_bytes, so that ops split their operands on any backend with
// small buffers, as they must on a device whose limit is below a buffer
// (lavapipe binds at most 128 MiB); PORTA_MAX_BUFFER_BYTES lowers its largest
// buffer (porta_buffer_create refuses above it), as NVIDIA's Vulkan driver's
// 4 GiB does, so that what holds data in several buffers is tested anywhere.
void apply_binding_limit(porta_device_info& info) {
  static const uint64_t binding_limit = limit_override("PORTA_MAX_BINDING_BYTES");
  static const uint64_t buffer_limit = limit_override("PORTA_MAX_BUFFER_BYTES");
  if (buffer_limit && buffer_limit < info.limits.max_buffer_bytes) info.limits.max_buffer_bytes = buffer_limit;
  if (info.binding_offset_alignment == 0) info.binding_offset_alignment = 1;
  if (info.max_binding_bytes == 0 ||
      (info.limits.max_buffer_bytes && info.max_binding_bytes > info.limits.max_buffer_bytes))
    info.max_binding_bytes = info.limits.max_buffer_bytes;
  if (binding_limit && binding_limit < info.max_binding_bytes) info.max_binding_bytes = binding_limit;
}

Plugin* Registry::find(const std::string& name) const {
  for (const auto& p : plugins_)
    if (p->name == name) return p.get();
  return nullptr;
}

}  // namespace porta::core
