// What launchers choose by: the properties a backend reports for its device
// (porta_device_info), never the backend's name.
#pragma once

#include "porta/porta.h"

namespace porta::ops {

// CPU-type devices (porta's CPU backend, lavapipe, PoCL): work-items are loop
// iterations or fibers, so smaller groups cost less at barriers.
inline bool cpu_like(const porta_device_info& info) { return info.type == PORTA_DEVICE_CPU; }

// Built-in kernels at their default specialization constants are compiled
// in: a launcher that picks those defaults there needs no compiler.
inline bool precompiled_defaults(const porta_device_info& info) {
  return (info.flags & PORTA_DEVICE_FLAG_PRECOMPILED_DEFAULTS) != 0;
}

// A barrier switches work-items one by one (fibers): groups of one item that
// need no barrier are faster.
inline bool fiber_barriers(const porta_device_info& info) {
  return (info.flags & PORTA_DEVICE_FLAG_FIBER_BARRIERS) != 0;
}

// The driver silently ends a work-item's loops after PORTA_LOOP_LIMIT_ITERATIONS
// iterations in all (Mesa's llvmpipe): a launcher splits the work so that no
// item loops more, or refuses the shape.
inline bool loop_limited(const porta_device_info& info) {
  return (info.flags & PORTA_DEVICE_FLAG_LOOP_LIMIT) != 0;
}

}  // namespace porta::ops
