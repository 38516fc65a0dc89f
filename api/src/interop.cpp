// C API of porta/interop.h: foreign memory, map/unmap, allocator hooks,
// DLPack, native devices and streams. The log sink and the error callback
// live with the log (log.cpp) and the errors (errors.cpp).
#include "interop.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>

#include "errors.hpp"
#include "fault.hpp"
#include "handle_registry.hpp"
#include "handles.hpp"

using namespace porta::core;

namespace {

using ull = unsigned long long;

const char* kind_name(porta_native_memory_kind kind) {
  switch (kind) {
    case PORTA_NATIVE_MEMORY_NONE:
      return "NONE";
    case PORTA_NATIVE_MEMORY_HOST:
      return "HOST";
    case PORTA_NATIVE_MEMORY_CUDA_POINTER:
      return "CUDA_POINTER";
    case PORTA_NATIVE_MEMORY_CL_MEM:
      return "CL_MEM";
    case PORTA_NATIVE_MEMORY_VK_BUFFER:
      return "VK_BUFFER";
  }
  return "an unknown kind";
}

// A caller's struct that starts with struct_size: at least the version we
// know (the first), copied up to what we know.
template <class T>
T read_struct(const T* given, const char* call, const char* what) {
  if (!given) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %s is null", call, what);
  if (given->struct_size < sizeof(T))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %s->struct_size is %u; it must be sizeof(%s) = %zu", call, what,
         given->struct_size, what, sizeof(T));
  T copy;
  std::memcpy(&copy, given, sizeof(T));
  return copy;
}

// The plugin entry `entry` of `device`, or a refusal naming the backend.
template <class Entry>
Entry need(Entry entry, const DeviceState& device, const char* call, const char* what) {
  if (!entry)
    fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: the %s backend does not support %s", call, device.label.c_str(),
         device.info.backend, what);
  return entry;
}

std::shared_ptr<BufferState> hand_out_buffer(std::shared_ptr<BufferState> state, porta_buffer* out) {
  auto* handle = new porta_buffer_t{state};
  hand_out(handle, "buffer", out);
  return state;
}

porta_native_memory native_of(const BufferState& b, const char* call) {
  porta_native_memory m{};
  m.struct_size = sizeof m;
  check_plugin(need(b.device->api->buffer_native, *b.device, call, "native buffer handles")(b.handle, &m),
               *b.device, "buffer_native");
  return m;
}

// The buffer's host address where the host addresses its memory lastingly, else null.
void* host_address(const BufferState& b) {
  if (!b.device->api->buffer_native) return nullptr;
  porta_native_memory m{};
  m.struct_size = sizeof m;
  if (b.device->api->buffer_native(b.handle, &m) != PORTA_SUCCESS) return nullptr;
  return m.host_pointer;
}

// ---- DLPack -----------------------------------------------------------------

struct DlType {
  porta_dtype dtype;
  uint8_t code, bits;
};
constexpr DlType kDlTypes[] = {
    {PORTA_DTYPE_FLOAT32, kDLFloat, 32}, {PORTA_DTYPE_FLOAT16, kDLFloat, 16},
    {PORTA_DTYPE_FLOAT64, kDLFloat, 64}, {PORTA_DTYPE_BFLOAT16, kDLBfloat, 16},
    {PORTA_DTYPE_INT8, kDLInt, 8},       {PORTA_DTYPE_INT16, kDLInt, 16},
    {PORTA_DTYPE_INT32, kDLInt, 32},     {PORTA_DTYPE_INT64, kDLInt, 64},
    {PORTA_DTYPE_UINT8, kDLUInt, 8},     {PORTA_DTYPE_UINT16, kDLUInt, 16},
    {PORTA_DTYPE_UINT32, kDLUInt, 32},   {PORTA_DTYPE_UINT64, kDLUInt, 64},
};

// A DLManagedTensor porta made, with the storage its pointers name.
struct ExportedTensor {
  DLManagedTensor managed{};
  int64_t shape[PORTA_TENSOR_MAX_RANK]{};
  int64_t strides[PORTA_TENSOR_MAX_RANK]{};
  std::shared_ptr<BufferState> buffer;  // alive until the consumer's deleter call
};

void delete_exported(DLManagedTensor* self) { delete static_cast<ExportedTensor*>(self->manager_ctx); }

}  // namespace

namespace porta::core {

std::shared_ptr<BufferState> import_memory(const DeviceRef& device, const porta_native_memory& memory,
                                           const char* call, std::function<void()> release) {
  const char* on = device->label.c_str();
  if (memory.kind < PORTA_NATIVE_MEMORY_HOST || memory.kind > PORTA_NATIVE_MEMORY_VK_BUFFER)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "%s on %s: memory kind %d is not one of HOST, CUDA_POINTER, CL_MEM, VK_BUFFER", call, on,
         static_cast<int>(memory.kind));
  const char* kind = kind_name(memory.kind);
  if (memory.bytes == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s on %s: %s memory of 0 bytes", call, on, kind);
  if (device->info.limits.max_buffer_bytes && memory.bytes > device->info.limits.max_buffer_bytes)
    fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: %llu bytes exceeds the device's largest buffer (%llu bytes)",
         call, on, static_cast<ull>(memory.bytes), static_cast<ull>(device->info.limits.max_buffer_bytes));
  bool handle_given = false;
  switch (memory.kind) {
    case PORTA_NATIVE_MEMORY_HOST:
      handle_given = memory.host_pointer != nullptr;
      if (handle_given && reinterpret_cast<uintptr_t>(memory.host_pointer) % PORTA_HOST_IMPORT_ALIGNMENT)
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "%s on %s: host pointer %p is not aligned to %u bytes (PORTA_HOST_IMPORT_ALIGNMENT); allocate "
             "with malloc, aligned_alloc or NumPy",
             call, on, memory.host_pointer, PORTA_HOST_IMPORT_ALIGNMENT);
      break;
    case PORTA_NATIVE_MEMORY_CUDA_POINTER:
      handle_given = memory.cuda_pointer != 0;
      break;
    case PORTA_NATIVE_MEMORY_CL_MEM:
      handle_given = memory.cl_mem != nullptr;
      break;
    case PORTA_NATIVE_MEMORY_VK_BUFFER:
      handle_given = memory.vk_buffer != 0 && memory.vk_memory != 0;
      break;
    default:
      break;
  }
  if (!handle_given)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s on %s: the %s memory's handle is null", call, on, kind);
  auto import = need(device->api->buffer_import, *device, call, "importing foreign memory");
  auto state = std::make_shared<BufferState>();
  state->device = device;
  state->size = memory.bytes;
  // The call's name for a message is built only for a failure: an operator imports on every call.
  const porta_status imported = import(device->handle, &memory, &state->handle);
  if (imported != PORTA_SUCCESS)
    check_plugin(imported, *device,
                 format("buffer_import (%s, %llu bytes)", kind, static_cast<ull>(memory.bytes)).c_str());
  state->on_release = std::move(release);
  return state;
}

std::shared_ptr<BufferState> allocate_with_hook(const DeviceRef& device, uint64_t size) {
  porta_allocator allocator;
  {
    std::lock_guard lock(device->allocator_mutex);
    allocator = device->allocator;
  }
  if (!allocator.allocate) return nullptr;
  porta_native_memory memory{};
  memory.struct_size = sizeof memory;
  porta_status status = allocator.allocate(allocator.user_data, size, &memory);
  if (status != PORTA_SUCCESS)
    fail(status, "porta_buffer_create on %s: the allocator hook refused %llu bytes (%s)",
         device->label.c_str(), static_cast<ull>(size), porta_status_name(status));
  auto give_back = [allocator, memory] { allocator.free(allocator.user_data, &memory); };
  if (memory.bytes < size) {
    give_back();
    fail(PORTA_ERROR_INTERNAL, "porta_buffer_create on %s: the allocator hook gave %llu bytes for %llu",
         device->label.c_str(), static_cast<ull>(memory.bytes), static_cast<ull>(size));
  }
  memory.bytes = size;
  memory.release = nullptr;
  try {
    return import_memory(device, memory, "porta_buffer_create (allocator hook)", give_back);
  } catch (...) {
    give_back();
    throw;
  }
}

}  // namespace porta::core

extern "C" {

// ---- foreign memory -------------------------------------------------------------

porta_status porta_buffer_import_host(porta_device device, void* ptr, size_t bytes, porta_buffer* buffer) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_buffer_import_host";
    check_handle(device, "device", call);
    check_not_lost(*device->state, call);
    if (!buffer) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: buffer is null", call);
    *buffer = nullptr;
    if (!ptr) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: ptr is null", call);
    porta_native_memory m{};
    m.struct_size = sizeof m;
    m.kind = PORTA_NATIVE_MEMORY_HOST;
    m.host_pointer = ptr;
    m.bytes = bytes;
    hand_out_buffer(import_memory(device->state, m, call, nullptr), buffer);
  });
}

porta_status porta_buffer_import_native(porta_device device, const porta_native_memory* memory,
                                        porta_buffer* buffer) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_buffer_import_native";
    check_handle(device, "device", call);
    check_not_lost(*device->state, call);
    if (!buffer) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: buffer is null", call);
    *buffer = nullptr;
    porta_native_memory m = read_struct(memory, call, "memory");
    std::function<void()> release;
    if (m.release) release = [fn = m.release, user = m.release_user_data] { fn(user); };
    hand_out_buffer(import_memory(device->state, m, call, std::move(release)), buffer);
  });
}

porta_status porta_buffer_host_pointer(porta_buffer buffer, void** ptr) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_buffer_host_pointer";
    check_handle(buffer, "buffer", call);
    if (!ptr) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: ptr is null", call);
    *ptr = nullptr;
    const BufferState& b = *buffer->state;
    porta_native_memory m = native_of(b, call);
    if (!m.host_pointer)
      fail(PORTA_ERROR_UNSUPPORTED,
           "%s on %s: the buffer's memory (%s) is not host-addressable; use porta_buffer_map", call,
           b.device->label.c_str(), kind_name(m.kind));
    *ptr = m.host_pointer;
  });
}

porta_status porta_buffer_native(porta_buffer buffer, porta_native_memory* memory) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_buffer_native";
    check_handle(buffer, "buffer", call);
    read_struct(memory, call, "memory");
    *memory = native_of(*buffer->state, call);
  });
}

porta_status porta_buffer_map(porta_buffer buffer, uint64_t offset, uint64_t bytes, void** ptr) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_buffer_map";
    check_handle(buffer, "buffer", call);
    check_not_lost(*buffer->state->device, call);
    if (!ptr) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: ptr is null", call);
    *ptr = nullptr;
    BufferState& b = *buffer->state;
    if (offset >= b.size)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s on %s: offset %llu is past the end of the buffer (%llu bytes)",
           call, b.device->label.c_str(), static_cast<ull>(offset), static_cast<ull>(b.size));
    if (bytes == 0) bytes = b.size - offset;
    if (bytes > b.size - offset)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "%s on %s: range [%llu, %llu) is past the end of the buffer (%llu bytes)", call,
           b.device->label.c_str(), static_cast<ull>(offset), static_cast<ull>(offset + bytes),
           static_cast<ull>(b.size));
    std::lock_guard lock(b.mappings_mutex);
    for (const auto& [p, m] : b.mappings)
      if (offset < m.offset + m.bytes && m.offset < offset + bytes)
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "%s on %s: range [%llu, %llu) overlaps the mapped range [%llu, %llu)", call,
             b.device->label.c_str(), static_cast<ull>(offset), static_cast<ull>(offset + bytes),
             static_cast<ull>(m.offset), static_cast<ull>(m.offset + m.bytes));
    Mapping mapping{offset, bytes, nullptr};
    void* address;
    if (auto* host = static_cast<unsigned char*>(host_address(b))) {
      address = host + offset;
    } else {
      // Not host-addressable: the range is read into host memory and written back at unmap.
      mapping.staging.reset(new unsigned char[bytes]);
      address = mapping.staging.get();
      if (porta_buffer_read(buffer, offset, address, bytes) != PORTA_SUCCESS)
        throw Failure(PORTA_ERROR_BACKEND, last_error_cause());
    }
    b.mappings.emplace(address, std::move(mapping));
    *ptr = address;
  });
}

porta_status porta_buffer_unmap(porta_buffer buffer, void* ptr) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_buffer_unmap";
    check_handle(buffer, "buffer", call);
    BufferState& b = *buffer->state;
    Mapping mapping;
    {
      std::lock_guard lock(b.mappings_mutex);
      auto it = b.mappings.find(ptr);
      if (it == b.mappings.end())
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "%s on %s: %p is not a pointer porta_buffer_map gave for this buffer", call,
             b.device->label.c_str(), ptr);
      mapping = std::move(it->second);
      b.mappings.erase(it);
    }
    if (mapping.staging &&
        porta_buffer_write(buffer, mapping.offset, mapping.staging.get(), mapping.bytes) != PORTA_SUCCESS)
      throw Failure(PORTA_ERROR_BACKEND, last_error_cause());
  });
}

porta_status porta_device_set_allocator(porta_device device, const porta_allocator* allocator) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_device_set_allocator";
    check_handle(device, "device", call);
    porta_allocator a{};
    if (allocator) {
      a = read_struct(allocator, call, "allocator");
      if (!a.allocate || !a.free)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: allocator->%s is null", call,
             a.allocate ? "free" : "allocate");
      need(device->state->api->buffer_import, *device->state, call, "importing foreign memory");
    }
    std::lock_guard lock(device->state->allocator_mutex);
    device->state->allocator = a;
  });
}

// ---- DLPack -----------------------------------------------------------------------

porta_status porta_tensor_export_dlpack(const porta_tensor* view, DLManagedTensor** tensor) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_tensor_export_dlpack";
    if (!tensor) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: tensor is null", call);
    *tensor = nullptr;
    if (!view) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: view is null", call);
    check_handle(view->buffer, "buffer", call, "view->buffer");
    const auto& b = view->buffer->state;
    const size_t elem = porta_dtype_size(view->dtype);
    const DlType* type = std::find_if(std::begin(kDlTypes), std::end(kDlTypes),
                                      [&](const DlType& t) { return t.dtype == view->dtype; });
    if (!elem || type == std::end(kDlTypes))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: view->dtype %d is not a porta_dtype", call, int(view->dtype));
    if (view->rank < 1 || view->rank > PORTA_TENSOR_MAX_RANK)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: view->rank is %u; expected 1 to %d", call, view->rank,
           PORTA_TENSOR_MAX_RANK);
    auto out = std::make_unique<ExportedTensor>();
    bool contiguous =
        std::all_of(view->strides, view->strides + view->rank, [](int64_t s) { return s == 0; });
    uint64_t last = view->offset;  // the last element the view reaches
    int64_t step = 1;
    for (int i = int(view->rank) - 1; i >= 0; --i) {
      if (view->shape[i] == 0 || view->shape[i] > uint64_t(INT64_MAX))
        fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: view->shape[%d] is %llu", call, i,
             static_cast<ull>(view->shape[i]));
      out->shape[i] = int64_t(view->shape[i]);
      out->strides[i] = contiguous ? step : view->strides[i];
      if (out->strides[i] < 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: view->strides[%d] is negative (%lld)", call, i,
             static_cast<long long>(out->strides[i]));
      step *= out->shape[i];
      last += uint64_t(out->strides[i]) * (view->shape[i] - 1);
    }
    if ((last + 1) * elem > b->size)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: the view reaches byte %llu of a buffer of %llu bytes", call,
           static_cast<ull>((last + 1) * elem), static_cast<ull>(b->size));
    porta_native_memory m = native_of(*b, call);
    DLTensor& t = out->managed.dl_tensor;
    if (m.host_pointer) {
      t.data = m.host_pointer;
      t.device = {kDLCPU, 0};
    } else if (m.kind == PORTA_NATIVE_MEMORY_CUDA_POINTER) {
      porta_native_device nd{};
      nd.struct_size = sizeof nd;
      check_plugin(need(b->device->api->device_native, *b->device, call, "native device handles")(
                       b->device->handle, &nd),
                   *b->device, "device_native");
      t.data = reinterpret_cast<void*>(static_cast<uintptr_t>(m.cuda_pointer));
      t.device = {kDLCUDA, nd.cuda_device};
    } else {
      fail(
          PORTA_ERROR_UNSUPPORTED,
          "%s on %s: DLPack needs host-addressable or CUDA memory; the buffer's memory is %s (copy it into a "
          "buffer of the cpu or CUDA backend)",
          call, b->device->label.c_str(), kind_name(m.kind));
    }
    t.ndim = int32_t(view->rank);
    t.dtype = {type->code, type->bits, 1};
    t.shape = out->shape;
    t.strides = out->strides;
    t.byte_offset = view->offset * elem;
    out->buffer = b;
    out->managed.manager_ctx = out.get();
    out->managed.deleter = delete_exported;
    *tensor = &out.release()->managed;
  });
}

porta_status porta_tensor_import_dlpack(porta_device device, DLManagedTensor* tensor, porta_tensor* view) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_tensor_import_dlpack";
    check_handle(device, "device", call);
    check_not_lost(*device->state, call);
    if (!view) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: view is null", call);
    *view = porta_tensor{};
    if (!tensor) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: tensor is null", call);
    const DLTensor& t = tensor->dl_tensor;
    const DeviceRef& dev = device->state;
    const char* on = dev->label.c_str();
    if (t.ndim < 0 || t.ndim > PORTA_TENSOR_MAX_RANK)
      fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: the tensor has %d dimensions; porta views have at most %d",
           call, on, t.ndim, PORTA_TENSOR_MAX_RANK);
    if (t.dtype.lanes != 1)
      fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: dtype lanes is %u; porta takes 1 (no vector types)", call, on,
           t.dtype.lanes);
    const DlType* type = std::find_if(std::begin(kDlTypes), std::end(kDlTypes), [&](const DlType& d) {
      return d.code == t.dtype.code && d.bits == t.dtype.bits;
    });
    if (type == std::end(kDlTypes))
      fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: dtype code %u with %u bits has no porta_dtype", call, on,
           t.dtype.code, t.dtype.bits);
    if (!t.data) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s on %s: the tensor's data is null", call, on);
    porta_tensor v{};
    const bool ours = tensor->deleter == delete_exported &&
                      static_cast<ExportedTensor*>(tensor->manager_ctx)->buffer->device == dev;
    const uint64_t elem = porta_dtype_size(type->dtype);
    v.dtype = type->dtype;
    v.rank = t.ndim == 0 ? 1 : uint32_t(t.ndim);  // a scalar is a view of one element
    v.shape[0] = 1;
    uint64_t extent = 1;  // elements from the first to one past the last the tensor reaches
    int64_t step = 1;
    bool contiguous = true;
    for (int i = t.ndim - 1; i >= 0; --i) {
      if (t.shape[i] <= 0)
        fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: shape[%d] is %lld; porta buffers are not empty", call, on, i,
             static_cast<long long>(t.shape[i]));
      int64_t stride = t.strides ? t.strides[i] : step;
      if (stride < 0)
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s on %s: strides[%d] is %lld; porta views need non-negative strides (copy the tensor first)",
             call, on, i, static_cast<long long>(stride));
      v.shape[i] = uint64_t(t.shape[i]);
      v.strides[i] = stride;
      contiguous = contiguous && (t.shape[i] == 1 || stride == step);
      extent += uint64_t(stride) * uint64_t(t.shape[i] - 1);
      step *= t.shape[i];
    }
    if (contiguous) std::fill(v.strides, v.strides + PORTA_TENSOR_MAX_RANK, 0);
    if (t.byte_offset % elem)
      fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: byte_offset %llu is not a whole number of %llu-byte elements",
           call, on, static_cast<ull>(t.byte_offset), static_cast<ull>(elem));
    porta_native_memory m{};
    m.struct_size = sizeof m;
    uintptr_t first = reinterpret_cast<uintptr_t>(t.data) + t.byte_offset;
    if (first % elem)
      fail(PORTA_ERROR_UNSUPPORTED,
           "%s on %s: the tensor's first element (%p) is not aligned to its %llu-byte type", call, on,
           reinterpret_cast<void*>(first), static_cast<ull>(elem));
    if (ours) {
      // porta's own export, back on its device: a view of the same buffer,
      // whose handle gives the tensor back to its deleter when it goes.
      auto* exported = static_cast<ExportedTensor*>(tensor->manager_ctx);
      struct Holder {
        std::shared_ptr<BufferState> buffer;
        DLManagedTensor* tensor;
        ~Holder() { tensor->deleter(tensor); }
      };
      std::shared_ptr<Holder> holder(new Holder{exported->buffer, tensor});
      v.offset = t.byte_offset / elem;
      porta_buffer handle = nullptr;
      hand_out_buffer(std::shared_ptr<BufferState>(holder, holder->buffer.get()), &handle);
      v.buffer = handle;
      *view = v;
      return;
    }
    switch (t.device.device_type) {
      case kDLCPU:
      case kDLCUDAHost: {
        // Host imports start at an aligned address: the view starts after it.
        uintptr_t base = first - first % PORTA_HOST_IMPORT_ALIGNMENT;
        v.offset = (first - base) / elem;
        m.kind = PORTA_NATIVE_MEMORY_HOST;
        m.host_pointer = reinterpret_cast<void*>(base);
        m.bytes = (first - base) + extent * elem;
        break;
      }
      case kDLCUDA: {
        auto native = need(dev->api->device_native, *dev, call, "CUDA memory (kDLCUDA)");
        porta_native_device nd{};
        nd.struct_size = sizeof nd;
        check_plugin(native(dev->handle, &nd), *dev, "device_native");
        if (!nd.cuda_context)
          fail(PORTA_ERROR_UNSUPPORTED, "%s on %s: the tensor is CUDA memory (kDLCUDA); open a CUDA device",
               call, on);
        if (nd.cuda_device != t.device.device_id)
          fail(PORTA_ERROR_INVALID_ARGUMENT,
               "%s on %s: the tensor is on CUDA device %d; this device is CUDA device %d", call, on,
               t.device.device_id, nd.cuda_device);
        m.kind = PORTA_NATIVE_MEMORY_CUDA_POINTER;
        m.cuda_pointer = first;
        m.bytes = extent * elem;
        break;
      }
      default:
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s on %s: DLPack device type %d; porta imports kDLCPU and kDLCUDA memory", call, on,
             int(t.device.device_type));
    }
    auto state = import_memory(dev, m, call, [tensor] {
      if (tensor->deleter) tensor->deleter(tensor);
    });
    porta_buffer handle = nullptr;
    hand_out_buffer(std::move(state), &handle);
    v.buffer = handle;
    *view = v;
  });
}

// ---- native devices and streams -----------------------------------------------------

porta_status porta_device_native(porta_device device, porta_native_device* native) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_device_native";
    check_handle(device, "device", call);
    read_struct(native, call, "native");
    DeviceState& d = *device->state;
    porta_native_device n{};
    n.struct_size = sizeof n;
    check_plugin(need(d.api->device_native, d, call, "native device handles")(d.handle, &n), d,
                 "device_native");
    n.struct_size = sizeof n;
    std::memcpy(n.api, d.info.backend, sizeof n.api);
    n.api[sizeof n.api - 1] = '\0';
    *native = n;
  });
}

porta_status porta_stream_wrap_native(porta_device device, void* native_stream, porta_stream* stream) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_stream_wrap_native";
    check_handle(device, "device", call);
    check_not_lost(*device->state, call);
    if (!stream) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: stream is null", call);
    *stream = nullptr;
    if (!native_stream) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: native_stream is null", call);
    auto s = std::make_unique<porta_stream_t>();
    s->device = device->state;
    DeviceState& d = *s->device;
    static std::atomic<uint64_t> streams_wrapped{0};
    s->serial = (uint64_t(1) << 63) | ++streams_wrapped;  // apart from porta_stream_create's serials
    check_plugin(need(d.api->stream_wrap_native, d, call, "wrapping native streams")(d.handle, native_stream,
                                                                                     &s->handle),
                 d, "stream_wrap_native");
    register_handle(s.get(), "stream");
    *stream = s.release();
  });
}

porta_status porta_stream_native(porta_stream stream, void** native_stream) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_stream_native";
    check_handle(stream, "stream", call);
    if (!native_stream) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: native_stream is null", call);
    *native_stream = nullptr;
    DeviceState& d = *stream->device;
    check_plugin(need(d.api->stream_native, d, call, "native stream handles")(stream->handle, native_stream),
                 d, "stream_native");
  });
}

static porta_status queue_native_event(porta_stream stream, void* event, bool wait, const char* call) {
  clear_last_error();
  return guard([&] {
    check_handle(stream, "stream", call);
    if (!event) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: native_event is null", call);
    if (stream->recording)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "%s: the stream is recording a sequence; native events are not recorded", call);
    DeviceState& d = *stream->device;
    auto entry = wait ? d.api->stream_wait_native_event : d.api->stream_signal_native_event;
    check_plugin(need(entry, d, call, "native events")(stream->handle, event), d,
                 wait ? "stream_wait_native_event" : "stream_signal_native_event");
    if (wait) stream->native_waits = true;  // porta_stream_destroy does not wait for that event
  });
}

porta_status porta_stream_wait_native_event(porta_stream stream, void* native_event) {
  return queue_native_event(stream, native_event, true, "porta_stream_wait_native_event");
}

porta_status porta_stream_signal_native_event(porta_stream stream, void* native_event) {
  return queue_native_event(stream, native_event, false, "porta_stream_signal_native_event");
}

}  // extern "C"
