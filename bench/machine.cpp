#include "machine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

namespace porta::bench {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

unsigned cpu_backend_threads() {
  if (const char* env = std::getenv("PORTA_CPU_THREADS")) {
    int v = std::atoi(env);
    if (v > 0) return static_cast<unsigned>(v);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

bool cpu_type(const DeviceInfo& info) { return info.type == PORTA_DEVICE_CPU; }

bool reference(const DeviceInfo& info) { return (info.flags & PORTA_DEVICE_FLAG_REFERENCE) != 0; }

bool uses_api(const std::string& api_version, const char* api) {
  const std::string name = api;
  return api_version.compare(0, name.size(), name) == 0 &&
         (api_version.size() == name.size() || api_version[name.size()] == ' ');
}

Peak peak_flops(const DeviceInfo& info) {
  const std::string name = info.name;
  struct Known {
    const char* match;
    double tflops;
  };
  static const Known kKnown[] = {{"H100 PCIe", 51.2}, {"H100 NVL", 60.0}, {"H100", 66.9}, {"H200", 66.9},
                                 {"A100", 19.5},      {"L40S", 91.6},     {"A10", 31.2}};
  for (const auto& k : kKnown)
    if (name.find(k.match) != std::string::npos)
      return {k.tflops * 1e12, std::string("datasheet fp32 for ") + k.match};
  if (!cpu_type(info)) return {};
  double mhz = 0;
  std::string flags;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (!mhz && line.rfind("cpu MHz", 0) == 0) mhz = std::atof(line.substr(line.find(':') + 1).c_str());
    if (flags.empty() && line.rfind("flags", 0) == 0) flags = line + " ";
  }
  if (mhz <= 0) return {};
  const bool avx512 = flags.find(" avx512f ") != std::string::npos;
  const bool fma = flags.find(" fma ") != std::string::npos && flags.find(" avx2 ") != std::string::npos;
  const double per_cycle = avx512 ? 64 : fma ? 32 : 8;  // two FMA pipes x lanes x 2
  const unsigned threads = cpu_backend_threads();
  char text[160];
  std::snprintf(text, sizeof text, "estimate: %u threads x %.0f MHz x %.0f FLOP/cycle", threads, mhz,
                per_cycle);
  return {threads * mhz * 1e6 * per_cycle, text};
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return text;
}

}  // namespace porta::bench
