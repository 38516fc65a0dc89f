// Device buffers.
#include <atomic>
#include <memory>

#include "../common/plugin_support.hpp"
#include "opencl.hpp"

namespace porta::opencl {

porta_plugin_buffer_t* buffer_create(porta_plugin_device_t& device, uint64_t size) {
  const uint64_t largest = device.entry->info.limits.max_allocation_bytes;
  cl_int status = CL_SUCCESS;
  cl_mem mem = cl().clCreateBuffer(device.context, CL_MEM_READ_WRITE, size, nullptr, &status);
  switch (status) {
    case CL_SUCCESS:
      break;
    case CL_INVALID_BUFFER_SIZE:
      plugin::fail(PORTA_ERROR_OUT_OF_MEMORY,
                   "opencl: %s: clCreateBuffer(%llu bytes) failed: CL_INVALID_BUFFER_SIZE: larger than the "
                   "device's largest allocation (%llu bytes)",
                   device.where.c_str(), static_cast<unsigned long long>(size),
                   static_cast<unsigned long long>(largest));
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY:
      plugin::fail(PORTA_ERROR_OUT_OF_MEMORY,
                   "opencl: %s: clCreateBuffer(%llu bytes) failed: %s: out of memory", device.where.c_str(),
                   static_cast<unsigned long long>(size), error_name(status));
    default:
      check(status, device.where, "clCreateBuffer");
  }
  static std::atomic<uint64_t> next_id{1};
  return new porta_plugin_buffer_t{&device, mem, size, next_id++};
}

void buffer_destroy(porta_plugin_buffer_t* buffer) {
  cl().clReleaseMemObject(buffer->mem);
  delete buffer;
}

}  // namespace porta::opencl
