// Device enumeration, device information and the primary context.
#include <cstdarg>
#include <fstream>

#include "cuda_plugin.hpp"

namespace porta::cuda {

namespace {

using plugin::copy_string;
using plugin::format;

struct Found {
  CUdevice cu = 0;
  int arch = 0;
  uint32_t max_dynamic_shared = 0;
  porta_device_info info{};
};

std::vector<Found> g_found;

// The kernel-mode driver's version ("580.65.06"), which the CUDA driver API
// does not report; empty when the module's sysfs entry is not readable.
std::string kernel_driver_version() {
  std::ifstream file("/sys/module/nvidia/version");
  std::string version;
  if (file) std::getline(file, version);
  return version;
}

int attribute(CUdevice device, CUdevice_attribute which, const char* name) {
  int value = 0;
  CUresult r = driver().cuDeviceGetAttribute(&value, which, device);
  if (r != CUDA_SUCCESS) {
    plugin::fail(status_of(r), "cuda: cuDeviceGetAttribute(%s) failed: %s", name, error_text(r).c_str());
  }
  return value;
}

#define PORTA_CUDA_ATTRIBUTE(device, name) attribute(device, CU_DEVICE_ATTRIBUTE_##name, #name)

Found describe(int ordinal) {
  const Driver& cu = driver();
  Found f;
  CUresult r = cu.cuDeviceGet(&f.cu, ordinal);
  if (r != CUDA_SUCCESS)
    plugin::fail(status_of(r), "cuda: cuDeviceGet(%d) failed: %s", ordinal, error_text(r).c_str());
  porta_device_info& info = f.info;
  char name[PORTA_NAME_CAPACITY] = {};
  cu.cuDeviceGetName(name, sizeof name - 1, f.cu);
  copy_string(info.backend, "cuda");
  copy_string(info.name, name);
  copy_string(info.vendor, "NVIDIA");
  std::string cuda_version = format("%d.%d", cu.version / 1000, cu.version % 1000 / 10);
  std::string kmd = kernel_driver_version();
  copy_string(info.driver, kmd.empty() ? "NVIDIA CUDA driver " + cuda_version
                                       : "NVIDIA " + kmd + " (CUDA " + cuda_version + ")");
  int major = PORTA_CUDA_ATTRIBUTE(f.cu, COMPUTE_CAPABILITY_MAJOR);
  int minor = PORTA_CUDA_ATTRIBUTE(f.cu, COMPUTE_CAPABILITY_MINOR);
  f.arch = major * 10 + minor;
  copy_string(info.api_version, format("CUDA %s, sm_%d", cuda_version.c_str(), f.arch));
  info.type =
      PORTA_CUDA_ATTRIBUTE(f.cu, INTEGRATED) ? PORTA_DEVICE_INTEGRATED_GPU : PORTA_DEVICE_DISCRETE_GPU;
  info.index = static_cast<uint32_t>(ordinal);
  plugin::set_pci_bus_id(info, PORTA_CUDA_ATTRIBUTE(f.cu, PCI_DOMAIN_ID),
                         PORTA_CUDA_ATTRIBUTE(f.cu, PCI_BUS_ID), PORTA_CUDA_ATTRIBUTE(f.cu, PCI_DEVICE_ID),
                         0);
  size_t total = 0;
  cu.cuDeviceTotalMem(&total, f.cu);
  info.memory_bytes = total;
  info.memory_heap_count = 1;
  info.memory_heaps[0] = {total, PORTA_MEMORY_HEAP_DEVICE_LOCAL, 0};

  porta_device_limits& l = info.limits;
  l.max_workgroup_size[0] = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_BLOCK_DIM_X);
  l.max_workgroup_size[1] = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_BLOCK_DIM_Y);
  l.max_workgroup_size[2] = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_BLOCK_DIM_Z);
  l.max_workgroup_invocations = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_THREADS_PER_BLOCK);
  l.max_workgroup_count[0] = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_GRID_DIM_X);
  l.max_workgroup_count[1] = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_GRID_DIM_Y);
  l.max_workgroup_count[2] = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_GRID_DIM_Z);
  f.max_dynamic_shared = PORTA_CUDA_ATTRIBUTE(f.cu, MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  l.max_shared_memory_bytes = f.max_dynamic_shared;
  // Kernel parameters are limited to 4 KiB; the push constants share them with
  // one pointer per buffer. Room for 32 buffers is kept; kernel creation
  // checks the exact sum.
  l.max_push_constant_bytes = 4096 - 32 * sizeof(CUdeviceptr);
  l.subgroup_size = PORTA_CUDA_ATTRIBUTE(f.cu, WARP_SIZE);
  l.max_buffer_bytes = total;
  l.max_allocation_bytes = total;
  // Kernels take device pointers: any range binds; 16 bytes keeps vec4 loads aligned.
  info.max_binding_bytes = total;
  info.binding_offset_alignment = 16;

  uint64_t features = PORTA_FEATURE_FP64 | PORTA_FEATURE_INT8 | PORTA_FEATURE_INT16 | PORTA_FEATURE_INT64 |
                      PORTA_FEATURE_STORAGE_8BIT | PORTA_FEATURE_STORAGE_16BIT | PORTA_FEATURE_SUBGROUPS |
                      PORTA_FEATURE_SUBGROUP_CLUSTERED | PORTA_FEATURE_ATOMIC_INT32 |
                      PORTA_FEATURE_ATOMIC_INT64 | PORTA_FEATURE_ATOMIC_FLOAT32 |
                      // the translator's lowering: each thread holds whole matrices
                      PORTA_FEATURE_COOPERATIVE_MATRIX;
  if (f.arch >= 53) features |= PORTA_FEATURE_FP16;  // half arithmetic from sm_53
  if (f.arch >= 80) features |= PORTA_FEATURE_BF16;  // bf16 arithmetic from sm_80
  // float16 matrices on tensor cores (mma.sync.m16n8k16), as listed below.
  if (f.arch >= 80) features |= PORTA_FEATURE_COOPERATIVE_MATRIX_F16_HW;
  // float32 matrices at TF32 (mma.sync.m16n8k8), for kernels that allow it.
  if (f.arch >= 80) features |= PORTA_FEATURE_COOPERATIVE_MATRIX_TF32_HW;
  // bfloat16 matrices (SPV_KHR_bfloat16) on tensor cores (mma.sync.m16n8k16 .bf16).
  if (f.arch >= 80) features |= PORTA_FEATURE_COOPERATIVE_MATRIX_BF16_HW;
  // Workgroup-scope matrices on the warpgroup MMA (wgmma), sm_90's alone
  // (NVRTC's sm_90a).
  if (f.arch == 90) features |= PORTA_FEATURE_COOPERATIVE_MATRIX_WORKGROUP_HW;
  info.features = features;
  // What runs on tensor cores, as the Vulkan backend lists its device's
  // multiply-adds: the translator's warp-fragment lowering (libporta chooses
  // it from sm_80 on, where the BF16 bit starts; translator/README.md,
  // "Cooperative matrices"). Every other cooperative matrix runs per invocation.
  plugin::log(
      PORTA_LOG_INFO,
      format("cuda: device %d (%s) runs cooperative-matrix multiply-adds %s%s", ordinal, info.name,
             f.arch >= 80 ? "on tensor cores (mma.sync): MxNxK in multiples of 16x8x16, float16 x float16 "
                            "+ float16 or float32 -> float16 or float32, bfloat16 x bfloat16 + float32 -> "
                            "float32; in multiples of 16x8x32, int8 or "
                            "uint8 x int8 or uint8 + int32 -> int32; in multiples of 16x8x8, float32 x "
                            "float32 + float32 -> float32 at TF32 precision where the kernel allows TF32; at "
                            "Subgroup scope, in work-groups of "
                            "whole warps; any other per invocation"
                          : "per invocation (tensor cores need sm_80)",
             f.arch == 90 ? "; on the warpgroup MMA (wgmma): Workgroup scope in work-groups of 128 W items, "
                            "64 W x N x K in multiples of 8 columns and 16 deep, float16 or bfloat16 into "
                            "float32"
                          : ""));
  info.timer = PORTA_TIMER_DEVICE;
  info.priority = 0;  // the vendor's own API first
  // The fastest of `porta-bench --gpu-only --sweep-matmul
  // kernels/matmul/matmul.comp` on an H200 (bench/README.md), prefetch into
  // registers only: C of at least 2048 x 2048 in 128 x 128 blocks of 8 x 8
  // items; from 1024 x 1024, 4 x 8 items (64 x 128 blocks: 128 x 128 would
  // leave half of the multiprocessors idle at 1024^2).
  info.tuning.tile_large = {16, 16, 16, 4, 8, 1, 0};
  info.tuning.tile_huge = {16, 16, 16, 8, 8, 1, 0};
  return f;
}

}  // namespace

void Backend::init() {
  load_driver();
  const Driver& cu = driver();
  int count = 0;
  CUresult r = cu.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) {
    plugin::fail(PORTA_ERROR_UNAVAILABLE, "cuDeviceGetCount failed: %s", error_text(r).c_str());
  }
  if (count == 0) plugin::fail(PORTA_ERROR_UNAVAILABLE, "the CUDA driver reports no devices");
  std::vector<Found> found;
  for (int i = 0; i < count; ++i) found.push_back(describe(i));
  g_found = std::move(found);
}

void Backend::shutdown() { g_found.clear(); }

uint32_t Backend::device_count() { return static_cast<uint32_t>(g_found.size()); }

const porta_device_info& Backend::device_info(uint32_t index) { return g_found[index].info; }

Device* Backend::device_open(uint32_t index, const porta_plugin_device_options& options) {
  const Found& f = g_found[index];
  auto device = std::make_unique<Device>();
  device->index = index;
  // Robust access needs nothing here: the core translates with bounds checks.
  device->timeout_ms = options.timeout_ms;
  device->cu = f.cu;
  device->arch = f.arch;
  device->info = f.info;
  device->max_dynamic_shared = f.max_dynamic_shared;
  // The primary context is the one the CUDA runtime uses too, so buffers can
  // be shared with libraries such as cuBLAS in the same process.
  device->check(driver().cuDevicePrimaryCtxRetain(&device->context, device->cu), "cuDevicePrimaryCtxRetain");
  device->staging = std::make_unique<StagingPool>(*device);
  return device.release();
}

void Backend::device_close(Device* device) {
  if (!device) return;
  {
    ContextScope scope(*device, ContextScope::Releasing{});
    device->staging.reset();
    if (device->copies.module) driver().cuModuleUnload(device->copies.module);
  }
  driver().cuDevicePrimaryCtxRelease(device->cu);
  delete device;
}

std::string Device::label() const { return format("cuda: device %u (%s)", index, info.name); }

void Device::ensure_alive() {
  std::lock_guard<std::mutex> lock(lost_mutex_);
  if (!lost_.empty()) {
    throw plugin::Failure(PORTA_ERROR_DEVICE_LOST, label() + ": the device was lost earlier: " + lost_);
  }
}

void Device::check(CUresult result, const char* call, ...) {
  if (result == CUDA_SUCCESS) return;
  va_list args;
  va_start(args, call);
  std::string what = plugin::vformat(call, args);
  va_end(args);
  std::string message = label() + ": " + what + ": " + error_text(result);
  if (is_sticky(result)) {
    std::lock_guard<std::mutex> lock(lost_mutex_);
    if (lost_.empty()) lost_ = what + ": " + error_text(result);
    message += " (the CUDA context is unusable from now on; every later call on this device fails)";
  }
  throw plugin::Failure(status_of(result), message);
}

void Device::lose(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(lost_mutex_);
    if (lost_.empty()) lost_ = reason;
  }
  throw plugin::Failure(PORTA_ERROR_DEVICE_LOST, label() + ": " + reason + "; the device is lost");
}

void Device::fail(porta_status status, const char* fmt, ...) const {
  va_list args;
  va_start(args, fmt);
  std::string what = plugin::vformat(fmt, args);
  va_end(args);
  throw plugin::Failure(status, label() + ": " + what);
}

ContextScope::ContextScope(Device& device) {
  device.ensure_alive();
  // Already current (the usual case: one thread, one device): one driver call
  // instead of a push and a pop.
  CUcontext current = nullptr;
  if (driver().cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == device.context) return;
  device.check(driver().cuCtxPushCurrent(device.context), "cuCtxPushCurrent");
  pushed_ = true;
}

ContextScope::ContextScope(Device& device, Releasing) noexcept {
  pushed_ = driver().cuCtxPushCurrent(device.context) == CUDA_SUCCESS;
}

ContextScope::~ContextScope() {
  CUcontext previous = nullptr;
  if (pushed_) driver().cuCtxPopCurrent(&previous);
}

}  // namespace porta::cuda
