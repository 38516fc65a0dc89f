// Kernels: OpenCL C source → program (through the binary cache) → cl_kernel,
// with the device's features and limits checked before anything is built.
#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../common/plugin_support.hpp"
#include "opencl.hpp"

namespace porta::opencl {

namespace {

// No fast-math flags: results must match the CPU backend within each op's error bound.
constexpr const char* kBuildOptions = "-cl-std=CL1.2";

// The extensions a translation needs: those it enables
// ("#pragma OPENCL EXTENSION NAME : enable") and those it names in a
// "// requires OpenCL extension: NAME" line (extensions that take no pragma,
// such as the cl_khr_subgroup_* ones).
std::vector<std::string> required_extensions(const porta_kernel_desc& desc) {
  const std::string source(desc.source, desc.source_size ? desc.source_size : std::strlen(desc.source));
  std::vector<std::string> names;
  for (const std::string marker : {"#pragma OPENCL EXTENSION ", "// requires OpenCL extension: "}) {
    for (size_t at = source.find(marker); at != std::string::npos; at = source.find(marker, at + 1)) {
      const size_t begin = at + marker.size();
      const size_t end = source.find_first_of(" :\n", begin);
      if (end == std::string::npos) break;
      if (marker[0] == '/' || source.compare(end, 9, " : enable") == 0)
        names.push_back(source.substr(begin, end - begin));
    }
  }
  return names;
}

// A kernel may use an extension only where the device has it: the
// translator names each one it uses (subgroup operations: one per kind).
void check_extensions(const porta_kernel_desc& desc, const porta_plugin_device_t& device) {
  for (const std::string& name : required_extensions(desc))
    if (!has_extension(device.entry->extensions, name.c_str()))
      plugin::fail(PORTA_ERROR_UNSUPPORTED,
                   "opencl: %s: kernel '%s' needs the OpenCL extension %s, which the device does not have",
                   device.where.c_str(), desc.name, name.c_str());
}

// Subgroup built-ins belong to OpenCL C 2.0 and later: a kernel using them
// builds with the newest standard the device's compiler takes. float
// division and sqrt are correctly rounded where the device can make them so
// (OpenCL C otherwise allows 2.5 and 3 ulp; NVIDIA's compiler takes that
// freedom), as on every other backend.
std::string build_options(const porta_kernel_desc& desc, const DeviceEntry& entry) {
  std::string options = kBuildOptions;
  for (const std::string& name : required_extensions(desc))
    if (name.rfind("cl_khr_subgroup", 0) == 0) options = "-cl-std=" + entry.opencl_c_std;
  if (entry.exact_divide_sqrt) options += " -cl-fp32-correctly-rounded-divide-sqrt";
  return options;
}

// A cached binary is stored behind this header, so a truncated or foreign file
// is recognised without handing it to the driver.
struct CacheHeader {
  char magic[8];  // "PORTACLB"
  uint64_t size;  // binary bytes that follow
  uint64_t hash;  // fnv1a64 of those bytes
};
constexpr char kCacheMagic[8] = {'P', 'O', 'R', 'T', 'A', 'C', 'L', 'B'};

uint64_t fnv1a64(const void* data, size_t size, uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// The core's key covers the SPIR-V, translation, spec constants and porta version; a
// program binary is also only good for one device, driver and set of build options.
std::string cache_key(const porta_kernel_desc& desc, const DeviceEntry& entry) {
  std::string identity =
      std::string(desc.cache_key ? desc.cache_key : "") + '\n' + entry.info.name + '\n' +
      entry.driver_version + '\n' + entry.platform_version + '\n' + build_options(desc, entry) + '\n' +
      (std::getenv("POCL_WORK_GROUP_METHOD") ? std::getenv("POCL_WORK_GROUP_METHOD") : "") + '\n' +
      desc.entry_point;
  uint64_t a = fnv1a64(identity.data(), identity.size());
  uint64_t b = fnv1a64(identity.data(), identity.size(), 0x9e3779b97f4a7c15ull);
  return plugin::format("opencl-%016llx%016llx", static_cast<unsigned long long>(a),
                        static_cast<unsigned long long>(b));
}

// The core checks the limits porta_device_info reports; the parameter space
// it does not know, so that is refused here, before compiling.
void check_parameter_size(const porta_kernel_desc& desc, const porta_plugin_device_t& device) {
  const DeviceEntry& entry = *device.entry;
  // Each buffer takes its pointer and its size (the porta_buffer_sizes struct).
  uint64_t parameter_bytes =
      uint64_t{desc.buffer_count} * (entry.pointer_bytes + sizeof(uint64_t)) + desc.push_constant_size;
  if (parameter_bytes > entry.max_parameter_bytes)
    plugin::fail(
        PORTA_ERROR_UNSUPPORTED,
        "opencl: %s: kernel '%s' passes %u buffers with their sizes and %u push-constant bytes (%llu "
        "parameter bytes), more than the device's CL_DEVICE_MAX_PARAMETER_SIZE of %u",
        device.where.c_str(), desc.name, desc.buffer_count, desc.push_constant_size,
        static_cast<unsigned long long>(parameter_bytes), entry.max_parameter_bytes);
}

std::string build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (cl().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string log(size, '\0');
  if (cl().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) !=
      CL_SUCCESS)
    return {};
  log.resize(std::strlen(log.c_str()));
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  return log;
}

struct ProgramDeleter {
  void operator()(cl_program p) const {
    if (p) cl().clReleaseProgram(p);
  }
};
using Program = std::unique_ptr<std::remove_pointer_t<cl_program>, ProgramDeleter>;

Program build_from_source(const porta_kernel_desc& desc, const porta_plugin_device_t& device) {
  const char* source = desc.source;
  size_t length = desc.source_size ? desc.source_size : std::strlen(desc.source);
  cl_int status = CL_SUCCESS;
  Program program(cl().clCreateProgramWithSource(device.context, 1, &source, &length, &status));
  if (status != CL_SUCCESS)
    check(status, device.where + ": kernel '" + desc.name + "'", "clCreateProgramWithSource");
  const std::string options = build_options(desc, *device.entry);
  status = cl().clBuildProgram(program.get(), 1, &device.entry->device, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    std::string log = build_log(program.get(), device.entry->device);
    plugin::fail(status == CL_BUILD_PROGRAM_FAILURE ? PORTA_ERROR_COMPILE : error_status(status),
                 "opencl: %s: kernel '%s': clBuildProgram failed: %s (%d)%s%s", device.where.c_str(),
                 desc.name, error_name(status), static_cast<int>(status), log.empty() ? "" : "\nbuild log:\n",
                 log.c_str());
  }
  return program;
}

// A cached binary, or null when there is none or it is unusable (then rebuilt).
Program load_cached(const std::string& key, const porta_kernel_desc& desc,
                    const porta_plugin_device_t& device) {
  const porta_host_api* host = plugin::host();
  if (!host || !host->cache_load) return nullptr;
  void* data = nullptr;
  size_t size = 0;
  if (!host->cache_load(key.c_str(), &data, &size)) return nullptr;
  std::unique_ptr<void, decltype(&std::free)> owned(data, &std::free);
  const auto* bytes = static_cast<const unsigned char*>(data);
  CacheHeader header;
  if (size < sizeof header) {
    plugin::log(PORTA_LOG_WARN,
                "opencl: cache entry " + key + " is truncated; rebuilding kernel '" + desc.name + "'");
    return nullptr;
  }
  std::memcpy(&header, bytes, sizeof header);
  const unsigned char* binary = bytes + sizeof header;
  if (std::memcmp(header.magic, kCacheMagic, sizeof kCacheMagic) != 0 ||
      header.size != size - sizeof header || header.hash != fnv1a64(binary, header.size)) {
    plugin::log(PORTA_LOG_WARN,
                "opencl: cache entry " + key + " is corrupt; rebuilding kernel '" + desc.name + "'");
    return nullptr;
  }
  size_t binary_size = header.size;
  cl_int binary_status = CL_SUCCESS, status = CL_SUCCESS;
  Program program(cl().clCreateProgramWithBinary(device.context, 1, &device.entry->device, &binary_size,
                                                 &binary, &binary_status, &status));
  if (status == CL_SUCCESS && binary_status == CL_SUCCESS)
    status = cl().clBuildProgram(program.get(), 1, &device.entry->device,
                                 build_options(desc, *device.entry).c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS || binary_status != CL_SUCCESS) {
    plugin::log(PORTA_LOG_WARN,
                plugin::format("opencl: %s: cached binary for kernel '%s' rejected (%s); rebuilding",
                               device.where.c_str(), desc.name,
                               error_name(status != CL_SUCCESS ? status : binary_status)));
    return nullptr;
  }
  plugin::log(PORTA_LOG_DEBUG,
              "opencl: kernel '" + std::string(desc.name) + "' loaded from cache entry " + key);
  return program;
}

void store_cached(const std::string& key, cl_program program, const porta_kernel_desc& desc) {
  const porta_host_api* host = plugin::host();
  if (!host || !host->cache_store) return;
  size_t size = 0;
  if (cl().clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS ||
      size == 0)
    return;  // some drivers keep no binary; the kernel still works, it is just not cached
  std::vector<unsigned char> entry(sizeof(CacheHeader) + size);
  unsigned char* binary = entry.data() + sizeof(CacheHeader);
  if (cl().clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, nullptr) != CL_SUCCESS)
    return;
  CacheHeader header;
  std::memcpy(header.magic, kCacheMagic, sizeof kCacheMagic);
  header.size = size;
  header.hash = fnv1a64(binary, size);
  std::memcpy(entry.data(), &header, sizeof header);
  if (!host->cache_store(key.c_str(), entry.data(), entry.size()))
    plugin::log(PORTA_LOG_DEBUG, "opencl: kernel '" + std::string(desc.name) + "' not cached");
}

cl_kernel create_kernel(cl_program program, const porta_kernel_desc& desc,
                        const porta_plugin_device_t& device) {
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = cl().clCreateKernel(program, desc.entry_point, &status);
  if (status != CL_SUCCESS)
    plugin::fail(PORTA_ERROR_COMPILE, "opencl: %s: kernel '%s': clCreateKernel(\"%s\") failed: %s (%d)",
                 device.where.c_str(), desc.name, desc.entry_point, error_name(status),
                 static_cast<int>(status));
  return kernel;
}

// A CPU device runs a work-group's items on one of its worker threads, and
// their private variables on that thread's stack (PoCL: all of the group's
// at once, barriers or not), a thread started with the process's default
// stack size; past it the host process faults. The driver's own measure
// (CL_KERNEL_PRIVATE_MEM_SIZE) does not tell (PoCL reports 1024 bytes for
// any kernel), so the core's measure of the kernel's variables is checked
// against that default, less room for the driver's own frames.
void check_private_memory(const porta_kernel_desc& desc, const porta_plugin_device_t& device) {
  if (device.entry->info.type != PORTA_DEVICE_CPU || desc.private_memory_bytes == 0) return;
  size_t stack = 0;
  pthread_attr_t attr;
  if (pthread_getattr_default_np(&attr) != 0) return;
  pthread_attr_getstacksize(&attr, &stack);
  pthread_attr_destroy(&attr);
  constexpr uint64_t driver_frames = 64 * 1024;
  const uint64_t items = uint64_t(desc.workgroup_size[0]) * desc.workgroup_size[1] * desc.workgroup_size[2];
  const uint64_t group = desc.private_memory_bytes * items;
  if (stack > driver_frames && group <= stack - driver_frames) return;
  plugin::fail(PORTA_ERROR_UNSUPPORTED,
               "opencl: %s: kernel '%s': each work-item holds %llu bytes of private variables, %llu KiB for a "
               "work-group of %llu items, more than this CPU device can hold on the %llu KiB stack of a worker "
               "thread (less %llu KiB for the driver); use smaller private arrays, shared memory or smaller "
               "work-groups (the stack is the process's default thread stack: ulimit -s)",
               device.where.c_str(), desc.name, static_cast<unsigned long long>(desc.private_memory_bytes),
               static_cast<unsigned long long>(group / 1024), static_cast<unsigned long long>(items),
               static_cast<unsigned long long>(stack / 1024),
               static_cast<unsigned long long>(driver_frames / 1024));
}

// The compiled kernel may allow less than the device does (registers, local memory).
void check_compiled_limits(const porta_plugin_kernel_t& k) {
  size_t kernel_limit = 0;
  cl_ulong kernel_local = 0;
  check(cl().clGetKernelWorkGroupInfo(k.kernel, k.device->entry->device, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof kernel_limit, &kernel_limit, nullptr),
        k.device->where + ": kernel '" + k.name + "'", "clGetKernelWorkGroupInfo");
  check(cl().clGetKernelWorkGroupInfo(k.kernel, k.device->entry->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                      sizeof kernel_local, &kernel_local, nullptr),
        k.device->where + ": kernel '" + k.name + "'", "clGetKernelWorkGroupInfo");
  size_t invocations = k.local_size[0] * k.local_size[1] * k.local_size[2];
  const uint32_t shared_limit = k.device->entry->info.limits.max_shared_memory_bytes;
  if (invocations > kernel_limit || kernel_local > shared_limit) {
    std::string message =
        invocations > kernel_limit
            ? plugin::format(
                  "opencl: %s: kernel '%s' work-group of %zu invocations exceeds the %zu this compiled "
                  "kernel allows on the device (CL_KERNEL_WORK_GROUP_SIZE)",
                  k.device->where.c_str(), k.name.c_str(), invocations, kernel_limit)
            : plugin::format(
                  "opencl: %s: kernel '%s' uses %llu bytes of local memory, the device has %u "
                  "(CL_KERNEL_LOCAL_MEM_SIZE)",
                  k.device->where.c_str(), k.name.c_str(), static_cast<unsigned long long>(kernel_local),
                  shared_limit);
    plugin::fail(PORTA_ERROR_UNSUPPORTED, "%s", message.c_str());
  }
}

}  // namespace

porta_plugin_kernel_t* kernel_create(porta_plugin_device_t& device, const porta_kernel_desc& desc) {
  porta_kernel_desc d = desc;
  if (!d.name) d.name = d.entry_point;
  check_parameter_size(d, device);
  check_extensions(d, device);
  check_private_memory(d, device);

  const std::string key = cache_key(d, *device.entry);
  cl_kernel kernel = nullptr;
  Program program = load_cached(key, d, device);
  if (program) {
    cl_int status = CL_SUCCESS;
    kernel = cl().clCreateKernel(program.get(), d.entry_point, &status);
    if (status != CL_SUCCESS) {
      plugin::log(PORTA_LOG_WARN, "opencl: cached program for kernel '" + std::string(d.name) +
                                      "' lacks its entry point; rebuilding");
      program.reset();
    }
  }
  if (!program) {
    program = build_from_source(d, device);
    kernel = create_kernel(program.get(), d, device);
    store_cached(key, program.get(), d);
  }

  auto k = std::make_unique<porta_plugin_kernel_t>();
  k->device = &device;
  k->kernel = kernel;
  k->program = program.release();
  k->name = d.name;
  k->entry_point = d.entry_point;
  for (int i = 0; i < 3; ++i) k->local_size[i] = d.workgroup_size[i];

  try {
    check_compiled_limits(*k);
  } catch (...) {
    kernel_destroy(k.release());
    throw;
  }
  return k.release();
}

void kernel_destroy(porta_plugin_kernel_t* kernel) {
  if (kernel->kernel) cl().clReleaseKernel(kernel->kernel);
  if (kernel->program) cl().clReleaseProgram(kernel->program);
  delete kernel;
}

}  // namespace porta::opencl
