// porta-info: every backend plugin (loaded, or unavailable with the reason),
// every device with its limits and features, and the device the current
// PORTA_BACKEND / PORTA_DEVICE selects. --json for programs.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "porta/porta.h"

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
                {PORTA_DEVICE_FLAG_FIBER_BARRIERS, "fiber-barriers"}};
  std::vector<std::string> out;
  for (const auto& f : kFlags)
    if (flags & f.bit) out.push_back(f.name);
  return out;
}

const char* timer_name(porta_timer_kind t) { return t == PORTA_TIMER_HOST ? "host" : "device"; }

// "16x16 group, depth 16, 8x8 per item, prefetch 1", or "" when the tile is all zero.
std::string tile_text(const porta_tile_shape& t) {
  if (!t.group_x && !t.group_y && !t.depth && !t.item_m && !t.item_n && !t.prefetch) return "";
  char buf[128];
  std::snprintf(buf, sizeof buf, "%ux%u group, depth %u, %ux%u per item, prefetch %u", t.group_x, t.group_y,
                t.depth, t.item_m, t.item_n, t.prefetch);
  return buf;
}

std::string tile_json(const porta_tile_shape& t) {
  char buf[192];
  std::snprintf(buf, sizeof buf, "{\"group\": [%u, %u], \"depth\": %u, \"item\": [%u, %u], \"prefetch\": %u}",
                t.group_x, t.group_y, t.depth, t.item_m, t.item_n, t.prefetch);
  return buf;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
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
  std::printf("%s  memory %s, largest buffer %s, largest allocation %s\n", indent,
              mib(d.memory_bytes).c_str(), mib(l.max_buffer_bytes).c_str(),
              mib(l.max_allocation_bytes).c_str());
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

std::string device_json(const porta_device_info& d) {
  const porta_device_limits& l = d.limits;
  std::string feats;
  for (const auto& f : feature_list(d.features)) feats += (feats.empty() ? "" : ", ") + json_string(f);
  std::string flags;
  for (const auto& f : flag_list(d.flags)) flags += (flags.empty() ? "" : ", ") + json_string(f);
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "\"memory_bytes\": %" PRIu64
                ", \"limits\": {\"max_workgroup_size\": [%u, %u, %u], "
                "\"max_workgroup_invocations\": %u, \"max_workgroup_count\": [%u, %u, %u], "
                "\"max_shared_memory_bytes\": %u, \"max_push_constant_bytes\": %u, \"subgroup_size\": %u, "
                "\"max_buffer_bytes\": %" PRIu64 ", \"max_allocation_bytes\": %" PRIu64 "}",
                d.memory_bytes, l.max_workgroup_size[0], l.max_workgroup_size[1], l.max_workgroup_size[2],
                l.max_workgroup_invocations, l.max_workgroup_count[0], l.max_workgroup_count[1],
                l.max_workgroup_count[2], l.max_shared_memory_bytes, l.max_push_constant_bytes,
                l.subgroup_size, l.max_buffer_bytes, l.max_allocation_bytes);
  std::string heaps;
  for (uint32_t h = 0; h < d.memory_heap_count && h < PORTA_MAX_MEMORY_HEAPS; ++h)
    heaps += std::string(h ? ", " : "") + "{\"bytes\": " + std::to_string(d.memory_heaps[h].bytes) +
             ", \"device_local\": " +
             ((d.memory_heaps[h].flags & PORTA_MEMORY_HEAP_DEVICE_LOCAL) ? "true" : "false") +
             ", \"host_visible\": " +
             ((d.memory_heaps[h].flags & PORTA_MEMORY_HEAP_HOST_VISIBLE) ? "true" : "false") + "}";
  return "{\"backend\": " + json_string(d.backend) + ", \"index\": " + std::to_string(d.index) +
         ", \"name\": " + json_string(d.name) + ", \"vendor\": " + json_string(d.vendor) +
         ", \"type\": " + json_string(type_name(d.type)) + ", \"driver\": " + json_string(d.driver) +
         ", \"api_version\": " + json_string(d.api_version) + ", " + buf + ", \"memory_heaps\": [" + heaps +
         "], \"features\": [" + feats + "], \"flags\": [" + flags +
         "], \"timer\": " + json_string(timer_name(d.timer)) +
         ", \"priority\": " + std::to_string(d.priority) +
         ", \"tuning\": {\"tile_large\": " + tile_json(d.tuning.tile_large) +
         ", \"tile_huge\": " + tile_json(d.tuning.tile_huge) + "}}";
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json")) {
      json = true;
    } else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::printf(
          "usage: porta-info [--json]\n\nLists porta's backends, their devices, and the device that "
          "PORTA_BACKEND / PORTA_DEVICE select.\n");
      return 0;
    } else {
      std::fprintf(stderr, "porta-info: unknown argument '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }

  // The selection first: it decides the exit status.
  porta_device selected = nullptr;
  porta_status status = porta_device_open(nullptr, &selected);
  std::string selection_error = status == PORTA_SUCCESS ? "" : porta_last_error();
  porta_device_info chosen{};
  if (selected) porta_device_query_info(selected, &chosen);

  const char* env_backend = std::getenv("PORTA_BACKEND");
  const char* env_device = std::getenv("PORTA_DEVICE");
  if (json) {
    std::printf("{\n  \"porta_version\": %s,\n  \"backends\": [", json_string(porta_version()).c_str());
    for (uint32_t i = 0; i < porta_backend_count(); ++i) {
      const char *name, *reason;
      int available;
      porta_backend_get(i, &name, &available, &reason);
      std::printf("%s\n    {\"name\": %s, \"available\": %s, \"reason\": %s}", i ? "," : "",
                  json_string(name).c_str(), available ? "true" : "false", json_string(reason).c_str());
    }
    std::printf("\n  ],\n  \"devices\": [");
    for (uint32_t i = 0; i < porta_device_count(); ++i) {
      porta_device_info d{};
      porta_device_get_info(i, &d);
      std::printf("%s\n    %s", i ? "," : "", device_json(d).c_str());
    }
    std::printf("\n  ],\n  \"selected\": %s,\n  \"selection_error\": %s\n}\n",
                selected ? device_json(chosen).c_str() : "null",
                selected ? "null" : json_string(selection_error).c_str());
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
