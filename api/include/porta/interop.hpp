// porta interop, C++ (porta/interop.h): free functions over porta.hpp's
// objects, throwing porta::Error like the rest of the C++ API.
#pragma once

#include <cstdint>
#include <utility>

#include "porta/interop.h"
#include "porta/porta.hpp"

namespace porta {

// A buffer over `bytes` of the caller's host memory, used in place.
inline Buffer import_host(const Device& device, void* ptr, size_t bytes) {
  return detail::created<Buffer>(porta_buffer_import_host, device.handle(), ptr, bytes);
}
// A buffer over foreign memory (struct_size is filled in here).
inline Buffer import_native(const Device& device, porta_native_memory memory) {
  memory.struct_size = sizeof memory;
  return detail::created<Buffer>(porta_buffer_import_native, device.handle(),
                                 static_cast<const porta_native_memory*>(&memory));
}
inline void* host_pointer(const Buffer& buffer) {
  void* p = nullptr;
  detail::check(porta_buffer_host_pointer(buffer.handle(), &p));
  return p;
}
inline porta_native_memory native(const Buffer& buffer) {
  porta_native_memory m{};
  m.struct_size = sizeof m;
  detail::check(porta_buffer_native(buffer.handle(), &m));
  return m;
}
inline porta_native_device native(const Device& device) {
  porta_native_device n{};
  n.struct_size = sizeof n;
  detail::check(porta_device_native(device.handle(), &n));
  return n;
}

// A range of a buffer mapped into host memory, unmapped (written back where
// it was copied) when the Mapping goes; unmap() reports a failure as an Error.
class Mapping {
 public:
  Mapping(const Buffer& buffer, uint64_t offset = 0, uint64_t bytes = 0) : buffer_(buffer) {
    detail::check(porta_buffer_map(buffer.handle(), offset, bytes, &data_));
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() {
    if (data_) porta_buffer_unmap(buffer_.handle(), data_);
  }
  void* data() const { return data_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  void unmap() {
    void* p = std::exchange(data_, nullptr);
    if (p) detail::check(porta_buffer_unmap(buffer_.handle(), p));
  }

 private:
  Buffer buffer_;
  void* data_ = nullptr;
};

// A tensor view exported as DLPack; the consumer calls its deleter.
inline DLManagedTensor* to_dlpack(const Tensor& view) {
  DLManagedTensor* t = nullptr;
  detail::check(porta_tensor_export_dlpack(view.get(), &t));
  return t;
}
// A DLPack tensor as a view of a new buffer over its memory (porta calls the
// tensor's deleter when the buffer goes).
inline Tensor from_dlpack(const Device& device, DLManagedTensor* tensor) {
  porta_tensor v{};
  detail::check(porta_tensor_import_dlpack(device.handle(), tensor, &v));
  const bool contiguous = v.strides[0] == 0 && v.strides[v.rank - 1] == 0;
  return Tensor(Buffer(v.buffer), Span<const uint64_t>(v.shape, v.rank),
                contiguous ? Span<const int64_t>() : Span<const int64_t>(v.strides, v.rank), v.offset,
                v.dtype);
}

// A porta stream over a framework's CUstream, cl_command_queue or (porta's) VkQueue.
inline Stream wrap_stream(const Device& device, void* native_stream) {
  return detail::created<Stream>(porta_stream_wrap_native, device.handle(), native_stream);
}
inline void* native(const Stream& stream) {
  void* s = nullptr;
  detail::check(porta_stream_native(stream.handle(), &s));
  return s;
}
inline void wait_native_event(const Stream& stream, void* native_event) {
  detail::check(porta_stream_wait_native_event(stream.handle(), native_event));
}
inline void signal_native_event(const Stream& stream, void* native_event) {
  detail::check(porta_stream_signal_native_event(stream.handle(), native_event));
}
// A framework's VkSemaphore (value 0: binary; else the timeline value) on a Vulkan stream.
inline void wait_native_event(const Stream& stream, porta_vk_semaphore point) {
  point.struct_size = sizeof point;
  wait_native_event(stream, &point);
}
inline void signal_native_event(const Stream& stream, porta_vk_semaphore point) {
  point.struct_size = sizeof point;
  signal_native_event(stream, &point);
}

}  // namespace porta
