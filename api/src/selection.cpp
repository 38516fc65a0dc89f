// Device selection: PORTA_BACKEND (a backend or an ordered list), PORTA_DEVICE
// (an index within the backend, or a substring of the device name), or the
// same "backend[:device]" list as an API selector. A named backend that is not
// available is an error that says why; a list falls back only to what it names.
#include "selection.hpp"

#include <cctype>
#include <cstdlib>
#include <vector>

#include "errors.hpp"
#include "registry.hpp"

namespace porta::core {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    parts.push_back(trim(s.substr(start, end == std::string::npos ? std::string::npos : end - start)));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

bool is_index(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string backend_summary() {
  std::string out;
  for (const auto& p : Registry::get().plugins()) {
    if (!out.empty()) out += "; ";
    out += p->name + (p->available
                          ? format(" (%zu device%s)", p->devices.size(), p->devices.size() == 1 ? "" : "s")
                          : " (unavailable: " + p->reason + ")");
  }
  return out.empty() ? "no plugins found in " +
                           [] {
                             std::string folders;
                             for (const auto& f : Registry::get().search_path())
                               folders += (folders.empty() ? "" : ":") + f;
                             return folders;
                           }()
                     : out;
}

std::string device_list(const Plugin& p) {
  std::string out;
  for (const auto& d : p.devices) out += format("%s%u: %s", out.empty() ? "" : ", ", d.index, d.name);
  return out;
}

// Finds `device` ("" = first, index, or name substring) within one backend.
const porta_device_info* pick(const Plugin& p, const std::string& device, const char* source) {
  if (device.empty()) return &p.devices.front();
  if (is_index(device)) {
    unsigned long i = std::strtoul(device.c_str(), nullptr, 10);
    if (i < p.devices.size()) return &p.devices[i];
    fail(PORTA_ERROR_NOT_FOUND, "%s: device %s is out of range: backend %s has %zu device%s (%s)", source,
         device.c_str(), p.name.c_str(), p.devices.size(), p.devices.size() == 1 ? "" : "s",
         device_list(p).c_str());
  }
  for (const auto& d : p.devices)
    if (lower(d.name).find(lower(device)) != std::string::npos) return &d;
  fail(PORTA_ERROR_NOT_FOUND, "%s: device '%s' matches no device name of backend %s (%s)", source,
       device.c_str(), p.name.c_str(), device_list(p).c_str());
}

Selection select_from_list(const std::string& list, const std::string& env_device, const char* source) {
  std::vector<std::string> reasons;
  auto entries = split(list, ',');
  for (const auto& entry : entries)
    if (entry.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s' has an empty entry", source, list.c_str());
  for (const auto& entry : entries) {
    size_t colon = entry.find(':');
    std::string backend = lower(trim(entry.substr(0, colon)));
    std::string device = colon == std::string::npos ? env_device : trim(entry.substr(colon + 1));
    Plugin* p = Registry::get().find(backend);
    if (!p && entries.size() == 1)
      fail(PORTA_ERROR_NOT_FOUND, "%s names unknown backend '%s'; backends found: %s", source,
           backend.c_str(), backend_summary().c_str());
    if (!p) {
      // In a list, a backend without a plugin here is one more unavailable entry.
      reasons.push_back(backend + ": no plugin libporta-" + backend + ".so found");
      continue;
    }
    if (!p->available) {
      reasons.push_back(backend + ": " + p->reason);
      continue;
    }
    Selection s;
    s.plugin = p;
    s.info = pick(*p, device, colon == std::string::npos ? "PORTA_DEVICE" : source);
    s.why =
        format("%s '%s'%s", source, list.c_str(), reasons.empty() ? "" : " (earlier entries unavailable)");
    return s;
  }
  std::string why;
  for (const auto& r : reasons) why += (why.empty() ? "" : "; ") + r;
  fail(PORTA_ERROR_UNAVAILABLE, "%s '%s': no named backend is available (%s); backends found: %s", source,
       list.c_str(), why.c_str(), backend_summary().c_str());
}

}  // namespace

Selection select_device(const std::string& selector) {
  Registry& registry = Registry::get();
  if (!trim(selector).empty()) return select_from_list(selector, "", "selector");

  const char* env_backend = std::getenv("PORTA_BACKEND");
  const char* env_device = std::getenv("PORTA_DEVICE");
  std::string device = env_device ? trim(env_device) : "";
  if (env_backend && !trim(env_backend).empty())
    return select_from_list(env_backend, device, "PORTA_BACKEND");

  const auto& ordered = registry.ordered_devices();
  if (ordered.empty())
    fail(PORTA_ERROR_NOT_FOUND, "no device available; backends found: %s", backend_summary().c_str());
  Selection s;
  if (!device.empty()) {
    if (is_index(device)) {
      unsigned long i = std::strtoul(device.c_str(), nullptr, 10);
      if (i >= ordered.size())
        fail(PORTA_ERROR_NOT_FOUND, "PORTA_DEVICE=%s is out of range: %zu devices in all", device.c_str(),
             ordered.size());
      s.info = ordered[i];
    } else {
      for (const auto* d : ordered)
        if (lower(d->name).find(lower(device)) != std::string::npos) {
          s.info = d;
          break;
        }
      if (!s.info) fail(PORTA_ERROR_NOT_FOUND, "PORTA_DEVICE='%s' matches no device name", device.c_str());
    }
    s.why = "PORTA_DEVICE='" + device + "'";
  } else {
    s.info = ordered.front();
    static const char* kinds[] = {"discrete GPU", "integrated GPU", "virtual GPU", "CPU-type device",
                                  "other"};
    s.why = format(
        "best device found (a %s; order: discrete, integrated, virtual GPU, other, CPU-type devices, "
        "porta's cpu backend last)",
        kinds[s.info->type <= PORTA_DEVICE_OTHER ? s.info->type : PORTA_DEVICE_OTHER]);
  }
  s.plugin = registry.find(s.info->backend);
  return s;
}

}  // namespace porta::core
