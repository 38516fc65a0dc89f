/* porta backend-plugin ABI.
 *
 * A backend is a shared object `libporta-<name>.so` that exports one C symbol,
 * `porta_plugin_entry`, returning a table of function pointers. libporta
 * refuses a table whose `abi_version` differs from PORTA_PLUGIN_ABI_VERSION.
 *
 * Rules every plugin follows:
 * - Only C types cross this boundary. Handles are opaque to the core.
 * - Every call that can fail returns a porta_status. On failure the plugin
 *   reports the cause once through host->set_error() (backend, device, call and
 *   the driver's own message) before returning; the core adds nothing but
 *   context.
 * - The core validates arguments before calling: device indexes below
 *   device_count(), sizes > 0 and ranges in bounds, fill offsets and sizes
 *   multiples of 4, group counts within the limits, buffer counts and
 *   push-constant sizes equal to the kernel's, every bound range inside its
 *   buffer, aligned and within the device's binding limit and at least as large
 *   as its block's fixed part, work-group size, shared memory,
 *   push constants and features within the device's info, and the recording
 *   state of a stream. A plugin trusts these and only reports what its runtime
 *   says.
 * - Stream operations are asynchronous and execute in submission order. Host
 *   pointers given to write/read must stay valid until the stream is synced.
 * - The core serialises nothing: a device and its buffers and kernels may be
 *   used from several threads at once; one stream is used by one thread at a time.
 * - Objects are destroyed before the device that made them, and every device
 *   before shutdown().
 */
#ifndef PORTA_PLUGIN_H
#define PORTA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "porta/interop.h"
#include "porta/porta.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PORTA_PLUGIN_ABI_VERSION 14u
#define PORTA_PLUGIN_ENTRY_SYMBOL "porta_plugin_entry"

/* What source a plugin wants for a kernel. The core translates SPIR-V into it. */
typedef enum porta_kernel_language {
  PORTA_LANGUAGE_SPIRV = 0,    /* the SPIR-V words themselves (Vulkan) */
  PORTA_LANGUAGE_OPENCL_C = 1, /* OpenCL C 1.2 */
  PORTA_LANGUAGE_CUDA = 2,     /* CUDA C++ for NVRTC */
  PORTA_LANGUAGE_CPP = 3       /* C++ for the CPU backend */
} porta_kernel_language;

/* Opaque plugin objects. */
typedef struct porta_plugin_device_t* porta_plugin_device;
typedef struct porta_plugin_buffer_t* porta_plugin_buffer;
typedef struct porta_plugin_kernel_t* porta_plugin_kernel;
typedef struct porta_plugin_stream_t* porta_plugin_stream;
typedef struct porta_plugin_event_t* porta_plugin_event;
typedef struct porta_plugin_sequence_t* porta_plugin_sequence;

/* Services libporta offers to plugins. Valid from init() until the process exits. */
typedef struct porta_host_api {
  /* Record the error of the current call on this thread. `message` is copied. */
  void (*set_error)(porta_status status, const char* message);
  /* Log through porta's logger (PORTA_LOG). `message` is copied. */
  void (*log)(porta_log_level level, const char* message);
  /* Kernel cache. Keys are short printable strings (hex hashes); the core keys
   * the directory and handles atomic writes. Both fail softly when the cache is
   * off (PORTA_CACHE=0) or unwritable.
   * cache_load: returns 1 and a malloc'ed copy in *data (free with free()), or 0. */
  int (*cache_load)(const char* key, void** data, size_t* size);
  /* cache_store: writes atomically; returns 1 on success, 0 otherwise. */
  int (*cache_store)(const char* key, const void* data, size_t size);
  /* cache_path: the absolute path the entry `key` has (or would have); writes
   * a NUL-terminated path into `path` (capacity `capacity`) and returns 1, or 0
   * when the cache is off. For artefacts that must be files (shared objects). */
  int (*cache_path)(const char* key, char* path, size_t capacity);
  /* The version string of porta itself, for cache keys. */
  const char* porta_version;
} porta_host_api;

/* The kind of descriptor a buffer parameter is. */
typedef enum porta_buffer_kind {
  PORTA_BUFFER_KIND_STORAGE = 0, /* a `buffer` block (std430 or as decorated) */
  PORTA_BUFFER_KIND_UNIFORM = 1  /* a `uniform` block: read-only, std140 */
} porta_buffer_kind;

/* One buffer parameter of a kernel. Parameters are every storage and uniform
 * block of the kernel, at any descriptor set, ordered by (set, binding,
 * array_index): an array of N blocks (`buffer B { } b[3];`) is N consecutive
 * parameters with array_index 0..N-1; blocks declared at one (set, binding)
 * are views of one parameter (one entry). A kernel may have none. */
typedef struct porta_kernel_buffer_desc {
  uint32_t set;
  uint32_t binding;
  uint32_t array_index; /* element of an array of blocks, else 0 */
  uint32_t kind;        /* porta_buffer_kind */
  uint32_t access;      /* porta_access flags (all views together; uniform: read) */
} porta_kernel_buffer_desc;

typedef struct porta_kernel_spec_value {
  uint32_t id;
  uint32_t bits; /* the value's low 32 bits (bool: 0/1; 8- and 16-bit types in the low bits, zero above) */
  uint32_t high_bits; /* the high 32 bits of a 64-bit constant, else 0 */
  uint32_t size;      /* bytes of the constant's type as Vulkan specialization data takes it:
                         1, 2, 4 or 8 (bool: 4, a VkBool32) */
} porta_kernel_spec_value;

/* Everything a plugin needs to build a kernel; the core has already validated
 * the SPIR-V, reflected it and translated it to the plugin's language. */
typedef struct porta_kernel_desc {
  const uint32_t* spirv; /* validated, optimised SPIR-V (spec constants unapplied) */
  size_t spirv_words;
  const char* source; /* translated source for the plugin's language (NUL-terminated),
                         spec constants already fixed; NULL for PORTA_LANGUAGE_SPIRV */
  size_t source_size;
  const char* entry_point; /* name of the entry point in `spirv` and `source` */
  const char* name;        /* the kernel's name for messages */
  uint32_t buffer_count;   /* buffer parameters, in parameter order; may be 0 */
  const porta_kernel_buffer_desc* buffers;
  uint32_t push_constant_size; /* bytes, 0 if none */
  uint32_t spec_count;         /* values for every spec constant (defaults filled in) */
  const porta_kernel_spec_value* specs;
  uint32_t workgroup_size[3];   /* resolved with the spec constants */
  uint32_t shared_memory_bytes; /* workgroup-shared memory the kernel declares */
  uint64_t required_features;   /* porta_feature flags */
  /* (ABI 14) the bytes of one work-item's own variables (Function and
   * Private storage, spec constants applied), summed over its functions: an
   * upper bound of what an item holds at once. A backend that runs a
   * work-group's items on one host thread's stack checks it. */
  uint64_t private_memory_bytes;
  const char* cache_key;        /* hex hash of SPIR-V, translated source, language,
                                   specs, porta version; the plugin adds driver/device identity */
} porta_kernel_desc;

/* A range of a buffer bound to one buffer parameter of a dispatch. */
typedef struct porta_plugin_binding {
  porta_plugin_buffer buffer;
  uint64_t offset; /* bytes from the buffer's start */
  uint64_t size;   /* bytes, > 0 */
} porta_plugin_binding;

/* Options for device_open_options (ABI 8). */
typedef struct porta_plugin_device_options {
  /* Non-zero: out-of-bounds buffer accesses must be defined (reads 0, writes
   * dropped). Vulkan enables robustBufferAccess (and robustBufferAccess2 of
   * VK_EXT_robustness2 where present) on the VkDevice; translated languages
   * get bounds-checked source from the core and need nothing more. */
  uint32_t robust;
  /* Per-dispatch limit in milliseconds; 0: none. A dispatch past it ends in
   * PORTA_ERROR_TIMEOUT where the plugin stopped it and the device is usable,
   * else PORTA_ERROR_DEVICE_LOST (and the device stays lost); the message
   * names the kernel. */
  uint64_t timeout_ms;
} porta_plugin_device_options;

typedef struct porta_plugin_api {
  uint32_t abi_version; /* PORTA_PLUGIN_ABI_VERSION */
  const char* name;     /* "cpu", "vulkan", "opencl", "cuda" */
  porta_kernel_language language;

  /* Load the runtime and enumerate devices. A non-success status means the
   * backend is unavailable; the reason given through set_error is shown by
   * porta-info. Called once. */
  porta_status (*init)(const porta_host_api* host);
  void (*shutdown)(void);

  uint32_t (*device_count)(void);
  porta_status (*device_info)(uint32_t index, porta_device_info* info);
  porta_status (*device_open)(uint32_t index, porta_plugin_device* device);
  void (*device_close)(porta_plugin_device device);

  /* Buffers: `size` > 0 bytes, device memory. */
  porta_status (*buffer_create)(porta_plugin_device device, uint64_t size, porta_plugin_buffer* buffer);
  void (*buffer_destroy)(porta_plugin_buffer buffer);

  porta_status (*kernel_create)(porta_plugin_device device, const porta_kernel_desc* desc,
                                porta_plugin_kernel* kernel);
  void (*kernel_destroy)(porta_plugin_kernel kernel);

  porta_status (*stream_create)(porta_plugin_device device, porta_plugin_stream* stream);
  /* After the core synced it, or (ABI 11) once an event recorded after its
   * work has passed: work left there needs no copy into host memory. */
  void (*stream_destroy)(porta_plugin_stream stream);

  /* Stream operations: queued in order; all sizes > 0 and in range. */
  porta_status (*stream_write)(porta_plugin_stream stream, porta_plugin_buffer dst, uint64_t offset,
                               const void* src, uint64_t size);
  porta_status (*stream_read)(porta_plugin_stream stream, porta_plugin_buffer src, uint64_t offset, void* dst,
                              uint64_t size);
  porta_status (*stream_copy)(porta_plugin_stream stream, porta_plugin_buffer src, uint64_t src_offset,
                              porta_plugin_buffer dst, uint64_t dst_offset, uint64_t size);
  /* Fill with a repeated 32-bit pattern; offset and size are multiples of 4. */
  porta_status (*stream_fill)(porta_plugin_stream stream, porta_plugin_buffer dst, uint64_t offset,
                              uint64_t size, uint32_t pattern);
  /* Dispatch `groups` work-groups; `bindings` in the kernel's parameter order
   * (none for a kernel without buffers: binding_count 0, bindings may be NULL).
   * A binding is a range of a buffer that the kernel sees as the whole buffer
   * (index 0 at `offset`, `.length()` from `size`); the core checks that the
   * range is inside the buffer, its offset a multiple of the device's
   * binding_offset_alignment and its size within max_binding_bytes;
   * `push` holds exactly the kernel's push_constant_size bytes (NULL if 0).
   * Every binding holds at least its block's fixed part (the core checks).
   * Translated kernels (every language but SPIR-V) also take each binding's
   * size in bytes, for `.length()`: how each language receives them is
   * translator/README.md's "Buffer parameters". */
  porta_status (*stream_dispatch)(porta_plugin_stream stream, porta_plugin_kernel kernel,
                                  const uint32_t groups[3], const porta_plugin_binding* bindings,
                                  uint32_t binding_count, const void* push, uint32_t push_size);
  /* Block until all work queued on the stream has finished; report its errors. */
  porta_status (*stream_sync)(porta_plugin_stream stream);

  /* Events: a point in the stream; elapsed time between two recorded events
   * after both have completed. */
  porta_status (*event_record)(porta_plugin_stream stream, porta_plugin_event* event);
  porta_status (*event_elapsed_ms)(porta_plugin_event start, porta_plugin_event end, double* ms);
  void (*event_destroy)(porta_plugin_event event);

  /* Recorded sequences (optional: NULL entries mean the core records and
   * replays the calls itself). Between begin and end, stream operations are
   * recorded, not executed. Write/read host pointers recorded in a sequence
   * are used again at every replay. */
  porta_status (*stream_begin_record)(porta_plugin_stream stream);
  porta_status (*stream_end_record)(porta_plugin_stream stream, porta_plugin_sequence* sequence);
  porta_status (*stream_replay)(porta_plugin_stream stream, porta_plugin_sequence sequence);
  void (*sequence_destroy)(porta_plugin_sequence sequence);

  /* ---- interop (ABI 7; porta/interop.h). Optional: a NULL entry makes the
   * core refuse the call with PORTA_ERROR_UNSUPPORTED naming the backend. ---- */
  /* A buffer over foreign memory, used in place; `memory->bytes` > 0, the kind
   * not NONE, alignment of HOST memory to PORTA_HOST_IMPORT_ALIGNMENT checked
   * by the core. The plugin never frees the memory (the core calls `release`). */
  porta_status (*buffer_import)(porta_plugin_device device, const porta_native_memory* memory,
                                porta_plugin_buffer* buffer);
  /* The memory behind a buffer (kind, handles, bytes; host_pointer where the
   * host addresses it lastingly). */
  porta_status (*buffer_native)(porta_plugin_buffer buffer, porta_native_memory* memory);
  /* The device's native handles; the core fills struct_size and api. */
  porta_status (*device_native)(porta_plugin_device device, porta_native_device* native);
  /* A stream over a native queue (CUstream, cl_command_queue) the plugin must
   * not destroy; stream_destroy releases only porta's own parts. */
  porta_status (*stream_wrap_native)(porta_plugin_device device, void* native_stream,
                                     porta_plugin_stream* stream);
  porta_status (*stream_native)(porta_plugin_stream stream, void** native_stream);
  porta_status (*stream_wait_native_event)(porta_plugin_stream stream, void* native_event);
  porta_status (*stream_signal_native_event)(porta_plugin_stream stream, void* native_event);

  /* ---- appended in ABI 8: robustness and the watchdog (porta/robust.h) ---- */
  /* device_open with options; NULL where a plugin takes none (the core then
   * opens with device_open and refuses robust or a timeout, saying why). */
  porta_status (*device_open_options)(uint32_t index, const porta_plugin_device_options* options,
                                      porta_plugin_device* device);

  /* ---- appended in ABI 9: finished work without waiting ---- */
  /* Whether the work queued before `event` (event_record) has finished:
   * *done 1 or 0, never blocking. The core releases the buffers (and the
   * framework memory) of finished work on streams that are not synced, such
   * as a framework's stream a custom operator queues on. NULL: a stream's
   * objects stay until it syncs. */
  porta_status (*event_query)(porta_plugin_event event, int* done);

  /* ---- appended in ABI 10: one stream waits for another's event ---- */
  /* The stream's work queued after this call starts once the work queued
   * before `event` (event_record on another stream of the same device, or on
   * this one) has finished, its writes visible; the host does not wait. The
   * event may be destroyed right after the call: the wait stays. The core
   * checks the devices and never calls this while the stream records. NULL:
   * the core waits for the event on the host (event_query) before it returns. */
  porta_status (*stream_wait_event)(porta_plugin_stream stream, porta_plugin_event event);

  /* ---- appended in ABI 11: work a destroyed stream left waiting ---- */
  /* The device is being closed while the work of a stream its owner
   * destroyed still waits for a framework's event (stream_wait_native_event)
   * that has not come (porta_stream_destroy does not wait for such work; the
   * core keeps the stream until an event recorded after it has passed, then
   * calls stream_destroy). Satisfy from the host what the backend can, so
   * that the work can finish (Vulkan: a timeline semaphore, signalled to the
   * value waited for), and return PORTA_SUCCESS; or fail with a message that
   * names what the work still waits for and why porta cannot satisfy it (the
   * core then waits a bounded time and leaves the device open, saying so).
   * NULL: the backend can satisfy nothing. */
  porta_status (*stream_release_native_waits)(porta_plugin_stream stream);

  /* ---- appended in ABI 13: events that are never timed ---- */
  /* event_record for the core's own marks (event_query, never
   * event_elapsed_ms, which may refuse it): a backend whose timed events
   * cost the stream something (OpenCL: a profiling queue) makes these
   * without. NULL: the core uses event_record. */
  porta_status (*event_mark)(porta_plugin_stream stream, porta_plugin_event* event);
} porta_plugin_api;

typedef const porta_plugin_api* (*porta_plugin_entry_fn)(void);

#if defined(_WIN32)
#define PORTA_PLUGIN_EXPORT __declspec(dllexport)
#else
#define PORTA_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif

#endif /* PORTA_PLUGIN_H */
