// Device buffers.
#include <atomic>
#include <memory>

#include "../common/plugin_support.hpp"
#include "opencl.hpp"

namespace porta::opencl {

namespace {

// Gives a new buffer its memory on the device before anything uses it.
// NVIDIA's OpenCL (driver 580, H200) loses writes that kernels make through
// sub-buffers of a buffer nothing has used yet: of four kernels writing four
// ranges of a fresh buffer, each through its own sub-buffer, only the last
// one's writes remain (a write to the buffer first, a fill of 4 bytes or a
// migration to the device, and all four remain). Ops bind ranges of large
// operands as sub-buffers (for_each_row_piece), so every buffer is migrated
// to the device, its contents undefined, as it is made.
void place(porta_plugin_device_t& device, porta_plugin_buffer_t& buffer) {
  std::lock_guard lock(device.place_mutex);
  cl_int status = CL_SUCCESS;
  if (!device.place_queue) {
    device.place_queue = cl().clCreateCommandQueue(device.context, device.entry->device, 0, &status);
    if (status != CL_SUCCESS) {
      device.place_queue = nullptr;
      cl().clReleaseMemObject(buffer.mem);
      check(status, device.where, "clCreateCommandQueue (placing new buffers)");
    }
  }
  status = cl().clEnqueueMigrateMemObjects(device.place_queue, 1, &buffer.mem,
                                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr, nullptr);
  if (status == CL_SUCCESS) status = cl().clFinish(device.place_queue);
  if (status != CL_SUCCESS) {
    cl().clReleaseMemObject(buffer.mem);
    check(status, device.where + plugin::format(": a new buffer of %llu bytes",
                                                static_cast<unsigned long long>(buffer.size)),
          "clEnqueueMigrateMemObjects");
  }
}

}  // namespace

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
  auto buffer = std::make_unique<porta_plugin_buffer_t>(porta_plugin_buffer_t{&device, mem, size, 0});
  place(device, *buffer);
  static std::atomic<uint64_t> next_id{1};
  buffer->id = next_id++;
  return buffer.release();
}

void buffer_destroy(porta_plugin_buffer_t* buffer) {
  cl().clReleaseMemObject(buffer->mem);
  delete buffer;
}

}  // namespace porta::opencl
