// porta/robust.h's settings: what the environment says, and the options a
// device is opened with.
#pragma once

#include <cstdint>

#include "porta/robust.h"

namespace porta::core {

// Whether translations for the CPU backend check buffer accesses
// (PORTA_CPU_BOUNDS: unset/on/1 yes, off/0 no; anything else is an error).
bool cpu_bounds_checks();

struct Robustness {
  bool robust = false;
  bool report = false;      // PORTA_ROBUST_REPORT (robust too)
  uint64_t timeout_ms = 0;  // 0: none
};
// `options` (NULL: the defaults) with PORTA_ROBUST and PORTA_TIMEOUT filling
// in what they leave to the environment; bad values are errors naming the
// variable or field. `call` names the API function in messages.
Robustness resolve_robustness(const porta_device_options* options, const char* call);

}  // namespace porta::core
