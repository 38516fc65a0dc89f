// Fault injection (porta/fault.h), checked in the core where calls go into a
// backend, so that every backend has it. A lost device is handles.hpp's.
#pragma once

#include "handles.hpp"

namespace porta::core {

enum class FaultPoint { alloc, dispatch };

// Counts one allocation or dispatch on `device` and fails it when a fault is
// set for this one (PORTA_FAULT, porta_fault_inject). `what` names the
// operation ("buffer_create (64 bytes)", "dispatch"), followed by `name` in
// quotes where given ("dispatch 'scale'"; joined only for a message).
void fault_point(DeviceState& device, FaultPoint point, const char* call, const char* what,
                 const char* name = nullptr);

}  // namespace porta::core
