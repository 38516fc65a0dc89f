// Platforms and devices: enumeration at init(), porta_device_info, contexts.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "../common/plugin_support.hpp"
#include "opencl.hpp"
// After opencl.hpp, which fixes the OpenCL version the headers declare.
#include <CL/cl_ext.h>

namespace porta::opencl {

namespace {

std::vector<DeviceEntry> g_devices;

// A string property of a platform or device, through its clGet*Info
// (`get`): the size first, then the text.
template <class Object, class Param>
std::string info_string(cl_int (*get)(Object, Param, size_t, void*, size_t*), Object object, Param param,
                        const char* where, const char* call) {
  size_t size = 0;
  check(get(object, param, 0, nullptr, &size), where, call);
  std::string s(size, '\0');
  check(get(object, param, size, s.data(), nullptr), where, call);
  s.resize(std::strlen(s.c_str()));
  return s;
}

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  return info_string(cl().clGetPlatformInfo, platform, param, "platform", "clGetPlatformInfo");
}

std::string device_string(cl_device_id device, cl_device_info param) {
  return info_string(cl().clGetDeviceInfo, device, param, "device", "clGetDeviceInfo");
}

template <class T>
T device_value(cl_device_id device, cl_device_info param) {
  T value{};
  check(cl().clGetDeviceInfo(device, param, sizeof(T), &value, nullptr), "device", "clGetDeviceInfo");
  return value;
}

}  // namespace

bool has_extension(const std::string& extensions, const char* name) {
  // Whole-word match: "cl_khr_fp16" must not match "cl_khr_fp16_something".
  size_t n = std::strlen(name);
  for (size_t pos = extensions.find(name); pos != std::string::npos; pos = extensions.find(name, pos + 1)) {
    bool starts = pos == 0 || extensions[pos - 1] == ' ';
    bool ends = pos + n == extensions.size() || extensions[pos + n] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

namespace {

// Subgroup operations run on the device's own subgroups where it has the
// extensions of the non-uniform built-ins, which take the active work-items
// as Vulkan does (shuffles, relative shuffles and clustered reductions are
// checked per kernel: kernel.cpp). Elsewhere subgroups have one work-item:
// Vulkan allows that size, and every operation has an exact meaning there
// (translator/src/opencl_subgroups.cpp).
bool has_native_subgroups(const std::string& extensions) {
  return has_extension(extensions, "cl_khr_subgroups") &&
         has_extension(extensions, "cl_khr_subgroup_ballot") &&
         has_extension(extensions, "cl_khr_subgroup_non_uniform_vote") &&
         has_extension(extensions, "cl_khr_subgroup_non_uniform_arithmetic");
}

uint64_t features_of(const std::string& extensions) {
  // OpenCL C 1.2 (full profile) has char, short and long arithmetic, byte-addressable
  // stores, half storage (vload_half/vstore_half) and 32-bit atomics in its core.
  // float16_t arithmetic is float arithmetic rounded to half after each
  // operation (translator/src/opencl_half.cpp), exact on every device, with
  // or without cl_khr_fp16.
  uint64_t f = PORTA_FEATURE_FP16 | PORTA_FEATURE_INT8 | PORTA_FEATURE_INT16 | PORTA_FEATURE_INT64 |
               PORTA_FEATURE_STORAGE_8BIT | PORTA_FEATURE_STORAGE_16BIT | PORTA_FEATURE_ATOMIC_INT32;
  if (has_extension(extensions, "cl_khr_fp64")) f |= PORTA_FEATURE_FP64;
  // Subgroups, the device's own or of one work-item: has_native_subgroups().
  f |= PORTA_FEATURE_SUBGROUPS;
  // Clusters: the device's own reductions, or clusters of one work-item.
  if (!has_native_subgroups(extensions) || has_extension(extensions, "cl_khr_subgroup_clustered_reduce"))
    f |= PORTA_FEATURE_SUBGROUP_CLUSTERED;
  // 64-bit min/max/and/or/xor are in the extended set, add/exchange/compare-exchange in the base one.
  if (has_extension(extensions, "cl_khr_int64_base_atomics") &&
      has_extension(extensions, "cl_khr_int64_extended_atomics"))
    f |= PORTA_FEATURE_ATOMIC_INT64;
  // Float atomic add: the translation's compare-exchange loop on the bits, on any device.
  f |= PORTA_FEATURE_ATOMIC_FLOAT32;
  // Cooperative matrices: the translator's lowering (each work-item holds whole matrices), on any device.
  f |= PORTA_FEATURE_COOPERATIVE_MATRIX;
  return f;
}

porta_device_type type_of(cl_device_id device) {
  auto type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
  if (type & CL_DEVICE_TYPE_GPU)
    return device_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) ? PORTA_DEVICE_INTEGRATED_GPU
                                                                        : PORTA_DEVICE_DISCRETE_GPU;
  if (type & CL_DEVICE_TYPE_CPU) return PORTA_DEVICE_CPU;
  return PORTA_DEVICE_OTHER;
}

// "OpenCL 3.0 PoCL HSTR: ..." → "OpenCL 3.0": the rest is vendor detail kept in `driver`.
std::string api_version_of(const std::string& device_version) {
  size_t first = device_version.find(' ');
  size_t second = first == std::string::npos ? first : device_version.find(' ', first + 1);
  return device_version.substr(0, second);
}

// The device's PCI address, which names it to tools outside OpenCL (NVML's
// energy counter): cl_khr_pci_bus_info, else NVIDIA's own attributes (whose
// slot is device << 3 | function).
void describe_pci(cl_device_id device, const std::string& extensions, porta_device_info& info) {
  if (has_extension(extensions, "cl_khr_pci_bus_info")) {
    const auto pci = device_value<cl_device_pci_bus_info_khr>(device, CL_DEVICE_PCI_BUS_INFO_KHR);
    plugin::set_pci_bus_id(info, pci.pci_domain, pci.pci_bus, pci.pci_device, pci.pci_function);
  } else if (has_extension(extensions, "cl_nv_device_attribute_query")) {
    constexpr cl_device_info kBusIdNv = 0x4008, kSlotIdNv = 0x4009, kDomainIdNv = 0x400A;
    cl_uint domain = 0;  // drivers before the domain attribute: domain 0
    if (cl().clGetDeviceInfo(device, kDomainIdNv, sizeof domain, &domain, nullptr) != CL_SUCCESS) domain = 0;
    const auto slot = device_value<cl_uint>(device, kSlotIdNv);
    plugin::set_pci_bus_id(info, domain, device_value<cl_uint>(device, kBusIdNv), slot >> 3, slot & 7);
  }
}

DeviceEntry describe_device(cl_platform_id platform, cl_device_id device, uint32_t index) {
  DeviceEntry e;
  e.platform = platform;
  e.device = device;
  const std::string platform_name = platform_string(platform, CL_PLATFORM_NAME);
  e.platform_version = platform_string(platform, CL_PLATFORM_VERSION);
  e.driver_version = device_string(device, CL_DRIVER_VERSION);
  const std::string extensions = device_string(device, CL_DEVICE_EXTENSIONS);
  e.extensions = extensions;
  // Kernels with subgroup operations build with the newest standard, where
  // the sub_group_* built-ins live. An OpenCL 3.0 device compiles OpenCL C
  // 3.0 even where CL_DEVICE_OPENCL_C_VERSION, deprecated there, says 1.2
  // (PoCL 5: "OpenCL C 1.2 PoCL").
  const std::string device_version = device_string(device, CL_DEVICE_VERSION);
  const std::string c_version = device_string(device, CL_DEVICE_OPENCL_C_VERSION);
  e.opencl_c_std =
      device_version.rfind("OpenCL 3.", 0) == 0 || c_version.rfind("OpenCL C 3.", 0) == 0   ? "CL3.0"
      : device_version.rfind("OpenCL 2.", 0) == 0 || c_version.rfind("OpenCL C 2.", 0) == 0 ? "CL2.0"
                                                                                            : "CL1.2";

  e.exact_divide_sqrt = (device_value<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) &
                         CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;

  porta_device_info& info = e.info;
  plugin::copy_string(info.backend, "opencl");
  // Two platforms may expose devices of the same name (a GPU through its vendor's
  // platform and through PoCL's CUDA driver): the platform tells them apart.
  plugin::copy_string(info.name, device_string(device, CL_DEVICE_NAME) + " (" + platform_name + ")");
  plugin::copy_string(info.vendor, device_string(device, CL_DEVICE_VENDOR));
  plugin::copy_string(info.driver, platform_name + " " + e.driver_version);
  plugin::copy_string(info.api_version, api_version_of(device_string(device, CL_DEVICE_VERSION)));
  info.type = type_of(device);
  info.index = index;
  describe_pci(device, extensions, info);
  info.memory_bytes = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  // OpenCL names one global memory; the host maps it where it is the host's.
  info.memory_heap_count = 1;
  const bool unified = device_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY);
  info.memory_heaps[0] = {
      info.memory_bytes,
      PORTA_MEMORY_HEAP_DEVICE_LOCAL | (unified ? uint32_t(PORTA_MEMORY_HEAP_HOST_VISIBLE) : 0u), 0};

  porta_device_limits& limits = info.limits;
  size_t item_sizes[3] = {1, 1, 1};
  cl_uint dims = device_value<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> all_sizes(std::max<cl_uint>(dims, 3), 1);
  check(cl().clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(size_t) * dims, all_sizes.data(),
                             nullptr),
        "device", "clGetDeviceInfo");
  std::copy_n(all_sizes.begin(), 3, item_sizes);
  const size_t max_group = device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  for (int d = 0; d < 3; ++d) {
    limits.max_workgroup_size[d] = static_cast<uint32_t>(std::min<size_t>(item_sizes[d], UINT32_MAX));
    // OpenCL bounds the global size (a size_t), not the group count; keep
    // groups × group size within 32 bits so every device's size_t holds it.
    limits.max_workgroup_count[d] = UINT32_MAX / std::max<uint32_t>(limits.max_workgroup_size[d], 1);
  }
  limits.max_workgroup_invocations = static_cast<uint32_t>(std::min<size_t>(max_group, UINT32_MAX));
  limits.max_shared_memory_bytes = static_cast<uint32_t>(
      std::min<cl_ulong>(device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE), UINT32_MAX));
  e.pointer_bytes = device_value<cl_uint>(device, CL_DEVICE_ADDRESS_BITS) / 8;
  e.max_parameter_bytes = static_cast<uint32_t>(device_value<size_t>(device, CL_DEVICE_MAX_PARAMETER_SIZE));
  // Push constants travel as one by-value struct after the buffer pointers; what is
  // left of the parameter space after 16 pointers is what any kernel can count on.
  int64_t left = static_cast<int64_t>(e.max_parameter_bytes) - 16 * static_cast<int64_t>(e.pointer_bytes);
  limits.max_push_constant_bytes = static_cast<uint32_t>(std::max<int64_t>(left, 128));
  // The size the translation's subgroups have: 1 where porta runs subgroups
  // of one work-item; the device's own size varies by kernel (OpenCL asks
  // per kernel), so unknown there.
  limits.subgroup_size = has_native_subgroups(extensions) ? 0 : 1;
  limits.max_allocation_bytes = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  limits.max_buffer_bytes = limits.max_allocation_bytes;
  // A range of a buffer binds as a sub-buffer, whose origin must be a multiple
  // of CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits).
  info.max_binding_bytes = limits.max_allocation_bytes;
  info.binding_offset_alignment =
      std::max<uint64_t>(device_value<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8, 4);
  info.features = features_of(extensions);
  if (info.type == PORTA_DEVICE_CPU) info.flags = PORTA_DEVICE_FLAG_UNIFIED_MEMORY;  // PoCL: host memory
  info.timer = PORTA_TIMER_DEVICE;
  info.priority = 20;  // after CUDA and Vulkan on a device they also drive
  // C of at least 2048 x 2048: the best of `porta-bench --gpu-only
  // --sweep-matmul kernels/matmul/matmul.comp` at 4096^2 on an H200 (bench/README.md):
  // 8 x 8 items, slices 8 deep; from 1024 x 1024, 8 x 8 items in 64 x 128
  // blocks (128 items).
  info.tuning.tile_large = {16, 8, 16, 8, 8, 1, 0};
  info.tuning.tile_huge = {16, 16, 8, 8, 8, 1, 0};
  find_command_buffers(e);
  return e;
}

void CL_CALLBACK context_notify(const char* message, const void*, size_t, void*) {
  plugin::log(PORTA_LOG_WARN, std::string("opencl: driver: ") + message);
}

}  // namespace

const std::vector<DeviceEntry>& devices() { return g_devices; }

std::string describe(const DeviceEntry& entry) { return std::string("device '") + entry.info.name + "'"; }

namespace {

// PoCL 5 and later (built on LLVM 16 or newer) abort in their default
// work-group compiler on kernels where a branch after a barrier skips a loop
// and rejoins before the next barrier, a shape structured SPIR-V often has;
// their continuation-based method compiles those kernels. porta picks it
// unless the user chose a method; the choice is part of the binary cache key.
void choose_pocl_work_group_method() {
  if (std::getenv("POCL_WORK_GROUP_METHOD")) return;
  for (const DeviceEntry& e : g_devices) {
    const size_t at = e.platform_version.find("PoCL ");
    if (at == std::string::npos) continue;
    const int major = std::atoi(e.platform_version.c_str() + at + 5);
    if (major < 5) continue;
    setenv("POCL_WORK_GROUP_METHOD", "cbs", 0);
    plugin::log(PORTA_LOG_INFO, "opencl: POCL_WORK_GROUP_METHOD=cbs for " + e.platform_version +
                                    " (its default method aborts on some kernels with barriers)");
    return;
  }
}

}  // namespace

void enumerate_devices() {
  g_devices.clear();
  cl_uint platform_count = 0;
  cl_int status = cl().clGetPlatformIDs(0, nullptr, &platform_count);
  if (status == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (status == CL_SUCCESS && platform_count == 0))
    plugin::fail(PORTA_ERROR_UNAVAILABLE,
                 "opencl: no OpenCL platform: the ICD loader found no driver (see /etc/OpenCL/vendors or "
                 "OCL_ICD_VENDORS)");
  check(status, "init", "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(platform_count);
  check(cl().clGetPlatformIDs(platform_count, platforms.data(), nullptr), "init", "clGetPlatformIDs");

  std::string skipped;
  for (cl_platform_id platform : platforms) {
    cl_uint device_count = 0;
    status = cl().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count);
    if (status == CL_DEVICE_NOT_FOUND || device_count == 0) continue;
    if (status != CL_SUCCESS) {
      // One broken platform must not hide the others; its reason is kept for the log.
      skipped += plugin::format("; platform skipped: clGetDeviceIDs failed: %s", error_name(status));
      continue;
    }
    std::vector<cl_device_id> ids(device_count);
    check(cl().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, device_count, ids.data(), nullptr), "init",
          "clGetDeviceIDs");
    for (cl_device_id id : ids) {
      try {
        g_devices.push_back(describe_device(platform, id, static_cast<uint32_t>(g_devices.size())));
      } catch (const plugin::Failure& f) {
        skipped += std::string("; device skipped: ") + f.what();
      }
    }
  }
  if (!skipped.empty()) plugin::log(PORTA_LOG_WARN, "opencl: " + skipped.substr(2));
  choose_pocl_work_group_method();
  if (g_devices.empty())
    plugin::fail(PORTA_ERROR_UNAVAILABLE, "opencl: %u OpenCL platform(s) but no usable device%s",
                 platform_count, skipped.c_str());
}

void clear_devices() { g_devices.clear(); }

porta_plugin_device_t* device_open(uint32_t index, const porta_plugin_device_options& options) {
  const DeviceEntry& entry = devices()[index];
  auto device = std::make_unique<porta_plugin_device_t>();
  // Robust access needs nothing here: the core translates with bounds checks.
  device->timeout_ms = options.timeout_ms;
  device->entry = &entry;
  device->where = describe(entry);
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(entry.platform), 0};
  cl_int status = CL_SUCCESS;
  device->context = cl().clCreateContext(props, 1, &entry.device, context_notify, nullptr, &status);
  check(status, device->where, "clCreateContext");
  device->command_buffers = command_buffers_for(entry);
  plugin::log(
      PORTA_LOG_DEBUG,
      "opencl: " + device->where + ": recorded sequences replay " +
          (device->command_buffers ? std::string("through cl_khr_command_buffer")
           : entry.command_buffers.create
               ? std::string("dispatch by dispatch (a CPU-type device, or PORTA_OPENCL_COMMAND_BUFFERS=0)")
               : "dispatch by dispatch: " + entry.command_buffers_absent));
  return device.release();
}

void device_close(porta_plugin_device_t* device) {
  if (device->place_queue) cl().clReleaseCommandQueue(device->place_queue);
  cl().clReleaseContext(device->context);
  delete device;
}

}  // namespace porta::opencl
