// Logging to stderr at the level PORTA_LOG sets (error, warn, info, debug).
#pragma once

#include <string>

#include "porta/porta.h"

namespace porta::core {

porta_log_level log_level();
void log(porta_log_level level, const std::string& message);

}  // namespace porta::core
