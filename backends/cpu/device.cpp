#include "device.hpp"

#include <unistd.h>

#include <fstream>
#include <mutex>

#include "builtin.hpp"
#include "porta_cpu.h"

namespace porta::cpu {

namespace {

porta_device_info g_info{};
std::string g_identity;

struct CpuInfo {
  std::string model;
  std::string vendor;
  std::string flags;
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

CpuInfo read_cpuinfo() {
  CpuInfo info;
  std::string implementer;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "model name" && info.model.empty()) info.model = value;
    if (key == "vendor_id" && info.vendor.empty()) info.vendor = value;
    if ((key == "flags" || key == "Features") && info.flags.empty()) info.flags = value;
    if (key == "CPU implementer" && implementer.empty()) implementer = value;
  }
  if (info.vendor == "GenuineIntel") info.vendor = "Intel";
  if (info.vendor == "AuthenticAMD") info.vendor = "AMD";
  if (info.vendor.empty() && implementer == "0x41") info.vendor = "ARM";
  if (info.vendor.empty() && !implementer.empty()) info.vendor = "CPU implementer " + implementer;
  if (info.vendor.empty()) info.vendor = "unknown";
  if (info.model.empty()) {
#if defined(__x86_64__)
    info.model = "x86-64";
#elif defined(__aarch64__)
    info.model = "aarch64";
#else
    info.model = "unknown processor";
#endif
  }
  return info;
}

std::string compiler_name() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown compiler";
#endif
}

}  // namespace

void device_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    CpuInfo cpu = read_cpuinfo();
    g_identity = cpu.model + "|" + cpu.flags;
    porta_device_info& i = g_info;
    plugin::copy_string(i.backend, "cpu");
    plugin::copy_string(i.name, "porta CPU (" + cpu.model + ")");
    plugin::copy_string(i.vendor, cpu.vendor);
    const char* cxx = std::getenv("PORTA_CXX");
    std::string isa;
    try {
      isa = isa_level_name(isa_level());
    } catch (const std::exception&) {
      isa = "none: PORTA_CPU_ISA is invalid";  // kernel_create reports it
    }
    plugin::copy_string(i.driver, compiler_name() + " (built-in kernels: " + isa +
                                      "); run-time kernels: " + (cxx && *cxx ? cxx : "c++"));
    plugin::copy_string(i.api_version, std::string("porta-cpu ") +
                                           (plugin::host() ? plugin::host()->porta_version : "unknown"));
    i.type = PORTA_DEVICE_CPU;
    i.index = 0;
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);
    i.memory_bytes = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
    i.memory_heap_count = 1;
    i.memory_heaps[0] = {i.memory_bytes, PORTA_MEMORY_HEAP_DEVICE_LOCAL | PORTA_MEMORY_HEAP_HOST_VISIBLE, 0};
    porta_device_limits& l = i.limits;
    l.max_workgroup_size[0] = 1024;
    l.max_workgroup_size[1] = 1024;
    l.max_workgroup_size[2] = 64;
    l.max_workgroup_invocations = 1024;
    for (uint32_t& c : l.max_workgroup_count) c = 0x7fffffffu;
    // Shared memory lives on the worker thread's stack inside run_group.
    l.max_shared_memory_bytes = 256 * 1024;
    l.max_push_constant_bytes = 4096;
    // Subgroup operations meet on the group's fibers (translator/runtime/porta_cpu_kernel.inc).
    l.subgroup_size = PORTA_CPU_SUBGROUP_SIZE;
    l.max_buffer_bytes = i.memory_bytes;
    l.max_allocation_bytes = i.memory_bytes;
    // Kernels index buffers with pointers: any range binds; 16 bytes keeps vec4 views aligned.
    i.max_binding_bytes = i.memory_bytes;
    i.binding_offset_alignment = 16;
    // What generated C++ does: fp16 is porta_glsl.hpp's float16_t, every
    // operation rounded to half. bf16 (SPV_KHR_bfloat16's type) is left out.
    i.features = PORTA_FEATURE_FP16 | PORTA_FEATURE_FP64 | PORTA_FEATURE_INT8 | PORTA_FEATURE_INT16 |
                 PORTA_FEATURE_INT64 | PORTA_FEATURE_STORAGE_16BIT | PORTA_FEATURE_STORAGE_8BIT |
                 PORTA_FEATURE_ATOMIC_INT32 | PORTA_FEATURE_ATOMIC_INT64 | PORTA_FEATURE_ATOMIC_FLOAT32 |
                 PORTA_FEATURE_SUBGROUPS | PORTA_FEATURE_SUBGROUP_CLUSTERED |
                 // Cooperative matrices as the translator lowers them: each work-item holds whole matrices.
                 PORTA_FEATURE_COOPERATIVE_MATRIX;
    // Host memory, built-in kernels compiled in at their defaults, checked
    // against a float64 oracle, and work-items that run as fibers.
    i.flags = PORTA_DEVICE_FLAG_UNIFIED_MEMORY | PORTA_DEVICE_FLAG_PRECOMPILED_DEFAULTS |
              PORTA_DEVICE_FLAG_REFERENCE | PORTA_DEVICE_FLAG_FIBER_BARRIERS;
    i.timer = PORTA_TIMER_HOST;  // work runs on the calling thread and the pool
    i.priority = 100;            // porta's own CPU backend comes after every driver
  });
}

const porta_device_info& device_info() { return g_info; }
const std::string& cpu_identity() { return g_identity; }

std::string where(const char* call) { return std::string("cpu: ") + g_info.name + ": " + call; }

std::shared_ptr<ThreadPool> shared_pool() {
  static std::mutex mutex;
  static std::weak_ptr<ThreadPool> weak;
  std::lock_guard lock(mutex);
  std::shared_ptr<ThreadPool> pool = weak.lock();
  if (!pool) {
    pool = std::make_shared<ThreadPool>(ThreadPool::default_threads());
    weak = pool;
  }
  return pool;
}

}  // namespace porta::cpu
