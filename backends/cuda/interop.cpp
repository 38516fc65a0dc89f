// Interop (porta/interop.h) on CUDA: a framework's device pointers and
// streams of porta's context (the device's primary context, which PyTorch and
// CuPy use too) used as they are, host memory through cuMemHostRegister, and
// the framework's CUevents waited for and recorded in stream order.
#include "cuda_plugin.hpp"

namespace porta::cuda {

namespace {

using ull = unsigned long long;

Buffer* import_pointer(Device& device, const porta_native_memory& memory) {
  const Driver& cu = driver();
  const CUdeviceptr ptr = static_cast<CUdeviceptr>(memory.cuda_pointer);
  // The plural call answers "no memory type" for an address CUDA does not
  // know, where the singular one fails (and compute-sanitizer reports it).
  CUcontext context = nullptr;
  unsigned int type = 0;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE};
  void* values[] = {&context, &type};
  device.check(cu.cuPointerGetAttributes(2, attributes, values, ptr),
               "cuPointerGetAttributes(CONTEXT, MEMORY_TYPE)");
  if (type == 0)
    device.fail(PORTA_ERROR_INVALID_ARGUMENT, "buffer_import: 0x%llx is not a CUDA pointer",
                static_cast<ull>(ptr));
  if (context && context != device.context)
    device.fail(
        PORTA_ERROR_INVALID_ARGUMENT,
        "buffer_import: the CUDA pointer 0x%llx belongs to another CUDA context (%p); porta's device uses "
        "the primary context %p (porta_device_native)",
        static_cast<ull>(ptr), static_cast<void*>(context), static_cast<void*>(device.context));
  CUdeviceptr base = 0;
  size_t size = 0;
  device.check(cu.cuMemGetAddressRange(&base, &size, ptr), "cuMemGetAddressRange");
  if (ptr + memory.bytes > base + size)
    device.fail(
        PORTA_ERROR_INVALID_ARGUMENT,
        "buffer_import: %llu bytes at 0x%llx run past the end of its allocation (%llu bytes at 0x%llx)",
        static_cast<ull>(memory.bytes), static_cast<ull>(ptr), static_cast<ull>(size),
        static_cast<ull>(base));
  auto buffer = std::make_unique<Buffer>();
  buffer->device = &device;
  buffer->ptr = ptr;
  buffer->size = memory.bytes;
  buffer->foreign = true;
  return buffer.release();
}

Buffer* import_host(Device& device, const porta_native_memory& memory) {
  const Driver& cu = driver();
  auto buffer = std::make_unique<Buffer>();
  buffer->device = &device;
  buffer->size = memory.bytes;
  buffer->foreign = true;
  buffer->host = memory.host_pointer;
  const CUresult r = cu.cuMemHostRegister(memory.host_pointer, memory.bytes, CU_MEMHOSTREGISTER_DEVICEMAP);
  // Memory the framework registered already (pinned tensors) is used as it is.
  if (r != CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    device.check(r, "cuMemHostRegister(%llu bytes at %p)", static_cast<ull>(memory.bytes),
                 memory.host_pointer);
  buffer->registered = r == CUDA_SUCCESS;
  const CUresult p = cu.cuMemHostGetDevicePointer(&buffer->ptr, memory.host_pointer, 0);
  if (p != CUDA_SUCCESS) {
    if (buffer->registered) cu.cuMemHostUnregister(memory.host_pointer);
    device.check(p, "cuMemHostGetDevicePointer");
  }
  return buffer.release();
}

}  // namespace

Buffer* Backend::buffer_import(Device& device, const porta_native_memory& memory) {
  ContextScope scope(device);
  if (memory.kind == PORTA_NATIVE_MEMORY_CUDA_POINTER) return import_pointer(device, memory);
  if (memory.kind == PORTA_NATIVE_MEMORY_HOST) return import_host(device, memory);
  device.fail(
      PORTA_ERROR_UNSUPPORTED,
      "buffer_import: the cuda backend imports CUDA pointers and host memory, not OpenCL or Vulkan memory");
}

void Backend::buffer_native(Buffer& buffer, porta_native_memory& memory) {
  memory.kind = PORTA_NATIVE_MEMORY_CUDA_POINTER;
  memory.cuda_pointer = static_cast<uint64_t>(buffer.ptr);
  memory.bytes = buffer.size;
  memory.host_pointer = buffer.host;
}

void Backend::device_native(Device& device, porta_native_device& native) {
  native.cuda_device = static_cast<int32_t>(device.cu);
  native.cuda_context = device.context;
}

Stream* Backend::stream_wrap_native(Device& device, void* native_stream) {
  ContextScope scope(device);
  CUstream given = static_cast<CUstream>(native_stream);
  CUcontext context = nullptr;
  device.check(driver().cuStreamGetCtx(given, &context), "cuStreamGetCtx");
  if (context != device.context)
    device.fail(
        PORTA_ERROR_INVALID_ARGUMENT,
        "stream_wrap_native: the CUstream belongs to another CUDA context (%p); porta's device uses the "
        "primary context %p",
        static_cast<void*>(context), static_cast<void*>(device.context));
  auto stream = std::make_unique<Stream>();
  stream->device = &device;
  stream->cu = given;
  stream->wrapped = true;
  return stream.release();
}

void Backend::stream_wait_native_event(Stream& s, void* event) {
  ContextScope scope(*s.device);
  s.device->check(driver().cuStreamWaitEvent(s.cu, static_cast<CUevent>(event), 0), "cuStreamWaitEvent");
}

void Backend::stream_signal_native_event(Stream& s, void* event) {
  ContextScope scope(*s.device);
  s.device->check(driver().cuEventRecord(static_cast<CUevent>(event), s.cu), "cuEventRecord");
}

bool Backend::event_query(Event& event) {
  ContextScope scope(*event.device);
  const CUresult r = driver().cuEventQuery(event.cu);
  if (r == CUDA_ERROR_NOT_READY) return false;
  event.device->check(r, "cuEventQuery");
  return true;
}

}  // namespace porta::cuda
