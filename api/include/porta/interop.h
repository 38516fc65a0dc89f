/* porta interop: memory, streams, events and messages shared with a framework.
 *
 * A framework that already owns memory, a queue or a log meets porta here:
 * - buffers over foreign memory without a copy (a host pointer, a CUDA device
 *   pointer, a cl_mem, a VkBuffer with its VkDeviceMemory), and the native
 *   handles of porta's own buffers, devices and streams;
 * - DLPack (DLManagedTensor) export and import of tensor views;
 * - streams made from a framework's CUDA stream, OpenCL command queue or
 *   Vulkan queue, and waits on / signals of the framework's events (CUevent,
 *   cl_event, VkSemaphore), so porta's work runs in order with the framework's;
 * - map/unmap of a buffer range into host memory;
 * - allocator hooks: a framework's allocator supplies the memory of a
 *   device's buffers;
 * - a log sink and an error callback instead of stderr.
 *
 * Ownership of foreign memory: a buffer that wraps memory porta did not
 * allocate never frees it. When the last user of such a buffer is gone (its
 * handle destroyed and the work that used it finished), porta calls the
 * memory's `release` callback, if one was given, exactly once.
 *
 * What each backend can import is said at each kind; a kind a backend cannot
 * use in place is refused with PORTA_ERROR_UNSUPPORTED naming the backend, the
 * device and what it would need, never copied silently.
 *
 * Native handles (CUcontext, cl_command_queue, VkDevice, ...) are passed as
 * void* (dispatchable handles and pointers) or uint64_t (Vulkan's
 * non-dispatchable handles, CUdeviceptr), so this header needs no vendor
 * header. Handles porta hands out stay porta's: use them, do not release them.
 */
#ifndef PORTA_INTEROP_H
#define PORTA_INTEROP_H

#include "porta/dlpack.h"
#include "porta/porta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- foreign memory --------------------------------------------------------- */

typedef enum porta_native_memory_kind {
  PORTA_NATIVE_MEMORY_NONE = 0,
  /* Host memory at `host_pointer`. The cpu backend uses it in place; OpenCL
   * where the device shares the host's memory (CL_MEM_USE_HOST_PTR on a
   * CPU-type device); Vulkan with VK_EXT_external_memory_host; CUDA after
   * cuMemHostRegister (the device reads it over the bus). Alignment: the
   * pointer must be a multiple of PORTA_HOST_IMPORT_ALIGNMENT (what malloc
   * and NumPy give), and of any larger alignment the device needs: on Vulkan
   * the pointer is a multiple of minImportedHostPointerAlignment (usually the
   * page size: aligned_alloc(4096, ...), mmap), and the import covers the
   * whole blocks of that alignment the range touches (the size need not be a
   * multiple where the alignment is at most the page size, as the rest of the
   * last page is mapped; the device still uses only `bytes`). A device without
   * VK_EXT_external_memory_host, or a pointer off its alignment, is refused
   * with PORTA_ERROR_UNSUPPORTED naming the alignment needed. */
  PORTA_NATIVE_MEMORY_HOST = 1,
  /* A CUDA device pointer (CUdeviceptr in `cuda_pointer`) of the device's own
   * context: CUDA backend only. */
  PORTA_NATIVE_MEMORY_CUDA_POINTER = 2,
  /* An OpenCL buffer (`cl_mem`) of the device's own cl_context: OpenCL backend only. */
  PORTA_NATIVE_MEMORY_CL_MEM = 3,
  /* A VkBuffer bound to `vk_memory` at `vk_memory_offset`, made on the device's
   * own VkDevice (porta_device_native), with storage-buffer and transfer
   * usage: Vulkan backend only. */
  PORTA_NATIVE_MEMORY_VK_BUFFER = 4
} porta_native_memory_kind;

/* Host imports need at least this alignment (bytes) of the pointer. */
#define PORTA_HOST_IMPORT_ALIGNMENT 16u

/* Called once when porta stops using imported memory; `user_data` as given. */
typedef void (*porta_release_fn)(void* user_data);

/* Memory that is not porta's, or the memory behind a porta buffer
 * (porta_buffer_native). Set `struct_size` to sizeof(porta_native_memory);
 * fields that do not belong to `kind` are zero. */
typedef struct porta_native_memory {
  uint32_t struct_size;
  porta_native_memory_kind kind;
  uint64_t bytes;            /* size of the memory porta may use */
  void* host_pointer;        /* HOST; out: also set for any host-addressable buffer */
  uint64_t cuda_pointer;     /* CUDA_POINTER: a CUdeviceptr */
  void* cl_mem;              /* CL_MEM: a cl_mem */
  uint64_t vk_buffer;        /* VK_BUFFER: a VkBuffer */
  uint64_t vk_memory;        /* VK_BUFFER: the VkDeviceMemory bound to it */
  uint64_t vk_memory_offset; /* VK_BUFFER: where the buffer starts in vk_memory */
  /* import only: called once when porta no longer uses the memory; may be NULL. */
  porta_release_fn release;
  void* release_user_data;
} porta_native_memory;

/* A buffer over `bytes` of host memory at `ptr`, used in place (no copy); the
 * memory stays the caller's and must outlive the buffer and its work. */
PORTA_API porta_status porta_buffer_import_host(porta_device device, void* ptr, size_t bytes,
                                                porta_buffer* buffer);
/* A buffer over `memory` (any porta_native_memory_kind), used in place. */
PORTA_API porta_status porta_buffer_import_native(porta_device device, const porta_native_memory* memory,
                                                  porta_buffer* buffer);
/* The host address of the buffer's first byte where the host can address its
 * memory directly and lastingly (cpu backend, imported host memory);
 * PORTA_ERROR_UNSUPPORTED otherwise (use porta_buffer_map). */
PORTA_API porta_status porta_buffer_host_pointer(porta_buffer buffer, void** ptr);
/* The native memory behind a buffer: kind, handle fields, bytes (and
 * host_pointer where the memory is host-addressable). Set memory->struct_size first. */
PORTA_API porta_status porta_buffer_native(porta_buffer buffer, porta_native_memory* memory);

/* Maps `bytes` at `offset` of the buffer into host memory (`bytes` 0: to the
 * end) after the buffer's queued work that porta knows of (porta_buffer_read's
 * rule: the device's streams are not synced, sync them first). Host-addressable
 * buffers map in place; others are read into host memory that unmap writes
 * back. A range may be mapped once at a time; unmap with the pointer map gave. */
PORTA_API porta_status porta_buffer_map(porta_buffer buffer, uint64_t offset, uint64_t bytes, void** ptr);
PORTA_API porta_status porta_buffer_unmap(porta_buffer buffer, void* ptr);

/* ---- allocator hooks ---------------------------------------------------------- */

/* A framework's allocator for a device's buffers: porta_buffer_create on the
 * device calls `allocate`, which fills `memory` (any kind the device imports,
 * porta_buffer_import_native's rules, `release` ignored) or returns a
 * non-success status to refuse; `free` gets the same description back when
 * the buffer is gone. Both may be called from any thread. */
typedef struct porta_allocator {
  uint32_t struct_size; /* sizeof(porta_allocator) */
  porta_status (*allocate)(void* user_data, uint64_t bytes, porta_native_memory* memory);
  void (*free)(void* user_data, const porta_native_memory* memory);
  void* user_data;
} porta_allocator;

/* Installs `allocator` for the device's later buffers (NULL: porta's own
 * allocation again). Buffers made before keep their memory. */
PORTA_API porta_status porta_device_set_allocator(porta_device device, const porta_allocator* allocator);

/* ---- DLPack --------------------------------------------------------------------- */

/* A DLManagedTensor of `view` (its buffer, dtype, shape, strides, offset):
 * kDLCPU where the buffer is host-addressable (porta_buffer_host_pointer),
 * kDLCUDA (device id: the CUDA ordinal) on the CUDA backend; other memory is
 * refused with PORTA_ERROR_UNSUPPORTED. The buffer stays alive until the
 * consumer calls the tensor's deleter (exactly once). */
PORTA_API porta_status porta_tensor_export_dlpack(const porta_tensor* view, DLManagedTensor** tensor);
/* A view of a DLManagedTensor's memory without a copy: *view gets a new
 * buffer (destroy it with porta_buffer_destroy) and the tensor's dtype, shape,
 * strides and offset. kDLCPU memory goes through porta_buffer_import_host's
 * rules, kDLCUDA memory needs the CUDA backend on that ordinal. On success
 * porta owns `tensor` and calls its deleter when the buffer is gone; on
 * failure the caller still owns it. Refused: rank above
 * PORTA_TENSOR_MAX_RANK, negative strides, byte offsets that are not whole
 * elements, lanes != 1, dtypes porta lacks. */
PORTA_API porta_status porta_tensor_import_dlpack(porta_device device, DLManagedTensor* tensor,
                                                  porta_tensor* view);

/* ---- native devices and streams -------------------------------------------------- */

/* The device's native handles; fields of other APIs are zero. `api` is the
 * device's backend name ("cuda", "opencl", "vulkan", "cpu"). */
typedef struct porta_native_device {
  uint32_t struct_size; /* sizeof(porta_native_device) */
  char api[32];
  int32_t cuda_device;      /* CUdevice */
  void* cuda_context;       /* CUcontext (the primary context) */
  void* cl_platform;        /* cl_platform_id */
  void* cl_device;          /* cl_device_id */
  void* cl_context;         /* cl_context (each porta stream has its own queue: porta_stream_native) */
  void* vk_instance;        /* VkInstance */
  void* vk_physical_device; /* VkPhysicalDevice */
  void* vk_device;          /* VkDevice */
  void* vk_queue;           /* VkQueue porta submits to, of vk_queue_family */
  uint32_t vk_queue_family;
} porta_native_device;

PORTA_API porta_status porta_device_native(porta_device device, porta_native_device* native);

/* A porta stream over a framework's queue: a CUstream (CUDA), a
 * cl_command_queue of the device's cl_context (OpenCL) or porta's VkQueue
 * (Vulkan: porta_native_device's vk_queue, the one queue of porta's VkDevice,
 * which a framework sharing the VkDevice submits to as well; Vulkan orders
 * work across submissions only through semaphores, below). porta queues its
 * work on it and syncs it; destroying the porta stream does not destroy the
 * queue. CUDA's legacy default stream (a handle of 0, as PyTorch reports its
 * default stream) is CU_STREAM_LEGACY, (void*)1. The queue must be of porta's
 * context: the primary CUDA context (which PyTorch and CuPy use), porta's
 * cl_context, porta's VkDevice. A VkQueue is externally synchronised: the
 * framework must not call vkQueueSubmit on it while porta does (porta submits
 * from the calls made on its streams: sync, reads, signals). */
PORTA_API porta_status porta_stream_wrap_native(porta_device device, void* native_stream,
                                                porta_stream* stream);
/* The stream's native queue: CUstream, cl_command_queue or VkQueue;
 * PORTA_ERROR_UNSUPPORTED elsewhere. */
PORTA_API porta_status porta_stream_native(porta_stream stream, void** native_stream);

/* A framework's Vulkan event: a VkSemaphore of porta's VkDevice and, for a
 * timeline semaphore, the value to wait for or to signal (a binary semaphore:
 * value 0). Pass its address as `native_event` on a Vulkan stream. A binary
 * semaphore's wait is consumed by the stream's next submission (its next
 * work, or a signal); a timeline value to signal must be above the
 * semaphore's current and pending values (Vulkan's rule). */
typedef struct porta_vk_semaphore {
  uint32_t struct_size; /* sizeof(porta_vk_semaphore) */
  uint64_t semaphore;   /* VkSemaphore */
  uint64_t value;       /* timeline value; 0: a binary semaphore */
} porta_vk_semaphore;

/* Later work on the stream waits for a framework's event: a CUevent (CUDA),
 * a cl_event of the device's context (OpenCL), a porta_vk_semaphore* (Vulkan:
 * the stream's work queued so far is submitted first, without the wait).
 *
 * Such an event may come late or never, so porta_stream_destroy does not
 * wait for work held back by one that has not come (until a sync of the
 * stream shows that every event it waited for has come), on every backend:
 * - the destroy returns at once; the work runs when the event comes;
 * - the buffers and kernels it uses stay until it has run, even if their
 *   handles are destroyed meanwhile (imported memory's `release` callback,
 *   an allocator's `free` and a DLPack deleter wait with them); porta notices
 *   finished work, without waiting, on later calls on the device's streams
 *   (create, destroy, sync) and when the device is closed;
 * - reads into host memory that only a sync would complete are dropped
 *   (those staged through porta's memory: Vulkan's, small reads on OpenCL
 *   and CUDA); where the device writes host memory directly (other reads on
 *   OpenCL and CUDA, imported host memory) it does so when the work runs, so
 *   keep such memory valid until then, or sync before destroying;
 * - closing the device with such work still pending: porta satisfies from
 *   the host what it can (Vulkan: a timeline semaphore of porta's VkDevice
 *   is signalled to the value waited for, logged as a warning; a binary
 *   semaphore, an OpenCL user event and a CUevent are the framework's to
 *   signal), then waits at most the device's dispatch limit (porta/robust.h)
 *   or else 10 s. Work still pending then is reported (the error callback and
 *   the log, PORTA_ERROR_TIMEOUT, naming what it waits for and what is left)
 *   and the device stays open with it, its streams, buffers and kernels,
 *   until the process ends: porta never destroys a device under work that
 *   may still run, and never hangs in a close. */
PORTA_API porta_status porta_stream_wait_native_event(porta_stream stream, void* native_event);
/* Signals a framework's event when the stream's work so far is done: records
 * a CUevent (CUDA); completes an OpenCL user event (clCreateUserEvent);
 * signals a porta_vk_semaphore* (Vulkan: the stream's queued work is
 * submitted now, the semaphore signalled after it). */
PORTA_API porta_status porta_stream_signal_native_event(porta_stream stream, void* native_event);

/* ---- messages -------------------------------------------------------------------- */

/* porta's log messages (at PORTA_LOG's level) go to `sink` instead of stderr
 * (NULL: stderr again). Called from any thread, one message at a time. */
typedef void (*porta_log_sink)(porta_log_level level, const char* message, void* user_data);
PORTA_API void porta_set_log_sink(porta_log_sink sink, void* user_data);

/* `callback` receives every failure porta records, with its status and
 * message, on the thread where it happened: those of calls that return a
 * status (also in porta_last_error) and those of calls that cannot (destroy
 * and close calls, release callbacks, work that fails after its call
 * returned). NULL: none. */
typedef void (*porta_error_callback)(porta_status status, const char* message, void* user_data);
PORTA_API void porta_set_error_callback(porta_error_callback callback, void* user_data);

#ifdef __cplusplus
}
#endif

#endif /* PORTA_INTEROP_H */
