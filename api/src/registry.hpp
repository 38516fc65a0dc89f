// The plugin registry: every backend plugin found, loaded or not, with its
// devices, and all devices in the default preference order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "porta/plugin.h"
#include "porta/porta.h"

namespace porta::core {

struct Plugin {
  std::string name;  // from the file name until the table says otherwise
  std::string path;
  const porta_plugin_api* api = nullptr;
  bool available = false;
  std::string reason;  // why not available
  std::vector<porta_device_info> devices;
};

// Fills in the binding limits of a device as the core uses them: a plugin's
// zeros mean none below max_buffer_bytes and no alignment; PORTA_MAX_BINDING_BYTES
// lowers the limit.
void apply_binding_limit(porta_device_info& info);

// Loads every plugin once, in the documented search order.
class Registry {
 public:
  static Registry& get();
  const std::vector<std::unique_ptr<Plugin>>& plugins() const { return plugins_; }
  // All devices of available plugins in the default preference order.
  const std::vector<const porta_device_info*>& ordered_devices() const { return ordered_; }
  Plugin* find(const std::string& name) const;
  // Folders searched, in order.
  const std::vector<std::string>& search_path() const { return search_path_; }

 private:
  Registry();
  void load_folder(const std::string& folder);
  void load_plugin(const std::string& path, const std::string& name);
  std::vector<std::unique_ptr<Plugin>> plugins_;
  std::vector<const porta_device_info*> ordered_;
  std::vector<std::string> search_path_;
};

}  // namespace porta::core
