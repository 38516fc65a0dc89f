// The CUDA plugin under test, loaded and initialised once per process with the
// shared test host (tests/cts/harness), and helpers to build kernels from the
// hand-written sources in kernels/.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/test_host.hpp"

namespace porta::test {

// Paths fixed at build time; PORTA_TEST_CUDA_PLUGIN / PORTA_TEST_CUDA_KERNELS
// override them when the built tests run from another checkout.
inline std::string plugin_path() { return path_from_env("PORTA_TEST_CUDA_PLUGIN", PORTA_CUDA_PLUGIN_PATH); }
inline std::string kernels_dir() { return path_from_env("PORTA_TEST_CUDA_KERNELS", PORTA_CUDA_TEST_KERNELS); }

inline const Plugin& cuda_plugin() { return plugin_at(plugin_path()); }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string kernel_source(const std::string& name) {
  return read_text(kernels_dir() + "/" + name + ".cu");
}

// A kernel description as libporta fills it for the CUDA language.
struct KernelDesc {
  std::string source;
  std::string entry;
  std::string key;
  std::vector<porta_kernel_buffer_desc> buffers;
  porta_kernel_desc desc{};

  KernelDesc(std::string src, std::string entry_point, uint32_t buffer_count, uint32_t push_size, uint32_t wx,
             uint32_t wy = 1, uint32_t wz = 1, uint32_t shared = 0)
      : source(std::move(src)), entry(std::move(entry_point)) {
    for (uint32_t i = 0; i < buffer_count; ++i)
      buffers.push_back({0, i, 0, PORTA_BUFFER_KIND_STORAGE, PORTA_ACCESS_READ_WRITE});
    key = "test-" + entry + "-" + std::to_string(std::hash<std::string>{}(source));
    desc.source = source.c_str();
    desc.source_size = source.size();
    desc.entry_point = entry.c_str();
    desc.name = entry.c_str();
    desc.buffer_count = buffer_count;
    desc.buffers = buffers.data();
    desc.push_constant_size = push_size;
    desc.workgroup_size[0] = wx;
    desc.workgroup_size[1] = wy;
    desc.workgroup_size[2] = wz;
    desc.shared_memory_bytes = shared;
    desc.cache_key = key.c_str();
  }
};

}  // namespace porta::test
