// Device selection: a selector, PORTA_BACKEND / PORTA_DEVICE, or the best
// device of the registry (selection.cpp gives the rules).
#pragma once

#include <string>

#include "porta/porta.h"
#include "registry.hpp"

namespace porta::core {

// Resolves a selector ("" → PORTA_BACKEND/PORTA_DEVICE → best) to one device;
// `why` says how it was chosen.
struct Selection {
  Plugin* plugin = nullptr;
  const porta_device_info* info = nullptr;
  std::string why;
};
Selection select_device(const std::string& selector);

}  // namespace porta::core
