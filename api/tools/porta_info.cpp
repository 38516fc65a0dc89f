// porta-info: every backend plugin (loaded, or unavailable with the reason),
// every device with its limits and features, and the device the current
// PORTA_BACKEND / PORTA_DEVICE selects. --json [FILE] for programs.
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "porta/porta.h"
#include "porta_cli.hpp"

namespace {

const char* type_name(porta_device_type t) {
  switch (t) {
    case PORTA_DEVICE_DISCRETE_GPU:
      return "discrete GPU";
    case PORTA_DEVICE_INTEGRATED_GPU:
      return "integrated GPU";
    case PORTA_DEVICE_VIRTUAL_GPU:
      return "virtual GPU";
    case PORTA_DEVICE_CPU:
      return "CPU";
    case PORTA_DEVICE_OTHER:
      return "other";
  }
  return "unknown";
}

std::vector<std::string> feature_list(uint64_t bits) {
  std::vector<std::string> out;
  for (int bit = 0; bit < 64; ++bit)
    if (const char* name = (bits >> bit) & 1 ? porta_feature_name(uint64_t{1} << bit) : nullptr)
      out.push_back(name);
  return out;
}

std::vector<std::string> flag_list(uint32_t flags) {
  static const struct {
    uint32_t bit;
    const char* name;
  } kFlags[] = {{PORTA_DEVICE_FLAG_UNIFIED_MEMORY, "unified-memory"},
                {PORTA_DEVICE_FLAG_PRECOMPILED_DEFAULTS, "precompiled-defaults"},
                {PORTA_DEVICE_FLAG_REFERENCE, "reference"},
                {PORTA_DEVICE_FLAG_FIBER_BARRIERS, "fiber-barriers"},
                {PORTA_DEVICE_FLAG_LOOP_LIMIT, "loop-limit"},
                {PORTA_DEVICE_FLAG_SMOD_AS_SREM, "smod-as-srem"}};
  std::vector<std::string> out;
  for (const auto& f : kFlags)
    if (flags & f.bit) out.push_back(f.name);
  return out;
}

const char* timer_name(porta_timer_kind t) { return t == PORTA_TIMER_HOST ? "host" : "device"; }

// "16x16 group, depth 16, 8x8 per item, prefetch 1", or "" when the tile is all zero.
std::string tile_text(const porta_tile_shape& t) {
  if (!t.group_x && !t.group_y && !t.depth && !t.item_m && !t.item_n && !t.prefetch && !t.wide_loads) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "%ux%u group, depth %u, %ux%u per item, prefetch %u%s", t.group_x, t.group_y,
                t.depth, t.item_m, t.item_n, t.prefetch, t.wide_loads == 1 ? ", 4-byte loads" : "");
  return buf;
}

nlohmann::ordered_json tile_json(const porta_tile_shape& t) {
  return {{"group", {t.group_x, t.group_y}},
          {"depth", t.depth},
          {"item", {t.item_m, t.item_n}},
          {"prefetch", t.prefetch},
          {"wide_loads", t.wide_loads}};
}

std::string mib(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

void print_device_text(const porta_device_info& d, const char* indent) {
  const porta_device_limits& l = d.limits;
  std::printf("%s%s:%u  %s\n", indent, d.backend, d.index, d.name);
  std::printf("%s  vendor %s, %s, %s\n", indent, d.vendor, type_name(d.type), d.api_version);
  std::printf("%s  driver %s\n", indent, d.driver);
  if (d.pci_bus_id[0]) std::printf("%s  PCI %s\n", indent, d.pci_bus_id);
  std::printf("%s  memory %s, largest buffer %s, largest allocation %s\n", indent,
              mib(d.memory_bytes).c_str(), mib(l.max_buffer_bytes).c_str(),
              mib(l.max_allocation_bytes).c_str());
  std::printf("%s  a kernel binds up to %s of a buffer, at offsets in steps of %llu bytes\n", indent,
              mib(d.max_binding_bytes).c_str(), static_cast<unsigned long long>(d.binding_offset_alignment));
  std::string heaps;
  for (uint32_t h = 0; h < d.memory_heap_count && h < PORTA_MAX_MEMORY_HEAPS; ++h) {
    const porta_memory_heap& heap = d.memory_heaps[h];
    heaps += (h ? "; " : "") + mib(heap.bytes);
    if (heap.flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL) heaps += " device-local";
    if (heap.flags & PORTA_MEMORY_HEAP_HOST_VISIBLE) heaps += " host-visible";
  }
  std::printf("%s  memory heaps: %s\n", indent, heaps.empty() ? "(not reported)" : heaps.c_str());
  std::printf(
      "%s  work-group size ≤ %u×%u×%u (%u items), groups ≤ %u×%u×%u, shared %u B, push constants %u B, "
      "subgroup %u\n",
      indent, l.max_workgroup_size[0], l.max_workgroup_size[1], l.max_workgroup_size[2],
      l.max_workgroup_invocations, l.max_workgroup_count[0], l.max_workgroup_count[1],
      l.max_workgroup_count[2], l.max_shared_memory_bytes, l.max_push_constant_bytes, l.subgroup_size);
  std::string feats;
  for (const auto& f : feature_list(d.features)) feats += (feats.empty() ? "" : " ") + f;
  std::printf("%s  features %s\n", indent, feats.empty() ? "(none)" : feats.c_str());
  std::string flags;
  for (const auto& f : flag_list(d.flags)) flags += (flags.empty() ? "" : " ") + f;
  std::printf("%s  flags %s, timer %s, priority %u\n", indent, flags.empty() ? "(none)" : flags.c_str(),
              timer_name(d.timer), d.priority);
  for (const auto& [label, tile] : {std::pair{"large", &d.tuning.tile_large}, {"huge", &d.tuning.tile_huge}})
    if (std::string t = tile_text(*tile); !t.empty())
      std::printf("%s  matmul tile (%s) %s\n", indent, label, t.c_str());
}

nlohmann::ordered_json device_json(const porta_device_info& d) {
  const porta_device_limits& l = d.limits;
  nlohmann::ordered_json j;
  j["backend"] = d.backend;
  j["index"] = d.index;
  j["name"] = d.name;
  j["vendor"] = d.vendor;
  j["type"] = type_name(d.type);
  j["driver"] = d.driver;
  j["api_version"] = d.api_version;
  j["pci_bus_id"] = d.pci_bus_id;
  j["memory_bytes"] = d.memory_bytes;
  j["limits"] = {
      {"max_workgroup_size", {l.max_workgroup_size[0], l.max_workgroup_size[1], l.max_workgroup_size[2]}},
      {"max_workgroup_invocations", l.max_workgroup_invocations},
      {"max_workgroup_count", {l.max_workgroup_count[0], l.max_workgroup_count[1], l.max_workgroup_count[2]}},
      {"max_shared_memory_bytes", l.max_shared_memory_bytes},
      {"max_push_constant_bytes", l.max_push_constant_bytes},
      {"subgroup_size", l.subgroup_size},
      {"max_buffer_bytes", l.max_buffer_bytes},
      {"max_allocation_bytes", l.max_allocation_bytes}};
  j["max_binding_bytes"] = d.max_binding_bytes;
  j["binding_offset_alignment"] = d.binding_offset_alignment;
  j["memory_heaps"] = nlohmann::ordered_json::array();
  for (uint32_t h = 0; h < d.memory_heap_count && h < PORTA_MAX_MEMORY_HEAPS; ++h)
    j["memory_heaps"].push_back(
        {{"bytes", d.memory_heaps[h].bytes},
         {"device_local", (d.memory_heaps[h].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL) != 0},
         {"host_visible", (d.memory_heaps[h].flags & PORTA_MEMORY_HEAP_HOST_VISIBLE) != 0}});
  j["features"] = feature_list(d.features);
  j["flags"] = flag_list(d.flags);
  j["timer"] = timer_name(d.timer);
  j["priority"] = d.priority;
  j["tuning"] = {{"tile_large", tile_json(d.tuning.tile_large)},
                 {"tile_huge", tile_json(d.tuning.tile_huge)}};
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  porta::cli::Command command("porta-info",
                              "Lists porta's backends, their devices, and the device that PORTA_BACKEND / "
                              "PORTA_DEVICE select.",
                              porta_version());
  command.synopsis("[--json [FILE]]");
  command.footer(
      "Exit status: 0 the selection found a device, 1 it failed (the reason on stderr), 2 bad arguments.");
  std::string json_path;
  CLI::Option* json_option =
      command.app()
          .add_option("--json", json_path, "write the listing as JSON to FILE (default: standard output)")
          ->expected(0, 1)
          ->type_name("[FILE]");
  if (std::optional<int> done = command.parse(argc, argv)) return *done;
  const bool json = json_option->count() > 0;
  if (json && json_path.empty()) json_path = "-";

  // The selection first: it decides the exit status.
  porta_device selected = nullptr;
  porta_status status = porta_device_open(nullptr, &selected);
  std::string selection_error = status == PORTA_SUCCESS ? "" : porta_last_error();
  porta_device_info chosen{};
  if (selected) porta_device_query_info(selected, &chosen);

  const char* env_backend = std::getenv("PORTA_BACKEND");
  const char* env_device = std::getenv("PORTA_DEVICE");
  if (json) {
    nlohmann::ordered_json root;
    root["porta_version"] = porta_version();
    root["backends"] = nlohmann::ordered_json::array();
    for (uint32_t i = 0; i < porta_backend_count(); ++i) {
      const char *name, *reason;
      int available;
      porta_backend_get(i, &name, &available, &reason);
      root["backends"].push_back({{"name", name}, {"available", available != 0}, {"reason", reason}});
    }
    root["devices"] = nlohmann::ordered_json::array();
    for (uint32_t i = 0; i < porta_device_count(); ++i) {
      porta_device_info d{};
      porta_device_get_info(i, &d);
      root["devices"].push_back(device_json(d));
    }
    root["selected"] = selected ? device_json(chosen) : nlohmann::ordered_json();
    root["selection_error"] = selected ? nlohmann::ordered_json() : nlohmann::ordered_json(selection_error);
    try {
      porta::cli::write_output(json_path, root.dump(2) + "\n");
    } catch (const std::exception& e) {
      if (selected) porta_device_close(selected);
      return command.failure(e.what());
    }
  } else {
    std::printf("porta %s\n\nbackends:\n", porta_version());
    if (porta_backend_count() == 0) std::printf("  (no plugins found)\n");
    for (uint32_t i = 0; i < porta_backend_count(); ++i) {
      const char *name, *reason;
      int available;
      porta_backend_get(i, &name, &available, &reason);
      if (available)
        std::printf("  %-8s available\n", name);
      else
        std::printf("  %-8s unavailable: %s\n", name, reason);
    }
    std::printf("\ndevices (best first):\n");
    if (porta_device_count() == 0) std::printf("  (none)\n");
    for (uint32_t i = 0; i < porta_device_count(); ++i) {
      porta_device_info d{};
      porta_device_get_info(i, &d);
      print_device_text(d, "  ");
    }
    std::printf("\nselection (PORTA_BACKEND=%s, PORTA_DEVICE=%s):\n", env_backend ? env_backend : "(unset)",
                env_device ? env_device : "(unset)");
    if (selected)
      std::printf("  %s:%u  %s\n", chosen.backend, chosen.index, chosen.name);
    else
      std::printf("  (none: the selection failed; the reason is on stderr)\n");
  }
  // The reason goes to stderr: stdout is the listing (or the JSON) that
  // scripts read. Flushed first, so a terminal shows the listing, then the error.
  if (!selected) {
    std::fflush(stdout);
    std::fprintf(stderr, "porta-info: %s\n", selection_error.c_str());
    return 1;
  }
  porta_device_close(selected);
  return 0;
}
