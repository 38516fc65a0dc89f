// porta/robust.h: PORTA_ROBUST, PORTA_TIMEOUT and PORTA_CPU_BOUNDS, and the
// device options they are defaults for.
#include "robust.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "errors.hpp"

namespace porta::core {

namespace {

// "on"/"1" → 1, "off"/"0" → 0, unset or empty → -1; anything else is an
// error, which says `expected` are the values.
int switch_variable(const char* name, const char* expected = "1, on, 0 or off") {
  const char* value = std::getenv(name);
  if (!value || !*value) return -1;
  if (!std::strcmp(value, "1") || !std::strcmp(value, "on")) return 1;
  if (!std::strcmp(value, "0") || !std::strcmp(value, "off")) return 0;
  fail(PORTA_ERROR_INVALID_ARGUMENT, "%s is '%s'; expected %s", name, value, expected);
}

}  // namespace

bool cpu_bounds_checks() { return switch_variable("PORTA_CPU_BOUNDS") != 0; }

Robustness resolve_robustness(const porta_device_options* options, const char* call) {
  Robustness r;
  const uint32_t mode = options ? options->robust : uint32_t{PORTA_ROBUST_DEFAULT};
  if (mode > PORTA_ROBUST_REPORT)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "%s: options->robust is %u; expected PORTA_ROBUST_DEFAULT (0), PORTA_ROBUST_OFF (1), "
         "PORTA_ROBUST_ON (2) or PORTA_ROBUST_REPORT (3)",
         call, mode);
  if (mode == PORTA_ROBUST_DEFAULT) {
    const char* value = std::getenv("PORTA_ROBUST");
    r.report = value && !std::strcmp(value, "report");
    r.robust = r.report || switch_variable("PORTA_ROBUST", "1, on, 0, off or report") == 1;
  } else {
    r.report = mode == PORTA_ROBUST_REPORT;
    r.robust = mode == PORTA_ROBUST_ON || r.report;
  }

  double seconds = options ? options->timeout_seconds : 0;
  if (std::isnan(seconds))
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "%s: options->timeout_seconds is NaN; expected seconds (0: PORTA_TIMEOUT, "
         "negative: none)",
         call);
  if (seconds == 0) {
    if (const char* text = std::getenv("PORTA_TIMEOUT"); text && *text) {
      char* end = nullptr;
      seconds = std::strtod(text, &end);
      if (end == text || *end != '\0' || !(seconds >= 0) || std::isinf(seconds))
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "PORTA_TIMEOUT is '%s'; expected a number of seconds >= 0 (0: no limit)", text);
    }
  }
  if (seconds > 0) {
    // At least a millisecond; a limit beyond a year is none.
    const double ms = std::ceil(seconds * 1000.0);
    r.timeout_ms = ms > 3.2e10 ? 0 : static_cast<uint64_t>(std::max(ms, 1.0));
  }
  return r;
}

}  // namespace porta::core
