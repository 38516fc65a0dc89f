// The CPU backend's one device: the host's processors and memory.
#pragma once

#include <memory>
#include <string>

#include "../common/plugin_support.hpp"
#include "thread_pool.hpp"

struct porta_plugin_device_t {
  std::shared_ptr<porta::cpu::ThreadPool> pool;
  uint64_t timeout_ms = 0;  // per dispatch (porta/robust.h); 0: none
};

namespace porta::cpu {

// Filled by device_init() from /proc/cpuinfo and sysconf; constant afterwards.
const porta_device_info& device_info();
void device_init();

// CPU model name and feature flags: part of the key of kernels built with -march=native.
const std::string& cpu_identity();

// "cpu: <device name>: <call>" — the prefix of every message.
std::string where(const char* call);

// The device's thread pool is shared by every open handle of it, so two opens
// do not start twice as many threads as there are cores.
std::shared_ptr<ThreadPool> shared_pool();

}  // namespace porta::cpu
