/* porta C API.
 *
 * Opaque handles, porta_noun_verb names, explicit lengths. Every function that
 * can fail returns a porta_status; the message of the last failure on the
 * calling thread is porta_last_error(). Ownership: every handle made by a
 * *_create / *_open / *_record call is released by the matching *_destroy /
 * *_close call exactly once; a handle keeps what it depends on alive, so the
 * order of destruction is free.
 *
 * Null, destroyed and foreign handles: *_destroy / *_close of NULL does
 * nothing. *_destroy / *_close of a handle that is not live (destroyed
 * already, or not made by porta, or of another kind) does nothing either but
 * leave PORTA_ERROR_INVALID_HANDLE, naming the call, in porta_last_error().
 * Every other call given such a handle returns PORTA_ERROR_INVALID_HANDLE (a
 * call that returns no status returns 0 and sets porta_last_error()). This is
 * a diagnostic, not a licence: the address of a destroyed handle may be
 * reused by a later handle of the same kind, which a stale copy then names.
 *
 * Threading: the library is thread-safe. A device and its buffers and kernels
 * may be used from several threads at once; a stream belongs to one thread at
 * a time.
 *
 * Names: porta_<noun>_<verb>. <noun> is what the call acts on; where that is a
 * handle it is the first parameter (porta_stream_dispatch(stream, ...)). A call
 * that makes an object is named after what it makes and hands the new handle
 * back through its last parameter (porta_buffer_create(device, ..., &buffer),
 * porta_event_record(stream, &event)). A property is porta_<noun>_<property>
 * (porta_buffer_size, porta_device_count, porta_kernel_workgroup_size);
 * porta_<noun>_get[_<what>] copies out a description or a related handle
 * (porta_backend_get, porta_device_get_info). An open device's description is
 * porta_device_query_info, because porta_device_get_info already names the
 * device list's. Old names that broke these rules stay as deprecated aliases
 * (PORTA_DEPRECATED) that behave exactly as before.
 *
 * Growing the ABI: entry points keep their signatures. An entry point added
 * from now on that takes more than a few scalars takes a descriptor struct
 * whose first member is `uint32_t struct_size`, which the caller sets to sizeof
 * the struct as it was compiled (zero-initialise the rest). Fields are only
 * ever appended: fields a later version adds after the caller's struct_size
 * read as zero, and fields of a caller's struct this version does not know
 * must be zero. Structs that libporta fills (porta_device_info) also only grow
 * at the end.
 *
 * Version: porta/version.h (PORTA_VERSION_MAJOR, _MINOR, _PATCH) is the header's
 * version; porta_version() is the library's.
 */
#ifndef PORTA_H
#define PORTA_H

#include <stddef.h>
#include <stdint.h>

#include "porta/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define PORTA_API __declspec(dllimport)
#else
#define PORTA_API __attribute__((visibility("default")))
#endif

/* Marks an old name kept for compatibility; define PORTA_NO_DEPRECATION_WARNINGS
 * to use such names without a compiler warning. */
#if defined(PORTA_NO_DEPRECATION_WARNINGS) || !(defined(__GNUC__) || defined(__clang__))
#define PORTA_DEPRECATED(replacement)
#else
#define PORTA_DEPRECATED(replacement) __attribute__((deprecated("use " replacement)))
#endif

typedef enum porta_status {
  PORTA_SUCCESS = 0,
  PORTA_ERROR_INVALID_ARGUMENT = 1, /* a wrong size, count, range or value */
  PORTA_ERROR_INVALID_HANDLE = 2,   /* null, destroyed, or of another device */
  PORTA_ERROR_NOT_FOUND = 3,        /* unknown backend or device */
  PORTA_ERROR_UNAVAILABLE = 4,      /* backend present but not usable (no runtime/device) */
  PORTA_ERROR_UNSUPPORTED = 5,      /* a feature or limit the device lacks */
  PORTA_ERROR_INVALID_KERNEL = 6,   /* invalid SPIR-V, GLSL that does not compile, bad interface */
  PORTA_ERROR_COMPILE = 7,          /* a backend compiler rejected translated code */
  PORTA_ERROR_OUT_OF_MEMORY = 8,
  PORTA_ERROR_DEVICE_LOST = 9,
  PORTA_ERROR_BACKEND = 10, /* any other driver or runtime failure */
  PORTA_ERROR_INTERNAL = 11,
  PORTA_ERROR_TIMEOUT = 12,      /* a dispatch ran past its time limit and was stopped; the device is usable
                                   (porta/robust.h; where a kernel cannot be stopped: PORTA_ERROR_DEVICE_LOST) */
  PORTA_ERROR_OUT_OF_BOUNDS = 13 /* a kernel accessed a buffer out of bounds, on a device that reports it
                                    (porta/robust.h's PORTA_ROBUST_REPORT); the device is usable */
} porta_status;

typedef enum porta_log_level {
  PORTA_LOG_ERROR = 0,
  PORTA_LOG_WARN = 1,
  PORTA_LOG_INFO = 2,
  PORTA_LOG_DEBUG = 3
} porta_log_level;

typedef enum porta_device_type {
  PORTA_DEVICE_DISCRETE_GPU = 0,
  PORTA_DEVICE_INTEGRATED_GPU = 1,
  PORTA_DEVICE_VIRTUAL_GPU = 2,
  PORTA_DEVICE_CPU = 3, /* a driver that runs on the CPU (lavapipe, PoCL) */
  PORTA_DEVICE_OTHER = 4
} porta_device_type;

/* Access of a kernel's buffer parameter. */
typedef enum porta_access {
  PORTA_ACCESS_READ = 1,
  PORTA_ACCESS_WRITE = 2,
  PORTA_ACCESS_READ_WRITE = 3
} porta_access;

/* Device features (bit flags): PORTA_FEATURE_* and their names come from one table. */
#include "porta/features.h"

#define PORTA_NAME_CAPACITY 256

typedef struct porta_device_limits {
  uint32_t max_workgroup_size[3];
  uint32_t max_workgroup_invocations;
  uint32_t max_workgroup_count[3];
  uint32_t max_shared_memory_bytes;
  uint32_t max_push_constant_bytes;
  uint32_t subgroup_size;        /* 0 if unknown */
  uint64_t max_buffer_bytes;     /* largest single buffer */
  uint64_t max_allocation_bytes; /* largest single allocation */
} porta_device_limits;

/* A memory heap of the device (Vulkan reports its own; other backends one). */
#define PORTA_MAX_MEMORY_HEAPS 16
typedef enum porta_memory_heap_flag {
  PORTA_MEMORY_HEAP_DEVICE_LOCAL = 1u << 0, /* the device's own memory (or the host's, for CPU devices) */
  PORTA_MEMORY_HEAP_HOST_VISIBLE = 1u << 1  /* the host can map it */
} porta_memory_heap_flag;

typedef struct porta_memory_heap {
  uint64_t bytes;
  uint32_t flags; /* porta_memory_heap_flag bits */
  uint32_t reserved;
} porta_memory_heap;

/* How events are timed. */
typedef enum porta_timer_kind {
  PORTA_TIMER_DEVICE = 0, /* device timestamps */
  PORTA_TIMER_HOST = 1    /* the host's clock around work that runs on the host */
} porta_timer_kind;

/* Properties of a device (bit flags in porta_device_info.flags). */
typedef enum porta_device_flag {
  PORTA_DEVICE_FLAG_UNIFIED_MEMORY = 1u << 0,       /* buffers are host memory */
  PORTA_DEVICE_FLAG_PRECOMPILED_DEFAULTS = 1u << 1, /* built-in kernels at their default specialization
                                                       constants are compiled in: no compiler at run time */
  PORTA_DEVICE_FLAG_REFERENCE = 1u << 2,            /* the reference implementation (checked against a
                                                       float64 oracle) others are compared with */
  PORTA_DEVICE_FLAG_FIBER_BARRIERS = 1u << 3,       /* a barrier switches work-items one by one (fibers,
                                                       coroutines): one-item groups without barriers are faster */
  PORTA_DEVICE_FLAG_LOOP_LIMIT = 1u << 4,  /* the driver ends every loop of a work-item once its loops
                                              have made PORTA_LOOP_LIMIT_ITERATIONS iterations in all,
                                              silently (Mesa's llvmpipe): launchers keep below it */
  PORTA_DEVICE_FLAG_SMOD_AS_SREM = 1u << 5 /* the driver computes SPIR-V OpSMod as OpSRem (Mesa's
                                              llvmpipe); the plugin rewrites OpSMod, so kernels are exact */
} porta_device_flag;

/* Loop iterations a work-item may make, all loops together, on a device with
 * PORTA_DEVICE_FLAG_LOOP_LIMIT (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS). */
#define PORTA_LOOP_LIMIT_ITERATIONS 65535u

/* A tile of a blocked matrix kernel. All zero: no preference (the op's default). */
typedef struct porta_tile_shape {
  uint32_t group_x, group_y; /* work-items per group */
  uint32_t depth;            /* reduction slice per step (BK) */
  uint32_t item_m, item_n;   /* output elements per item (TM, TN) */
  uint32_t prefetch;         /* 0 none, 1 registers, 2 registers and two shared stages */
  uint32_t wide_loads;       /* 0 the op's choice (16-byte loads where aligned), 1 4-byte loads only */
} porta_tile_shape;

/* What the backend's own measurements prefer; zero fields mean "no preference". */
typedef struct porta_device_tuning {
  porta_tile_shape tile_large; /* GPU outputs with >= 1024 rows and columns (below tile_huge) */
  porta_tile_shape tile_huge;  /* GPU outputs with >= 2048 rows and columns */
} porta_device_tuning;

typedef struct porta_device_info {
  char backend[32];
  char name[PORTA_NAME_CAPACITY];
  char vendor[PORTA_NAME_CAPACITY];
  char driver[PORTA_NAME_CAPACITY]; /* driver name and version */
  char api_version[64];             /* e.g. "Vulkan 1.3.239", "OpenCL 3.0" */
  porta_device_type type;
  uint32_t index;        /* index within its backend */
  uint64_t memory_bytes; /* device memory (host memory for CPU devices) */
  porta_device_limits limits;
  uint64_t features; /* porta_feature flags */
  uint32_t memory_heap_count;
  porta_memory_heap memory_heaps[PORTA_MAX_MEMORY_HEAPS];
  uint32_t flags; /* porta_device_flag bits */
  porta_timer_kind timer;
  uint32_t priority; /* order among devices of one type, lower first (the vendor's own API first) */
  porta_device_tuning tuning;
  /* Buffer ranges a dispatch binds (porta_stream_dispatch_bindings): one
   * parameter binds at most max_binding_bytes, at an offset that is a multiple
   * of binding_offset_alignment. Ops split larger operands into such ranges.
   * PORTA_MAX_BINDING_BYTES (a testing knob) lowers max_binding_bytes. */
  uint64_t max_binding_bytes;
  uint64_t binding_offset_alignment;
  /* The PCI address "dddd:bb:dd.f" (hexadecimal domain:bus:device.function) where the device is on
   * PCI and its API says so; "" otherwise. It names one device across APIs (NVML, nvidia-smi). */
  char pci_bus_id[16];
} porta_device_info;

typedef struct porta_device_t* porta_device;
typedef struct porta_buffer_t* porta_buffer;
typedef struct porta_kernel_t* porta_kernel;
typedef struct porta_stream_t* porta_stream;
typedef struct porta_event_t* porta_event;
typedef struct porta_sequence_t* porta_sequence;

/* The message of the last failed call on this thread ("" if none). Valid until
 * the next porta call on this thread. */
PORTA_API const char* porta_last_error(void);
PORTA_API const char* porta_status_name(porta_status status);
PORTA_API const char* porta_version(void);

/* ---- backends and devices ---- */

/* Backends whose plugins were found, loaded or not. */
PORTA_API uint32_t porta_backend_count(void);
/* name and state of backend `index`; `reason` says why an unavailable backend
 * is unavailable. Strings live as long as the process. */
PORTA_API porta_status porta_backend_get(uint32_t index, const char** name, int* available,
                                         const char** reason);
/* All devices of all available backends, in the default preference order;
 * porta_device_get_info describes device `index` of that list. */
PORTA_API uint32_t porta_device_count(void);
PORTA_API porta_status porta_device_get_info(uint32_t index, porta_device_info* info);

/* Open a device. `selector` NULL or "" uses PORTA_BACKEND / PORTA_DEVICE, else
 * the best device. Otherwise "backend", "backend:index", "backend:name
 * substring", or a comma-separated ordered list of those. */
PORTA_API porta_status porta_device_open(const char* selector, porta_device* device);
PORTA_API void porta_device_close(porta_device device);
/* Describes an open device. */
PORTA_API porta_status porta_device_query_info(porta_device device, porta_device_info* info);
/* Deprecated: the old name of porta_device_query_info. */
PORTA_API PORTA_DEPRECATED("porta_device_query_info") porta_status
    porta_device_info_get(porta_device device, porta_device_info* info);
/* Non-zero when `a` and `b` are handles of one opened device (each porta_device_open
 * opens a device of its own, even for the same backend and index). */
PORTA_API int porta_device_equal(porta_device a, porta_device b);

/* ---- buffers ---- */

PORTA_API porta_status porta_buffer_create(porta_device device, uint64_t size, porta_buffer* buffer);
PORTA_API void porta_buffer_destroy(porta_buffer buffer);
PORTA_API uint64_t porta_buffer_size(porta_buffer buffer);
/* The device the buffer belongs to, as a new handle: close it with porta_device_close. */
PORTA_API porta_status porta_buffer_get_device(porta_buffer buffer, porta_device* device);
/* PORTA_SUCCESS when `buffer` is a buffer of `device` (one opened device, as porta_device_equal
 * says), with porta_buffer_size in `*size` (`size` may be NULL); else PORTA_ERROR_INVALID_HANDLE:
 * a handle that is not live, or a buffer of another device. The check an op makes of each
 * operand on every call, in one call that makes no handle. */
PORTA_API porta_status porta_buffer_check_device(porta_buffer buffer, porta_device device, uint64_t* size);
/* Synchronous upload / download through the device's own stream: returns when
 * the bytes have arrived. */
PORTA_API porta_status porta_buffer_write(porta_buffer buffer, uint64_t offset, const void* src,
                                          uint64_t size);
PORTA_API porta_status porta_buffer_read(porta_buffer buffer, uint64_t offset, void* dst, uint64_t size);

/* ---- kernels ---- */

/* A specialization constant's value, for constants of 32 bits or fewer: bool (0 false, anything
 * else true), int, uint, float, and the 8- and 16-bit types in the low bits (the bits above zero
 * or, for a negative signed value, its sign extension). */
typedef struct porta_spec_constant {
  uint32_t id;
  uint32_t bits; /* 32-bit pattern: use porta_spec_float/porta_spec_int helpers or memcpy */
} porta_spec_constant;

/* A specialization constant's value of any width (porta_kernel_descriptor.specs64): the only way
 * to give a 64-bit constant (int64_t, uint64_t, double) its value; narrower constants take their
 * bits as porta_spec_constant does. A value that does not fit the constant's declared type is an
 * error that names the constant and its type. */
typedef struct porta_spec_constant64 {
  uint32_t id;
  uint32_t reserved; /* 0 */
  uint64_t bits;
} porta_spec_constant64;

/* GLSL compute source (`size` bytes) → kernel. `name` labels errors (may be NULL).
 * A source of more than 1 GiB is refused as a wrong length (PORTA_ERROR_INVALID_ARGUMENT);
 * an empty one as PORTA_ERROR_INVALID_KERNEL. */
PORTA_API porta_status porta_kernel_create_glsl(porta_device device, const char* source, size_t size,
                                                const char* name, const porta_spec_constant* specs,
                                                uint32_t spec_count, porta_kernel* kernel);
PORTA_API porta_status porta_kernel_create_spirv(porta_device device, const uint32_t* words,
                                                 size_t word_count, const char* name,
                                                 const porta_spec_constant* specs, uint32_t spec_count,
                                                 porta_kernel* kernel);

/* What a kernel is made from (porta_kernel_descriptor.source_kind). */
typedef enum porta_kernel_source_kind {
  PORTA_KERNEL_SOURCE_GLSL = 0, /* GLSL compute text */
  PORTA_KERNEL_SOURCE_SPIRV = 1 /* a SPIR-V module */
} porta_kernel_source_kind;

/* porta_kernel_descriptor.flags */
typedef enum porta_kernel_flag {
  /* Reuse the kernel this device already built from the same source kind, source, name and
   * specialization constants (in any order), if any; otherwise build it and keep it for later
   * calls. With a reuse_key, the same key and specialization constants name the kernel instead
   * of its source. The device keeps such kernels until it closes; each call still returns a
   * handle of its own to destroy. One build per device however often an op asks for its kernel. */
  PORTA_KERNEL_FLAG_REUSE = 1u << 0,
  /* The kernel's float32 cooperative-matrix multiply-adds may round A and B to TF32 (10-bit
   * mantissa) where the device runs them on matrix hardware (CUDA: mma.sync m16n8k8 .tf32,
   * porta_feature COOPERATIVE_MATRIX_TF32_HW); without it they keep float32 products. No
   * other arithmetic changes; devices without such hardware ignore it. */
  PORTA_KERNEL_FLAG_ALLOW_TF32 = 1u << 1
} porta_kernel_flag;

/* Everything porta_kernel_create needs. `struct_size` is sizeof(porta_kernel_descriptor) as
 * the caller was compiled, so the struct can grow: fields a later version adds after the
 * caller's struct_size read as zero, and a caller's fields this version does not know must
 * be zero. */
typedef struct porta_kernel_descriptor {
  uint32_t struct_size;
  porta_kernel_source_kind source_kind;
  const void* source; /* GLSL text (need not end in NUL) or SPIR-V words */
  size_t source_size; /* bytes: of the text, or of the module (4 per word) */
  const char* name;   /* labels errors; NULL or "" is "kernel" */
  const porta_spec_constant* specs;
  uint32_t spec_count;
  uint32_t flags; /* porta_kernel_flag bits */
  /* The caller's name for this source (NULL or "": none), only with PORTA_KERNEL_FLAG_REUSE.
   * The device's kernel with the same key and specialization constants is reused without
   * reading the source: the source and name matter only when the device first builds the key,
   * so one key must always name one source. porta's ops use keys beginning "porta.". */
  const char* reuse_key;
  /* Specialization constants of any width, 64-bit ones included, beside `specs` (an id may be
   * given once in the two lists together). */
  const porta_spec_constant64* specs64;
  uint32_t spec64_count;
} porta_kernel_descriptor;

/* A kernel as `descriptor` says: porta_kernel_create_glsl and porta_kernel_create_spirv in
 * one entry point, with flags. */
PORTA_API porta_status porta_kernel_create(porta_device device, const porta_kernel_descriptor* descriptor,
                                           porta_kernel* kernel);
PORTA_API void porta_kernel_destroy(porta_kernel kernel);
/* Interface of a kernel: buffer parameters (every storage and uniform block,
 * an array of N blocks counting N, blocks sharing a binding counting one),
 * push-constant bytes, work-group size. */
PORTA_API uint32_t porta_kernel_buffer_count(porta_kernel kernel);
PORTA_API uint32_t porta_kernel_push_constant_size(porta_kernel kernel);
PORTA_API void porta_kernel_workgroup_size(porta_kernel kernel, uint32_t size[3]);

/* ---- streams (in-order queues) ---- */

PORTA_API porta_status porta_stream_create(porta_device device, porta_stream* stream);
/* The device the stream belongs to, as a new handle: close it with porta_device_close. */
PORTA_API porta_status porta_stream_get_device(porta_stream stream, porta_device* device);
/* Waits for the stream's work, then releases it. Work that waits for a
 * framework's event (porta_stream_wait_native_event, porta/interop.h) that
 * has not come is not waited for: porta/interop.h says what happens to it. */
PORTA_API void porta_stream_destroy(porta_stream stream);
PORTA_API porta_status porta_stream_write(porta_stream stream, porta_buffer dst, uint64_t offset,
                                          const void* src, uint64_t size);
PORTA_API porta_status porta_stream_read(porta_stream stream, porta_buffer src, uint64_t offset, void* dst,
                                         uint64_t size);
PORTA_API porta_status porta_stream_copy(porta_stream stream, porta_buffer src, uint64_t src_offset,
                                         porta_buffer dst, uint64_t dst_offset, uint64_t size);
PORTA_API porta_status porta_stream_fill(porta_stream stream, porta_buffer dst, uint64_t offset,
                                         uint64_t size, uint32_t pattern);
/* buffers in the kernel's parameter order: (set, binding, array element); none
 * (buffers may be NULL) for a kernel without buffers. Each buffer must hold
 * its block's fixed part (the members before a runtime array) and be at most
 * the device's max_binding_bytes (larger ones: porta_stream_dispatch_bindings).
 * push_size must equal porta_kernel_push_constant_size. */
PORTA_API porta_status porta_stream_dispatch(porta_stream stream, porta_kernel kernel,
                                             const uint32_t groups[3], const porta_buffer* buffers,
                                             uint32_t buffer_count, const void* push, uint32_t push_size);
/* A range of a buffer bound to one buffer parameter: the kernel sees the range
 * as the whole buffer (index 0 at `offset`; `.length()` counts `size` bytes).
 * The offset is a multiple of porta_device_info.binding_offset_alignment and
 * the size at most max_binding_bytes. */
typedef struct porta_binding {
  porta_buffer buffer;
  uint64_t offset; /* bytes from the buffer's start */
  uint64_t size;   /* bytes; 0: to the end of the buffer */
} porta_binding;
/* porta_stream_dispatch with buffer ranges: bindings in the kernel's parameter order. */
PORTA_API porta_status porta_stream_dispatch_bindings(porta_stream stream, porta_kernel kernel,
                                                      const uint32_t groups[3], const porta_binding* bindings,
                                                      uint32_t binding_count, const void* push,
                                                      uint32_t push_size);
PORTA_API porta_status porta_stream_sync(porta_stream stream);

/* Recorded sequences: between begin and end the stream's operations are
 * recorded; replay runs them again (in the stream's order) as often as wanted. */
PORTA_API porta_status porta_stream_begin_record(porta_stream stream);
PORTA_API porta_status porta_stream_end_record(porta_stream stream, porta_sequence* sequence);
PORTA_API porta_status porta_stream_replay(porta_stream stream, porta_sequence sequence);
PORTA_API void porta_sequence_destroy(porta_sequence sequence);

/* ---- events ---- */

PORTA_API porta_status porta_event_record(porta_stream stream, porta_event* event);
/* Milliseconds between two events of one stream; syncs nothing: sync the stream first.
 * Events of two streams are refused (PORTA_ERROR_INVALID_ARGUMENT): their clocks need not agree. */
PORTA_API porta_status porta_event_elapsed_ms(porta_event start, porta_event end, double* ms);
PORTA_API void porta_event_destroy(porta_event event);
/* The stream's work queued after this call starts once the work queued before
 * `event` has finished, and sees its writes; the host does not wait (on a
 * backend that cannot wait on the device the call waits on the host instead,
 * with the same result). `event` is from porta_event_record on any stream of
 * the same device; it may be destroyed right after the call. Work queued on
 * the stream before the call does not wait, and porta_stream_sync also waits
 * for the event. The usual hand-over between two streams: stream A writes a
 * buffer and records an event, stream B waits for it, then reads the buffer.
 * Errors: a null or destroyed stream or event (PORTA_ERROR_INVALID_HANDLE,
 * naming the argument), an event of another device (PORTA_ERROR_INVALID_HANDLE,
 * naming both devices), a stream recording a sequence
 * (PORTA_ERROR_INVALID_ARGUMENT). */
PORTA_API porta_status porta_stream_wait_event(porta_stream stream, porta_event event);

/* ==== ops: built-in kernels over typed tensor views ====================== */
/* Each op checks its operands (dtypes, shapes, strides, buffer ranges,
 * aliasing), picks work-group sizes and tile sizes for the stream's device and
 * queues its kernels on the stream through porta_stream_dispatch, so ops are
 * asynchronous like any dispatch and are recorded into sequences too. The
 * kernels are written once in GLSL (kernels/NAME/ in the source tree) and built
 * for a device the first time an op needs them (PORTA_KERNEL_FLAG_REUSE). Each
 * op is written against this API alone, as a framework's own op would be. A
 * failure queues nothing. */

/* Element types of tensor views. Which ones an op accepts is said at the op;
 * bfloat16 is the upper half of an IEEE float32 (1 sign, 8 exponent, 7
 * mantissa bits). Values are ABI: new types are appended. */
typedef enum porta_dtype {
  PORTA_DTYPE_FLOAT32 = 0,
  PORTA_DTYPE_FLOAT16 = 1,
  PORTA_DTYPE_INT32 = 2,
  PORTA_DTYPE_BFLOAT16 = 3,
  PORTA_DTYPE_INT8 = 4,
  PORTA_DTYPE_UINT8 = 5,
  PORTA_DTYPE_INT16 = 6,
  PORTA_DTYPE_UINT16 = 7,
  PORTA_DTYPE_UINT32 = 8,
  PORTA_DTYPE_INT64 = 9,
  PORTA_DTYPE_UINT64 = 10,
  PORTA_DTYPE_FLOAT64 = 11
} porta_dtype;

/* Bytes of one element of `dtype`; 0 for a value that is not a porta_dtype. */
static inline size_t porta_dtype_size(porta_dtype dtype) {
  switch (dtype) {
    case PORTA_DTYPE_INT8:
    case PORTA_DTYPE_UINT8:
      return 1;
    case PORTA_DTYPE_FLOAT16:
    case PORTA_DTYPE_BFLOAT16:
    case PORTA_DTYPE_INT16:
    case PORTA_DTYPE_UINT16:
      return 2;
    case PORTA_DTYPE_FLOAT32:
    case PORTA_DTYPE_INT32:
    case PORTA_DTYPE_UINT32:
      return 4;
    case PORTA_DTYPE_INT64:
    case PORTA_DTYPE_UINT64:
    case PORTA_DTYPE_FLOAT64:
      return 8;
  }
  return 0;
}

#define PORTA_TENSOR_MAX_RANK 4

/* A view of a buffer as an array: element (i0, i1, ...) lives at element
 * offset + i0*strides[0] + i1*strides[1] + ... of the buffer. Offsets and
 * strides count elements, not bytes. All strides 0 means contiguous row-major
 * (the last index moves fastest). Sizes and offsets are 64-bit: the ops that
 * can be split into pieces (fill, scale, mul, sigmoid, add of same-shape
 * contiguous operands, and X and y of the logistic-regression step and
 * gradient) take views of any size their buffer holds; elsewhere (matmul,
 * gemm, dense, broadcasting add, and the small operands of the step) a view
 * reaches at most element 2^31 - 1 of its buffer, and strides stay below
 * 2^31, since kernels index with 32-bit integers: beyond, the op refuses with
 * PORTA_ERROR_UNSUPPORTED naming the limit. */
typedef struct porta_tensor {
  porta_buffer buffer;
  porta_dtype dtype;
  uint32_t rank; /* 1 .. PORTA_TENSOR_MAX_RANK */
  uint64_t shape[PORTA_TENSOR_MAX_RANK];
  int64_t strides[PORTA_TENSOR_MAX_RANK];
  uint64_t offset;
} porta_tensor;

/* out[...] = value. */
PORTA_API porta_status porta_ops_fill(porta_stream stream, const porta_tensor* out, float value);
/* out = alpha * x, elementwise; out may be x itself. */
PORTA_API porta_status porta_ops_scale(porta_stream stream, const porta_tensor* x, float alpha,
                                       const porta_tensor* out);
/* out = a * b, elementwise, same shapes, contiguous; out may be a or b itself
 * but must not partly overlap either. Correctly rounded (one multiply). */
PORTA_API porta_status porta_ops_mul(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                                     const porta_tensor* out);
/* out = a + b, elementwise with NumPy's broadcasting: out is contiguous and
 * has the broadcast shape; a and b are views (strides >= 0) whose dimensions,
 * aligned from the last, equal out's or are 1 (a bias row over a matrix's
 * rows, a column over its columns, a scalar). out may be a or b itself but
 * must not partly overlap either. Correctly rounded (one add). */
PORTA_API porta_status porta_ops_add(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                                     const porta_tensor* out);
/* out = 1 / (1 + exp(-x)), finite for every input: -inf -> 0, +inf -> 1, NaN -> NaN. */
PORTA_API porta_status porta_ops_sigmoid(porta_stream stream, const porta_tensor* x, const porta_tensor* out);
/* C = alpha * op(A) * op(B) + beta * C with op(X) = X, or X transposed when
 * trans_x is non-zero. Rank-2 views with unit column stride (row stride >= the
 * row length); C must not overlap A or B. beta == 0 does not read C. */
PORTA_API porta_status porta_ops_matmul(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                                        const porta_tensor* c, float alpha, float beta, int trans_a,
                                        int trans_b);

/* ---- GEMM: C = act(alpha * op(A) * op(B) + beta * C + bias), batched ---- */

/* How the products of a GEMM may be computed. Sums are float32 in every mode. */
typedef enum porta_gemm_compute {
  PORTA_GEMM_COMPUTE_DEFAULT = 0, /* float32 products and sums */
  /* Allows TF32 products (10-bit mantissa inputs, float32 sums) for float32
   * A and B where the device has a TF32 path. A device without one computes
   * in float32, which is at least as accurate; 16-bit inputs are unaffected. */
  PORTA_GEMM_COMPUTE_ALLOW_TF32 = 1
} porta_gemm_compute;

/* The function applied to each element of C last. */
typedef enum porta_gemm_activation {
  PORTA_GEMM_ACTIVATION_NONE = 0,
  PORTA_GEMM_ACTIVATION_RELU = 1,     /* max(x, 0); NaN stays NaN */
  PORTA_GEMM_ACTIVATION_SIGMOID = 2,  /* 1 / (1 + exp(-x)) */
  PORTA_GEMM_ACTIVATION_GELU_TANH = 3 /* x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
} porta_gemm_activation;

/* A GEMM: C = act(alpha * op(A) * op(B) + beta * C + bias) with op(X) = X, or
 * X transposed when trans_x is non-zero.
 * - C: float32, rank 2 (M x N) or rank 3 (a strided batch of `batch` M x N
 *   matrices, any batch stride that keeps them apart).
 * - A and B: both float32, both float16 or both bfloat16; rank 2 (one matrix
 *   for the whole batch) or rank 3 with C's batch size. Products are summed
 *   in float32 (16-bit inputs convert to float32 exactly); C is float32.
 *   16-bit elements are read as halves of 32-bit words (no 16-bit storage
 *   needed on the device), so a 16-bit operand's buffer must hold the whole
 *   word of the last element its view reaches (buffer sizes that are
 *   multiples of 4 bytes always do).
 * - The last two dimensions of every matrix have unit column stride and a
 *   row stride >= the row length (leading dimensions); offsets and strides
 *   count elements. C must not overlap A, B or the bias.
 * - bias: NULL, or float32 rank 1 of N elements with unit stride, added to
 *   every row of C (after beta * C, before the activation).
 * beta == 0 does not read C. Where the device has no faster path the result
 * is the one float32 computation on every device (porta_ops_matmul is this
 * call without batch, bias or activation). */
typedef struct porta_gemm_desc {
  uint32_t struct_size; /* sizeof(porta_gemm_desc): later fields may be added */
  const porta_tensor* a;
  const porta_tensor* b;
  const porta_tensor* c;
  float alpha;
  float beta;
  int trans_a;
  int trans_b;
  porta_gemm_compute compute;
  const porta_tensor* bias;
  porta_gemm_activation activation;
} porta_gemm_desc;

PORTA_API porta_status porta_ops_gemm(porta_stream stream, const porta_gemm_desc* desc);

/* A dense (fully connected) layer as one fused GEMM: y = act(x W^T + b), in
 * PyTorch's nn.Linear layout. x: float32, batch x in (rank 2) or in (rank 1,
 * one sample); w: float32, out x in; b: NULL or float32 rank 1 of out
 * elements; y: float32, batch x out (rank 2) or out (rank 1), as x. The
 * rules of porta_ops_gemm for its A (x), B (w), C (y) and bias (b) apply:
 * unit column strides, y apart from the others. The result is
 * porta_ops_gemm's with alpha 1, beta 0 and trans_b 1. */
PORTA_API porta_status porta_ops_dense(porta_stream stream, const porta_tensor* x, const porta_tensor* w,
                                       const porta_tensor* b, porta_gemm_activation activation,
                                       const porta_tensor* y);

/* Bytes of workspace porta_ops_logreg_step needs for an m x d problem on
 * `device` (per-work-group partial sums), for X of any dtype. */
PORTA_API porta_status porta_ops_logreg_workspace_size(porta_device device, uint64_t m, uint64_t d,
                                                       uint64_t* bytes);
/* One gradient step of logistic regression on X (m x d, unit column stride), y (m), w (d), b (1):
 *   z = X w + b, yhat = sigmoid(z), dw = X^T (yhat - y) / m, db = mean(yhat - y),
 *   loss = mean binary cross-entropy of yhat (log-sigmoid form, finite),
 *   w -= lr * dw, b -= lr * db.
 * `loss` (1 element) receives the loss of the weights before the step. lr must
 * be finite; m and d at least 1. `workspace` (rank 1, at least
 * porta_ops_logreg_workspace_size bytes) may be NULL, then the step allocates
 * its own. w, b, loss and workspace must not overlap X, y or each other. Two
 * kernels, no host round trip: record a loop of steps and replay it.
 * X may be FLOAT32, FLOAT16 or BFLOAT16 (mixed precision: X is read in its
 * own type, everything else is float32 and so are the sums); the element
 * offset and row stride of 16-bit X must be even, and its buffer must end on
 * a 4-byte boundary past X's last element. All other operands are FLOAT32. */
PORTA_API porta_status porta_ops_logreg_step(porta_stream stream, const porta_tensor* x,
                                             const porta_tensor* y, const porta_tensor* w,
                                             const porta_tensor* b, float lr, const porta_tensor* loss,
                                             const porta_tensor* workspace);
/* porta_ops_logreg_step on quantised features: X is INT8 and feature (i, j)
 * is X_ij * x_scale[j], x_scale a FLOAT32 vector of d elements (symmetric
 * quantisation per column, porta/quantize.hpp). The element offset and row
 * stride of X must be multiples of 4, and its buffer must end on a 4-byte
 * boundary past X's last element. x_scale may be NULL only for X of a
 * floating dtype (then this is porta_ops_logreg_step); the outputs must not
 * overlap it. */
PORTA_API porta_status porta_ops_logreg_step_scaled(porta_stream stream, const porta_tensor* x,
                                                    const porta_tensor* x_scale, const porta_tensor* y,
                                                    const porta_tensor* w, const porta_tensor* b, float lr,
                                                    const porta_tensor* loss, const porta_tensor* workspace);
/* The sums of one logistic-regression step without the step: ADDS to `sums`
 * (FLOAT32, d + 2 contiguous elements) sum_i X_i r_i (d values), sum_i r_i and
 * the sum of the rows' losses, r_i = sigmoid(X_i w + b) - y_i. Zero `sums`
 * first for one batch; several calls add up (rows in pieces, chunks of data
 * streamed through, devices of a data-parallel job). X, x_scale, y, w, b as
 * for porta_ops_logreg_step_scaled (w and b are only read); `sums` and the
 * workspace must not overlap them. */
PORTA_API porta_status porta_ops_logreg_gradient(porta_stream stream, const porta_tensor* x,
                                                 const porta_tensor* x_scale, const porta_tensor* y,
                                                 const porta_tensor* w, const porta_tensor* b,
                                                 const porta_tensor* sums, const porta_tensor* workspace);
/* ==== end of ops ========================================================= */

#ifdef __cplusplus
}
#endif

#endif /* PORTA_H */
