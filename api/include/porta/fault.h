/* porta/fault.h: fault injection and live-object counts, for testing how a
 * program (and porta) copes with failures it cannot easily provoke.
 *
 * The same faults come from the environment without code changes:
 *   PORTA_FAULT=alloc:N,dispatch:N,lost:N[,device:SELECTOR]
 * alloc:N     the Nth buffer allocation fails (PORTA_ERROR_OUT_OF_MEMORY)
 * dispatch:N  the Nth dispatch fails (PORTA_ERROR_BACKEND); the device stays usable
 * lost:N      the Nth dispatch finds the device lost (PORTA_ERROR_DEVICE_LOST);
 *             every later call on that device fails with PORTA_ERROR_DEVICE_LOST
 * device:S    count only on devices whose label ("backend:index (name)")
 *             begins with S, e.g. device:cpu:0; without it, every device counts
 * Counts start at 1 and are shared by all matching devices of the process.
 * Each fault fires once. The checks sit in libporta's core, where calls go
 * into a backend, so every backend gets them. */
#ifndef PORTA_FAULT_H
#define PORTA_FAULT_H

#include <stdint.h>

#include "porta/porta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Replaces the faults in force (those of PORTA_FAULT included) with `spec`,
 * written as PORTA_FAULT is, and restarts the counts; "" or NULL turns fault
 * injection off. `device`, when not NULL, limits the faults to that device
 * (as device:S does). A device already lost stays lost. */
PORTA_API porta_status porta_fault_inject(porta_device device, const char* spec);

/* The number of live porta handles of every kind (devices, buffers, kernels,
 * streams, sequences, events): what a leak check compares before and after. */
PORTA_API uint64_t porta_live_handle_count(void);

#ifdef __cplusplus
}
#endif

#endif
