/* porta robustness: defined out-of-bounds accesses and a per-dispatch watchdog.
 *
 * Out of bounds: a kernel that reads or writes past a buffer it was given
 * must never take the host down. porta follows Vulkan's robustBufferAccess
 * (as robustness2 defines it): a read out of bounds gives 0, a write is
 * dropped, an atomic returns 0 and changes nothing.
 *   - The CPU backend does so always (translated kernels check each access);
 *     PORTA_CPU_BOUNDS=off compiles unchecked kernels, for speed.
 *   - The others do so on a robust device: porta_device_options.robust, or
 *     PORTA_ROBUST=1. Vulkan enables robustBufferAccess (and
 *     robustBufferAccess2 of VK_EXT_robustness2 where the driver has it);
 *     OpenCL and CUDA run bounds-checked translations, the CPU backend's.
 *     Vulkan's robustBufferAccess alone lets a read out of bounds return any
 *     value of the buffer instead of 0; robustness2 gives 0.
 *   - Reporting, to find the bug: PORTA_ROBUST_REPORT, or PORTA_ROBUST=report.
 *     Accesses stay defined as on a robust device, and the first one out of
 *     bounds in each dispatch is recorded (a small buffer the translated
 *     kernel writes with an atomic); porta_stream_sync fails with
 *     PORTA_ERROR_OUT_OF_BOUNDS naming the kernel, the buffer (parameter,
 *     name, set, binding), the index and byte offset, the binding's size and
 *     how many accesses failed. The stream and device work on. Every backend
 *     reports: cpu, OpenCL and CUDA through bounds-checked translations, Vulkan
 *     through the kernel's SPIR-V instrumented with the same checks (a kernel
 *     with cooperative matrices runs their per-invocation lowering there).
 *     Each reporting dispatch costs a record buffer and each sync a read of
 *     them, and every checked access a branch: a mode for finding bugs, not
 *     for speed.
 *
 * Watchdog: a dispatch that runs longer than its device's limit
 * (porta_device_options.timeout_seconds, or PORTA_TIMEOUT=SECONDS) ends in an
 * error naming the kernel:
 *   - PORTA_ERROR_TIMEOUT where porta stopped the kernel and the device is
 *     usable (the CPU backend: translated loops poll a cancel flag);
 *   - PORTA_ERROR_DEVICE_LOST where a kernel cannot be stopped (a GPU's,
 *     PoCL's, lavapipe's): the device is lost, every later call on it fails
 *     with PORTA_ERROR_DEVICE_LOST saying why, and its objects are not handed
 *     back to the driver (which may still run the kernel). Open it again,
 *     or another device.
 * Sync calls (porta_stream_sync, porta_buffer_read/write) are where the limit
 * is seen, counted from when the sync starts waiting.
 */
#ifndef PORTA_ROBUST_H
#define PORTA_ROBUST_H

#include "porta/porta.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum porta_robust_mode {
  PORTA_ROBUST_DEFAULT = 0, /* PORTA_ROBUST's value (unset: off) */
  PORTA_ROBUST_OFF = 1,
  PORTA_ROBUST_ON = 2,
  PORTA_ROBUST_REPORT = 3 /* PORTA_ROBUST=report: on, and the first access out of bounds is an error */
} porta_robust_mode;

typedef struct porta_device_options {
  uint32_t robust; /* porta_robust_mode */
  /* The per-dispatch limit in seconds; 0: PORTA_TIMEOUT's value (unset: none);
   * negative: none, whatever PORTA_TIMEOUT says. */
  double timeout_seconds;
} porta_device_options;

/* porta_device_open with options (NULL: the defaults, as porta_device_open).
 * A backend that cannot honour an option is refused with
 * PORTA_ERROR_UNSUPPORTED, naming it. */
PORTA_API porta_status porta_device_open_with_options(const char* selector,
                                                      const porta_device_options* options,
                                                      porta_device* device);

/* What the device was opened with: robust (0: no, 1: yes, 2: yes and
 * reporting) and its limit in seconds (0: none). Either pointer may be NULL. */
PORTA_API porta_status porta_device_get_robustness(porta_device device, uint32_t* robust,
                                                   double* timeout_seconds);

#ifdef __cplusplus
}

#include "porta/porta.hpp"

namespace porta {

struct DeviceOptions {
  porta_robust_mode robust = PORTA_ROBUST_DEFAULT;
  double timeout_seconds = 0;  // 0: PORTA_TIMEOUT; negative: none
};

// porta::open with options: porta::open("vulkan", {PORTA_ROBUST_ON, 2.0}).
inline Device open(const std::string& selector, const DeviceOptions& options) {
  const porta_device_options o{static_cast<uint32_t>(options.robust), options.timeout_seconds};
  return detail::created<Device>(porta_device_open_with_options, selector.c_str(), &o);
}

}  // namespace porta
#endif

#endif /* PORTA_ROBUST_H */
